"""The grading worker's program: runs as ``python3 -c BOOT <this text> CFG`` (see ``worker.py``).

Stdlib only, Python >= 3.8 (the sandbox's python3 is the distribution's). The host sends this
file's text with ``common.py`` in place of the ``from .common import`` line; ``BOOT`` runs it in a
private dict named ``fdegym_worker``, which starts :func:`main`.
"""
import atexit
import gc
import io
import json
import os
import resource
import signal
import sys
import threading
import time

from .common import frame, read_body, split_frame, supervise, write_all

TYPE_CHECKING = False
if TYPE_CHECKING:   # annotations only: the worker does not import typing for them
    from types import CodeType, FrameType
    from typing import Any, Dict, List, Optional, Set, Tuple

# Set by configure() from the CFG argument.
CFG: "Dict[str, Any]" = {}
REQ, ANS = 3, 4
KILL_ALL = False
DRIVER_CODE = compile("", "<string>", "exec")
HARD = 32 << 20
ERR_TAIL = 8000
WAKE_W = -1
SIGNALS0: "Dict[int, Any]" = {}


def configure(cfg: "Dict[str, Any]") -> None:
    global CFG, REQ, ANS, KILL_ALL, DRIVER_CODE, HARD
    CFG = cfg
    REQ, ANS = int(CFG.get("req_fd", 3)), int(CFG.get("ans_fd", 4))
    KILL_ALL = bool(CFG.get("kill_all")) and os.getppid() == 1   # only under the executor, PID 1 of its namespace
    DRIVER_CODE = compile(CFG["driver"], "<string>", "exec")   # what the child would compile, once
    HARD = int(CFG.get("hard", 32 << 20))


def prctl(option: int, value: int) -> None:
    try:
        import ctypes
        ctypes.CDLL(None).prctl(option, value, 0, 0, 0)
    except Exception:
        pass


def preload() -> "List[str]":
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


def reap_all(block: bool) -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, 0 if block else os.WNOHANG)
        except ChildProcessError:
            return
        except InterruptedError:
            continue
        if pid == 0:
            return


def kill_rest(pid: int) -> None:
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


def prepare(ow: int, ew: int, close: "List[int]") -> None:
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


def child(req: "Dict[str, Any]", args: bytes, rw: int, preloaded: "List[str]") -> None:
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
        depth = 0
        f: "Optional[FrameType]" = sys._getframe()
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


def spawn(req: "Optional[Dict[str, Any]]", args: bytes, wake_r: int,
          preloaded: "List[str]") -> "Tuple[int, int, int, int, int]":
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
                body = read_body(qr)
                if body is None:    # the worker went away, or gave this spare up
                    os._exit(0)
                os.close(qr)
                req, args = split_frame(body)
        except BaseException:
            os._exit(70)
        child(req, args, rw, preloaded)
    for fd in (rw, ow, ew, qr):
        if fd >= 0:
            os.close(fd)
    return pid, rr, orr, er, qw


SPARE: "List[Optional[Tuple[int, int, int, int, int]]]" = [None]


def drop_spare() -> None:
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


def next_spare(cwd: "Optional[str]", wake_r: int, preloaded: "List[str]") -> None:
    """Between calls: compile what the last call's tree holds, then fork the next call's child."""
    drop_spare()
    if CFG.get("code_cache", True) and cwd:
        try:
            precompile(cwd)
        except Exception:
            pass
    if CFG.get("prefork", True):
        try:
            SPARE[0] = spawn(None, b"", wake_r, preloaded)
        except OSError:
            SPARE[0] = None


def exit_like_interpreter(before: "Set[str]", main: "Dict[str, Any]") -> None:
    """What a driver process does when its program ends, without tearing down the preloaded stdlib
    (a full Py_Finalize of the worker's image costs ~35 ms a call): join non-daemon threads, run
    atexit handlers, drop the delivered modules and the driver's globals (so files they hold are
    flushed and closed by their finalizers), flush stdio, exit 0."""
    code = 0
    try:
        threading._shutdown()   # type: ignore[attr-defined]  # private: what the interpreter runs at exit
        atexit._run_exitfuncs()
        for name in [n for n in list(sys.modules) if n not in before]:
            mod = sys.modules.pop(name, None)
            try:
                mod.__dict__.clear()
            except Exception:
                pass
        keep: "Dict[str, Any]" = {k: main[k] for k in ("__name__", "__doc__", "__builtins__", "__loader__", "__spec__",
                                      "__package__", "__annotations__") if k in main}
        main.clear()
        main.update(keep)
        gc.collect()
    except BaseException:
        import traceback
        traceback.print_exc()
        code = 1
    streams: "List[Any]" = [sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__]
    for stream in streams:
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
CODE: "Dict[Tuple[str, bytes], CodeType]" = {}
CODE_BYTES = [0]
CODE_MAX_BYTES = 16 << 20
SCAN_MAX_ENTRIES = 400
SCAN_MAX_FILE = 512 << 10


def install_code_cache() -> None:
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
    bext.SourceLoader.source_to_code = source_to_code   # type: ignore[method-assign]  # the cache's hook


def precompile(cwd: str) -> None:
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


def call(req: "Dict[str, Any]", args: bytes, wake_r: int,
         preloaded: "List[str]") -> "Tuple[Dict[str, Any], bytes]":
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

    def add_err(chunk: bytes) -> None:
        err.extend(chunk)
        if len(err) > 2 * ERR_TAIL:
            del err[:len(err) - ERR_TAIL]
    status, timed_out, flood, _ = supervise(pid, {rr: result.extend, orr: None, er: add_err}, wake_r, deadline,
                                            HARD, kill_rest)
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
        code, result = -9, bytearray()
    elif os.WIFSIGNALED(status):
        code = -os.WTERMSIG(status)
    else:
        code = os.WEXITSTATUS(status)
    head = {"exit_code": code, "timed_out": timed_out, "killed_for_output": flood,
            "stderr": bytes(err[-ERR_TAIL:]).decode("utf-8", "replace"), "duration_s": time.monotonic() - start}
    return head, bytes(result)


def main() -> None:
    global WAKE_W
    configure(json.loads(sys.argv[2]))
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
        body = read_body(REQ)
        if body is None:
            return
        req, args = split_frame(body)
        try:
            resp, result = call(req, args, wake_r, preloaded)
        except OSError as e:
            resp, result = {"exit_code": 137, "timed_out": False, "killed_for_output": False,
                            "stderr": "fdegym worker: %s" % e, "duration_s": 0.0}, b""
        write_all(ANS, frame(resp, result))
        cwd = req.get("cwd")
        del body, req, args, resp, result   # no call's data in the next children's image
        next_spare(cwd, wake_r, preloaded)


if __name__ == "fdegym_worker":   # the name BOOT runs it under
    main()
