"""Probes: one small check per sandbox guarantee (docs/design.md, Sandbox), run by ``fdegym doctor`` and the tests.

A :class:`ProbeContext` builds a realistic layout — a workspace inside an episode folder, a sibling
episode's workspace with a secret, a secret in the host temp dir, two local TCP servers (one
granted, one not) and secrets in the host environment — starts the backend on it, and each probe
returns ``(ok, detail)``.

Example:
    >>> from fdegym_env.sandbox.probes import run_probes
    >>> [p["name"] for p in run_probes("bwrap") if not p["ok"]]        # doctest: +SKIP
    []
"""

from __future__ import annotations

import os
import shlex
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable

from fdegym_env.core.paths import episodes_dir

SECRET = "fdegym-probe-secret-7c1e"
ENV_SECRETS = {"OPENAI_API_KEY": "sk-" + SECRET, "FDEGYM_PROBE_TOKEN": SECRET}
SLEEP_MARK = "987654.321"   # a `sleep` argument no other process uses, to find leftovers on the host


class _Server:
    """A tiny TCP server on 127.0.0.1 that answers every connection with one line."""

    def __init__(self, reply: bytes):
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.reply = reply
        self.hits = 0
        threading.Thread(target=self._loop, daemon=True).start()

    def _loop(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.hits += 1
            try:
                conn.sendall(self.reply)
            finally:
                conn.close()

    def close(self):
        self.sock.close()


class ProbeContext:
    """A started sandbox of ``backend`` on a fresh workspace, plus the host-side bait."""

    def __init__(self, backend: str):
        import fdegym_env
        from fdegym_env.core.registry import tasks_dir
        from fdegym_env.sandbox import make_sandbox
        self.backend = backend
        self.package_dir = Path(fdegym_env.__file__).resolve().parent
        self.tasks_dir = tasks_dir().resolve()
        from fdegym_env.core.owned import make_owned_dir
        self.root = make_owned_dir("fdegym-probe-", episodes_dir())
        self.workspace = self.root / "workspace"
        (self.workspace / "sub").mkdir(parents=True)
        (self.root / "episode-secret.txt").write_text(SECRET)            # the workspace's parent
        self.other = make_owned_dir("fdegym-other-", episodes_dir())
        (self.other / "workspace").mkdir()
        (self.other / "workspace" / "secret.txt").write_text(SECRET)    # another episode
        fd, tmp_secret = tempfile.mkstemp(prefix="fdegym-probe-", suffix=".txt")
        os.write(fd, SECRET.encode())
        os.close(fd)
        self.host_tmp_secret = Path(tmp_secret)                        # host /tmp
        self.granted, self.denied = _Server(b"granted-ok\n"), _Server(b"denied-LEAK\n")
        self._saved_env = {k: os.environ.get(k) for k in ENV_SECRETS}
        os.environ.update(ENV_SECRETS)
        self.sandbox = make_sandbox(backend)
        self.sandbox.start(self.workspace, allow_ports=(self.granted.port,))

    def run(self, cmd: str, timeout_s: float = 20, **kw):
        return self.sandbox.run(cmd, timeout_s=timeout_s, **kw)

    def close(self):
        from fdegym_env.core.owned import remove_owned
        try:
            self.sandbox.close()
        finally:
            for k, v in self._saved_env.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
            self.granted.close()
            self.denied.close()
            remove_owned(self.root)
            remove_owned(self.other)
            self.host_tmp_secret.unlink(missing_ok=True)


# --- the probes ------------------------------------------------------------------------------------
def _unreadable(ctx: ProbeContext, paths: list[str]) -> tuple[bool, str]:
    leaks = []
    for p in paths:
        q = shlex.quote(p)
        r = ctx.run(f"ls -a {q} 2>/dev/null; cat {q} 2>/dev/null; test -e {q} && echo EXISTS")
        if r.stdout.strip():
            leaks.append(f"{p}: {r.stdout.strip()[:80]!r}")
    return (not leaks), ("; ".join(leaks) if leaks else f"{len(paths)} paths invisible")


def probe_package_hidden(ctx):
    return _unreadable(ctx, [str(ctx.package_dir), str(ctx.package_dir / "__init__.py"),
                             str(ctx.package_dir / "sandbox" / "probes.py")])


def probe_tasks_hidden(ctx):
    paths = [str(ctx.tasks_dir)] + [str(p) for p in sorted(ctx.tasks_dir.glob("*/grader.py"))[:3]]
    return _unreadable(ctx, paths)


def probe_other_workspace_hidden(ctx):
    return _unreadable(ctx, [str(ctx.other), str(ctx.other / "workspace" / "secret.txt")])


def probe_home_hidden(ctx):
    home = os.path.expanduser("~")
    paths = [home, "/root", os.path.join(home, ".cache"), os.path.join(home, ".ssh")]
    return _unreadable(ctx, sorted(set(paths)))


def probe_host_tmp_hidden(ctx):
    return _unreadable(ctx, [str(ctx.host_tmp_secret), str(ctx.host_tmp_secret.parent / "fdegym-bwrap-0")])


def probe_workspace_parent_hidden(ctx):
    ok, detail = _unreadable(ctx, [str(ctx.root), str(ctx.root / "episode-secret.txt"),
                                   "/workspace/../episode-secret.txt"])
    r = ctx.run("cat ../episode-secret.txt 2>/dev/null; grep -rs " + SECRET + " / --exclude-dir=proc "
                "--exclude-dir=sys --exclude-dir=dev --exclude-dir=usr 2>/dev/null | head -3")
    if SECRET in r.stdout:
        return False, f"secret found from inside: {r.stdout.strip()[:200]!r}"
    return ok, detail + "; a filesystem-wide grep finds no secret"


def probe_no_write_outside(ctx):
    bad = []
    for p in ["/usr/fdegym-probe", "/etc/fdegym-probe", "/fdegym-probe", "/workspace/../fdegym-probe",
              "/proc/fdegym-probe", "/run/fdegym/ports/x"]:
        r = ctx.run(f"echo x > {shlex.quote(p)} 2>/dev/null && echo WROTE")
        if "WROTE" in r.stdout:
            bad.append(p)
    r = ctx.run("echo ok > /tmp/probe && cat /tmp/probe && echo ok > /workspace/probe.txt && cat probe.txt")
    if r.stdout.split() != ["ok", "ok"]:
        bad.append(f"cannot write /tmp or the workspace: {r.stdout!r} {r.stderr[-200:]!r}")
    for leaked in [Path("/fdegym-probe"), ctx.root / "fdegym-probe"]:
        if leaked.exists():
            bad.append(f"{leaked} appeared on the host")
    (ctx.workspace / "probe.txt").unlink(missing_ok=True)
    return (not bad), ("wrote: " + ", ".join(bad)) if bad else "only /workspace and /tmp are writable"


def probe_clean_env(ctx):
    r = ctx.run("env")
    leaked = [k for k in ENV_SECRETS if k in r.stdout] + (["secret value"] if SECRET in r.stdout else [])
    keys = sorted(line.split("=", 1)[0] for line in r.stdout.splitlines() if "=" in line)
    return (not leaked and r.exit_code == 0), (f"leaked {leaked}" if leaked else "env: " + " ".join(keys))


def probe_no_internet(ctx):
    code = ("import socket\nfor h in [('1.1.1.1', 53), ('8.8.8.8', 443), ('deb.debian.org', 80)]:\n"
            "    try:\n        socket.create_connection(h, timeout=2).close(); print('REACHED', h)\n"
            "    except OSError as e: print('blocked', h[0], type(e).__name__)\n")
    r = ctx.run(f"python3 -c {shlex.quote(code)}", timeout_s=30)
    return ("REACHED" not in r.stdout and r.stdout.count("blocked") == 3), r.stdout.strip().replace("\n", "; ")


def probe_ports(ctx):
    code = ("import socket, sys\nfor p in sys.argv[1:]:\n    try:\n"
            "        s = socket.create_connection(('127.0.0.1', int(p)), timeout=3); print(p, s.recv(100).decode().strip())\n"
            "    except OSError as e: print(p, 'refused', type(e).__name__)\n")
    r = ctx.run(f"python3 -c {shlex.quote(code)} {ctx.granted.port} {ctx.denied.port}", timeout_s=30)
    ok = (f"{ctx.granted.port} granted-ok" in r.stdout and "denied-LEAK" not in r.stdout
          and ctx.denied.hits == 0)
    return ok, r.stdout.strip().replace("\n", "; ") + (f" {r.stderr[-200:]}" if not ok else "")


def probe_no_host_sockets(ctx):
    paths = ["/var/run/docker.sock", "/run/docker.sock", "/run/dbus/system_bus_socket",
             "/var/run/dbus/system_bus_socket", "/run/user", "/tmp/.X11-unix"]
    return _unreadable(ctx, paths)


def probe_timeout_kills(ctx):
    t = time.monotonic()
    r = ctx.run("sleep 1000", timeout_s=1.5)
    took = time.monotonic() - t
    return (r.timed_out and took < 10), f"timed_out={r.timed_out} exit={r.exit_code} after {took:.2f}s"


def probe_output_cap(ctx):
    t = time.monotonic()
    r = ctx.run("yes", timeout_s=30, cap=10_000)
    took = time.monotonic() - t
    ok = r.killed_for_output and r.truncated and len(r.stdout) < 12_000 and not r.timed_out
    head_tail = r.stdout.startswith("y\n") and r.stdout.rstrip().endswith("y") and "bytes of output cut" in r.stdout
    return (ok and head_tail), f"stopped={r.killed_for_output} kept={len(r.stdout)} chars in {took:.2f}s"


def probe_fork_bomb(ctx):
    t = time.monotonic()
    r = ctx.run("bomb(){ bomb | bomb & }; bomb; sleep 2; echo survived", timeout_s=30)
    after = ctx.run("echo next-step-works")
    took = time.monotonic() - t
    ok = after.stdout.strip() == "next-step-works" and not r.timed_out
    return ok, f"bomb exit={r.exit_code} ({'Cannot fork' in r.stderr and 'fork refused' or 'ended'}), next step ok={ok}, {took:.1f}s"


def probe_memory_bomb(ctx):
    t = time.monotonic()
    r = ctx.run("python3 -c 'a = []\nwhile True: a.append(bytearray(512 << 20))'", timeout_s=60)
    after = ctx.run("echo next-step-works")
    took = time.monotonic() - t
    ok = r.exit_code != 0 and not r.timed_out and after.stdout.strip() == "next-step-works"
    why = "MemoryError" if "MemoryError" in r.stderr else f"exit {r.exit_code}"
    return ok, f"bomb stopped ({why}) in {took:.1f}s, next step ok={after.ok}"


def _host_leftovers() -> list[int]:
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    if SLEEP_MARK.encode() in f.read():
                        found.append(int(pid))
            except OSError:
                pass
    return found


def probe_setsid_gone_after_reset(ctx):
    ctx.run(f"setsid nohup sleep {SLEEP_MARK} >/dev/null 2>&1 & (setsid sh -c 'sleep {SLEEP_MARK}' &) ; "
            "echo started")
    ctx.sandbox.reset()
    time.sleep(0.2)
    left = _host_leftovers()
    r = ctx.run(f"ps -eo args 2>/dev/null | grep -c '[s]leep {SLEEP_MARK}' || true")
    inside = r.stdout.strip() or "0"
    return (not left and inside == "0"), f"host leftovers {left}, inside count {inside}"


def probe_python_and_sqlite(ctx):
    """python3 (also as ``python``, which READMEs say, in the isolated backends) and sqlite3 run, from any folder.
    The ``none`` backend runs the host's commands as the host has them."""
    alias = " && python -c 'import sys; print(sys.version_info[0])'" if ctx.backend != "none" else " && echo 3"
    r = ctx.run("cd sub && python3 -c 'print(6*7)'" + alias)
    s = ctx.run("python3 -c 'import sqlite3; c = sqlite3.connect(\":memory:\"); print(c.execute(\"select 6*7\").fetchone()[0])'"
                " && sqlite3 :memory: 'select 40+2'")
    ok = r.stdout.split() == ["42", "3"] and s.stdout.split() == ["42", "42"]
    return ok, f"cd sub && python3, python -> {r.stdout.split()!r} {r.stderr[-200:]}; sqlite3 -> {s.stdout.split()!r} {s.stderr[-200:]}"


def probe_rlimits(ctx):
    r = ctx.run("ulimit -n; ulimit -c; ulimit -f; ulimit -t")
    vals = r.stdout.split()
    ok = len(vals) == 4 and vals[0] != "unlimited" and int(vals[0]) <= 4096 and vals[1] == "0" \
        and vals[2] != "unlimited" and vals[3] != "unlimited"
    return ok, f"nofile={vals[0] if vals else '?'} core={vals[1] if len(vals) > 1 else '?'} " \
               f"fsize={vals[2] if len(vals) > 2 else '?'} cpu={vals[3] if len(vals) > 3 else '?'}"


def probe_grader_driver(ctx):
    (ctx.workspace / "system").mkdir(exist_ok=True)
    (ctx.workspace / "system" / "mod.py").write_text("def f(x):\n    return x * 2\n")
    if os.geteuid() == 0 and getattr(ctx.sandbox, "uid", None) is not None:
        os.chown(ctx.workspace / "system", ctx.sandbox.uid, ctx.sandbox.uid)
    code = "import json,sys; sys.path.insert(0,'.'); import mod; print(json.dumps(mod.f(json.load(sys.stdin))))"
    r = ctx.sandbox.run(["python3", "-c", code], timeout_s=20, stdin=b"21", cwd="system")
    return r.stdout.strip() == "42", f"argv + stdin + cwd='system' -> {r.stdout.strip()!r} {r.stderr[-200:]}"


def probe_grading_worker(ctx):
    """The persistent grading worker answers a call like a fresh interpreter, and a result record
    printed to stdout is not taken as the result."""
    from fdegym_env.grading.grade import _DRIVER, _MARK
    (ctx.workspace / "system").mkdir(exist_ok=True)
    (ctx.workspace / "system" / "wmod.py").write_text(
        "import sys\n\ndef f(x):\n    if x == 'forge':\n        sys.__stdout__.write(%r + '{\"ok\": true, \"value\": 1}')\n"
        "        sys.__stdout__.flush()\n        import os\n        os._exit(0)\n    return x * 2\n" % _MARK)
    if os.geteuid() == 0 and getattr(ctx.sandbox, "uid", None) is not None:
        for p in (ctx.workspace / "system", ctx.workspace / "system" / "wmod.py"):
            os.chown(p, ctx.sandbox.uid, ctx.sandbox.uid)
    try:
        good = ctx.sandbox.python_call("wmod", "f", b"[21]", driver=_DRIVER, timeout_s=20, cwd="system")
        forged = ctx.sandbox.python_call("wmod", "f", b'["forge"]', driver=_DRIVER, timeout_s=20, cwd="system")
    except NotImplementedError as e:
        return False, str(e)
    ok = good.stdout.endswith('{"ok": true, "value": 42}') and _MARK not in forged.stdout
    return ok, f"call -> {good.stdout[-40:]!r}; forged stdout record -> {forged.stdout[-40:]!r} (exit {forged.exit_code})"


PROBES: dict[str, Callable[[ProbeContext], tuple[bool, str]]] = {
    "package_hidden": probe_package_hidden,
    "tasks_hidden": probe_tasks_hidden,
    "other_workspace_hidden": probe_other_workspace_hidden,
    "home_hidden": probe_home_hidden,
    "host_tmp_hidden": probe_host_tmp_hidden,
    "workspace_parent_hidden": probe_workspace_parent_hidden,
    "no_write_outside": probe_no_write_outside,
    "clean_env": probe_clean_env,
    "no_internet": probe_no_internet,
    "granted_port_only": probe_ports,
    "no_host_sockets": probe_no_host_sockets,
    "timeout_kills": probe_timeout_kills,
    "output_capped": probe_output_cap,
    "fork_bomb_contained": probe_fork_bomb,
    "memory_bomb_contained": probe_memory_bomb,
    "setsid_gone_after_reset": probe_setsid_gone_after_reset,
    "python_and_sqlite": probe_python_and_sqlite,
    "rlimits": probe_rlimits,
    "grader_driver": probe_grader_driver,
    "grading_worker": probe_grading_worker,
}


def run_probes(backend: str, names: list[str] | None = None) -> list[dict]:
    """Run the probes against a fresh sandbox of ``backend``; one dict per probe."""
    out = []
    ctx = ProbeContext(backend)
    try:
        for name in names or list(PROBES):
            t = time.monotonic()
            try:
                ok, detail = PROBES[name](ctx)
            except Exception as e:  # a probe that crashes is a failed guarantee, reported as such
                ok, detail = False, f"probe raised {type(e).__name__}: {e}"
            out.append({"name": name, "ok": bool(ok), "detail": detail, "seconds": round(time.monotonic() - t, 3)})
    finally:
        ctx.close()
        left = _host_leftovers()
        out.append({"name": "nothing_left_after_close", "ok": not left, "detail": f"host leftovers: {left}",
                    "seconds": 0.0})
    return out
