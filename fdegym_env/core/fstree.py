"""Folder trees an agent made, walked without recursion and without trusting what they hold.

An agent's shell can leave anything in its workspace: named pipes, sockets, device files, names
that are not UTF-8, folders thousands of levels deep, huge sparse files, symlinks leading anywhere.
The helpers here copy, remove and walk such trees with an explicit stack (no ``RecursionError``),
never open a special file (opening a pipe blocks), never follow a symlink, and say what they skipped.

Example:
    >>> import tempfile, pathlib
    >>> src = pathlib.Path(tempfile.mkdtemp()); (src / "a").mkdir(); _ = (src / "a" / "f").write_text("x")
    >>> dest = pathlib.Path(tempfile.mkdtemp()) / "copy"
    >>> copy_tree(src, dest).skipped
    []
    >>> (dest / "a" / "f").read_text()
    'x'
    >>> remove_tree(src); remove_tree(dest.parent); src.exists()
    False
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


def kind_of(mode: int) -> str:
    """A person's name for a file type (``stat.S_IFMT`` of ``mode``)."""
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISDIR(mode):
        return "folder"
    if stat.S_ISLNK(mode):
        return "symlink"
    if stat.S_ISFIFO(mode):
        return "named pipe"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode):
        return "character device"
    if stat.S_ISBLK(mode):
        return "block device"
    return "special file"


def shown(name: str) -> str:
    """``name`` as text that encodes as UTF-8: a byte that is not UTF-8 (a file name's surrogate
    escape) shows as ``\\xff``, a lone surrogate as ``\\ud83d``."""
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        pass
    try:
        return os.fsencode(name).decode("utf-8", "backslashreplace")
    except UnicodeError:
        return name.encode("utf-8", "backslashreplace").decode("utf-8")


@dataclass
class Entry:
    """One thing under a walked root: its path relative to the root (``/``-separated), its lstat."""

    rel: str
    path: str
    st: os.stat_result


def walk_tree(root: str | os.PathLike, skip: Callable[[str, str], bool] | None = None) -> Iterator[Entry]:
    """Every entry under ``root`` (not ``root`` itself) depth first, each folder's entries in name
    order and each folder's contents right after it; symlinks not followed. ``skip(rel, name)``
    prunes an entry (and, for a folder, all below it). Entries that vanish or cannot be listed while
    walking are left out."""
    stack: list[tuple[str, str] | Entry] = [(os.fspath(root), "")]
    while stack:
        item = stack.pop()
        if isinstance(item, Entry):
            yield item
            if not stat.S_ISDIR(item.st.st_mode):
                continue
            item = (item.path, item.rel)
        folder, rel = item
        try:
            with os.scandir(folder) as it:
                names = sorted(e.name for e in it)
        except OSError:
            continue
        children = []
        for name in names:
            if skip is not None and skip(rel, name):
                continue
            path = os.path.join(folder, name)
            try:
                st = os.lstat(path)
            except OSError:
                continue
            children.append(Entry(f"{rel}/{name}" if rel else name, path, st))
        stack.extend(reversed(children))


@dataclass
class CopyReport:
    """What :func:`copy_tree` left out: ``"<rel path>: <why>"`` per entry, and the bytes copied."""

    skipped: list[str] = field(default_factory=list)
    bytes: int = 0


class TreeTooLarge(OSError):
    """The tree holds more bytes than the copy was allowed to take."""


