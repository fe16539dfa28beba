"""Argument checks shared by the ``fdegym`` subcommands: each refuses a bad value up front with a
message that names the fix, before any episode starts (no traceback, exit 2).

Example:
    >>> seed_arg("7")
    7
    >>> seed_arg("-5")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a seed from 0 to 4294967295, got -5 (fix: give a non-negative whole number)
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

MAX_SEED = 2 ** 32 - 1


def seed_arg(text: str) -> int:
    """``type=`` for ``--seed``: a whole number Gymnasium accepts (0 .. 2**32-1)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"expected a seed from 0 to {MAX_SEED}, got {value} "
                                         "(fix: give a non-negative whole number)")
    return value


def check_output_file(path: str | None, option: str) -> None:
    """Refuse an output file path that cannot be written (a folder, a missing or read-only folder)."""
    if not path:
        return
    p = Path(path).expanduser()
    if p.is_dir():
        raise ValueError(f"{option} expects a file path, got the folder {str(p)!r} "
                         f"(fix: name a file, e.g. {option} {p / 'episode.jsonl'})")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise ValueError(f"{option}: the folder {str(parent)!r} does not exist (fix: create it, or choose "
                         "another path)")
    if not os.access(parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise ValueError(f"{option}: {str(p)!r} is not writable (fix: choose a path you can write)")


def check_output_folder(path: str, option: str) -> None:
    """Refuse an output folder path that is a file or cannot be created or written."""
    p = Path(path).expanduser()
    if p.exists() and not p.is_dir():
        raise ValueError(f"{option} expects a folder, got the file {str(p)!r} (fix: name a new or existing "
                         "folder, e.g. runs/bench1)")
    probe = p
    while not probe.exists():
        probe = probe.parent
    if not probe.is_dir() or not os.access(probe, os.W_OK | os.X_OK):
        raise ValueError(f"{option}: cannot create or write {str(p)!r} ({str(probe)!r} is not a writable folder; "
                         "fix: choose a folder you can write)")
