"""The per-episode executor: one long-lived ``python3`` inside the sandbox that runs every command.

Starting a namespace (or a container) per command costs milliseconds to seconds; instead each
sandbox starts this program once, as PID 1 of the sandbox's PID namespace, and sends it one JSON
line per command. For each command it forks ``/bin/sh -c ...`` (or the argv) in a new session with
rlimits, feeds stdin, keeps the head and tail of stdout/stderr in memory (never on disk), enforces
the time limit and the output limit, and when the command ends — normally, on timeout or on flood —
sends SIGKILL to **every other process in the namespace** (``kill(-1)`` from PID 1), so ``setsid``,
``nohup`` and double-forked children die too, then reaps them all. Being PID 1 it cannot be killed
from inside; it marks itself non-dumpable so commands cannot open its pipes through ``/proc/1/fd``.

Granted ports: for each port P the executor listens on ``127.0.0.1:P`` *inside* the sandbox's own
network namespace and forwards each connection to the unix socket ``<ports_dir>/P.sock``, which the
host side (:class:`PortBridge`) connects to ``127.0.0.1:P`` on the host. Nothing else is reachable.

Example:
    >>> client = ExecutorClient(proc.stdin, proc.stdout)          # doctest: +SKIP
    >>> client.run(["/bin/sh", "-c", "echo hi"], cwd="/workspace", env={}, timeout_s=5)  # doctest: +SKIP
"""

from __future__ import annotations

import json
import os
import select
import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path

from fdegym_env.sandbox.base import HARD_OUTPUT_LIMIT, RunResult

