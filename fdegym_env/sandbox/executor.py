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
from fdegym_env.sandbox.inside import source
from fdegym_env.sandbox.inside.common import pump

# The program that runs inside the sandbox: inside/executor_main.py (stdlib only, Python >= 3.8),
# with inside/common.py inlined.
EXECUTOR_SRC = source("executor_main")


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
                threading.Thread(target=pump, args=(a, b), daemon=True).start()

    def close(self) -> None:
        self._closed = True
        for s in self._servers:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()
        shutil.rmtree(self.directory, ignore_errors=True)

