"""The compat HTTP servers' port handling."""

from __future__ import annotations

import json
import socket
import urllib.request

from fdegym_env.harness import servers


def test_server_port_cannot_be_taken_between_choosing_and_binding(monkeypatch):
    # free_port() binds, closes and hands the number out: another process can take it before the
    # server binds. Simulate exactly that: the number it hands out is already taken.
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    monkeypatch.setattr(servers, "free_port", lambda: taken.getsockname()[1])

    class H(servers._JSONHandler):
        def do_GET(self):
            return self._send({"ok": True})

    srv = servers._Server(H)
    try:
        assert srv.port != taken.getsockname()[1]
        with urllib.request.urlopen(f"http://127.0.0.1:{srv.port}/", timeout=5) as r:
            assert json.loads(r.read()) == {"ok": True}
    finally:
        srv.close()
        taken.close()
