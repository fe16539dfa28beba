"""The sandbox interface: every command the agent runs and every call grading makes goes through it.

Backends: ``bwrap`` (default), ``docker``, ``none`` (explicit opt-in). See docs/design.md, Sandbox.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import IO, cast

from fdegym_env.sandbox.inside.common import Capped  # the executor's own head-and-tail buffer

OUTPUT_CAP = 64_000          # bytes kept for the caller: head and tail halves
HARD_OUTPUT_LIMIT = 8_000_000  # a command producing more than this is stopped
SANDBOX_WORKDIR = "/workspace"
# /usr/local/bin holds only `python` (for python3) inside the sandboxes: READMEs and players say `python`
SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin"
SANDBOX_ENV = {"PATH": SANDBOX_PATH, "HOME": "/tmp", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
               "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1", "TMPDIR": "/tmp", "TERM": "dumb"}


@dataclass
class RunResult:
    exit_code: int
    stdout: str
    stderr: str
    timed_out: bool = False
    truncated: bool = False
    killed_for_output: bool = False
    duration_s: float = 0.0
    infra_error: str | None = None   # set when the sandbox itself was lost for a reason of ours (never the command's)

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out


def run_process(argv: list[str], *, stdin: bytes | None, timeout_s: float, cap: int = OUTPUT_CAP,
                env: dict[str, str] | None = None, cwd: str | None = None, preexec=None,
                kill_group: bool = True, hard_limit: int = HARD_OUTPUT_LIMIT) -> RunResult:
    """Run ``argv`` with a time limit and capped output; on timeout kill its whole process group."""
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd,
                            start_new_session=kill_group, preexec_fn=preexec)
    # the pipes asked for above: Popen sets them, so none is None
    stdout, stderr = cast(IO[bytes], proc.stdout), cast(IO[bytes], proc.stderr)
    if stdin is not None:
        pipe_in = cast(IO[bytes], proc.stdin)
        try:
            pipe_in.write(stdin)
        except BrokenPipeError:
            pass
        pipe_in.close()
    out_buf, err_buf = Capped(cap), Capped(cap // 4)
    bufs = {stdout.fileno(): out_buf, stderr.fileno(): err_buf}
    open_fds = set(bufs)
    timed_out = flood = False
    deadline = start + timeout_s
    while open_fds:
        left = deadline - time.monotonic()
        if left <= 0:
            timed_out = True
            break
        ready, _, _ = select.select(list(open_fds), [], [], min(left, 0.5))
        for fd in ready:
            chunk = os.read(fd, 65536)
            if not chunk:
                open_fds.discard(fd)
            else:
                bufs[fd].add(chunk)
        if sum(b.total for b in bufs.values()) > max(hard_limit, cap):
            flood = True
            break
    if timed_out or flood:
        _kill_tree(proc, kill_group)
    try:
        code = proc.wait(timeout=max(0.1, deadline - time.monotonic()) if not (timed_out or flood) else 5)
    except subprocess.TimeoutExpired:
        _kill_tree(proc, kill_group)
        code = proc.wait()
        timed_out = True
    stdout.close()
    stderr.close()
    out, t1 = out_buf.text()
    err, t2 = err_buf.text()
    return RunResult(code if not timed_out else 124, out, err, timed_out, t1 or t2 or flood, flood,
                     time.monotonic() - start)


def _kill_tree(proc: subprocess.Popen, group: bool) -> None:
    try:
        if group:
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
    except (ProcessLookupError, PermissionError):
        pass


class Sandbox(ABC):
    """Runs commands with a workspace folder as the only writable place.

    Lifecycle: ``start(workspace)`` → many ``run(...)`` → ``reset()`` (kill leftovers) → ``close()``.
    """

    name = "abstract"

    def __init__(self) -> None:
        self.workspace: Path | None = None
        self.allow_ports: tuple[int, ...] = ()

    def start(self, workspace: str | Path, allow_ports: tuple[int, ...] = ()) -> None:
        self.workspace = Path(workspace).resolve()
        self.allow_ports = tuple(allow_ports)

    def _started_workspace(self) -> Path:
        """The workspace :meth:`start` was given."""
        if self.workspace is None:
            raise RuntimeError(f"{self.name} sandbox not started: call start(workspace) first")
        return self.workspace

    @abstractmethod
    def run(self, command: str | list[str], *, timeout_s: float = 30.0, stdin: bytes | None = None,
            cwd: str = ".", cap: int = OUTPUT_CAP) -> RunResult:
        """Run a shell command (str) or an argv (list) inside the sandbox, cwd relative to the workspace."""

    def python_call(self, module: str, function: str, args: bytes, *, driver: str, timeout_s: float,
                    cwd: str = ".", hard: int = HARD_OUTPUT_LIMIT) -> RunResult:
        """Run ``driver`` (a ``python3 -c`` program reading ``args`` on stdin, argv ``module function``)
        in the sandbox's grading worker: a forked copy of one long-lived interpreter
        (:mod:`fdegym_env.sandbox.worker`). ``stdout`` of the result is the driver's result channel.
        Backends without a worker raise NotImplementedError (callers fall back to :meth:`run`)."""
        raise NotImplementedError(f"the {self.name} sandbox has no grading worker")

    def reset(self) -> None:  # noqa: B027 (optional: a backend whose commands leave nothing behind keeps it)
        """Make sure nothing started by earlier commands is still running."""

    def close(self) -> None:
        self.reset()

    def isolation(self) -> str:
        return self.name

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