def copy_tree(src: str | os.PathLike, dest: str | os.PathLike, *, skip: Callable[[str, str], bool] | None = None,
              copy_function: Callable[[str, str], object] = shutil.copy2, max_bytes: int | None = None) -> CopyReport:
    """Copy ``src`` into ``dest`` (created; may exist): folders, regular files and symlinks (as links,
    whatever they point at). Special files (pipes, sockets, devices) and entries the copy cannot make
    (a path too long for the system, a file that vanished) are skipped and reported. Raises
    :class:`TreeTooLarge`, before copying anything, when the regular files hold more than
    ``max_bytes``; a full disk raises its ``OSError``."""
    report = CopyReport()
    entries = list(walk_tree(src, skip))
    total = sum(e.st.st_size for e in entries if stat.S_ISREG(e.st.st_mode))
    if max_bytes is not None and total > max_bytes:
        raise TreeTooLarge(errno.EFBIG, f"{total:,} bytes of files, more than {max_bytes:,}")
    os.makedirs(dest, exist_ok=True)
    dest = os.fspath(dest)
    broken: set[str] = set()     # folders that could not be made: nothing below them is tried
    folders: list[tuple[str, str]] = []   # their permission bits are copied last (a read-only one would refuse files)
    for e in entries:
        parent = e.rel.rpartition("/")[0]
        if parent in broken:
            broken.add(e.rel)
            continue
        target = os.path.join(dest, *e.rel.split("/"))
        mode = e.st.st_mode
        try:
            if stat.S_ISDIR(mode):
                os.makedirs(target, exist_ok=True)
                folders.append((e.path, target))
            elif stat.S_ISLNK(mode):
                if os.path.lexists(target):
                    os.unlink(target)
                os.symlink(os.readlink(e.path), target)
            elif stat.S_ISREG(mode):
                copy_function(e.path, target)
                report.bytes += e.st.st_size
            else:
                report.skipped.append(f"{shown(e.rel)}: {kind_of(mode)}, not copied")
        except OSError as err:
            if err.errno in (errno.ENOSPC, errno.EDQUOT, errno.ENOMEM):   # the host's trouble, not the tree's
                raise
            if stat.S_ISDIR(mode):
                broken.add(e.rel)
            report.skipped.append(f"{shown(e.rel)}: {kind_of(mode)} not copied ({err.strerror or err})")
    for src_folder, target in reversed(folders):
        try:
            shutil.copymode(src_folder, target)
        except OSError:
            pass
    return report


def remove_tree(path: str | os.PathLike) -> None:
    """Delete ``path`` and everything under it, however deep, never following a symlink; what cannot
    be deleted is left (like ``shutil.rmtree(ignore_errors=True)``). The common case is
    ``shutil.rmtree``; a tree too deep for it, or with folders the agent made unreadable or
    read-only, is finished level by level through folder descriptors, restoring the owner's
    permissions on each folder it enters."""
    path = os.fspath(path)
    try:
        shutil.rmtree(path)
        return
    except FileNotFoundError:
        return
    except (OSError, RecursionError):
        pass
    try:
        _remove_deep(path)
    except OSError:
        pass


def _open_dir(name: str, dir_fd: int | None) -> int:
    """A descriptor of the folder ``name`` (never through a symlink) whose owner may list and empty it:
    a folder the agent made unreadable or read-only gets ``rwx`` back for its owner first. The mode
    is changed through an ``O_PATH`` descriptor, so a symlink swapped in meanwhile is never followed."""
    try:
        fd = os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
    except PermissionError:
        pfd = os.open(name, os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0), dir_fd=dir_fd)
        try:
            os.chmod(f"/proc/self/fd/{pfd}", 0o700)
            fd = os.open(".", os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0), dir_fd=pfd)
        finally:
            os.close(pfd)
    if os.fstat(fd).st_mode & 0o700 != 0o700:
        try:
            os.fchmod(fd, 0o700)
        except OSError:
            pass
    return fd


def _remove_deep(path: str) -> None:
    """Depth-first removal holding one folder descriptor at a time: going back up opens ``..`` and
    checks it is the folder we came down from (device and inode), so a moved folder stops the walk."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISDIR(st.st_mode):
        os.unlink(path)
        return
    fd = _open_dir(path, None)
    ids = [(st.st_dev, st.st_ino)]
    names: list[str] = []
    stuck: list[set[str]] = [set()]   # per level: entries that could not be removed
    try:
        while True:
            child = None
            with os.scandir(fd) as it:
                for e in it:
                    if e.name in stuck[-1]:
                        continue
                    if e.is_dir(follow_symlinks=False):
                        child = e.name
                        break
                    try:
                        os.unlink(e.name, dir_fd=fd)
                    except FileNotFoundError:
                        pass
                    except OSError:
                        stuck[-1].add(e.name)
            if child is not None:
                try:
                    cfd = _open_dir(child, fd)
                except OSError:
                    stuck[-1].add(child)
                    continue
                cst = os.fstat(cfd)
                os.close(fd)
                fd = cfd
                ids.append((cst.st_dev, cst.st_ino))
                names.append(child)
                stuck.append(set())
                continue
            if not names:
                break
            pfd = os.open("..", _DIR_FLAGS, dir_fd=fd)
            pst = os.fstat(pfd)
            os.close(fd)
            fd = pfd
            ids.pop()
            stuck.pop()
            name = names.pop()
            if (pst.st_dev, pst.st_ino) != ids[-1]:
                raise OSError(errno.ESTALE, "the folder tree moved while it was being removed")
            try:
                os.rmdir(name, dir_fd=fd)
            except OSError:
                stuck[-1].add(name)
    finally:
        os.close(fd)
    if not stuck[0]:
        os.rmdir(path)
