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
