"""Where fdegym keeps its caches and episode folders (never inside a workspace)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def cache_dir() -> Path:
    """``$FDEGYM_CACHE`` or ``~/.cache/fdegym``: built worlds and measured anchors."""
    root = os.environ.get("FDEGYM_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "fdegym")
    p = Path(root)
    p.mkdir(parents=True, exist_ok=True)
    return p


def episodes_dir() -> Path:
    """``$FDEGYM_WORKDIR`` or the system temp dir: per-episode workspaces live below it."""
    p = Path(os.environ.get("FDEGYM_WORKDIR") or tempfile.gettempdir())
    p.mkdir(parents=True, exist_ok=True)
    return p


SCRATCH_MIN_FREE = 2 << 30


def scratch_dir() -> Path:
    """Where grading puts its short-lived copies of a workspace (deployments, validate's solution
    worlds): ``$FDEGYM_SCRATCH``, else ``$FDEGYM_WORKDIR`` if set, else ``/dev/shm`` when it is a
    writable memory file system with at least 2 GB free (copying a small world to disk costs ~20x
    more on a busy disk), else the temp dir."""
    explicit = os.environ.get("FDEGYM_SCRATCH") or os.environ.get("FDEGYM_WORKDIR")
    if explicit:
        p = Path(explicit)
        p.mkdir(parents=True, exist_ok=True)
        return p
    shm = "/dev/shm"
    try:
        st = os.statvfs(shm)
        if os.access(shm, os.W_OK | os.X_OK) and st.f_bavail * st.f_frsize >= SCRATCH_MIN_FREE:
            return Path(shm)
    except OSError:
        pass
    return episodes_dir()
