"""The sandbox guarantees (docs/design.md, Sandbox), probed against every available backend.

bwrap is the default backend and must be available: if it is not, these tests fail (they do not
skip). docker is optional: without a daemon and the image, its tests skip with a loud reason that
names the fix (`.ci/docker_setup.sh` provides both in CI).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings

import pytest

from fdegym_env.sandbox import make_sandbox, resolve_backend
from fdegym_env.sandbox.executor import EXECUTOR_SRC
from fdegym_env.sandbox.probes import PROBES, ProbeContext, _host_leftovers, run_probes
from tests.conftest import TINY


def _docker_state() -> tuple[bool, str]:
    try:
        from fdegym_env.sandbox.docker_backend import docker_available
        return docker_available()
    except Exception as e:  # the SDK itself is missing
        return False, str(e)


DOCKER_OK, DOCKER_WHY = _docker_state()
if not DOCKER_OK:
    warnings.warn(f"!!! DOCKER SANDBOX PROBES SKIPPED: {DOCKER_WHY}", stacklevel=1)
BACKENDS = [
    pytest.param("bwrap", id="bwrap"),
    pytest.param("docker", id="docker", marks=[pytest.mark.docker, pytest.mark.skipif(
        not DOCKER_OK, reason=f"!!! DOCKER SANDBOX NOT AVAILABLE — docker probes NOT run: {DOCKER_WHY}")]),
]


@pytest.fixture(scope="module", params=BACKENDS)
def ctx(request):
    c = ProbeContext(request.param)
    yield c
    c.close()


@pytest.mark.parametrize("probe", list(PROBES))
def test_guarantee(ctx, probe):
    ok, detail = PROBES[probe](ctx)
    assert ok, f"[{ctx.backend}] guarantee {probe!r} broken: {detail}"


@pytest.mark.parametrize("backend", BACKENDS)
def test_nothing_left_running_after_close(backend):
    c = ProbeContext(backend)
    c.run("setsid nohup sleep 987654.321 >/dev/null 2>&1 &")
    sandbox = c.sandbox
    c.close()
    assert _host_leftovers() == []
    assert not getattr(sandbox, "alive", lambda: False)()


@pytest.mark.parametrize("backend", BACKENDS)
def test_lost_executor_is_an_error_result_then_restarts(backend):
    import shutil
    import tempfile

    from fdegym_env.core.paths import episodes_dir
    ws = tempfile.mkdtemp(prefix="fdegym-test-", dir=episodes_dir())
    sb = make_sandbox(backend)
    sb.start(ws)
    try:
        if backend == "bwrap":
            os.killpg(sb._proc.pid, 9)
            sb._proc.wait()
        else:
            sb.container.kill()
        r = sb.run("echo hi", timeout_s=10)
        assert r.exit_code != 0 or r.stdout == "hi\n"
        assert sb.run("echo again", timeout_s=10).stdout == "again\n"
    finally:
        sb.close()
        shutil.rmtree(ws, ignore_errors=True)


def test_executor_refuses_to_run_outside_its_own_pid_namespace():
    # kill(-1) from a process that is not PID 1 of a private namespace would hit the whole host.
    r = subprocess.run([sys.executable, "-I", "-S", "-c", EXECUTOR_SRC, "{}"], input=b"", capture_output=True,
                       timeout=30)
    assert r.returncode == 3 and b"PID 1" in r.stderr


def test_unknown_backend_names_the_choices():
    with pytest.raises(ValueError, match="sandbox must be one of auto, bwrap, docker, none, got 'vm'"):
        resolve_backend("vm")


def test_unreachable_workspace_names_the_fix(tmp_path):
    # pytest's tmp_path sits under a 0700 folder the per-sandbox uid cannot traverse.
    if os.geteuid() != 0:
        pytest.skip("only the root host drops to a per-sandbox uid")
    sb = make_sandbox("bwrap")
    with pytest.raises(RuntimeError, match="not traversable .* Fix: set FDEGYM_WORKDIR"):
        sb.start(tmp_path)
    sb.close()


def test_none_backend_warns_and_says_so(tmp_path):
    sb = make_sandbox("none")
    with pytest.warns(UserWarning, match="sandbox='none'"):
        sb.start(tmp_path)
    assert sb.isolation() == "none"
    sb.close()


def test_auto_picks_bwrap_here():
    assert resolve_backend("auto") == "bwrap"


def test_env_commands_and_reset_clean_up():
    from fdegym_env.core.env import FDEGymEnv
    env = FDEGymEnv(task=TINY, sandbox="bwrap")
    env.reset(seed=0)
    obs, *_ = env.step({"tool": "run", "command": "cd system && python3 -c 'print(6*7)'"})
    assert "42" in obs["text"] and "exit code 0" in obs["text"]
    obs, *_ = env.step({"tool": "run", "command": "sleep 1000", "timeout_s": 1})
    assert "killed after 1 s time limit" in obs["text"]
    env.step({"tool": "run", "command": "setsid nohup sleep 987654.321 >/dev/null 2>&1 & echo bg"})
    env.reset(seed=1)
    assert _host_leftovers() == []
    obs, *_ = env.step({"tool": "run", "command": "echo $OPENAI_API_KEY; env | grep -c FDEGYM || true"})
    assert "sk-" not in obs["text"]
    env.close()
    assert _host_leftovers() == []


def test_grading_hang_and_crash_are_incidents_not_exceptions(tmp_path):
    import shutil

    from fdegym_env.core.registry import load_task
    from fdegym_env.grading.grade import Deployment
    task = load_task(TINY)
    ws = tmp_path / "workspace"
    shutil.copytree(os.path.join(TINY, "world"), ws)
    (ws / "system" / "app" / "main.py").write_text(
        "import time\n\ndef handle(*a):\n    if a and a[0] == 'crash':\n        raise RuntimeError('boom')\n"
        "    time.sleep(1000)\n")
    with Deployment(task, ws, "bwrap") as deploy:
        crash = deploy.call("app.main", "handle", "crash", timeout_s=10)
        assert not crash.ok and "boom" in crash.error
        hang = deploy.call("app.main", "handle", [1, 2], timeout_s=1)
        assert not hang.ok and "did not return within 1 s" in hang.error
        assert len(deploy.failures) == 2
    assert _host_leftovers() == []


@pytest.mark.slow
def test_doctor_json_reports_bwrap_probes():
    import contextlib
    import io

    from fdegym_env.cli.main import main
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(["doctor", "--json", "--backend", "bwrap"])
    report = json.loads(buf.getvalue())
    b = report["backends"]["bwrap"]
    assert b["available"] and b["version"].startswith("bubblewrap")
    names = {p["name"] for p in b["probes"]}
    assert set(PROBES) <= names and "nothing_left_after_close" in names
    assert all(p["ok"] for p in b["probes"]), [p for p in b["probes"] if not p["ok"]]
    assert code == 0 and report["auto"] == "bwrap"


def test_run_probes_reports_failures_of_the_none_backend():
    # The probes must be able to fail: without isolation, the hidden-path and secret probes do.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = {p["name"]: p for p in run_probes("none", ["package_hidden", "clean_env", "python_and_sqlite"])}
    assert not res["package_hidden"]["ok"]
    assert res["python_and_sqlite"]["ok"]
