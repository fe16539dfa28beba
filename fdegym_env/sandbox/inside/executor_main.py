"""The executor's program: runs as ``/usr/bin/python3 -I -S -c <this text> CFG``, as PID 1 of the
sandbox's PID namespace (see ``executor.py``).

Stdlib only, Python >= 3.8 (the sandbox's python3 is the distribution's). The host sends this
file's text with ``common.py`` in place of the ``from .common import`` line.
"""
import base64
import json
import os
import resource
import signal
import socket
import sys
import threading
import time

from .common import Capped, pump, read_frame, supervise, write_frame

TYPE_CHECKING = False
if TYPE_CHECKING:   # annotations only: the executor does not import typing for them
    from typing import IO, Any, Dict, List, Optional, Tuple

IN: "IO[bytes]"     # the host's requests and our answers; set by setup()
OUT: "IO[bytes]"


def setup(cfg: "Dict[str, Any]") -> None:
    global IN, OUT
    if cfg.get("listen"):   # docker: the host talks to us over a unix socket in a bind-mounted folder
        srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        tmp = cfg["listen"] + ".tmp"
        srv.bind(tmp)
        os.rename(tmp, cfg["listen"])
        srv.listen(1)
        conn, _ = srv.accept()
        srv.close()
        os.unlink(cfg["listen"])
        IN = os.fdopen(os.dup(conn.fileno()), "rb")   # buffered: requests can be megabytes
        OUT = os.fdopen(os.dup(conn.fileno()), "wb", 0)
        conn.close()
    else:
        IN = os.fdopen(os.dup(0), "rb")
        OUT = os.fdopen(os.dup(1), "wb", 0)
    for fd in (IN.fileno(), OUT.fileno()):
        os.set_inheritable(fd, False)
    null = os.open("/dev/null", os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2):
        signal.signal(sig, signal.SIG_IGN)
    try:
        import ctypes
        ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)   # PR_SET_DUMPABLE 0: /proc/1/fd is closed to commands
    except Exception:
        pass


def kill_others(_pid: int = 0) -> None:
    """SIGKILL every process of the namespace but this one (PID 1), then reap them all."""
    if os.getpid() != 1:   # never kill(-1) outside a private PID namespace: it would hit the host
        raise SystemExit("fdegym executor: refusing to run outside its own PID namespace")
    while True:
        try:
            os.kill(-1, signal.SIGKILL)
        except OSError:
            pass
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return
        except InterruptedError:
            continue


ALL_SIGNALS = [s for s in range(1, signal.NSIG) if s not in (signal.SIGKILL, signal.SIGSTOP)]


def spawn(req: "Dict[str, Any]", rin: int, wout: int, werr: int) -> int:
    """posix_spawn (vfork-fast) the command in a new session with default signal handling."""
    argv = req["argv"]
    cpu = int(req.get("cpu_s") or 0)
    if cpu > 0:   # inherited at spawn (soft only: our own hard limit must stay raisable for us)
        saved = resource.getrlimit(resource.RLIMIT_CPU)
        used = resource.getrusage(resource.RUSAGE_SELF)
        soft = int(used.ru_utime + used.ru_stime) + cpu + 1
        if saved[1] != resource.RLIM_INFINITY:
            soft = min(soft, saved[1])
        resource.setrlimit(resource.RLIMIT_CPU, (soft, saved[1]))
    os.chdir(req["cwd"])
    try:
        acts = [(os.POSIX_SPAWN_DUP2, rin, 0), (os.POSIX_SPAWN_DUP2, wout, 1), (os.POSIX_SPAWN_DUP2, werr, 2)]
        pid = os.posix_spawnp(argv[0], argv, req["env"], file_actions=acts, setsid=True,
                              setsigdef=ALL_SIGNALS, setsigmask=[])
    finally:
        os.chdir("/")
        if cpu > 0:
            resource.setrlimit(resource.RLIMIT_CPU, saved)
    try:
        if cpu > 0:
            resource.prlimit(pid, resource.RLIMIT_CPU, (cpu, cpu + 1))
    except OSError:
        pass
    try:
        with open("/proc/%d/oom_score_adj" % pid, "w") as f:
            f.write("1000")
    except OSError:
        pass
    return pid


