"""Folders a process owns: created with an owner marker, deleted only by their owner.

Episode workspaces and grading's copies live side by side in one shared folder (``/dev/shm`` or the
temp dir) with every other fdegym process on the machine. Nothing may delete a folder it did not
create, so every such folder is made by :func:`make_owned_dir`, which writes a marker
(``.fdegym-owner``: pid, the pid's start time, a random token, and the run token) beside the
contents, and every deletion goes through :func:`remove_owned`, which refuses a folder this process
did not create. A process that dies without cleaning up leaves its folders behind;
:func:`sweep_dead` removes those whose owner is verifiably dead (its pid gone, or reused by a process
that started at another time) and nothing else.

Folders still held when the process ends are removed by an exit hook that runs for ordinary exits
and for ``multiprocessing`` children (which skip ``atexit``).

``FDEGYM_RUN_TOKEN`` (inherited by subprocesses) tags every marker, so a test session can find what
its own processes left, whatever other runs share the folder.

Example:
    >>> import tempfile
    >>> d = make_owned_dir("fdegym-doc-", tempfile.gettempdir())
    >>> read_marker(d)["pid"] == os.getpid()
    True
    >>> remove_owned(d), d.exists()
    (True, False)
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import secrets
import stat
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

from fdegym_env.core.fstree import remove_tree

log = logging.getLogger(__name__)

MARKER = ".fdegym-owner"
RUN_TOKEN_ENV = "FDEGYM_RUN_TOKEN"

_lock = threading.Lock()
_held: dict[str, str] = {}   # folder -> token, for folders this process created and still holds
_held_pid = os.getpid()


def _start_time(pid: int) -> str | None:
    """The kernel's start time of ``pid`` (field 22 of /proc/<pid>/stat), or None if no such process
    runs (none by that pid, or one that has exited and awaits its parent's wait: a zombie)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
    except OSError:
        return None
    fields = data[data.rfind(b")") + 2:].split()
    return None if fields[0] in (b"Z", b"X") else fields[19].decode()


def _pid_namespace() -> str:
    """This process's PID namespace: a pid means nothing in another one (a container sharing the folder)."""
    try:
        return os.readlink("/proc/self/ns/pid")
    except OSError:
        return ""


def _mine() -> dict[str, str]:
    """This process's held folders; a forked child starts with none (those are its parent's)."""
    global _held, _held_pid
    if _held_pid != os.getpid():
        _held, _held_pid = {}, os.getpid()
    return _held


def make_owned_dir(prefix: str, parent: str | os.PathLike | None = None) -> Path:
    """A fresh folder (``tempfile.mkdtemp``) with this process's owner marker in it."""
    root = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
    token = secrets.token_hex(8)
    marker = {"pid": os.getpid(), "start": _start_time(os.getpid()), "ns": _pid_namespace(), "token": token,
              "run": os.environ.get(RUN_TOKEN_ENV, "")}
    fd = os.open(root / MARKER, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "w") as f:
        f.write(json.dumps(marker))
    with _lock:
        _mine()[os.fspath(root)] = token
    return root


def read_marker(root: str | os.PathLike) -> dict | None:
    """The owner marker of ``root``, or None (no marker, unreadable, or not a regular file)."""
    path = os.path.join(root, MARKER)
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size > 4096:
            return None
        with open(path, encoding="utf-8") as f:
            marker = json.load(f)
    except (OSError, ValueError):
        return None
    return marker if isinstance(marker, dict) and isinstance(marker.get("pid"), int) else None


def holds(root: str | os.PathLike) -> bool:
    """True if this process created ``root`` and it still carries this process's marker."""
    with _lock:
        token = _mine().get(os.fspath(root))
    if token is None:
        return False
    marker = read_marker(root)
    return marker is not None and marker.get("token") == token and marker.get("pid") == os.getpid()


def owner_alive(marker: dict) -> bool:
    """True unless the marker's process is verifiably gone (no such pid, or a pid reused later). An
    owner in another PID namespace cannot be checked, so it counts as alive."""
    if marker.get("ns", "") != _pid_namespace():
        return True
    started = _start_time(int(marker["pid"]))
    if started is None:
        return False
    return marker.get("start") is None or started == marker.get("start")


def remove_owned(root: str | os.PathLike) -> bool:
    """Delete ``root`` if this process created it (:func:`make_owned_dir`) and its marker is still
    this process's; otherwise leave it and return False (a folder of another process is never touched)."""
    key = os.fspath(root)
    if not holds(key):
        if os.path.lexists(key):
            log.warning("not deleting %s: this process did not create it", key)
        with _lock:
            _mine().pop(key, None)
        return False
    remove_tree(key)
    with _lock:
        _mine().pop(key, None)
    return True


def release_all() -> None:
    """Delete every folder this process still holds (the exit hook; idempotent)."""
    with _lock:
        keys = list(_mine())
    for key in keys:
        remove_owned(key)


def fdegym_entries(parent: str | os.PathLike) -> Iterator[tuple[Path, dict | None]]:
    """``(folder, marker)`` for every ``fdegym-*`` folder directly under ``parent``."""
    try:
        names = os.listdir(parent)
    except OSError:
        return
    for name in sorted(names):
        p = Path(parent) / name
        if name.startswith("fdegym-") and p.is_dir() and not p.is_symlink():
            yield p, read_marker(p)


def sweep_dead(parent: str | os.PathLike, pid: int | None = None) -> list[Path]:
    """Delete the ``fdegym-*`` folders under ``parent`` whose owner process is verifiably dead
    (only the folders of ``pid`` if given). Folders without a marker, and folders of live
    processes, are never touched. Returns what was deleted."""
    gone = []
    for p, marker in fdegym_entries(parent):
        if marker is None or (pid is not None and marker["pid"] != pid) or owner_alive(marker):
            continue
        remove_tree(p)
        gone.append(p)
    return gone


def child_run_token(label: str) -> str:
    """A run token for processes this one hands work to (a batch's workers): this process's token
    with ``/label`` appended, so their folders can be swept as a group and still count as this run's
    (:func:`left_by_run`)."""
    parent = os.environ.get(RUN_TOKEN_ENV, "")
    return f"{parent}/{label}" if parent else label


def _of_run(marker: dict | None, run_token: str) -> bool:
    run = str((marker or {}).get("run", ""))
    return marker is not None and (run == run_token or run.startswith(run_token + "/"))


def left_by_run(parent: str | os.PathLike, run_token: str) -> list[Path]:
    """The ``fdegym-*`` folders under ``parent`` whose marker carries ``run_token`` (or a child token of it)."""
    return [p for p, marker in fdegym_entries(parent) if _of_run(marker, run_token)]


def sweep_dead_of_run(parent: str | os.PathLike, run_token: str) -> list[Path]:
    """:func:`sweep_dead` for the folders of one run token (and its children): what the workers of a
    batch left when they died, wherever they ran on this machine (a process pool, a local Ray)."""
    gone = []
    for p, marker in fdegym_entries(parent):
        if marker is None or not _of_run(marker, run_token) or owner_alive(marker):
            continue
        remove_tree(p)
        gone.append(p)
    return gone


def live_of_run(parent: str | os.PathLike, run_token: str) -> list[Path]:
    """The folders of one run token (and its children) under ``parent`` whose owner, another process, still runs."""
    return [p for p, marker in fdegym_entries(parent)
            if marker is not None and _of_run(marker, run_token) and marker["pid"] != os.getpid()
            and owner_alive(marker)]


class _Hook:
    """Weak-referenceable anchor for ``multiprocessing.util.register_after_fork``."""


_HOOK = _Hook()


def at_exit(func, priority: int) -> None:
    """Run ``func`` when this process ends, including as a ``multiprocessing`` child (those end with
    ``os._exit``, skipping ``atexit``, but run multiprocessing's finalizers; a forked child's copy
    of them is cleared, so the finalizer is registered again after every fork). Higher ``priority``
    runs first."""
    from multiprocessing import util
    atexit.register(func)
    util.Finalize(None, func, exitpriority=priority)
    util.register_after_fork(_HOOK, lambda _: util.Finalize(None, func, exitpriority=priority))


at_exit(release_all, 5)