# The program that runs inside the sandbox. Stdlib only; Python >= 3.6 syntax (the sandbox's
# python3 is the host distribution's, which can be older than the package's).
EXECUTOR_SRC = r'''
import base64, errno, json, os, resource, select, signal, socket, sys, threading, time

def setup(cfg):
    global IN, OUT
    if cfg.get("listen"):   # docker: the host talks to us over a unix socket in a bind-mounted folder
        srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        tmp = cfg["listen"] + ".tmp"
        srv.bind(tmp); os.rename(tmp, cfg["listen"]); srv.listen(1)
        conn, _ = srv.accept(); srv.close(); os.unlink(cfg["listen"])
        IN = os.fdopen(os.dup(conn.fileno()), "rb")   # buffered: requests can be megabytes
        OUT = os.fdopen(os.dup(conn.fileno()), "wb", 0)
        conn.close()
    else:
        IN = os.fdopen(os.dup(0), "rb")
        OUT = os.fdopen(os.dup(1), "wb", 0)
    for fd in (IN.fileno(), OUT.fileno()):
        os.set_inheritable(fd, False)
    null = os.open("/dev/null", os.O_RDWR)
    os.dup2(null, 0); os.dup2(null, 1)
    os.close(null)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2):
        signal.signal(sig, signal.SIG_IGN)
    try:
        import ctypes
        ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)   # PR_SET_DUMPABLE 0: /proc/1/fd is closed to commands
    except Exception:
        pass

class Capped(object):
    def __init__(self, cap):
        self.half = max(1, cap // 2); self.head = bytearray(); self.tail = bytearray(); self.total = 0
    def add(self, chunk):
        self.total += len(chunk)
        room = self.half - len(self.head)
        if room > 0:
            self.head += chunk[:room]; chunk = chunk[room:]
        if chunk:
            self.tail += chunk
            if len(self.tail) > self.half:
                del self.tail[:len(self.tail) - self.half]
    def text(self):
        cut = self.total - len(self.head) - len(self.tail)
        head = self.head.decode("utf-8", "replace")
        if cut <= 0:
            return head + self.tail.decode("utf-8", "replace"), False
        return head + "\n[... %d bytes of output cut ...]\n" % cut + self.tail.decode("utf-8", "replace"), True

def kill_others():
    """SIGKILL every process of the namespace but this one (PID 1), then reap them all."""
    if os.getpid() != 1:   # never kill(-1) outside a private PID namespace: it would hit the host
        raise SystemExit("fdegym executor: refusing to run outside its own PID namespace")
    while True:
        try:
            os.kill(-1, signal.SIGKILL)
        except OSError:
            pass
        try:
            pid, _ = os.waitpid(-1, 0)
        except ChildProcessError:
            return
        except InterruptedError:
            continue

ALL_SIGNALS = [s for s in range(1, signal.NSIG) if s not in (signal.SIGKILL, signal.SIGSTOP)]

def spawn(req, rin, wout, werr):
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

def run(req, wake_r):
    start = time.monotonic()
    cap = int(req.get("cap", 64000)); hard = max(int(req.get("hard", 8000000)), cap)
    stdin = base64.b64decode(req["stdin"]) if req.get("stdin") is not None else b""
    rin, win = os.pipe(); rout, wout = os.pipe(); rerr, werr = os.pipe()
    for fd in (rout, rerr, win):
        os.set_inheritable(fd, False)
    try:
        pid = spawn(req, rin, wout, werr)
    except OSError as e:
        for fd in (rin, wout, werr, rout, rerr, win):
            os.close(fd)
        return {"exit_code": 127, "stdout": "", "truncated": False, "killed_for_output": False,
                "stderr": "fdegym sandbox: cannot run %r in %s: %s\n" % (req["argv"][0], req["cwd"], e),
                "timed_out": False, "duration_s": time.monotonic() - start}
    for fd in (rin, wout, werr):
        os.close(fd)
    if req.get("stdin") is None:
        os.close(win); win = None
    else:
        os.set_blocking(win, False)
    bufs = {rout: Capped(cap), rerr: Capped(max(2, cap // 4))}
    readers = set(bufs); deadline = start + float(req["timeout_s"])
    timed_out = flood = False; status = None; pos = 0
    while readers or status is None:
        left = deadline - time.monotonic()
        if left <= 0:
            timed_out = True; break
        wl = [win] if win is not None else []
        try:
            r, w, _ = select.select(list(readers) + [wake_r], wl, [], left)
        except InterruptedError:
            continue
        if wake_r in r:
            try:
                os.read(wake_r, 4096)
            except OSError:
                pass
        if status is None:
            try:
                p, st = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                p, st = pid, 0
            if p == pid:
                status = st
                kill_others()   # the command is over: nothing it started may outlive it
        for fd in r:
            if fd in readers:
                chunk = os.read(fd, 65536)
                if chunk:
                    bufs[fd].add(chunk)
                else:
                    readers.discard(fd)
        if w:
            try:
                pos += os.write(win, stdin[pos:pos + 65536])
            except (BrokenPipeError, OSError):
                pos = len(stdin)
            if pos >= len(stdin):
                os.close(win); win = None
        if sum(b.total for b in bufs.values()) > hard:
            flood = True; break
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
    out, t1 = bufs[rout].text(); err, t2 = bufs[rerr].text()
    return {"exit_code": code, "stdout": out, "stderr": err, "timed_out": timed_out,
            "truncated": bool(t1 or t2 or flood), "killed_for_output": flood,
            "duration_s": time.monotonic() - start}

def pump(a, b):
    try:
        while True:
            data = a.recv(65536)
            if not data:
                break
            b.sendall(data)
    except OSError:
        pass
    for s in (a, b):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

def serve_port(port, path):
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", port)); srv.listen(64)
    def loop():
        while True:
            try:
                conn, _ = srv.accept()
            except OSError:
                continue
            try:
                up = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); up.connect(path)
            except OSError:
                conn.close(); continue
            for a, b in ((conn, up), (up, conn)):
                t = threading.Thread(target=pump, args=(a, b)); t.daemon = True; t.start()
    t = threading.Thread(target=loop); t.daemon = True; t.start()

WORKER = {}

def wipe(dirs):
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

def worker_stop():
    """Kill the grading worker (and, being PID 1, everything else): the namespace is clean after."""
    if WORKER:
        for fd in (WORKER["w"], WORKER["r"], WORKER["err"]):
            try:
                os.close(fd)
            except OSError:
                pass
        WORKER.clear()
    kill_others()

def worker_err():
    try:
        return os.read(WORKER["err"], 4000).decode("utf-8", "replace")
    except (OSError, KeyError):
        return ""

def worker_frame(deadline):
    buf = WORKER["buf"]
    need = None
    while True:
        if need is None and len(buf) >= 8:
            need = 8 + int.from_bytes(bytes(buf[:8]), "big")
        if need is not None and len(buf) >= need:
            body = bytes(buf[8:need]); del buf[:need]
            return body
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the grading worker did not answer in time")
        try:
            r, _, _ = select.select([WORKER["r"]], [], [], left)
        except InterruptedError:
            continue
        if r:
            chunk = os.read(WORKER["r"], 1 << 20)
            if not chunk:
                raise EOFError("the grading worker went away " + worker_err()[-500:])
            buf += chunk

def worker_start(req):
    """Start the long-lived grading worker: fds 3/4 are its request/answer pipes (see worker.py)."""
    import fcntl
    worker_stop()
    q_r, q_w = os.pipe(); a_r, a_w = os.pipe(); e_r, e_w = os.pipe()
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

def worker_call(req, payload):
    """Relay one framed call to the worker and its framed answer back; a worker that does not answer
    by ``wait_s`` or dies is killed with everything else."""
    if not WORKER:
        return {"lost": "no grading worker is running", "timed_out": False}, b""
    deadline = time.monotonic() + float(req["wait_s"])
    data = len(payload).to_bytes(8, "big") + payload
    view = memoryview(data)
    try:
        while view:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the grading worker does not read its requests")
            try:
                _, w, _ = select.select([], [WORKER["w"]], [], left)
            except InterruptedError:
                continue
            if w:
                view = view[os.write(WORKER["w"], view[:65536]):]
        body = worker_frame(deadline)
    except (TimeoutError, EOFError, OSError) as e:
        worker_stop()
        return {"lost": "%s: %s" % (type(e).__name__, e), "timed_out": isinstance(e, TimeoutError)}, b""
    return {"n": len(body)}, body

def main():
    if os.getpid() != 1:
        sys.stderr.write("fdegym executor: must run as PID 1 of a private PID namespace\n")
        sys.exit(3)
    cfg = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}
    setup(cfg)
    for port in cfg.get("ports", []):
        serve_port(int(port), os.path.join(cfg["ports_dir"], "%d.sock" % int(port)))
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False); os.set_blocking(wake_r, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda s, f: None)
    OUT.write(b'{"ready": true}\n')
    while True:
        line = IN.readline()
        if not line:
            kill_others(); return
        try:
            req = json.loads(line.decode("utf-8"))
            if req.get("op") == "ping":
                resp = {"pong": True}
            elif req.get("op") == "reset":
                worker_stop(); resp = {"reset": True}
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

main()
'''


