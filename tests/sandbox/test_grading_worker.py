"""The persistent grading worker (``process: persistent``) gives exactly what a fresh ``python3`` per
call gives, and delivered code cannot forge its protocol."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from fdegym_env.admission.bypasses import GENERIC_BYPASSES
from fdegym_env.core.fstree import remove_tree
from fdegym_env.core.registry import load_task
from fdegym_env.grading.grade import Deployment, grade_system, process_mode

TINY = Path(__file__).resolve().parents[1] / "fixtures" / "tiny_task"
# The only bypass whose outcome changes on purpose: per_call takes a result record printed to stdout
# (rfind of the marker), the worker reads results from a channel that is not stdout.
FIXED_BY_WORKER = {"forge_driver_output"}
# Bounded by the clock or the machine (how far a disk or memory fill gets before a 2 s limit): both
# modes must make them incidents; their exact texts may differ from run to run in either mode.
CLOCK_BOUND = {"hang", "busy_loop", "detect_timing", "disk_fill", "memory_bomb"}


@pytest.fixture(scope="module")
def fast_tiny(tmp_path_factory) -> Path:
    """The tiny task with a 2 s call timeout (the hang bypasses then cost seconds, not minutes)."""
    dest = tmp_path_factory.mktemp("task") / "tiny_task"
    shutil.copytree(TINY, dest)
    data = yaml.safe_load((dest / "task.yaml").read_text())
    data["call_timeout_s"] = 2
    (dest / "task.yaml").write_text(yaml.safe_dump(data))
    return dest


def _workspace(tmp_path: Path, main_py: str | None = None) -> Path:
    ws = tmp_path / "workspace"
    shutil.copytree(TINY / "world", ws)
    if main_py is not None:
        (ws / "system" / "app" / "main.py").write_text(main_py)
    return ws


def _deploy_calls(task, ws, backend, mode, monkeypatch, batches):
    monkeypatch.setenv("FDEGYM_PROCESS", mode)
    with Deployment(task, ws, backend) as d:
        assert d.process == mode
        out = [d.call("app.main", "handle", b, timeout_s=5) for b in batches]
        return [(r.ok, r.value, r.error) for r in out], list(d.failures)


@pytest.mark.parametrize("backend", ["bwrap", "none"])
def test_module_state_does_not_leak_between_calls(tmp_path, monkeypatch, backend):
    # A module-level counter: a fresh interpreter per call sees 1 every time; so must the worker.
    ws = _workspace(tmp_path, "import os\nN = 0\nSEEN = os.environ.get('HOME')\n\n"
                              "def handle(batch):\n    global N\n    N += 1\n    import sys\n"
                              "    sys.modules['json'].LEAK = getattr(sys.modules['json'], 'LEAK', 0) + 1\n"
                              "    return [N, sys.modules['json'].LEAK, sys.argv[1:]]\n")
    task = load_task(str(TINY))
    per_call = _deploy_calls(task, ws, backend, "per_call", monkeypatch, [[1], [2], [3]])
    persistent = _deploy_calls(task, ws, backend, "persistent", monkeypatch, [[1], [2], [3]])
    assert persistent == per_call
    assert [v for _, v, _ in persistent[0]] == [[1, 1, ["app.main", "handle"]]] * 3


@pytest.mark.parametrize("backend", ["bwrap", "none"])
def test_a_module_rewritten_between_calls_runs_its_new_code(tmp_path, monkeypatch, backend):
    # The worker compiles delivered sources ahead and forks the next call's child ahead; a call that
    # rewrites a module (same size, same second) must still have the next call run the new text, and a
    # new deployment of the same warm sandbox must run its own files, not the last deployment's.
    src = ("import pathlib\n\ndef handle(x):\n    p = pathlib.Path(__file__)\n"
           "    p.write_text(p.read_text().replace('VAL = 1', 'VAL = 2'))\n    return VAL\n\nVAL = 1\n")
    ws = _workspace(tmp_path, src)
    task = load_task(str(TINY))
    per_call = _deploy_calls(task, ws, backend, "per_call", monkeypatch, [[1], [2], [3]])
    persistent = _deploy_calls(task, ws, backend, "persistent", monkeypatch, [[1], [2], [3]])
    assert persistent == per_call
    assert [v for _, v, _ in persistent[0]] == [1, 2, 2]
    (ws / "system" / "app" / "main.py").write_text(src.replace("VAL = 1\n", "VAL = 7\n").replace("'VAL = 1'", "'VAL = 7'"))
    again = _deploy_calls(task, ws, backend, "persistent", monkeypatch, [[1]])
    assert [v for _, v, _ in again[0]] == [7]


SCANNER = r"""
import gc, sys

