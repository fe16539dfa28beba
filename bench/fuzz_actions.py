"""Fuzz ``env.step`` with random and adversarial actions over every registered task.

Checks, per action: no exception, no hang (a per-step wall limit), an observation inside the space;
per episode: it ends with ``info["result"]`` (a submit is forced at the end); per rejected action:
the workspace is unchanged (digest before == after); after ``close``: nothing is left in the run's
private episode and scratch root (``FDEGYM_WORKDIR``/``FDEGYM_SCRATCH``).

    python bench/fuzz_actions.py                       # the full run: 2,000 actions on each of the ten tasks
    python bench/fuzz_actions.py --actions 50 --tasks tiny   # a quick slice (tests/reliability runs one)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

import fdegym_env  # noqa: F401  (registers the tasks)
from fdegym_env.core.actions import TOOL_NAMES, ReadFile, Wait
from fdegym_env.core.fstree import remove_tree
from fdegym_env.core.registry import list_tasks
from fdegym_env.grading.grade import workspace_digest

TINY = str(Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "tiny_task")
ODD_NAMES = ["p", "system/p", "bad\udcffname", "\ud800", "a/" * 2000 + "f", "n" * 300, "../x", "/etc/passwd",
             "system", ".", "", " ", "TASK.md", "system/README.md", "docs", "-rf", "x\ny"]
RUN_COMMANDS = ["mkfifo p", "mkfifo system/p", "python3 -c \"import socket; socket.socket(socket.AF_UNIX).bind('s')\"",
                "touch $(printf 'bad\\377name')", "touch system/$(printf 'bad\\377name')",
                "mkdir -p system/$(printf 'a/%.0s' $(seq 1200))", "ln -s /etc/passwd system/out",
                "ln -s . system/self", "truncate -s 200M big.bin", "rm -f p system/p big.bin", "ls -la", "echo hi",
                "yes | head -c 100000", "sleep 0.2", "cat /dev/zero | head -c 10"]


def _nested(depth: int) -> list:
    out: list = []
    for _ in range(depth):
        out = [out]
    return out


def random_action(rng: random.Random) -> object:
    """One action drawn from well-formed, malformed and adversarial forms."""
    k = rng.randrange(16)
    name = rng.choice(ODD_NAMES)
    text = rng.choice(["x", "\ud83d", "hello\n" * rng.randrange(1, 50), "é😀", "\x00", "a" * 100_000])
    if k == 0:
        return {"tool": "run", "command": rng.choice(RUN_COMMANDS)}
    if k == 1:
        return {"tool": rng.choice(["read_file", "list_files"]), "path": name}
    if k == 2:
        return {"tool": "write_file", "path": rng.choice(["notes.txt", "system/notes.txt", name]), "content": text}
    if k == 3:
        return {"tool": "edit_file", "path": rng.choice(["TASK.md", name]), "old": rng.choice(["the", "\ud83d", ""]),
                "new": text, "replace_all": rng.choice([True, False, "yes", float("nan")])}
    if k == 4:
        return {"name": rng.choice(TOOL_NAMES + ("nope",)),
                "arguments": rng.choice(["{}", "[" * 100_000, '{"path": "\\ud800"}', "{bad json", "null", "1e999",
                                         json.dumps({"path": name}), '{"hours": ' + "9" * 5000 + "}"])}
    if k == 5:
        return rng.choice(["[" * 100_000, "{}", "null", "", "x", '{"tool": 3}', b"\xff", None, 7, 1.5, [], (), set()])
    if k == 6:
        return {"tool": "wait", "hours": rng.choice([10 ** 400, float("inf"), float("nan"), -1, 0, 1e300, "2", 1])}
    if k == 7:
        return {"tool": "list_files", rng.choice([1, 2.5, None, ("t",)]): "x"}
    if k == 8:
        return ReadFile(path=rng.choice([object(), _nested(5000), name]))
    if k == 9:
        return Wait(hours=(x for x in []))
    if k == 10:
        return {"tool": rng.choice(TOOL_NAMES), "path": np.array([rng.choice([name, 1, None])], dtype=object)}
    if k == 11:
        return {"tool": rng.randrange(-3, 15), "path": name, "command": "echo hi", "hours": 1}
    if k == 12:
        return {"tool": "read_file", "path": "TASK.md", "offset": rng.choice([10 ** 400, -5, 1e12, "3"]),
                "limit": rng.choice([0, 10 ** 20, None])}
    if k == 13:
        return {"tool": "contact", "to": rng.choice(["boss", "\ud800", "x" * 10_000]), "message": text}
    if k == 14:
        return {"type": "function", "function": {"name": "read_file", "arguments": {"path": name}}}
    return {"tool": rng.choice(["directory", "inbox", "list_files"])}


@dataclass
class FuzzReport:
    actions: int = 0
    episodes: int = 0
    exceptions: list[str] = field(default_factory=list)
    hangs: list[str] = field(default_factory=list)
    missing_results: int = 0
    changed_by_rejected: list[str] = field(default_factory=list)
    leftovers: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not (self.exceptions or self.hangs or self.missing_results or self.changed_by_rejected
                    or self.leftovers)


def _private_root() -> Path:
    """A folder of this run's own for episode workspaces and deployments (``FDEGYM_WORKDIR``,
    ``FDEGYM_SCRATCH``): other fdegym processes on the machine cannot be mistaken for our leftovers."""
    base = Path("/dev/shm") if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    root = Path(tempfile.mkdtemp(prefix="fuzz-actions-", dir=base))
    root.chmod(0o711)   # a sandbox's own uid must pass through to its workspace
    return root


def fuzz(tasks: list[str], actions_per_task: int, seed: int = 0, step_limit_s: float = 60.0,
         episode_len: int = 25) -> FuzzReport:
    """Run ``actions_per_task`` fuzzed actions on each task, in episodes of ``episode_len`` steps."""
    from fdegym_env.grading.grade import _POOL
    rep = FuzzReport()
    rng = random.Random(seed)
    root = _private_root()
    saved = {k: os.environ.get(k) for k in ("FDEGYM_WORKDIR", "FDEGYM_SCRATCH")}
    os.environ["FDEGYM_WORKDIR"] = os.environ["FDEGYM_SCRATCH"] = str(root)
    t0 = time.monotonic()
    try:
        _fuzz_tasks(rep, rng, tasks, actions_per_task, step_limit_s, episode_len)
    finally:
        _POOL.close()
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    rep.leftovers = sorted(str(p) for p in root.iterdir())
    remove_tree(root)
    rep.seconds = round(time.monotonic() - t0, 1)
    return rep


def _fuzz_tasks(rep: FuzzReport, rng: random.Random, tasks: list[str], actions_per_task: int, step_limit_s: float,
                episode_len: int) -> None:
    from fdegym_env import FDEGymEnv
    for task in tasks:
        done_here = 0
        while done_here < actions_per_task:
            env = FDEGymEnv(task=task, sandbox="auto", max_turns=episode_len + 5)
            env.reset(seed=rng.randrange(1000))
            ended = False
            try:
                for _ in range(min(episode_len, actions_per_task - done_here)):
                    action = rng.choice([random_action(rng), {"tool": "submit"}]) if rng.random() < 0.01 \
                        else random_action(rng)
                    digest = workspace_digest(env.workspace)
                    start = time.monotonic()
                    try:
                        obs, _, term, trunc, info = env.step(action)
                    except Exception as e:   # noqa: BLE001  (what the fuzzer counts)
                        rep.exceptions.append(f"{task}: {type(e).__name__}: {e!s:.200} on {str(action)[:120]}")
                        break
                    finally:
                        rep.actions += 1
                        done_here += 1
                    took = time.monotonic() - start
                    if took > step_limit_s:
                        rep.hangs.append(f"{task}: {took:.0f} s on {str(action)[:120]}")
                    if not env.observation_space.contains(obs):
                        rep.exceptions.append(f"{task}: observation outside the space on {str(action)[:120]}")
                    if info["last_action_error"] is not None and workspace_digest(env.workspace) != digest:
                        rep.changed_by_rejected.append(f"{task}: {str(action)[:120]}")
                    if term or trunc:
                        ended = True
                        rep.missing_results += "result" not in info
                        break
                if not ended and not rep.exceptions:
                    obs, _, term, _, info = env.step({"tool": "submit"})
                    rep.actions += 1
                    rep.missing_results += "result" not in info
            except Exception as e:   # noqa: BLE001
                rep.exceptions.append(f"{task}: {type(e).__name__}: {e!s:.200} while ending the episode")
            finally:
                rep.episodes += 1
                try:
                    env.close()
                except Exception as e:   # noqa: BLE001
                    rep.exceptions.append(f"{task}: close raised {type(e).__name__}: {e!s:.200}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tasks", default="all", help="comma-separated task ids, 'all' (default) or 'tiny'")
    ap.add_argument("--actions", type=int, default=2000, help="actions per task (default 2000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--step-limit", type=float, default=150.0, help="seconds one step may take (a run may take 120)")
    args = ap.parse_args(argv)
    tasks = list_tasks() if args.tasks == "all" else [TINY if t == "tiny" else t for t in args.tasks.split(",")]
    rep = fuzz(tasks, args.actions, args.seed, args.step_limit)
    print(json.dumps({**asdict(rep), "ok": rep.ok}, indent=1))
    return 0 if rep.ok else 1


if __name__ == "__main__":
    sys.exit(main())