class ExecutorDied(RuntimeError):
    """The executor went away (killed from outside, OOM, or a protocol error)."""


class ExecutorClient:
    """Host side of the executor protocol over two pipes (or one socket's file objects).

    Example:
        >>> c = ExecutorClient(wfile, rfile); c.wait_ready(10)      # doctest: +SKIP
    """

    def __init__(self, wfile, rfile):
        self.w, self.r = wfile, rfile
        self._buf = bytearray()

    def _fill(self, enough, deadline: float) -> None:
        """Read the executor's output into the buffer until ``enough(buffer)`` or the deadline."""
        fd = self.r.fileno()
        while not enough(self._buf):
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("executor did not answer in time")
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    raise ExecutorDied("executor closed its output")
                self._buf += chunk

    def _readline(self, deadline: float) -> bytes:
        self._fill(lambda buf: b"\n" in buf, deadline)
        line, _, rest = self._buf.partition(b"\n")
        self._buf = bytearray(rest)
        return bytes(line)

    def request(self, req: dict, wait_s: float) -> dict:
        data = json.dumps(req).encode("utf-8") + b"\n"
        try:
            self.w.write(data)
            self.w.flush()
        except (BrokenPipeError, OSError) as e:
            raise ExecutorDied(f"cannot reach executor: {e}") from None
        resp = json.loads(self._readline(time.monotonic() + wait_s))
        if "error" in resp:
            raise ExecutorDied(f"executor error: {resp['error']}")
        return resp

    def _read_exact(self, n: int, deadline: float) -> bytes:
        self._fill(lambda buf: len(buf) >= n, deadline)
        out = bytes(self._buf[:n])
        del self._buf[:n]
        return out

    def request_raw(self, req: dict, payload: bytes, wait_s: float) -> tuple[dict, bytes]:
        """A request followed by ``payload`` raw bytes; the answer's header line says how many raw bytes follow."""
        data = json.dumps(dict(req, n=len(payload))).encode("utf-8") + b"\n" + payload
        try:
            self.w.write(data)
            self.w.flush()
        except (BrokenPipeError, OSError) as e:
            raise ExecutorDied(f"cannot reach executor: {e}") from None
        deadline = time.monotonic() + wait_s
        resp = json.loads(self._readline(deadline))
        if "error" in resp:
            raise ExecutorDied(f"executor error: {resp['error']}")
        return resp, (self._read_exact(int(resp["n"]), deadline) if "n" in resp else b"")

    def wait_ready(self, wait_s: float) -> None:
        line = self._readline(time.monotonic() + wait_s)
        if not json.loads(line).get("ready"):
            raise ExecutorDied(f"unexpected executor greeting: {line[:200]!r}")

    def run(self, argv: list[str], *, cwd: str, env: dict[str, str], timeout_s: float, stdin: bytes | None,
            cap: int, hard: int = HARD_OUTPUT_LIMIT) -> RunResult:
        import base64
        req = {"argv": argv, "cwd": cwd, "env": env, "timeout_s": timeout_s, "cap": cap, "hard": hard,
               "cpu_s": int(timeout_s) + 2,
               "stdin": base64.b64encode(stdin).decode("ascii") if stdin is not None else None}
        resp = self.request(req, timeout_s + 15.0)
        return RunResult(int(resp["exit_code"]), resp["stdout"], resp["stderr"], bool(resp["timed_out"]),
                         bool(resp["truncated"]), bool(resp["killed_for_output"]), float(resp["duration_s"]))