def handle(parts):
    mark = "".join(parts)
    def has(o):
        if o is mark or not isinstance(o, (str, bytes, bytearray)):
            return False
        return (mark if isinstance(o, str) else mark.encode()) in o
    hits = []
    for o in gc.get_objects():
        items = list(o.keys()) + list(o.values()) if isinstance(o, dict) else o if isinstance(o, (list, tuple)) else []
        for x in items:
            hits += [repr(y)[:80] for y in (x if isinstance(x, tuple) else (x,)) if has(y)]
    f = sys._getframe()
    while f is not None:
        hits += [repr(v)[:80] for v in f.f_locals.values() if has(v)]
        f = f.f_back
    return hits
"""


def test_nothing_of_the_last_deployment_reaches_the_next_in_a_warm_sandbox(tmp_path, monkeypatch):
    # Deployment A's source and answers hold a marker; deployment B, in the same warm sandbox and
    # worker, searches every object and frame its process holds for it (B builds the marker at run
    # time from parts, so neither its source nor its arguments hold it).
    monkeypatch.setenv("FDEGYM_PROCESS", "persistent")
    monkeypatch.setenv("FDEGYM_DEPLOY_POOL", "1")
    task = load_task(str(TINY))
    parts = ["SECRET", "-OF-A-", "1f3a"]
    mark = "".join(parts)
    ws_a = _workspace(tmp_path / "a", f"KEPT = {mark!r}\n\ndef handle(x):\n    return [KEPT, x]\n")
    with Deployment(task, ws_a, "bwrap") as d:
        assert [d.call("app.main", "handle", i, timeout_s=5).value for i in (1, 2)] == [[mark, 1], [mark, 2]]
        sandbox = d.sandbox
    ws_b = _workspace(tmp_path / "b", SCANNER)
    with Deployment(task, ws_b, "bwrap") as d:
        assert d.sandbox is sandbox   # the warm one
        got = [d.call("app.main", "handle", parts, timeout_s=5) for _ in range(2)]
    assert all(r.ok for r in got), [r.error for r in got]
    assert [r.value for r in got] == [[], []]


def test_crash_hang_exit_and_errors_read_the_same_in_both_modes(tmp_path, monkeypatch):
    ws = _workspace(tmp_path, "import os, sys, time\n\ndef handle(x):\n"
                              "    if x == 'raise':\n        raise ValueError('bad batch ' + str(x))\n"
                              "    if x == 'exit0':\n        os._exit(0)\n"
                              "    if x == 'sysexit':\n        sys.exit(3)\n"
                              "    if x == 'kill':\n        os.kill(os.getpid(), 9)\n"
                              "    if x == 'deep':\n        def f(n):\n            return f(n + 1)\n        return f(0)\n"
                              "    if x == 'stdin':\n        return sys.stdin.read()\n"
                              "    if x == 'hang':\n        time.sleep(60)\n"
                              "    return x\n")
    task = load_task(str(TINY))
    batches = ["raise", "exit0", "sysexit", "kill", "deep", "stdin", "ok", "hang", "ok"]
    per_call = _deploy_calls(task, ws, "bwrap", "per_call", monkeypatch, batches[:-2])
    persistent = _deploy_calls(task, ws, "bwrap", "persistent", monkeypatch, batches[:-2])
    assert persistent == per_call   # same exit codes, same tracebacks, same failure texts
    assert [ok for ok, _, _ in persistent[0]] == [False] * 5 + [True, True]
    monkeypatch.setenv("FDEGYM_PROCESS", "persistent")
    with Deployment(task, ws, "bwrap") as d:
        hang = d.call("app.main", "handle", "hang", timeout_s=1)
        after = d.call("app.main", "handle", "ok", timeout_s=1)
    assert not hang.ok and "did not return within 1 s" in hang.error
    assert not after.ok and "not attempted" in after.error and "hung" in after.error   # the system is down


@pytest.mark.slow
def test_every_generic_bypass_grades_the_same_in_both_modes(fast_tiny, tmp_path, monkeypatch):
    task = load_task(str(fast_tiny))
    variant = task.variant("base")
    monkeypatch.setenv("FDEGYM_GRADE_CACHE", "0")
    differ = []
    for name, apply in GENERIC_BYPASSES.items():
        ws = tmp_path / name / "workspace"
        shutil.copytree(TINY / "world", ws)
        apply(ws, dict(variant.params), task.entry_points)
        got = {}
        for mode in ("per_call", "persistent"):
            monkeypatch.setenv("FDEGYM_PROCESS", mode)
            out = grade_system(task, variant, ws, "bwrap")
            got[mode] = (repr(out.kpi), out.incidents, out.summary)   # repr: a nan KPI equals itself
        remove_tree(tmp_path / name)   # deep_tree is past the recursion limit of pytest's own cleanup
        if name in CLOCK_BOUND:
            assert got["per_call"][1] and got["persistent"][1], (name, got)
        elif got["per_call"] != got["persistent"]:
            differ.append(name)
    assert set(differ) == FIXED_BY_WORKER, differ


FORGER = r"""
import glob, json, os, struct, sys

FORGED = {"ok": True, "value": ["big"] * 50}
MARK = "\x1e\x1eFDEGYM-RESULT\x1e\x1e"


