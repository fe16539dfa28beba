"""What the bwrap and docker backends share: the executor protocol and a per-sandbox host uid.

Both backends run the :mod:`executor <fdegym_env.sandbox.executor>` as PID 1 of their isolation
and send it every command. A subclass says how the executor is started (``_launch``), torn down
(``_kill``) and whether it still runs (``_running``); running commands, restarting a lost executor,
reset and close are the same for both and live here.

When the host process is root, each sandbox runs as its own unprivileged host uid picked from
``UID_BASE .. UID_BASE + UID_SPAN``, so ``RLIMIT_NPROC`` and the kill of leftovers apply to that
sandbox alone.
"""

from __future__ import annotations

import json
import os
import random
import time
from abc import abstractmethod
from collections.abc import Iterator
from pathlib import Path

from fdegym_env.core.fstree import walk_tree
from fdegym_env.sandbox.base import HARD_OUTPUT_LIMIT, OUTPUT_CAP, SANDBOX_ENV, SANDBOX_WORKDIR, RunResult, Sandbox
from fdegym_env.sandbox.executor import ExecutorClient, ExecutorDied, PortBridge
from fdegym_env.sandbox.worker import decode_answer, to_run_result, worker_argv

NO_WORKER = "no grading worker is running"   # the executor's answer to a call with no worker started
UID_BASE, UID_SPAN = 2_000_000, 1_000_000   # per-sandbox uids when the host runs as root


def processes_of(uid: int) -> Iterator[int]:
    """PIDs of the host processes owned by ``uid``."""
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if os.stat(f"/proc/{pid}").st_uid == uid:
                    yield int(pid)
            except OSError:
                pass


def pick_uid() -> int:
    """A per-sandbox uid no process uses."""
    rng = random.Random(os.getpid() ^ time.monotonic_ns())
    for _ in range(20):
        uid = UID_BASE + rng.randrange(UID_SPAN)
        if next(processes_of(uid), None) is None:
            return uid
    raise RuntimeError("could not find a free per-sandbox uid")


def chown_tree(root: Path, uid: int) -> None:
    """Hand the workspace to the sandbox uid (symlinks themselves, never their targets); walked
    without recursion, so a folder tree thousands of levels deep is handed over too."""
    os.chown(root, uid, uid)
    for entry in walk_tree(root):
        try:
            os.chown(entry.path, uid, uid, follow_symlinks=False)
        except OSError:
            pass


