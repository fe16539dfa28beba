"""Docker backend: one locked-down container per episode, running the same executor as bwrap.

The container has ``network_mode=none``, a read-only root, all capabilities dropped,
``no-new-privileges``, a pids limit, memory and CPU limits, a private tmpfs ``/tmp``, and runs as
an unprivileged per-sandbox uid. The workspace is its only writable bind. Commands go to the
:mod:`executor <fdegym_env.sandbox.executor>` (PID 1 of the container) over a unix socket in a
small host folder bind-mounted at ``/run/fdegym/ctl``, so timeouts, output caps and the kill of
everything a command started behave exactly as with bwrap. Granted ports use the same unix-socket
bridge, mounted at ``/run/fdegym/ports``.

Images cannot be pulled: ``fdegym sandbox build-image`` builds the base image from Debian packages
(``debootstrap`` + ``docker import``); its tag encodes the recipe's hash (:func:`image_tag`).

Example:
    >>> ok, why = docker_available()
    >>> sb = DockerSandbox(); sb.start("/tmp/ws"); sb.run("python3 -c 'print(6*7)'")  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from fdegym_env.sandbox.base import SANDBOX_ENV, SANDBOX_WORKDIR
from fdegym_env.sandbox.executor import EXECUTOR_SRC, ExecutorClient, ExecutorDied
from fdegym_env.sandbox.executor_sandbox import ExecutorSandbox, chown_tree, pick_uid

IMAGE_REPO = "fdegym-sandbox"
RECIPE: dict[str, Any] = {
    "suite": "bookworm",
    "variant": "minbase",
    "include": ["python3", "python-is-python3", "sqlite3"],
    "remove": ["/var/cache/apt/archives", "/var/lib/apt/lists", "/usr/share/doc", "/usr/share/man",
               "/root", "/home", "/usr/local"],
    "format": 2,
}
CTL_DIR, PORTS_DIR = "/run/fdegym/ctl", "/run/fdegym/ports"
LIMITS = {"pids": 256, "mem": 2 << 30, "cpus": 1.0, "nofile": 1024, "fsize": 256 << 20, "tmp": "512m"}
START_TIMEOUT_S = 30.0


def image_tag(recipe: dict | None = None) -> str:
    """``fdegym-sandbox:<12 hex of the recipe's hash>``: a changed recipe is a new image."""
    digest = hashlib.sha256(json.dumps(recipe or RECIPE, sort_keys=True).encode()).hexdigest()[:12]
    return f"{IMAGE_REPO}:{digest}"


def _client(timeout: int = 10):
    try:
        import docker
    except ImportError:
        raise RuntimeError("the docker SDK is not installed: `pip install 'fdegym[docker]'` (or `pip install docker`)") from None
    return docker.from_env(timeout=timeout)


def docker_version() -> str | None:
    try:
        return str(_client(5).version().get("Version"))
    except Exception:
        return None


def docker_available() -> tuple[bool, str]:
    """Is there a daemon that answers and the sandbox image? Returns ``(ok, why or fix)``."""
    try:
        client = _client(5)
        client.ping()
    except RuntimeError as e:
        return False, str(e)
    except Exception as e:
        return False, (f"no Docker daemon answers ({type(e).__name__}). Fix: start dockerd (e.g. `sudo systemctl "
                       "start docker`, or `.ci/docker_setup.sh`) and make /var/run/docker.sock reachable")
    tag = image_tag()
    try:
        client.images.get(tag)
    except Exception:
        return False, f"the daemon answers but image {tag} is missing. Fix: `fdegym sandbox build-image`"
    return True, f"ok (docker {docker_version()}, image {tag})"


def build_image(mirror: str | None = None, force: bool = False, log=print) -> str:
    """Build the sandbox image from Debian packages (debootstrap + ``docker import``); returns its tag.

    Needs root, ``debootstrap`` (``apt-get install debootstrap``) and a reachable Debian mirror
    (``$FDEGYM_DEBIAN_MIRROR`` or ``http://deb.debian.org/debian``).
    """
    tag = image_tag()
    client = _client(600)
    if not force:
        try:
            client.images.get(tag)
            log(f"image {tag} already present")
            return tag
        except Exception:
            pass
    if shutil.which("debootstrap") is None:
        raise RuntimeError("debootstrap is missing. Fix: `apt-get install -y debootstrap`")
    if os.geteuid() != 0:
        raise RuntimeError("building the image needs root (debootstrap creates device nodes and chroots). "
                           "Fix: run `sudo fdegym sandbox build-image`")
    mirror = mirror or os.environ.get("FDEGYM_DEBIAN_MIRROR") or "http://deb.debian.org/debian"
    with tempfile.TemporaryDirectory(prefix="fdegym-image-") as tmp:
        rootfs = Path(tmp) / "rootfs"
        cmd = ["debootstrap", f"--variant={RECIPE['variant']}", "--include=" + ",".join(RECIPE["include"]),
               RECIPE["suite"], str(rootfs), mirror]
        log("$ " + " ".join(cmd))
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"debootstrap failed (exit {r.returncode}): {(r.stderr or r.stdout)[-1500:]}")
        for rel in RECIPE["remove"]:
            shutil.rmtree(rootfs / rel.lstrip("/"), ignore_errors=True)
        (rootfs / "workspace").mkdir(exist_ok=True)
        (rootfs / "run" / "fdegym" / "ctl").mkdir(parents=True, exist_ok=True)
        (rootfs / "run" / "fdegym" / "ports").mkdir(parents=True, exist_ok=True)
        log(f"importing {rootfs} as {tag}")
        tar = subprocess.Popen(["tar", "-C", str(rootfs), "--numeric-owner", "-c", "."], stdout=subprocess.PIPE)
        client.api.import_image_from_data(_Reader(tar.stdout), repository=IMAGE_REPO, tag=tag.split(":", 1)[1],
                                          changes=['CMD ["/usr/bin/python3"]', "WORKDIR /workspace",
                                                   f'LABEL fdegym.recipe="{tag}"'])
        if tar.wait() != 0:
            raise RuntimeError("tar of the image root failed")
    client.images.get(tag)
    log(f"built {tag}")
    return tag


