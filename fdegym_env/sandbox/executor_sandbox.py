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

import os
import random
import time
from abc import abstractmethod
from collections.abc import Iterator
from pathlib import Path

from fdegym_env.sandbox.base import OUTPUT_CAP, SANDBOX_ENV, SANDBOX_WORKDIR, RunResult, Sandbox
from fdegym_env.sandbox.executor import ExecutorClient, ExecutorDied, PortBridge

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
    """Hand the workspace to the sandbox uid (symlinks themselves, never their targets)."""
    os.chown(root, uid, uid)
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            try:
                os.chown(os.path.join(dirpath, name), uid, uid, follow_symlinks=False)
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

    @abstractmethod
    def _launch(self) -> None:
        """Start the executor for ``self.workspace`` and set ``self._exec``."""

    @abstractmethod
    def _kill(self) -> None:
        """Stop the executor and everything it started; set ``self._exec`` to None. Idempotent."""

    def _running(self) -> bool:
        return self._exec is not None

    def _open_port_bridge(self) -> None:
        if self.allow_ports:
            self._bridge = PortBridge(self.allow_ports)

    def run(self, command, *, timeout_s=30.0, stdin=None, cwd=".", cap=OUTPUT_CAP) -> RunResult:
        if self.workspace is None:
            raise RuntimeError("sandbox not started: call start(workspace) first")
        if not self._running():
            self.restarts += 1
            self._kill()
            self._launch()
        inner = ["/bin/sh", "-c", command] if isinstance(command, str) else list(command)
        wd = os.path.normpath(os.path.join(SANDBOX_WORKDIR, cwd))
        try:
            return self._exec.run(inner, cwd=wd, env=dict(SANDBOX_ENV), timeout_s=float(timeout_s),
                                  stdin=stdin, cap=cap)
        except (ExecutorDied, TimeoutError, ValueError) as e:
            # The executor itself was lost (out of memory, killed from outside): restart it for the next
            # command and report this one as failed, the way a crashed shell would.
            self._kill()
            return RunResult(137, "", f"[sandbox] the command's {self.lost_what} was lost ({e}); it has been "
                             "restarted", timed_out=isinstance(e, TimeoutError))

    def reset(self) -> None:
        """Kill everything earlier commands started (the executor already does after each command)."""
        if self._running():
            try:
                self._exec.request({"op": "reset"}, 10.0)
                return
            except (ExecutorDied, TimeoutError, ValueError):
                pass
        self._kill()

    def close(self) -> None:
        self._kill()
        if self._bridge is not None:
            self._bridge.close()
            self._bridge = None

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass
