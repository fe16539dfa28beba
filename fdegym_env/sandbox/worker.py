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
import select
import signal
import struct
import subprocess
import time

from fdegym_env.sandbox.base import RunResult

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

# Stdlib only; Python >= 3.8 (the sandbox's python3 is the host distribution's).
WORKER_SRC = r'''
import os, sys, json, select, signal, struct, resource, time, gc, atexit, threading, io
CFG = json.loads(sys.argv[2])
REQ, ANS = int(CFG.get("req_fd", 3)), int(CFG.get("ans_fd", 4))
KILL_ALL = bool(CFG.get("kill_all")) and os.getppid() == 1   # only under the executor, PID 1 of its namespace
DRIVER = CFG["driver"]
DRIVER_CODE = compile(DRIVER, "<string>", "exec")   # what the child would compile, once
HARD = int(CFG.get("hard", 32 << 20))
ERR_TAIL = 8000

def prctl(option, value):
    try:
        import ctypes
        ctypes.CDLL(None).prctl(option, value, 0, 0, 0)
    except Exception:
        pass

def read_exact(fd, n):
    buf = bytearray()
    while len(buf) < n:
        chunk = os.read(fd, min(n - len(buf), 1 << 20))
        if not chunk:
            return None
        buf += chunk
    return bytes(buf)

def write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]

def frame(header, body=b""):
    data = json.dumps(header).encode("utf-8") + b"\n" + body
    return struct.pack(">Q", len(data)) + data

def preload():
    saved = list(sys.path)
    sys.path[:] = [p for p in sys.path if p not in ("", ".")]   # never the delivered tree
    before = set(sys.modules)
    import importlib
    for name in CFG.get("preload", []):
        try:
            importlib.import_module(name)
        except Exception:
            pass
    sys.path[:] = saved
    return sorted(set(sys.modules) - before)

def reap_all(block):
    while True:
        try:
            pid, _ = os.waitpid(-1, 0 if block else os.WNOHANG)
        except ChildProcessError:
            return
        except InterruptedError:
            continue
        if pid == 0:
            return

def kill_rest(pid):
    """Everything the call started dies with it (bwrap/docker: the whole namespace but init and us)."""
    if KILL_ALL:
        try:
            os.kill(-1, signal.SIGKILL)
        except OSError:
            pass
        reap_all(True)
    else:
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass

def prepare(ow, ew, close):
    """The part of a child's start that does not depend on the call (a spare does it ahead)."""
    os.setsid()
    signal.set_wakeup_fd(-1)
    for fd in close:
        os.close(fd)
    for sig in range(1, signal.NSIG):
        if sig in (signal.SIGKILL, signal.SIGSTOP):
            continue
        try:
            if signal.getsignal(sig) is not SIGNALS0.get(sig, signal.SIG_DFL):
                signal.signal(sig, SIGNALS0.get(sig, signal.SIG_DFL))
        except (OSError, ValueError, TypeError):
            pass
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    null = os.open("/dev/null", os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(ow, 1)
    os.dup2(ew, 2)
    os.close(ow)
    os.close(ew)
    try:
        with open("/proc/self/oom_score_adj", "w") as f:
            f.write("1000")
    except OSError:
        pass

def child(req, args, rw, preloaded):
    # Runs in the forked child (prepared) and never returns.
    try:
        cpu = int(req.get("cpu_s") or 0)
        if cpu > 0:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        os.chdir(req["cwd"])
        tops = {n.partition(".")[0] for n in os.listdir(".")}   # "calendar.py", "calendar/": both shadow
        for mod in preloaded:
            if mod.partition(".")[0] in tops:
                sys.modules.pop(mod, None)
        sys.stdin = io.TextIOWrapper(io.BytesIO(args), encoding="utf-8")
        sys.stdout = os.fdopen(rw, "w", encoding="utf-8", closefd=True)
        os.set_inheritable(rw, False)
        sys.argv = ["-c", req["module"], req["function"]]
        depth, f = 0, sys._getframe()
        while f is not None:
            depth, f = depth + 1, f.f_back
        sys.setrecursionlimit(sys.getrecursionlimit() + depth + 1)   # exec() counts too: the driver gets what it has at top level
        main = sys.modules["__main__"].__dict__
        code = DRIVER_CODE
        before = set(sys.modules)
    except BaseException:
        os._exit(70)
    exec(code, main)
    exit_like_interpreter(before, main)

def spawn(req, args, wake_r, preloaded):
    """Fork a child for ``req`` or, with ``req`` None, a spare: a child prepared ahead of the next
    call that waits on its own pipe for the request (the fork and the preparation then cost the
    next call nothing). Returns (pid, result fd, stdout fd, stderr fd, request fd or -1)."""
    rr, rw = os.pipe()
    orr, ow = os.pipe()
    er, ew = os.pipe()
    qr, qw = os.pipe() if req is None else (-1, -1)
    sys.stdout.flush()
    sys.stderr.flush()
    gc.freeze()        # the child's collections skip the worker's heap (no copy-on-write of every page)
    pid = os.fork()
    if pid == 0:
        try:
            prepare(ow, ew, [fd for fd in (rr, orr, er, qw, REQ, ANS, wake_r, WAKE_W) if fd >= 0])
            if req is None:
                head = read_exact(qr, 8)
                body = read_exact(qr, struct.unpack(">Q", head)[0]) if head else None
                if body is None:    # the worker went away, or gave this spare up
                    os._exit(0)
                os.close(qr)
                line, _, args = body.partition(b"\n")
                req = json.loads(line.decode("utf-8"))
        except BaseException:
            os._exit(70)
        child(req, args, rw, preloaded)
    for fd in (rw, ow, ew, qr):
        if fd >= 0:
            os.close(fd)
    return pid, rr, orr, er, qw

SPARE = [None]

def drop_spare():
    sp, SPARE[0] = SPARE[0], None
    if sp is None:
        return
    for fd in sp[1:]:
        try:
            os.close(fd)
        except OSError:
            pass
    try:
        os.kill(sp[0], signal.SIGKILL)
        os.waitpid(sp[0], 0)
    except (OSError, ChildProcessError):
        pass

def next_spare(cwd, wake_r, preloaded):
    """Between calls: compile what the last call's tree holds, then fork the next call's child."""
    drop_spare()
    if CFG.get("code_cache", True) and cwd:
        try:
            precompile(cwd)
        except Exception:
            pass
    if CFG.get("prefork", True):
        try:
            SPARE[0] = spawn(None, None, wake_r, preloaded)
        except OSError:
            SPARE[0] = None

def exit_like_interpreter(before, main):
    """What a driver process does when its program ends, without tearing down the preloaded stdlib
    (a full Py_Finalize of the worker's image costs ~35 ms a call): join non-daemon threads, run
    atexit handlers, drop the delivered modules and the driver's globals (so files they hold are
    flushed and closed by their finalizers), flush stdio, exit 0."""
    code = 0
    try:
        threading._shutdown()
        atexit._run_exitfuncs()
        for name in [n for n in list(sys.modules) if n not in before]:
            mod = sys.modules.pop(name, None)
            try:
                mod.__dict__.clear()
            except Exception:
                pass
        keep = {k: main[k] for k in ("__name__", "__doc__", "__builtins__", "__loader__", "__spec__",
                                      "__package__", "__annotations__") if k in main}
        main.clear()
        main.update(keep)
        gc.collect()
    except BaseException:
        import traceback
        traceback.print_exc()
        code = 1
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            stream.flush()
        except Exception:
            code = code or 120
    os._exit(code)

# Compiled delivered sources, keyed by (path, source bytes): the import system reads a module's source
# in the child and asks source_to_code for its code; when the worker compiled exactly those bytes for
# that path before the fork, the child gets that code object (compile is deterministic, so it is the
# one the child would build) instead of compiling again. Keyed by content, never by mtime: a file the
# delivered code rewrote between calls misses and is compiled afresh.
CODE = {}
CODE_BYTES = [0]
CODE_MAX_BYTES = 16 << 20
SCAN_MAX_ENTRIES = 400
SCAN_MAX_FILE = 512 << 10

def install_code_cache():
    try:
        from importlib import _bootstrap_external as bext
    except Exception:
        return
    plain = bext.SourceLoader.source_to_code

    def source_to_code(self, data, path, *, _optimize=-1):
        if _optimize == -1 and type(data) is bytes:
            code = CODE.get((path, data))
            if code is not None:
                return code
        return plain(self, data, path, _optimize=_optimize)
    bext.SourceLoader.source_to_code = source_to_code

def precompile(cwd):
    """Compile the delivered ``.py`` files under ``cwd`` the cache does not hold yet (regular files,
    bounded walk: a tree of thousands of files is left to the child to compile as it imports)."""
    import stat as st_
    seen = 0
    stack = [cwd]
    while stack and seen < SCAN_MAX_ENTRIES:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for e in entries:
            seen += 1
            if seen > SCAN_MAX_ENTRIES:
                break
            try:
                if e.is_dir(follow_symlinks=False):
                    if e.name != "__pycache__":
                        stack.append(e.path)
                    continue
                if not e.name.endswith(".py") or not e.is_file(follow_symlinks=False):
                    continue
                fd = os.open(e.path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
                try:
                    info = os.fstat(fd)
                    if not st_.S_ISREG(info.st_mode) or info.st_size > SCAN_MAX_FILE:
                        continue
                    data = os.read(fd, info.st_size + 1)
                finally:
                    os.close(fd)
                key = (e.path, data)
                if key in CODE:
                    continue
                code = compile(data, e.path, "exec", dont_inherit=True, optimize=-1)
            except (OSError, SyntaxError, ValueError, MemoryError, RecursionError, OverflowError):
                continue   # the child meets the same error on import, and reports it as it would
            if CODE_BYTES[0] + len(data) > CODE_MAX_BYTES:
                CODE.clear()
                CODE_BYTES[0] = 0
            CODE[key] = code
            CODE_BYTES[0] += len(data)

def call(req, args, wake_r, preloaded):
    start = time.monotonic()
    deadline = start + float(req["timeout_s"])
    if req.get("fresh"):   # a new deployment in this warm sandbox: nothing of the last one may reach it
        drop_spare()
        CODE.clear()
        CODE_BYTES[0] = 0
    sp, SPARE[0] = SPARE[0], None
    if sp is not None:
        pid, rr, orr, er, qw = sp
        try:
            write_all(qw, frame(req, args))
            os.close(qw)
        except OSError:    # the spare is gone: a fresh child instead
            SPARE[0] = sp
            drop_spare()
            sp = None
    if sp is None:
        if CFG.get("code_cache", True):
            try:
                precompile(req["cwd"])
            except Exception:
                pass
        pid, rr, orr, er, _ = spawn(req, args, wake_r, preloaded)
    result, err = bytearray(), bytearray()
    total = 0
    readers = {rr, orr, er}
    status = None
    timed_out = flood = False
    while readers or status is None:
        left = deadline - time.monotonic()
        if left <= 0:
            timed_out = True
            break
        r, _, _ = select.select(list(readers) + [wake_r], [], [], left)
        if wake_r in r:
            try:
                os.read(wake_r, 4096)
            except OSError:
                pass
        if status is None:
            p, st = os.waitpid(pid, os.WNOHANG)
            if p == pid:
                status = st
                kill_rest(pid)   # the call is over: nothing it started may outlive it
        for fd in r:
            if fd not in readers:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                readers.discard(fd)
                continue
            total += len(chunk)
            if fd == rr:
                result += chunk
            elif fd == er:
                err += chunk
                if len(err) > 2 * ERR_TAIL:
                    del err[:len(err) - ERR_TAIL]
        if total > HARD:
            flood = True
            break
    if status is None:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
        kill_rest(pid)
        try:
            _, status = os.waitpid(pid, 0)
        except ChildProcessError:
            status = 9
    if not KILL_ALL:
        reap_all(False)
    for fd in (rr, orr, er):
        os.close(fd)
    if timed_out:
        code = 124
    elif flood:
        code, result = -9, b""
    elif os.WIFSIGNALED(status):
        code = -os.WTERMSIG(status)
    else:
        code = os.WEXITSTATUS(status)
    head = {"exit_code": code, "timed_out": timed_out, "killed_for_output": flood,
            "stderr": bytes(err[-ERR_TAIL:]).decode("utf-8", "replace"), "duration_s": time.monotonic() - start}
    return head, bytes(result)

def main():
    global WAKE_W, SIGNALS0
    SIGNALS0 = {}
    for sig in range(1, signal.NSIG):
        try:
            SIGNALS0[sig] = signal.getsignal(sig)
        except (OSError, ValueError):
            pass
    os.set_inheritable(REQ, False)
    os.set_inheritable(ANS, False)
    prctl(4, 0)                    # PR_SET_DUMPABLE 0: /proc/<worker>/fd is closed to delivered code
    if KILL_ALL:
        prctl(36, 1)               # PR_SET_CHILD_SUBREAPER: orphans of a call are ours to reap
    wake_r, WAKE_W = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(WAKE_W, False)
    signal.set_wakeup_fd(WAKE_W)
    signal.signal(signal.SIGCHLD, lambda s, f: None)
    preloaded = preload()
    if CFG.get("code_cache", True):
        install_code_cache()
    write_all(ANS, frame({"ready": True, "pid": os.getpid()}))
    while True:
        head = read_exact(REQ, 8)
        if head is None:
            return
        body = read_exact(REQ, struct.unpack(">Q", head)[0])
        if body is None:
            return
        line, _, args = body.partition(b"\n")
        req = json.loads(line.decode("utf-8"))
        try:
            resp, result = call(req, args, wake_r, preloaded)
        except OSError as e:
            resp, result = {"exit_code": 137, "timed_out": False, "killed_for_output": False,
                            "stderr": "fdegym worker: %s" % e, "duration_s": 0.0}, b""
        write_all(ANS, frame(resp, result))
        cwd = req.get("cwd")
        del head, body, line, req, args, resp, result   # no call's data in the next children's image
        next_spare(cwd, wake_r, preloaded)

main()
'''


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
    body = json.dumps(req).encode("utf-8") + b"\n" + payload
    return struct.pack(">Q", len(body)) + body


def decode_answer(body: bytes) -> tuple[dict, bytes]:
    line, _, rest = body.partition(b"\n")
    return json.loads(line.decode("utf-8")), rest


def to_run_result(head: dict, result: bytes) -> RunResult:
    """A worker answer in the shape of a command's result (``stdout`` is the result channel)."""
    return RunResult(int(head["exit_code"]), result.decode("utf-8", "replace"), str(head.get("stderr", "")),
                     bool(head.get("timed_out")), False, bool(head.get("killed_for_output")),
                     float(head.get("duration_s", 0.0)))


def read_frame(fd: int, deadline: float, buf: bytearray) -> bytes:
    """One length-prefixed frame from ``fd`` (``buf`` keeps bytes read past it) or WorkerLost."""
    need = None
    while True:
        if need is None and len(buf) >= 8:
            need = 8 + struct.unpack(">Q", bytes(buf[:8]))[0]
        if need is not None and len(buf) >= need:
            body = bytes(buf[8:need])
            del buf[:need]
            return body
        left = deadline - time.monotonic()
        if left <= 0:
            raise WorkerLost("the grading worker did not answer in time", timed_out=True)
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                raise WorkerLost("the grading worker went away", timed_out=False)
            buf += chunk


def write_frame(fd: int, data: bytes, deadline: float) -> None:
    view = memoryview(data)
    while view:
        left = deadline - time.monotonic()
        if left <= 0:
            raise WorkerLost("the grading worker does not read its requests", timed_out=True)
        _, ready, _ = select.select([], [fd], [], left)
        if ready:
            try:
                view = view[os.write(fd, view[:1 << 16]):]
            except (BrokenPipeError, OSError):
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
