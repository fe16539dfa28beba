"""What agents hit with the workspace tools, each pinned by a test.

- ``run`` output past the cap is cut in the middle; the full output is saved in the workspace under
  ``.fdegym/run/`` and the cut marker says where, so ``read_file`` can page it;
- folders ``write_file`` created are usable from ``run`` (mkdir, new files) like any other;
- files created by ``run``, by ``write_file`` and the world's own files show one owner in the sandbox;
- the reset observation says the brief is also in ``TASK.md``.
"""

from __future__ import annotations

import re

import pytest

from fdegym_env.core import workspace as wsmod
from fdegym_env.core.env import RUN_OUTPUT_CAP, FDEGymEnv
from fdegym_env.grading.grade import Deployment, workspace_digest
from tests.conftest import TINY

BIG = ("python3 -c \"import sys; [print(f'line {i:05d} ' + 'x' * 30) for i in range(6000)]; "
       "sys.stderr.write('done-on-stderr\\n')\"")


@pytest.fixture
def env():
    e = FDEGymEnv(task=TINY)
    e.reset(seed=0)
    yield e
    e.close()


def _step(env, **action):
    obs, r, term, trunc, info = env.step(action)
    assert info["last_action_error"] is None, info["last_action_error"]
    return obs["text"]


def test_cut_run_output_is_saved_whole_and_the_marker_says_where(env):
    _step(env, tool="list_files")
    text = _step(env, tool="run", command=BIG)
    assert len(text) <= RUN_OUTPUT_CAP + 600
    m = re.search(r"\[\.\.\. ([\d,]+) characters cut; the whole output \(([\d,]+) characters\) is in "
                  r"(\.fdegym/run/turn-0002\.out): the cut part starts at line ([\d,]+); read it with "
                  r"read_file\(path=\"\3\", offset=(\d+)\) \(offset and limit count lines\) \.\.\.\]", text)
    assert m, text[RUN_OUTPUT_CAP // 2 - 200: RUN_OUTPUT_CAP // 2 + 600]
    # the line the marker names is the first one not shown: the line before it is the last shown
    first = int(m.group(5))
    assert m.group(4).replace(",", "") == m.group(5)
    shown_last = text[:m.start()].rstrip("\n").splitlines()[-1]
    page = _step(env, tool="read_file", path=m.group(3), offset=first - 1, limit=2).splitlines()
    assert page[1] == f"{first - 1:>6}\t{shown_last}" and page[2].split("\t", 1)[1] not in text
    assert "line 00000 " in text and "done-on-stderr" in text and "line 03000 " not in text
    assert text.rstrip().endswith("[exit code 0]")
    saved = env.workspace / m.group(3)
    lines = saved.read_text(encoding="utf-8").splitlines()
    assert lines[0] == f"$ {BIG}"
    body = [ln for ln in lines if ln.startswith("line ")]
    assert body == [f"line {i:05d} " + "x" * 30 for i in range(6000)]
    assert "done-on-stderr" in lines and lines[-1] == "[exit code 0]"
    page = _step(env, tool="read_file", path=m.group(3), offset=3000, limit=5)
    assert page.splitlines()[1] == "  3000\tline 02998 " + "x" * 30


def test_short_run_output_is_not_saved(env):
    text = _step(env, tool="run", command="echo hi")
    assert text == "$ echo hi\nhi\n[exit code 0]"
    assert not (env.workspace / ".fdegym").exists()


def test_saved_run_output_is_outside_grading(env):
    before = workspace_digest(env.workspace)
    _step(env, tool="run", command=BIG)
    assert any((env.workspace / ".fdegym" / "run").iterdir())
    assert workspace_digest(env.workspace) == before
    with Deployment(env.task, env.workspace, env.sandbox_name) as deploy:
        assert not (deploy.workspace / ".fdegym").exists()
        assert (deploy.workspace / "system").is_dir()


def test_folders_write_file_made_are_usable_from_run(env):
    _step(env, tool="run", command="true")                       # the sandbox is up
    _step(env, tool="write_file", path="scratch/a/b.txt", content="one\n")
    text = _step(env, tool="run", command="mkdir scratch/sys && mkdir -p scratch/a/deeper/x && "
                                          "echo two >> scratch/a/b.txt && echo three > scratch/a/c.txt && "
                                          "rm scratch/a/c.txt && echo ok")
    assert text.endswith("ok\n[exit code 0]"), text
    assert (env.workspace / "scratch" / "a" / "b.txt").read_text() == "one\ntwo\n"
    assert (env.workspace / "scratch" / "sys").is_dir()


def test_files_show_one_owner_whoever_made_them(env):
    _step(env, tool="write_file", path="notes/before.txt", content="x")  # before the sandbox starts
    _step(env, tool="run", command="echo x > from_run.txt && mkdir -p made/by/run")
    _step(env, tool="write_file", path="notes/deep/after.txt", content="y")
    _step(env, tool="edit_file", path="system/README.md", old="classifier", new="classifier (edited)")
    _step(env, tool="run", command=BIG)
    text = _step(env, tool="run", command="stat -c '%u:%g %n' system/README.md system/app/main.py TASK.md "
                                          "from_run.txt made/by/run notes notes/before.txt notes/deep "
                                          "notes/deep/after.txt .fdegym .fdegym/run .fdegym/run/turn-0005.out")
    owners = {ln.split(" ", 1)[0] for ln in text.splitlines()[1:-1]}
    assert len(text.splitlines()) == 14 and owners == {"1000:1000"}, text
    text = _step(env, tool="run", command="ls -l from_run.txt system/README.md notes/deep/after.txt")
    assert "nobody" not in text and "nogroup" not in text, text


def test_new_workspace_files_from_the_host_stay_inside(env):
    with pytest.raises(wsmod.PathError, match="outside the workspace"):
        wsmod.write_file(env.workspace, "../escape/x.txt", "no", owner=12345)
    assert not (env.workspace.parent / "escape").exists()


def test_reset_observation_says_the_brief_is_in_task_md():
    e = FDEGymEnv(task=TINY, level="L3")
    obs, _ = e.reset(seed=0)
    e.close()
    text = obs["text"]
    assert "The brief above is also in `TASK.md` in your workspace." in text
    assert text.index("TASK.md` in your workspace") < text.index("Your workspace:")


def test_a_scratch_symlink_out_of_the_workspace_is_not_followed(env, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    _step(env, tool="run", command="true")
    (env.workspace / ".fdegym").symlink_to(outside)            # as if the agent had linked it out
    text = _step(env, tool="run", command=BIG)
    assert "characters cut; it could not be saved (.fdegym/run/ is not a folder of the workspace)" in text
    assert list(outside.iterdir()) == []


def test_a_line_cut_by_read_file_says_how_to_see_the_rest(env):
    long = "".join(f"{i:04d}," for i in range(1000))                  # 5,000 characters on one line
    _step(env, tool="write_file", path="data/one line.csv", content="header\n" + long + "\n")
    text = _step(env, tool="read_file", path="data/one line.csv")
    m = re.search(r"\[\.\.\. 3000 more characters; run `(sed -n 2p 'data/one line\.csv' \| cut -c2001-)` shows them\]",
                  text)
    assert m, text[-300:]
    rest = _step(env, tool="run", command=m.group(1))
    assert rest.splitlines()[1] == long[2000:]


def test_read_file_past_the_end_is_an_error_that_gives_the_length(env):
    obs, r, term, trunc, info = env.step({"tool": "read_file", "path": "TASK.md", "offset": 9999})
    n = len((env.workspace / "TASK.md").read_text(encoding="utf-8").splitlines())
    assert obs["valid"] == 0 and info["last_action_error"] == (
        f"offset 9999 is past the end of TASK.md, which has {n} line(s); give an offset from 1 to {n}.")
    assert _step(env, tool="read_file", path="TASK.md", offset=n).splitlines()[0] == f"TASK.md (lines {n}-{n} of {n})"
