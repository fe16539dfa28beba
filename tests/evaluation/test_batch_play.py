"""`fdegym play` driven through a pseudo-terminal to a submitted, graded result that replays."""

from __future__ import annotations

import io
import sys

import pexpect
import pytest
from fdegym_env.wrappers import replay

from fdegym_env.cli.play import parse_duration, play
from tests.conftest import TINY
from tests.evaluation.helpers_batch import REPO, SANDBOX, cli, lines

PROMPT = "fdegym> "


def _spawn(*args: str, env: dict | None = None) -> pexpect.spawn:
    import os
    child = pexpect.spawn(sys.executable, ["-c", "import sys; from fdegym_env.cli.main import main; sys.exit(main())",
                                           "play", *args], cwd=str(REPO), encoding="utf-8", timeout=120,
                          dimensions=(50, 200), env={**os.environ, "TERM": "dumb", **(env or {})})
    return child


def test_play_through_a_terminal_to_a_graded_result(tmp_path):
    rec, transcript = tmp_path / "me.jsonl", tmp_path / "me.txt"
    child = _spawn(TINY, "--level", "L0", "--sandbox", SANDBOX, "--record", str(rec), "--transcript", str(transcript),
                   env={"EDITOR": "sed -i s/100/50/"})
    try:
        child.expect("Brief L0")
        child.expect(r"\[turn 0/30")
        child.expect_exact(PROMPT)
        child.sendline("ls system")
        child.expect("system/app/config.json")
        child.expect_exact(PROMPT)
        child.sendline("who")
        child.expect("ops: Olu Ops, Operations lead")
        child.expect_exact(PROMPT)
        child.sendline('ask ops "What is the real threshold cutoff?"')
        child.expect("The real cutoff is 50")
        child.expect_exact(PROMPT)
        child.sendline("wait 1d")
        child.expect(r"new message\(s\) in your inbox")
        child.expect_exact(PROMPT)
        child.sendline("inbox")
        child.expect("the threshold moved last year")
        child.expect_exact(PROMPT)
        child.sendline("frobnicate")
        child.expect("Unknown command 'frobnicate'")
        child.expect_exact(PROMPT)
        child.sendline("wait soon")
        child.expect("expected a duration like 2d, 6h or 90m")
        child.expect_exact(PROMPT)
        child.sendline("edit system/app/config.json")  # $EDITOR rewrites the file; it goes back via write_file
        child.expect("system/app/config.json")
        child.expect_exact(PROMPT)
        child.sendline("sh cat system/app/config.json")
        child.expect(r'\{"threshold": 50\}')
        child.expect("exit code 0")
        child.expect_exact(PROMPT)
        child.sendline("submit handed over")
        child.expect_exact("[y/N]")
        child.sendline("n")
        child.expect("Not submitted.")
        child.expect_exact(PROMPT)
        child.sendline("submit handed over")
        child.expect_exact("[y/N]")
        child.sendline("y")
        child.expect("== result ==")
        child.expect(r"Result: score 0\.\d+ \(uplift 1\.000, contact cost 0\.0[1-9]\d* \(people 0\.0[1-9]\d*, waiting 0\.0[1-9]\d*\)\), resolved: yes")  # the question and the day waited
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, child.before
    recs = lines(rec)
    result = recs[-1]["result"]
    # 1 question (0.01) + one customer day of waiting (0.01)
    assert result["score"] == pytest.approx(1.0 - 0.02) and result["agent"] == "human" and result["resolved"]
    assert result["note"] == "handed over" and result["facts_obtained"] == ["F_threshold"]
    tools = [r["action"]["tool"] for r in recs if r["type"] == "step"]
    # typing mistakes caught by the shell (unknown command, bad duration) are not env actions
    assert tools == ["list_files", "directory", "contact", "wait", "inbox", "write_file", "run", "submit"]
    rep = replay(rec, sandbox=SANDBOX)
    assert rep.ok, rep.summary()
    r = cli("replay", str(rec))
    assert r.returncode == 0 and "REPRODUCED" in r.stdout, r.stdout + r.stderr
    text = transcript.read_text()
    assert "== result ==" in text and "The real cutoff is 50" in text


def test_play_edit_write_and_quit_without_result(tmp_path):
    """The other editing commands, scripted through stdin/stdout; quitting leaves no result."""
    script = "\n".join([
        'edit system/app/config.json "100" "70"',
        "cat system/app/config.json",
        "write notes/plan.md", "# plan", "ask ops", ".",
        "cat notes/plan.md 1 1",
        "raw {\"tool\": \"read_file\", \"path\": \"notes/plan.md\", \"offset\": 2}",
        "help ask",
        "quit", "y", ""])
    out = io.StringIO()
    result = play(TINY, sandbox=SANDBOX, stdin=io.StringIO(script), stdout=out)
    text = out.getvalue()
    assert result is None and "Not submitted: no result." in text
    assert '{"threshold": 70}' in text
    assert "notes/plan.md (lines 1-1 of 2)" in text and "# plan" in text
    assert "notes/plan.md (lines 2-2 of 2)" in text and "ask ops" in text
    assert 'ask ID "MESSAGE"' in text


def test_play_scripted_submit_scores_like_an_agent(tmp_path):
    out = io.StringIO()
    script = "edit system/app/config.json '100' '50'\nsubmit\n"
    result = play(TINY, sandbox=SANDBOX, stdin=io.StringIO(script), stdout=out, confirm=False)
    assert result is not None and result["score"] == pytest.approx(1.0) and result["turns"] == 2


def test_play_points_agent_tool_names_to_its_commands():
    """The env's own messages say "use the `directory` tool"; typing a tool name costs no turn and names
    the command to use instead."""
    out = io.StringIO()
    script = "directory\nread_file TASK.md\ncontact ops hi\nrun ls\nwho\nquit\ny\n"
    play(TINY, sandbox=SANDBOX, stdin=io.StringIO(script), stdout=out)
    text = out.getvalue()
    for tool, command in (("directory", "who"), ("read_file", "cat"), ("contact", "ask"), ("run", "sh")):
        assert f"Unknown command {tool!r}. The agent's `{tool}` tool is `{command}` here." in text, tool
    assert "[turn 1/" in text and "[turn 2/" not in text        # only `who` took a turn
    assert "Unknown command 'frobnicate'. Type" in _default_line("frobnicate")


def _default_line(word: str) -> str:
    out = io.StringIO()
    play(TINY, sandbox=SANDBOX, stdin=io.StringIO(f"{word}\nquit\ny\n"), stdout=out)
    return out.getvalue()


def test_parse_duration():
    assert parse_duration("2d") == 48 and parse_duration("6h") == 6 and parse_duration("90m") == 1.5
    assert parse_duration("3") == 3 and parse_duration("1.5 days") == 36
    with pytest.raises(ValueError, match="expected a duration like 2d"):
        parse_duration("tomorrow")
