"""Playtest folders read back as a table and as an unlabelled routing set."""

from __future__ import annotations

import yaml

from fdegym_env.evaluation import playtests
from fdegym_env.serving.episode_host import EpisodeHost
from tests.conftest import TINY


def _play(folder):
    host = EpisodeHost(task=TINY, variant="base", seed=0, sandbox="none", record=folder / "transcript.jsonl",
                       result_path=folder / "result.json", agent="tester")
    host.start()
    host.act({"tool": "contact", "to": "ops", "message": "What is the classification threshold cutoff?"})
    host.act({"tool": "contact", "to": "ops", "message": "Who cleans the office windows on Fridays?"})
    host.act({"tool": "contact", "to": "ceo", "message": "Can you approve the threshold change?"})
    host.act({"tool": "read_file", "path": "TASK.md"})
    host.act({"tool": "trial"})   # a trial is not a message
    host.act({"tool": "submit"})
    host.close()


def test_a_played_episode_reads_back_as_a_row_and_a_routing_set(tmp_path):
    folder = tmp_path / "pt01"
    _play(folder)
    pt = playtests.load(folder)
    assert (pt.task, pt.variant, pt.seed, pt.actions) == ("tiny_task", "base", 0, 6)
    assert [(c.to, c.kind) for c in pt.contacts] == [("ops", "answered"), ("ops", "dont_know"), ("ceo", "refused")]
    assert "real cutoff" in pt.contacts[0].reply
    md = playtests.table([pt])
    row = md.splitlines()[2]
    assert row.startswith("| tiny_task | base | 0 |") and "| 6 | 3 | 1 | 0 | 1 (0) | 1 |" in row
    assert "1 playtests, 1 graded" in md and "3 messages, 1 answered \"don't know\" (33%)" in md
    out = tmp_path / "traffic"
    assert playtests.main([str(folder), "--traffic-out", str(out)]) == 0
    rset = yaml.safe_load((out / "tiny_task.yaml").read_text(encoding="utf-8"))
    assert [q["person"] for q in rset["questions"]] == ["ops", "ops", "ceo"]
    assert rset["questions"][1] == {"person": "ops", "q": "Who cleans the office windows on Fridays?", "variant": "base",
                                    "reply_was": "dont_know", "source": "pt01 turn 2"}


def test_a_folder_without_a_transcript_is_a_clear_error(tmp_path, capsys):
    assert playtests.main([str(tmp_path)]) == 2
    assert "transcript.jsonl" in capsys.readouterr().err


def test_an_out_of_office_is_held_or_refused_never_answered():
    assert playtests.classify_reply(["certs:stalled", "auto_reply"]) == "held"      # a topic's auto-reply stall
    assert playtests.classify_reply(["away", "auto_reply"]) == "refused"           # the person is away
    assert playtests.classify_reply(["certs"]) == "answered"
