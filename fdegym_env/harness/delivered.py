"""``sys.executable`` for a case's grader and pilot: delivered code runs in fdegym's sandbox.

A harness grader starts the delivered system with ``subprocess.run([sys.executable, ...],
cwd=<ws>/system)``. While it runs, fdegym points ``sys.executable`` at a small wrapper script. The
wrapper sends its argv, working directory, environment changes and stdin over a private unix socket
to this process, which runs ``python3`` with them in a fresh sandbox on the replay workspace (host
paths under the workspace are rewritten to ``/workspace/...``; only the ports of this grading's
services and gateway are reachable; ``FDEGYM_*`` and ``*KEY*``/``*TOKEN*``/``*SECRET*`` variables
are never passed). Output and exit code come back the same way. If the grader kills the wrapper
(its own timeout), the sandbox is torn down with everything in it.

Calls are serialised (one sandbox at a time); a grader that starts the delivered system as a
long-running server and talks to it from another delivered process is not supported.

Example:
    >>> with DeliveredPython(ws, "bwrap", ports=[41001]) as exe:     # doctest: +SKIP
    ...     subprocess.run([exe, "-c", "print(1)"], cwd=ws / "system")
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import socket
import struct
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from fdegym_env.sandbox import make_sandbox
from fdegym_env.sandbox.base import SANDBOX_WORKDIR
from fdegym_env.sandbox.inside import source, with_values

CALL_TIMEOUT_S = 1800.0
_SECRET = re.compile(r"KEY|TOKEN|SECRET|PASSWORD", re.I)
_SWAP_LOCK = threading.RLock()

def _send(s: socket.socket, obj: Any) -> None:
    b = json.dumps(obj).encode("utf-8")
    s.sendall(struct.pack(">Q", len(b)) + b)


def _recv(s: socket.socket) -> Any:
    buf = bytearray()
    while len(buf) < 8:
        c = s.recv(8 - len(buf))
        if not c:
            raise ConnectionError("closed")
        buf += c
    n = struct.unpack(">Q", bytes(buf))[0]
    buf = bytearray()
    while len(buf) < n:
        c = s.recv(min(1 << 20, n - len(buf)))
        if not c:
            raise ConnectionError("closed")
        buf += c
    return json.loads(buf.decode("utf-8"))


class DeliveredPython:
    """A wrapper interpreter that runs delivered code in a sandbox on ``workspace`` (see module doc).

    Args:
        workspace: the (replay) workspace on the host; it becomes ``/workspace`` in the sandbox.
        sandbox: backend name (``bwrap``, ``docker``, ``none``).
        ports: host ports the delivered code may reach on ``127.0.0.1``.
    """

    def __init__(self, workspace: str | Path, sandbox: str, ports: list[int] | tuple[int, ...] = ()) -> None:
        self.workspace = Path(workspace)
        self.sandbox_name = sandbox
        self.ports = tuple(int(p) for p in ports)
        self.isolation = sandbox
        self.calls = 0
        self._dir = Path(tempfile.mkdtemp(prefix="fdegym-exe-"))
        os.chmod(self._dir, 0o700)
        self._sock_path = str(self._dir / "bridge.sock")
        self._srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._srv.bind(self._sock_path)
        self._srv.listen(8)
        self._run_lock = threading.Lock()
        self._closed = False
        self._base_env = dict(os.environ)
        try:
            st = os.fstat(0)
            parent = (st.st_dev, st.st_ino)
        except OSError:
            parent = (-1, -1)
        self.executable = str(self._dir / "python3")
        wrapper = with_values(source("delivered_wrapper"), shebang=f"#!{sys.executable} -I", SOCK=self._sock_path,
                              PARENT_STDIN=parent)
        Path(self.executable).write_text(wrapper, encoding="utf-8")
        os.chmod(self.executable, 0o700)
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    # --- the bridge ---------------------------------------------------------------------------
    def _serve(self) -> None:
        while not self._closed:
            try:
                conn, _ = self._srv.accept()
            except OSError:
                return
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _map(self, text: str) -> str:
        for root in {str(self.workspace), os.path.realpath(self.workspace)}:
            text = text.replace(root, SANDBOX_WORKDIR)
        return text

    def _handle(self, conn: socket.socket) -> None:
        with conn:
            try:
                req = _recv(conn)
            except (ConnectionError, ValueError, OSError):
                return
            with self._run_lock:
                self.calls += 1
                resp = self._run(req, conn)
            try:
                _send(conn, resp)
            except OSError:
                pass

    def _run(self, req: dict, conn: socket.socket) -> dict:
        cwd = os.path.realpath(req.get("cwd") or self.workspace)
        root = os.path.realpath(self.workspace)
        rel = os.path.relpath(cwd, root) if (cwd == root or cwd.startswith(root + os.sep)) else "."
        env = []
        for k, v in sorted((req.get("env") or {}).items()):
            if self._base_env.get(k) == v or k.startswith("FDEGYM_") or _SECRET.search(k) or k in ("PATH", "HOME", "TMPDIR", "PWD", "OLDPWD", "SHLVL", "_"):
                continue
            env.append(f"{k}={self._map(v)}")
        argv = ["/usr/bin/env"] + env + ["python3"] + [self._map(a) for a in req.get("argv", [])]
        sb = make_sandbox(self.sandbox_name)
        done = threading.Event()

        def watch() -> None:  # the grader killed the wrapper: stop the delivered code now
            while not done.is_set():
                try:
                    conn.settimeout(0.2)
                    if conn.recv(1, socket.MSG_PEEK) == b"":
                        break
                except socket.timeout:
                    continue
                except OSError:
                    break
            if not done.is_set():
                sb.close()

        try:
            sb.start(self.workspace, allow_ports=self.ports)
            self.isolation = sb.isolation()
            threading.Thread(target=watch, daemon=True).start()
            r = sb.run(argv, timeout_s=CALL_TIMEOUT_S, stdin=base64.b64decode(req.get("stdin") or ""), cwd=rel,
                       cap=64 << 20)
            out, err, code = r.stdout, r.stderr, r.exit_code
        except Exception as e:  # a sandbox that cannot start: the call fails the way a crash would
            out, err, code = "", f"[fdegym] could not run the delivered code: {e}\n", 125
        finally:
            done.set()
            sb.close()
        return {"stdout": base64.b64encode(out.encode("utf-8")).decode(),
                "stderr": base64.b64encode(err.encode("utf-8")).decode(), "code": int(code) & 0xFF}

    # --- sys.executable ---------------------------------------------------------------------------
    def __enter__(self) -> str:
        return self.executable

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        self._closed = True
        try:
            self._srv.close()
        except OSError:
            pass
        with self._run_lock:
            shutil.rmtree(self._dir, ignore_errors=True)


class swapped_executable:
    """Point ``sys.executable`` at ``exe`` for the duration (process-wide; serialised by a lock)."""

    def __init__(self, exe: str) -> None:
        self.exe = exe

    def __enter__(self) -> None:
        _SWAP_LOCK.acquire()
        self.saved = sys.executable
        sys.executable = self.exe

    def __exit__(self, *exc: Any) -> None:
        sys.executable = self.saved
        _SWAP_LOCK.release()