class ExecutorSandbox(Sandbox):
    """A sandbox whose commands go to an executor; subclasses start and stop the executor."""

    lost_what = "sandbox"   # how the restart message names what was lost

    def __init__(self) -> None:
        super().__init__()
        self.uid: int | None = None
        self._exec: ExecutorClient | None = None
        self._bridge: PortBridge | None = None
        self.restarts = 0
        self._worker: str | None = None   # the driver the running grading worker was started with
        self._fresh = False               # recycled for a new deployment, no call made yet
        self._owner_pid = os.getpid()     # a forked child's copy must never stop its parent's sandbox

    def _inherited(self) -> bool:
        """True in a forked child holding a copy of this object: the sandbox is the parent's."""
        return self._owner_pid != os.getpid()

    def _forget(self) -> None:
        """Drop a forked copy's references without touching the parent's sandbox."""
        self._exec = None
        self._bridge = None

    @abstractmethod
    def _launch(self) -> None:
        """Start the executor for ``self.workspace`` and set ``self._exec``."""

    @abstractmethod
    def _kill(self) -> None:
        """Stop the executor and everything it started; set ``self._exec`` to None. Idempotent."""

    def _running(self) -> bool:
        return self._exec is not None

    def _client(self) -> ExecutorClient:
        """The running executor; callers have started it (or checked it runs) just before."""
        if self._exec is None:
            raise ExecutorDied(f"the {self.lost_what} is not running")
        return self._exec

    def _open_port_bridge(self) -> None:
        if self.allow_ports:
            self._bridge = PortBridge(self.allow_ports)

    def _relaunch_if_lost(self) -> str | None:
        """Start the executor again if it is gone; the reason it could not be started, or None."""
        if self.workspace is None:
            raise RuntimeError("sandbox not started: call start(workspace) first")
        if self._inherited():   # a forked child: leave the parent's executor alone, start one of its own
            self._forget()
            self._owner_pid = os.getpid()
        elif not self._running():
            self._kill()
        if not self._running():
            self.restarts += 1
            self._worker = None   # the grading worker went with the executor
            try:
                self._launch()
            except (RuntimeError, OSError) as e:
                self._kill()
                return f"the {self.lost_what} could not be restarted: {e}"
        return None

    def run(self, command, *, timeout_s=30.0, stdin=None, cwd=".", cap=OUTPUT_CAP) -> RunResult:
        why = self._relaunch_if_lost()
        if why:
            return RunResult(137, "", f"[sandbox] {why}", infra_error=why)
        self._worker = None   # the executor stops the grading worker before a command
        inner = ["/bin/sh", "-c", command] if isinstance(command, str) else list(command)
        wd = os.path.normpath(os.path.join(SANDBOX_WORKDIR, cwd))
        try:
            return self._client().run(inner, cwd=wd, env=dict(SANDBOX_ENV), timeout_s=float(timeout_s),
                                  stdin=stdin, cap=cap)
        except (ExecutorDied, TimeoutError, ValueError) as e:
            # The executor itself was lost (out of memory, killed from outside): restart it for the next
            # command and report this one as failed, the way a crashed shell would.
            self._kill()
            return RunResult(137, "", f"[sandbox] the command's {self.lost_what} was lost ({e}); it has been "
                             "restarted", timed_out=isinstance(e, TimeoutError),
                             infra_error=None if isinstance(e, TimeoutError) else f"{self.lost_what} lost: {e}")

    def python_call(self, module, function, args, *, driver, timeout_s, cwd=".", hard=HARD_OUTPUT_LIMIT) -> RunResult:
        why = self._relaunch_if_lost()
        if why:
            return RunResult(137, "", f"[sandbox] {why}", infra_error=why)
        try:
            if self._worker != driver:
                resp = self._client().request({"op": "worker", "argv": worker_argv(driver, kill_all=True, hard=hard),
                                           "cwd": "/", "env": dict(SANDBOX_ENV), "wait_s": 30.0}, 45.0)
                if "lost" in resp:   # no delivered code runs before the worker is up: the cause is ours
                    return RunResult(137, "", f"[sandbox] the grading worker did not start: {resp['lost']}",
                                     infra_error=f"grading worker did not start: {resp['lost']}")
                self._worker = driver
            req = {"module": module, "function": function, "timeout_s": float(timeout_s),
                   "cpu_s": int(timeout_s) + 2, "cwd": os.path.normpath(os.path.join(SANDBOX_WORKDIR, cwd)),
                   "fresh": self._fresh}   # first call of a deployment: the worker forgets the last one
            self._fresh = False
            body = json.dumps(req).encode("utf-8") + b"\n" + args
            resp, answer = self._client().request_raw({"op": "wcall", "wait_s": float(timeout_s) + 10.0}, body,
                                                  float(timeout_s) + 25.0)
        except (ExecutorDied, TimeoutError, ValueError) as e:
            self._kill()
            return RunResult(137, "", f"[sandbox] the call's {self.lost_what} was lost ({e}); it has been restarted",
                             timed_out=isinstance(e, TimeoutError),
                             infra_error=None if isinstance(e, TimeoutError) else f"{self.lost_what} lost: {e}")
        if "lost" in resp:   # the executor killed the worker (and everything else); next call starts a new one
            self._worker = None
            timed_out = bool(resp.get("timed_out"))
            ours = resp["lost"] == NO_WORKER   # nothing of the delivery ran: our bookkeeping lost the worker
            return RunResult(124 if timed_out else 137, "", f"[sandbox] the grading worker was lost: {resp['lost']}",
                             timed_out=timed_out, infra_error=f"grading worker lost: {resp['lost']}" if ours else None)
        head, result = decode_answer(answer)
        return to_run_result(head, result)

    def recycle(self) -> bool:
        """Ready this sandbox for another deployment on the same folder: its private ``/tmp`` and
        ``/dev/shm`` are emptied (nothing runs between calls; the grading worker stays warm). False if the
        sandbox is not in a state to be reused."""
        if not self._running() or self._bridge is not None:
            return False
        try:
            self._client().request({"op": "wipe", "dirs": ["/tmp", "/dev/shm"]}, 10.0)
            self._fresh = True
            return True
        except (ExecutorDied, TimeoutError, ValueError):
            return False

    def reset(self) -> None:
        """Kill everything earlier commands started (the executor already does after each command)."""
        self._worker = None
        if self._inherited():
            self._forget()
            return
        if self._running():
            try:
                self._client().request({"op": "reset"}, 10.0)
                return
            except (ExecutorDied, TimeoutError, ValueError):
                pass
        self._kill()

    def close(self) -> None:
        if self._inherited():
            self._forget()
            return
        self._kill()
        if self._bridge is not None:
            self._bridge.close()
            self._bridge = None

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass
