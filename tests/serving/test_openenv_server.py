"""The OpenEnv server, started for real (`fdegym serve-env`), driven by OpenEnv's own clients."""

from __future__ import annotations

import concurrent.futures as cf
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

pytest.importorskip("openenv.core", reason="the [openenv] extra is not installed (CI installs it)")

from fdegym_env.agents.baselines import SolutionAgent  # noqa: E402
from openenv.core.generic_client import GenericEnvClient  # noqa: E402

from fdegym_env.core.env import FDEGymEnv  # noqa: E402
from fdegym_env.serving.openenv_client import RemoteFDEGymEnv  # noqa: E402

pytestmark = pytest.mark.xdist_group("openenv_server")
TASK = "helpdesk_tutorial"
COMPARED = ("score", "uplift", "contact_cost", "kpi", "incidents", "turns", "end_reason", "resolved", "facts_obtained")


def _start(max_episodes: int, idle: float = 900.0):
    from fdegym_env.serving.openenv_client import launch_local_server
    return launch_local_server(TASK, max_episodes=max_episodes, idle_timeout_s=idle, quiet=True)


@pytest.fixture(scope="module")
def server():
    proc, url = _start(max_episodes=8)
    yield url
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()


def _script(seed: int) -> list[dict]:
    """Reference delivery for even seeds, a few reads and a question for odd ones; then submit."""
    if seed % 2 == 0:
        env = FDEGymEnv(task=TASK, sandbox="auto")
        try:
            obs, info = env.reset(seed=seed)
            agent = SolutionAgent("reference")
            agent.reset(env, obs, info)
            return list(agent.queue)
        finally:
            env.close()
    return [{"tool": "list_files"}, {"tool": "read_file", "path": "TASK.md"}, {"tool": "directory"},
            {"name": "contact", "arguments": '{"to": "nobody_here", "message": "hi"}'}, {"tool": "submit"}]


def _local(seed: int, actions: list[dict]) -> tuple[dict, float]:
    env = FDEGymEnv(task=TASK, sandbox="auto")
    try:
        env.reset(seed=seed)
        total = 0.0
        for a in actions:
            _, r, term, trunc, info = env.step(a)
            total += float(r)
            if term or trunc:
                return info["result"], total
    finally:
        env.close()
    raise AssertionError("script did not end the episode")


def _remote(url: str, seed: int, actions: list[dict]) -> tuple[dict, float]:
    with GenericEnvClient(base_url=url, message_timeout_s=300).sync() as client:
        client.reset(seed=seed)
        total = 0.0
        for a in actions:
            res = client.step(a)
            total += float(res.reward or 0.0)
            if res.done:
                return res.observation["info"]["result"], total
    raise AssertionError("script did not end the episode")


def test_eight_concurrent_episodes_equal_in_process_runs(server):
    seeds = list(range(8))
    scripts = {s: _script(s) for s in seeds}
    with cf.ThreadPoolExecutor(8) as pool:
        remote = dict(zip(seeds, pool.map(lambda s: _remote(server, s, scripts[s]), seeds)))
    for s in seeds:
        local_result, local_return = _local(s, scripts[s])
        remote_result, remote_return = remote[s]
        assert {k: remote_result[k] for k in COMPARED} == {k: local_result[k] for k in COMPARED}, s
        assert remote_return == pytest.approx(remote_result["score"], abs=1e-9)   # return == score over the wire
        assert remote_return == pytest.approx(local_return, abs=1e-12)
    assert min(remote[s][0]["score"] for s in seeds if s % 2 == 0) >= 0.95       # the reference delivery


def test_bad_action_is_an_observation_and_bad_ids_are_clear_errors(server):
    env = RemoteFDEGymEnv(server)
    try:
        env.reset(seed=3)
        obs, reward, terminated, _, info = env.step({"tool": "teleport", "to": "prod"})
        assert not terminated and obs["valid"] == 0
        assert "Unknown tool 'teleport'" in info["last_action_error"]
        obs, _, _, _, info = env.step({"name": "read_file", "arguments": "{not json"})
        assert obs["valid"] == 0 and info["last_action_error"]
        with pytest.raises(RuntimeError, match="helpdesk_tutorial"):       # did-you-mean names the real id
            env.reset(seed=0, options={"task": "helpdesk_tutorail"})
        with pytest.raises(RuntimeError, match="variant"):
            env.reset(seed=0, options={"variant": "no_such_variant"})
        obs, info = env.reset(seed=1)                                        # the session still works
        assert "Depot" in obs["text"]
        _, _, terminated, _, info = env.step({"tool": "submit"})
        assert terminated and info["result"]["end_reason"] == "submitted"
        obs, _, terminated, _, info = env.step({"tool": "list_files"})     # after the end: said, not raised
        assert terminated and "ended" in obs["text"] and info["result"]["end_reason"] == "submitted"
        assert env.state()["done"] is True
    finally:
        env.close()


def _first_message(url: str) -> str:
    """What the server says to a new connection that sends a reset (raw WebSocket, no client logic)."""
    import asyncio
    import json

    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    async def talk() -> str:
        async with connect(url.replace("http://", "ws://") + "/ws") as ws:
            try:
                await ws.send(json.dumps({"type": "reset", "data": {}}))
            except ConnectionClosed:   # a full server says so on connecting and closes, maybe before our send
                pass
            return await asyncio.wait_for(ws.recv(), timeout=30)   # what it said is still buffered
    return asyncio.run(talk())


KILLED_CLIENT = textwrap.dedent("""
    import sys, time
    from openenv.core.generic_client import GenericEnvClient
    c = GenericEnvClient(base_url=sys.argv[1]).sync()
    c.connect(); c.reset(seed=0); print("ready", flush=True); time.sleep(600)
""")


def test_killed_client_is_reaped_and_the_cap_is_enforced():
    proc, url = _start(max_episodes=1)
    try:
        holder = subprocess.Popen([sys.executable, "-c", KILLED_CLIENT, url], stdout=subprocess.PIPE, text=True)
        assert holder.stdout.readline().strip() == "ready"
        assert "CAPACITY" in _first_message(url).upper()                   # the one slot is taken: said so
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait()
        deadline, last = time.monotonic() + 90, None
        while time.monotonic() < deadline:                                   # its session is reaped: the slot frees
            try:
                with GenericEnvClient(base_url=url, message_timeout_s=30).sync() as c:
                    assert "Depot" in c.reset(seed=0).observation["text"]
                    break
            except Exception as e:  # noqa: BLE001 - retried until the deadline
                last = e
                time.sleep(0.5)
        else:
            raise AssertionError(f"the killed client's session was never reaped: {last}")
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)


def test_trl_environment_factory_drives_a_remote_episode(server):
    from fdegym_env.agents.adapters import make_trl_environment_factory
    seed = 0
    script = _script(seed)                                                   # the reference delivery
    Env = make_trl_environment_factory(TASK, base_url=server)
    env = Env()
    try:
        assert "Depot" in env.reset(seed=seed)
        for a in script[:-1]:
            getattr(env, a["tool"])(**{k: v for k, v in a.items() if k != "tool"})
        env.submit(note="done")
        local_result, _ = _local(seed, script)
        assert env.get_reward() == pytest.approx(local_result["score"], abs=1e-12) and env.get_reward() >= 0.95
    finally:
        env._close()
    with pytest.raises(ValueError, match="sandbox"):                         # configured on the server, said so
        make_trl_environment_factory(TASK, base_url=server, sandbox="none")().reset(seed=0)


def test_skyrl_and_gem_text_envs_drive_a_remote_episode(server):
    import json

    from fdegym_env.agents.adapters import GEMTextEnv, SkyRLTextEnv
    seed = 1
    script = _script(seed)                                                   # reads, a question, submit
    turns = ["<tool_call>" + json.dumps({"name": a.get("tool") or a["name"],
                                         "arguments": json.loads(a["arguments"]) if "arguments" in a else
                                         {k: v for k, v in a.items() if k != "tool"}}) + "</tool_call>"
             for a in script]
    local_result, local_return = _local(seed, script)
    env = SkyRLTextEnv(env_config={"task": TASK, "base_url": server}, extras={"seed": seed})
    try:
        conv, meta = env.init()
        assert [m["role"] for m in conv] == ["system", "user"] and "Depot" in conv[-1]["content"]
        assert meta["task"] == TASK and env.max_turns == FDEGymEnv(task=TASK).max_turns
        outs = [env.step(t) for t in turns]
    finally:
        env.close()
    assert [o["done"] for o in outs] == [False] * (len(turns) - 1) + [True]
    assert outs[-1]["metadata"]["result"]["score"] == pytest.approx(local_result["score"], abs=1e-12)
    assert sum(o["reward"] for o in outs) == pytest.approx(local_return, abs=1e-12)
    gem = GEMTextEnv(task=TASK, base_url=server)
    try:
        text, _ = gem.reset(seed=seed)
        assert "Depot" in text
        *_, terminated, _, info = gem.step(turns[-1])
        assert terminated and "score" in info["result"]
    finally:
        gem.close()


def test_openenv_trl_example_runs_against_its_own_server():
    out = subprocess.run([sys.executable, "examples/openenv_trl.py", "--seed", "1"], capture_output=True, text=True,
                         timeout=300, cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    assert out.returncode == 0, out.stderr[-2000:]
    assert "reward (the episode's score): 0.000" in out.stdout and "Traceback" not in out.stderr