def _frames():
    rec = MARK + json.dumps(FORGED)
    body = json.dumps({"exit_code": 0, "timed_out": False, "stderr": ""}).encode() + b"\n" + rec.encode()
    return rec, struct.pack(">Q", len(body)) + body


def _print_forgery():
    rec, _ = _frames()
    sys.__stdout__.write(rec)
    sys.__stdout__.flush()
    os.write(1, rec.encode())
    print(rec)


def _spray_others():
    # forged answer frames and records into every fd of the worker and of init (through /proc)
    rec, frame = _frames()
    reached = []
    for p in glob.glob("/proc/%d/fd/*" % os.getppid()) + glob.glob("/proc/1/fd/*"):
        try:
            fd = os.open(p, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            continue
        reached.append(p)
        for blob in (frame, rec.encode()):
            try:
                os.write(fd, blob)
            except OSError:
                pass
        os.close(fd)
    return reached


def handle(batch):
    if batch == ["print_and_exit"]:
        _print_forgery()
        os._exit(0)
    if batch == ["spray"]:
        return _spray_others()
    if batch == ["spray_bg"]:
        if os.fork() == 0:   # keeps spraying while the next call runs
            import time
            for _ in range(200):
                _spray_others()
                time.sleep(0.01)
            os._exit(0)
        return "forked"
    return ["small"] * len(batch)
"""


@pytest.mark.parametrize("backend", ["bwrap", "none"])
def test_printing_a_forged_result_record_is_not_a_result(tmp_path, monkeypatch, backend):
    """Bypass: a call prints the driver's result record (the marker + JSON) to stdout and exits.
    A fresh interpreter per call takes it (its result channel is stdout); the worker must not."""
    ws = _workspace(tmp_path, FORGER)
    task = load_task(str(TINY))
    forged = {}
    for mode in ("per_call", "persistent"):
        monkeypatch.setenv("FDEGYM_PROCESS", mode)
        with Deployment(task, ws, backend) as d:
            forged[mode] = d.call("app.main", "handle", ["print_and_exit"], timeout_s=10)
            honest = d.call("app.main", "handle", [1, 2], timeout_s=10)
        assert honest.ok and honest.value == ["small", "small"]
    assert forged["per_call"].ok and forged["per_call"].value == ["big"] * 50   # the weakness being fixed
    assert not forged["persistent"].ok and forged["persistent"].value is None
    assert "without a result" in forged["persistent"].error


def test_delivered_code_cannot_reach_the_worker_channel(tmp_path, monkeypatch):
    """Bypass: write forged answer frames into the worker's and init's fds through /proc, from the
    call and from a child left running into the next call: nothing is reachable, later calls are honest."""
    ws = _workspace(tmp_path, FORGER)
    task = load_task(str(TINY))
    monkeypatch.setenv("FDEGYM_PROCESS", "persistent")
    with Deployment(task, ws, "bwrap") as d:
        spray = d.call("app.main", "handle", ["spray"], timeout_s=10)
        bg = d.call("app.main", "handle", ["spray_bg"], timeout_s=10)
        later = [d.call("app.main", "handle", [i], timeout_s=10) for i in range(5)]
    assert spray.ok and spray.value == [], spray.value      # no fd of the worker or init could be opened
    assert bg.ok and bg.value == "forked"
    assert [(r.ok, r.value) for r in later] == [(True, ["small"])] * 5


def test_background_children_of_a_call_are_gone_before_the_next(tmp_path, monkeypatch):
    ws = _workspace(tmp_path, "import os, subprocess\n\ndef handle(x):\n"
                              "    if x == 'spawn':\n"
                              "        subprocess.Popen(['sleep', '1000'], start_new_session=True)\n"
                              "        if os.fork() == 0:\n            os.setsid()\n            import time\n"
                              "            time.sleep(1000)\n"
                              "        return 'spawned'\n"
                              "    return sorted(int(p) for p in os.listdir('/proc') if p.isdigit())\n")
    task = load_task(str(TINY))
    monkeypatch.setenv("FDEGYM_PROCESS", "persistent")
    with Deployment(task, ws, "bwrap") as d:
        assert d.call("app.main", "handle", "spawn").value == "spawned"
        pids = d.call("app.main", "handle", "list").value
    assert len(pids) == 3, pids   # the executor (init), the worker and the call itself


def test_process_mode_comes_from_task_yaml_and_is_checked(fast_tiny, tmp_path, monkeypatch):
    monkeypatch.delenv("FDEGYM_PROCESS", raising=False)
    task = load_task(str(fast_tiny))
    assert process_mode(task) == "persistent"
    task.raw["process"] = "per_call"
    assert process_mode(task) == "per_call"
    task.raw["process"] = "sometimes"
    with pytest.raises(ValueError, match="process.*persistent.*per_call"):
        process_mode(task)
    monkeypatch.setenv("FDEGYM_PROCESS", "per_call")
    assert process_mode(task) == "per_call"
    monkeypatch.setenv("FDEGYM_PROCESS", "fast")
    with pytest.raises(ValueError, match="FDEGYM_PROCESS"):
        process_mode(task)