class PortBridge:
    """Host side of granted ports: ``<dir>/P.sock`` → ``127.0.0.1:P`` on the host, one thread per port.

    Example:
        >>> b = PortBridge([8080]); b.directory  # bind this into the sandbox     # doctest: +SKIP
    """

    def __init__(self, ports: tuple[int, ...] | list[int], owner_uid: int | None = None):
        self.ports = tuple(int(p) for p in ports)
        for p in self.ports:
            if not 0 < p < 65536:
                raise ValueError(f"allow_ports: expected TCP ports 1..65535, got {p}")
        self.directory = Path(tempfile.mkdtemp(prefix="fdegym-ports-"))
        os.chmod(self.directory, 0o755)
        self._servers: list[socket.socket] = []
        self._closed = False
        for p in self.ports:
            path = self.directory / f"{p}.sock"
            srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            srv.bind(str(path))
            os.chmod(path, 0o666)
            srv.listen(64)
            self._servers.append(srv)
            threading.Thread(target=self._accept, args=(srv, p), daemon=True).start()

    def _accept(self, srv: socket.socket, port: int) -> None:
        while not self._closed:
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            try:
                up = socket.create_connection(("127.0.0.1", port), timeout=5)
                up.settimeout(None)
            except OSError:
                conn.close()
                continue
            for a, b in ((conn, up), (up, conn)):
                threading.Thread(target=_pump, args=(a, b), daemon=True).start()

    def close(self) -> None:
        self._closed = True
        for s in self._servers:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()
        shutil.rmtree(self.directory, ignore_errors=True)


def _pump(a: socket.socket, b: socket.socket) -> None:
    try:
        while True:
            data = a.recv(65536)
            if not data:
                break
            b.sendall(data)
    except OSError:
        pass
    for s in (a, b):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