def run(req: "Dict[str, Any]", wake_r: int) -> "Dict[str, Any]":
    start = time.monotonic()
    cap = int(req.get("cap", 64000))
    hard = max(int(req.get("hard", 8000000)), cap)
    stdin = base64.b64decode(req["stdin"]) if req.get("stdin") is not None else b""
    rin, win_ = os.pipe()
    rout, wout = os.pipe()
    rerr, werr = os.pipe()
    for fd in (rout, rerr, win_):
        os.set_inheritable(fd, False)
    try:
        pid = spawn(req, rin, wout, werr)
    except OSError as e:
        for fd in (rin, wout, werr, rout, rerr, win_):
            os.close(fd)
        return {"exit_code": 127, "stdout": "", "truncated": False, "killed_for_output": False,
                "stderr": "fdegym sandbox: cannot run %r in %s: %s\n" % (req["argv"][0], req["cwd"], e),
                "timed_out": False, "duration_s": time.monotonic() - start}
    for fd in (rin, wout, werr):
        os.close(fd)
    win: "Optional[int]" = win_
    if req.get("stdin") is None:
        os.close(win_)
        win = None
    else:
        os.set_blocking(win_, False)
    bufs = {rout: Capped(cap), rerr: Capped(max(2, cap // 4))}
    status, timed_out, flood, win = supervise(pid, {rout: bufs[rout].add, rerr: bufs[rerr].add}, wake_r,
                                              start + float(req["timeout_s"]), hard, kill_others, stdin, win)
    kill_others()
    if status is None:
        status = 9   # killed by SIGKILL (timeout or output flood)
    for fd in list(bufs) + ([win] if win is not None else []):
        try:
            os.close(fd)
        except OSError:
            pass
    if timed_out:
        code = 124
    elif os.WIFSIGNALED(status):
        code = -os.WTERMSIG(status)
    else:
        code = os.WEXITSTATUS(status)
    out, t1 = bufs[rout].text()
    err, t2 = bufs[rerr].text()
    return {"exit_code": code, "stdout": out, "stderr": err, "timed_out": timed_out,
            "truncated": bool(t1 or t2 or flood), "killed_for_output": flood,
            "duration_s": time.monotonic() - start}


def serve_port(port: int, path: str) -> None:
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", port))
    srv.listen(64)

    def loop() -> None:
        while True:
            try:
                conn, _ = srv.accept()
            except OSError:
                continue
            try:
                up = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                up.connect(path)
            except OSError:
                conn.close()
                continue
            for a, b in ((conn, up), (up, conn)):
                threading.Thread(target=pump, args=(a, b), daemon=True).start()
    threading.Thread(target=loop, daemon=True).start()


WORKER: "Dict[str, Any]" = {}


def wipe(dirs: "List[str]") -> int:
    """Empty the sandbox's private scratch folders (a sandbox reused for another deployment)."""
    import shutil
    n = 0
    for d in dirs:
        try:
            names = os.listdir(d)
        except OSError:
            continue
        for name in names:
            path = os.path.join(d, name)
            try:
                if os.path.isdir(path) and not os.path.islink(path):
                    shutil.rmtree(path, ignore_errors=True)
                else:
                    os.unlink(path)
                n += 1
            except OSError:
                pass
    return n


def worker_stop() -> None:
    """Kill the grading worker (and, being PID 1, everything else): the namespace is clean after."""
    if WORKER:
        for fd in (WORKER["w"], WORKER["r"], WORKER["err"]):
            try:
                os.close(fd)
            except OSError:
                pass
        WORKER.clear()
    kill_others()


def worker_err() -> str:
    try:
        return os.read(WORKER["err"], 4000).decode("utf-8", "replace")
    except (OSError, KeyError):
        return ""


def worker_frame(deadline: float) -> bytes:
    try:
        return read_frame(WORKER["r"], WORKER["buf"], deadline)
    except TimeoutError:
        raise TimeoutError("the grading worker did not answer in time") from None
    except EOFError:
        raise EOFError("the grading worker went away " + worker_err()[-500:]) from None


def worker_start(req: "Dict[str, Any]") -> "Dict[str, Any]":
    """Start the long-lived grading worker: fds 3/4 are its request/answer pipes (see worker.py)."""
    import fcntl
    worker_stop()
    q_r, q_w = os.pipe()
    a_r, a_w = os.pipe()
    e_r, e_w = os.pipe()
    high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (q_r, a_w, e_w)]
    null = fcntl.fcntl(os.open("/dev/null", os.O_RDWR), fcntl.F_DUPFD_CLOEXEC, 10)
    for fd in (q_r, a_w, e_w):
        os.close(fd)
    acts = [(os.POSIX_SPAWN_DUP2, null, 0), (os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, high[2], 2),
            (os.POSIX_SPAWN_DUP2, high[0], 3), (os.POSIX_SPAWN_DUP2, high[1], 4)]
    os.chdir(req["cwd"])
    try:
        pid = os.posix_spawnp(req["argv"][0], req["argv"], req["env"], file_actions=acts, setsid=True,
                              setsigdef=ALL_SIGNALS, setsigmask=[])
    finally:
        os.chdir("/")
        for fd in high + [null]:
            os.close(fd)
    os.set_blocking(e_r, False)
    os.set_blocking(q_w, False)
    WORKER.update(pid=pid, w=q_w, r=a_r, err=e_r, buf=bytearray())
    try:
        body = worker_frame(time.monotonic() + float(req.get("wait_s", 30)))
    except (TimeoutError, EOFError) as e:
        msg = "%s %s" % (e, worker_err()[-800:])
        worker_stop()
        return {"lost": msg}
    return {"worker": True, "pid": pid, "hello": body.decode("utf-8", "replace")[:200]}


def worker_call(req: "Dict[str, Any]", payload: bytes) -> "Tuple[Dict[str, Any], bytes]":
    """Relay one framed call to the worker and its framed answer back; a worker that does not answer
    by ``wait_s`` or dies is killed with everything else."""
    if not WORKER:
        return {"lost": "no grading worker is running", "timed_out": False}, b""
    deadline = time.monotonic() + float(req["wait_s"])
    try:
        try:
            write_frame(WORKER["w"], len(payload).to_bytes(8, "big") + payload, deadline)
        except TimeoutError:
            raise TimeoutError("the grading worker does not read its requests") from None
        body = worker_frame(deadline)
    except (TimeoutError, EOFError, OSError) as e:
        worker_stop()
        return {"lost": "%s: %s" % (type(e).__name__, e), "timed_out": isinstance(e, TimeoutError)}, b""
    return {"n": len(body)}, body


def main() -> None:
    if os.getpid() != 1:
        sys.stderr.write("fdegym executor: must run as PID 1 of a private PID namespace\n")
        sys.exit(3)
    cfg = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}
    setup(cfg)
    for port in cfg.get("ports", []):
        serve_port(int(port), os.path.join(cfg["ports_dir"], "%d.sock" % int(port)))
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    os.set_blocking(wake_r, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda s, f: None)
    OUT.write(b'{"ready": true}\n')
    while True:
        line = IN.readline()
        if not line:
            kill_others()
            return
        resp: "Dict[str, Any]"
        try:
            req = json.loads(line.decode("utf-8"))
            if req.get("op") == "ping":
                resp = {"pong": True}
            elif req.get("op") == "reset":
                worker_stop()
                resp = {"reset": True}
            elif req.get("op") == "wipe":
                resp = {"wiped": wipe(req.get("dirs") or [])}
            elif req.get("op") == "worker":
                resp = worker_start(req)
            elif req.get("op") == "wcall":
                payload = IN.read(int(req["n"]))
                resp, body = worker_call(req, payload)
                OUT.write(json.dumps(resp).encode("utf-8") + b"\n" + body)
                continue
            else:
                if WORKER:
                    worker_stop()   # a command runs alone; its end kills everything anyway
                resp = run(req, wake_r)
        except Exception as e:
            resp = {"error": "%s: %s" % (type(e).__name__, e)}
        OUT.write(json.dumps(resp).encode("utf-8") + b"\n")


if __name__ == "__main__":
    main()
