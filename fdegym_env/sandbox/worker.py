"""The grading worker: one long-lived ``python3`` per deployment that runs every entry-point call.

Starting an interpreter per call costs tens of milliseconds before the delivered code even loads.
The worker starts once (inside the deployment's sandbox), imports the standard library modules
delivered code commonly uses, and then, for every call, **forks a child** that runs exactly the
driver a fresh ``python3 -c`` would run (same source, so the same tracebacks and exit codes), on a
copy-on-write image of a pristine interpreter. The child imports the delivered modules afresh, so
no module state survives from one call to the next — as with a fresh process per call, which is
what the shipped systems (batch jobs, cron) do in production.

Channel. The host (or the sandbox's executor) talks to the worker over two dedicated pipes, fds 3
(requests) and 4 (answers), as length-prefixed frames: ``<8-byte length><JSON header>\\n<raw
bytes>``. A child closes both before any delivered code runs, and the worker marks itself
non-dumpable, so delivered code cannot reach them through ``/proc/<pid>/fd`` either. The child's
result goes to a per-call pipe that is neither stdout nor stderr, so printing to stdout (or to
``sys.__stdout__``) cannot forge a result; what a call writes can only ever describe that call.

Per call: a wall-clock deadline (SIGKILL on expiry: the host then treats the system as down), a
CPU limit (``timeout + 2`` s, as for a command), an output limit over stdout, stderr and the
result together, and when the child ends every other process it started is killed (``kill(-1)``:
the worker runs in the sandbox's own PID namespace, where that spares only the namespace's init
and the worker itself).

Example:
    >>> w = LocalWorker("/tmp/ws")                       # doctest: +SKIP
    >>> w.call({"module": "app.main", "function": "handle", "timeout_s": 5, "cwd": "/tmp/ws/system"},
    ...        b"[[1, 2]]")                              # doctest: +SKIP
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time

from fdegym_env.sandbox.base import RunResult
from fdegym_env.sandbox.inside import common, source

# Stdlib modules imported once in the worker, before any fork. Delivered code that imports them
# gets the already-initialised module (as it gets ``json`` or ``re`` from the driver in a fresh
# interpreter); a delivered file of the same name (``system/calendar.py``) still shadows it: the
# child evicts every preloaded module whose name the delivered tree defines.
PRELOAD = ("json", "importlib", "traceback", "re", "datetime", "collections", "dataclasses", "typing",
           "decimal", "fractions", "statistics", "math", "random", "hashlib", "itertools", "functools",
           "csv", "sqlite3", "zoneinfo", "logging", "pathlib", "string", "textwrap", "unicodedata",
           "calendar", "heapq", "bisect", "copy", "enum", "uuid", "email.utils", "base64", "io", "time",
           "operator", "contextlib", "abc", "numbers", "glob", "fnmatch", "tempfile", "shutil", "struct",
           "difflib", "html", "urllib.parse", "ipaddress", "pprint", "warnings", "weakref", "threading",
           "subprocess", "signal", "locale")

# Runs as ``python3 -c BOOT WORKER_SRC CFG``: the worker's own names live in a private dict, so the
# child's ``__main__`` holds what a fresh ``python3 -c`` would (only ``sys``, which the driver imports).
BOOT = "import sys; exec(sys.argv[1], {'__name__': 'fdegym_worker', '__builtins__': __builtins__})"

# The program itself: inside/worker_main.py (stdlib only, Python >= 3.8), with inside/common.py inlined.
WORKER_SRC = source("worker_main")


class WorkerLost(RuntimeError):
    """The worker stopped answering (``timed_out``) or went away."""

    def __init__(self, msg: str, timed_out: bool):
        super().__init__(msg)
        self.timed_out = timed_out


def worker_argv(driver: str, *, kill_all: bool, hard: int, req_fd: int = 3, ans_fd: int = 4) -> list[str]:
    cfg = {"driver": driver, "kill_all": kill_all, "hard": hard, "preload": list(PRELOAD),
           "req_fd": req_fd, "ans_fd": ans_fd}
    return ["python3", "-c", BOOT, WORKER_SRC, json.dumps(cfg)]


def encode_request(req: dict, payload: bytes) -> bytes:
    return common.frame(req, payload)


def decode_answer(body: bytes) -> tuple[dict, bytes]:
    return common.split_frame(body)


def to_run_result(head: dict, result: bytes) -> RunResult:
    """A worker answer in the shape of a command's result (``stdout`` is the result channel)."""
    return RunResult(int(head["exit_code"]), result.decode("utf-8", "replace"), str(head.get("stderr", "")),
                     bool(head.get("timed_out")), False, bool(head.get("killed_for_output")),
                     float(head.get("duration_s", 0.0)))


def read_frame(fd: int, deadline: float, buf: bytearray) -> bytes:
    """One length-prefixed frame from ``fd`` (``buf`` keeps bytes read past it) or WorkerLost."""
    try:
        return common.read_frame(fd, buf, deadline)
    except TimeoutError:
        raise WorkerLost("the grading worker did not answer in time", timed_out=True) from None
    except EOFError:
        raise WorkerLost("the grading worker went away", timed_out=False) from None


def write_frame(fd: int, data: bytes, deadline: float) -> None:
    try:
        common.write_frame(fd, data, deadline)
    except TimeoutError:
        raise WorkerLost("the grading worker does not read its requests", timed_out=True) from None
    except OSError:
        raise WorkerLost("the grading worker went away", timed_out=False) from None


class LocalWorker:
    """A worker run directly on the host (the ``none`` backend): same protocol, no isolation."""

    def __init__(self, workspace: str, driver: str, env: dict[str, str], hard: int, start_timeout_s: float = 30.0):
        q_r, q_w = os.pipe()
        a_r, a_w = os.pipe()
        argv = worker_argv(driver, kill_all=False, hard=hard, req_fd=q_r, ans_fd=a_w)
        argv[0] = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else "python3"
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL, env=env, cwd=workspace, pass_fds=(q_r, a_w),
                                         start_new_session=True)
        finally:
            os.close(q_r)
            os.close(a_w)
        self.w, self.r = q_w, a_r
        os.set_blocking(self.w, False)
        self._buf = bytearray()
        try:
            read_frame(self.r, time.monotonic() + start_timeout_s, self._buf)
        except WorkerLost:
            self.close()
            raise

    def call(self, req: dict, payload: bytes, wait_s: float) -> tuple[dict, bytes]:
        deadline = time.monotonic() + wait_s
        try:
            write_frame(self.w, encode_request(req, payload), deadline)
            return decode_answer(read_frame(self.r, deadline, self._buf))
        except WorkerLost:
            self.close()
            raise

    def close(self) -> None:
        for fd in (self.w, self.r):
            try:
                os.close(fd)
            except OSError:
                pass
        self.w = self.r = -1
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