class _Reader:
    """Adapts a pipe to the ``read`` calls requests makes while streaming an upload."""

    def __init__(self, f):
        self.f = f

    def __iter__(self):
        while True:
            chunk = self.f.read(1 << 20)
            if not chunk:
                return
            yield chunk


class DockerSandbox(ExecutorSandbox):
    """See the module docstring. ``image`` defaults to :func:`image_tag`."""

    name = "docker"
    lost_what = "container"

    def __init__(self, image: str | None = None, limits: dict | None = None) -> None:
        super().__init__()
        self.client = _client(30)
        self.image = image or image_tag()
        self.limits = dict(LIMITS, **(limits or {}))
        try:
            self.client.images.get(self.image)
        except Exception:
            raise RuntimeError(f"docker image {self.image} is missing. Fix: `fdegym sandbox build-image` "
                               "(builds it from Debian packages; nothing is pulled)") from None
        self.container: Any = None   # a docker Container while the executor runs
        self._ctl: Path | None = None
        self._sock: socket.socket | None = None

    def start(self, workspace, allow_ports=()) -> None:
        super().start(workspace, allow_ports)
        if os.geteuid() == 0:
            self.uid = pick_uid()
            chown_tree(self._started_workspace(), self.uid)
        else:
            self.uid = os.getuid()
        self._open_port_bridge()
        self._launch()

    def _launch(self) -> None:
        import docker
        uid = self.uid
        if uid is None:
            raise RuntimeError("docker sandbox not started: call start(workspace) first")
        self._ctl = Path(tempfile.mkdtemp(prefix="fdegym-ctl-"))
        os.chmod(self._ctl, 0o700)
        if os.geteuid() == 0:
            os.chown(self._ctl, uid, uid)
        cfg = {"listen": f"{CTL_DIR}/exec.sock", "ports": list(self.allow_ports), "ports_dir": PORTS_DIR}
        volumes = {str(self.workspace): {"bind": SANDBOX_WORKDIR, "mode": "rw"},
                   str(self._ctl): {"bind": CTL_DIR, "mode": "rw"}}
        if self._bridge is not None:
            volumes[str(self._bridge.directory)] = {"bind": PORTS_DIR, "mode": "ro"}
        lim = self.limits
        self.container = self.client.containers.run(
            self.image, ["/usr/bin/python3", "-I", "-S", "-c", EXECUTOR_SRC, json.dumps(cfg)],
            detach=True, user=f"{uid}:{uid}", network_mode="none", read_only=True,
            cap_drop=["ALL"], security_opt=["no-new-privileges"], pids_limit=lim["pids"],
            mem_limit=lim["mem"], memswap_limit=lim["mem"], nano_cpus=int(lim["cpus"] * 1e9),
            tmpfs={"/tmp": f"rw,nosuid,nodev,size={lim['tmp']}"}, volumes=volumes, working_dir=SANDBOX_WORKDIR,
            environment=dict(SANDBOX_ENV), hostname="sandbox", ipc_mode="private", init=False,
            ulimits=[docker.types.Ulimit(name="nofile", soft=lim["nofile"], hard=lim["nofile"]),
                     docker.types.Ulimit(name="fsize", soft=lim["fsize"], hard=lim["fsize"]),
                     docker.types.Ulimit(name="core", soft=0, hard=0)],
            labels={"fdegym.sandbox": "1"})
        path = self._ctl / "exec.sock"
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(str(path))
                break
            except OSError:
                s.close()
                if time.monotonic() > deadline:
                    logs = self._logs()
                    self._kill()
                    raise RuntimeError(f"docker sandbox did not start within {START_TIMEOUT_S:g} s: {logs}") from None
                time.sleep(0.005)
        self._sock = s
        self._exec = ExecutorClient(s.makefile("wb", buffering=0), s.makefile("rb", buffering=0))
        self._exec.wait_ready(START_TIMEOUT_S)

    def _logs(self) -> str:
        try:
            return self.container.logs().decode("utf-8", "replace")[-800:]
        except Exception:
            return "(no logs)"

    def _kill(self) -> None:
        if self._exec is not None:  # synchronous: every process a command started is dead on return
            try:
                self._exec.request({"op": "reset"}, 5.0)
            except (ExecutorDied, TimeoutError, ValueError):
                pass
        if self._sock is not None:
            try:
                self._sock.close()
            except OSError:
                pass
            self._sock = None
        self._exec = None
        if self.container is not None:
            # The executor saw EOF and exits, which stops the container; removing it is left to a
            # non-daemon thread so reset() does not wait for dockerd (the interpreter waits for it at exit).
            threading.Thread(target=_remove, args=(self.container,), name="fdegym-docker-rm").start()
            self.container = None
        if self._ctl is not None:
            shutil.rmtree(self._ctl, ignore_errors=True)
            self._ctl = None


def _remove(container) -> None:
    try:
        container.wait(timeout=5)
    except Exception:
        pass
    try:
        container.remove(force=True)
    except Exception:
        pass
