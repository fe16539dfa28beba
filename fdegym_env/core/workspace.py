"""Per-episode workspaces: a fresh copy of the task's world (built once per variant and cached)
plus the rendered brief, and the host-side file tools with path checks.
"""

from __future__ import annotations

import os
import shlex
import shutil
import stat
import tempfile
from pathlib import Path

from fdegym_env.core.fstree import kind_of, shown
from fdegym_env.core.owned import make_owned_dir, remove_owned
from fdegym_env.core.paths import cache_dir, episodes_dir
from fdegym_env.core.task import Task, Variant, render

MAX_READ_LINES = 400
FIXED_MTIME = 1767225600  # 2026-01-01T00:00Z: world files carry no build-time clock, so `ls -l` replays
MAX_LINE_CHARS = 2000
SCRATCH_DIR = ".fdegym"              # the env's own files in a workspace (never graded, never digested)
RUN_OUTPUT_DIR = SCRATCH_DIR + "/run"  # whole outputs of `run` commands whose output was cut
MAX_PATH_CHARS = 1024                # a path the file tools accept: characters ...
MAX_PATH_DEPTH = 64                  # ... and folder levels
MAX_NAME_BYTES = 255                 # one file or folder name (the file system's own limit)
MAX_DELIVERY_BYTES = 1 << 30         # bytes of files a delivered folder may hold; more is not deployed


class PathError(ValueError):
    """A file-tool request the workspace refuses: a path outside it, missing, too deep or too long, a
    file that is not a regular file, text that cannot be written as UTF-8. The message is for the agent."""


def world_snapshot(task: Task, variant: Variant) -> Path:
    """The world as the agent finds it for this variant, built once and cached (read-only use)."""
    dest = cache_dir() / "worlds" / f"{task.id}-{task.content_hash}-{variant.key}"
    if dest.is_dir():
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".build-", dir=dest.parent))
    try:
        shutil.copytree(task.world_path, tmp / "w", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        build = tmp / "w"
        for tmpl in list(build.rglob("*.tmpl")):
            text = render(tmpl.read_text(encoding="utf-8"), variant.params, str(tmpl))
            tmpl.with_suffix("").write_text(text, encoding="utf-8")
            tmpl.unlink()
        if task.has_module("traffic") and hasattr(task.module("traffic"), "dev"):
            task.module("traffic").dev(dict(variant.params), build)
        for p in sorted(build.rglob("*"), reverse=True) + [build]:
            os.utime(p, (FIXED_MTIME, FIXED_MTIME), follow_symlinks=False)
        try:
            os.rename(build, dest)
        except OSError:  # another process built it first
            if not dest.is_dir():
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return dest


def copy_file(src: str, dst: str) -> None:
    """``shutil.copy2`` without extended attributes (their syscalls cost more than a small file's
    bytes): content, permission bits and times. The ``copy_function`` of workspace copies."""
    shutil.copyfile(src, dst)
    st = os.stat(src)
    os.chmod(dst, st.st_mode & 0o7777)
    os.utime(dst, ns=(st.st_atime_ns, st.st_mtime_ns))


def new_workspace(task: Task, variant: Variant, brief: str | None, parent: Path | None = None) -> Path:
    """Copy the world snapshot into a fresh folder; write ``TASK.md``. Returns the workspace path.
    The folder above it carries this process's owner marker (:mod:`fdegym_env.core.owned`)."""
    root = make_owned_dir(f"fdegym-{task.id}-", parent or episodes_dir())
    ws = root / "workspace"
    shutil.copytree(world_snapshot(task, variant), ws, symlinks=True, copy_function=copy_file)
    if brief is not None:
        (ws / "TASK.md").write_text(brief, encoding="utf-8")
        os.utime(ws / "TASK.md", (FIXED_MTIME, FIXED_MTIME))
        os.utime(ws, (FIXED_MTIME, FIXED_MTIME))
    return ws


def remove_workspace(ws: Path | None) -> None:
    """Delete a workspace made by :func:`new_workspace` in this process (never another's)."""
    if ws is not None:
        remove_owned(ws.parent if ws.name == "workspace" else ws)


def workspace_lost(ws: Path | None) -> bool:
    """True if the workspace folder is gone (deleted or replaced by something that is not a folder)."""
    return ws is not None and not os.path.isdir(ws)


def _show(text: str, limit: int = 120) -> str:
    """``text`` quoted for a message: cut to ``limit`` characters, lone surrogates escaped."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


def encode_text(text: str, what: str) -> bytes:
    """``text`` as UTF-8, or a :class:`PathError` naming the first lone surrogate (e.g. half of an
    emoji's JSON escape pair), which UTF-8 cannot hold."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as e:
        bad = text[e.start]
        raise PathError(f"{what} holds a lone surrogate {bad!r} at character {e.start}, which is not valid "
                        "Unicode text and cannot be written as UTF-8; nothing was written. Send the character "
                        "whole (a JSON escape needs both halves of a pair, e.g. \\ud83d\\ude00).") from None


def _check_path_shape(path: str, rel: str) -> None:
    """Refuse paths no file tool should walk: too long, too deep, a name over the file system's limit."""
    if len(rel) > MAX_PATH_CHARS:
        raise PathError(f"The path is {len(rel):,} characters long; the file tools take at most {MAX_PATH_CHARS:,}. "
                        "Give a shorter path.")
    parts = [p for p in rel.replace("\\", "/").split("/") if p not in ("", ".")]
    if len(parts) > MAX_PATH_DEPTH:
        raise PathError(f"The path is {len(parts):,} folder levels deep; the file tools go at most {MAX_PATH_DEPTH} "
                        "levels deep. Give a shallower path.")
    for part in parts:
        if len(part.encode("utf-8")) > MAX_NAME_BYTES:
            raise PathError(f"The name {_show(part, 40)} in {_show(path)} is longer than {MAX_NAME_BYTES} bytes, "
                            "the most a file name can be. Give a shorter name.")


def resolve(ws: Path, path: str, *, must_exist: bool = True) -> Path:
    """The host path for a workspace-relative ``path``; refuses anything that leaves the workspace
    (``..``, absolute paths, symlinks pointing out), and paths too long or too deep."""
    if not isinstance(path, str) or "\x00" in path:
        raise PathError("The path must be a string without NUL characters.")
    encode_text(path, "The path")
    rel = path.strip()
    _check_path_shape(path, rel)
    if rel.startswith("/workspace/") or rel == "/workspace":
        rel = rel[len("/workspace"):].lstrip("/")
    if os.path.isabs(rel):
        raise PathError(f"{path!r} is an absolute path; give a path relative to the workspace root, "
                        "e.g. 'system/README.md'.")
    root = ws.resolve()
    target = Path(os.path.realpath(root / rel))
    if target != root and root not in target.parents:
        raise PathError(f"{path!r} is outside the workspace; only files under the workspace root can be used.")
    if must_exist and not target.exists():
        parent = target.parent
        hint = ""
        if parent.is_dir():
            names = sorted(shown(p.name) for p in parent.iterdir())[:20]
            hint = f" {parent.relative_to(root) if parent != root else '.'}/ contains: {', '.join(names) or '(nothing)'}."
        raise PathError(f"No such file or folder: {path!r}.{hint}")
    return target


def _regular(target: Path, path: str, tool: str) -> os.stat_result | None:
    """lstat of ``target``, or None if it does not exist; a :class:`PathError` for a folder or for
    anything that is not a regular file (a pipe or device would block or act when opened)."""
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return None
    if stat.S_ISDIR(st.st_mode):
        hint = "use list_files to see what is in it" if tool == "read_file" else "give a file path"
        raise PathError(f"{_show(path)} is a folder; {hint}.")
    if not stat.S_ISREG(st.st_mode):
        raise PathError(f"{_show(path)} is a {kind_of(st.st_mode)}, not a regular file; {tool} only works on "
                        "regular files (inspect or remove it with the run tool, e.g. `ls -l`, `rm`).")
    return st


def _read_bytes(target: Path, path: str, tool: str) -> bytes:
    """The bytes of a regular file, opened without blocking (a pipe swapped in is refused, not waited on)."""
    _regular(target, path, tool)
    fd = os.open(target, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise PathError(f"{_show(path)} is a {kind_of(st.st_mode)}, not a regular file; {tool} only works on "
                            "regular files.")
        return f.read()


def _write_atomic(ws: Path, target: Path, data: bytes, owner: int | None) -> None:
    """Write ``data`` to a new file beside ``target`` and rename it over ``target``: the file is either
    the old one or the whole new one, never a partial write. Keeps an existing file's mode and owner."""
    try:
        old = os.lstat(target)
    except FileNotFoundError:
        old = None
    fd, tmp = tempfile.mkstemp(prefix=".fdegym-write-", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        if old is not None:
            os.chmod(tmp, old.st_mode & 0o7777)
            if os.geteuid() == 0:
                os.chown(tmp, old.st_uid, old.st_gid)
        else:
            os.chmod(tmp, 0o644)
            _give(Path(tmp), owner)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def list_files(ws: Path, path: str = ".") -> str:
    target = resolve(ws, path or ".")
    st = os.lstat(target)
    if stat.S_ISREG(st.st_mode):
        return f"{path}  {st.st_size} bytes"
    if not stat.S_ISDIR(st.st_mode):
        return f"{path}  {kind_of(st.st_mode)}"
    lines = []
    root, top = os.fspath(ws.resolve()), os.fspath(target)
    for dirpath, dirnames, filenames in os.walk(top):   # strings, not Paths: this runs on every reset
        dirnames.sort()
        rel = os.path.relpath(dirpath, root)
        depth = 0 if dirpath == top else os.path.relpath(dirpath, top).count(os.sep) + 1
        if depth >= 4:
            dirnames[:] = []
        for name in sorted(filenames):
            try:
                size = os.lstat(os.path.join(dirpath, name)).st_size
            except OSError:
                continue
            entry = name if rel == "." else f"{rel}/{name}".replace(os.sep, "/")
            lines.append(f"{shown(entry):<60} {size:>10,} B")
        if len(lines) > 500:
            lines.append("[listing cut at 500 entries; list a subfolder]")
            break
    return "\n".join(lines) if lines else "(empty)"


def read_file(ws: Path, path: str, offset: int | None = None, limit: int | None = None) -> str:
    target = resolve(ws, path)
    data = _read_bytes(target, path, "read_file")
    if b"\x00" in data[:8192]:
        kind = "SQLite database" if data.startswith(b"SQLite format 3") else "binary file"
        hint = " Query it with the run tool, e.g. `sqlite3 <file> .tables`." if kind.startswith("SQLite") else ""
        return f"{path}: {kind}, {len(data):,} bytes; not shown as text.{hint}"
    lines = data.decode("utf-8", "replace").splitlines()
    start = max(1, int(offset or 1))
    count = max(1, min(int(limit or MAX_READ_LINES), 5000))
    if lines and start > len(lines):
        raise PathError(f"offset {start} is past the end of {path}, which has {len(lines)} line(s); "
                        f"give an offset from 1 to {len(lines)}.")
    chunk = lines[start - 1:start - 1 + count]
    out = []
    for i, line in enumerate(chunk, start):
        if len(line) > MAX_LINE_CHARS:
            # read_file pages by line only, so say how to see the rest of this one
            line = (line[:MAX_LINE_CHARS] + f" [... {len(line) - MAX_LINE_CHARS} more characters; run "
                    f"`sed -n {i}p {shlex.quote(path)} | cut -c{MAX_LINE_CHARS + 1}-` shows them]")
        out.append(f"{i:>6}\t{line}")
    end = start + len(chunk) - 1
    header = f"{path} (lines {start}-{end} of {len(lines)})" if lines else f"{path} (empty file)"
    if end < len(lines):
        header += f"; read more with offset={end + 1}"
    return header + "\n" + "\n".join(out)


def _give(p: Path, owner: int | None) -> None:
    """Hand a host-created path to the sandbox uid, so the sandbox sees it as its own (same owner as
    the world files, writable from ``run``). No-op unless the host runs as root with a started sandbox."""
    if owner is not None and os.geteuid() == 0:
        os.chown(p, owner, owner, follow_symlinks=False)


def _make_parents(ws: Path, target: Path, owner: int | None) -> None:
    """Create the missing folders above ``target`` (inside ``ws``), each owned like the world's."""
    missing = []
    p = target.parent
    root = ws.resolve()
    while p != root and not p.exists():
        missing.append(p)
        p = p.parent
    for d in reversed(missing):
        d.mkdir(exist_ok=True)
        _give(d, owner)


def write_file(ws: Path, path: str, content: str, owner: int | None = None) -> str:
    """Create or replace a file. ``owner``: the sandbox's host uid, for files and folders it creates."""
    data = encode_text(content, "write_file: 'content'")
    target = resolve(ws, path, must_exist=False)
    _regular(target, path, "write_file")
    _make_parents(ws, target, owner)
    _write_atomic(ws, target, data, owner)
    return f"Wrote {len(data):,} bytes to {path}."


def save_run_output(ws: Path, turn: int, text: str, owner: int | None = None) -> str | None:
    """Keep the whole output of a cut ``run`` under :data:`RUN_OUTPUT_DIR` for ``read_file``.
    Returns the workspace-relative path, or None when the agent's files are in the way (e.g. a
    ``.fdegym`` symlink leading out of the workspace: nothing is written then)."""
    rel = f"{RUN_OUTPUT_DIR}/turn-{turn:04d}.out"
    try:
        target = resolve(ws, rel, must_exist=False)
        _make_parents(ws, target, owner)
        if not target.parent.is_dir() or target.parent.is_symlink():
            return None
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "w", encoding="utf-8", errors="replace") as f:
            f.write(text)
        _give(target, owner)
    except (OSError, PathError):
        return None
    return rel


def edit_file(ws: Path, path: str, old: str, new: str, replace_all: bool = False, owner: int | None = None) -> str:
    encode_text(old, "edit_file: 'old'")
    encode_text(new, "edit_file: 'new'")
    target = resolve(ws, path)
    text = _read_bytes(target, path, "edit_file").decode("utf-8", errors="replace")
    if old == "":
        raise PathError("edit_file needs a non-empty 'old' text; to create or replace a whole file use write_file.")
    n = text.count(old)
    if n == 0:
        raise PathError(f"The 'old' text does not occur in {path}; read the file and copy the exact text "
                        "(whitespace included).")
    if n > 1 and not replace_all:
        raise PathError(f"The 'old' text occurs {n} times in {path}; add surrounding lines to make it unique, "
                        "or pass replace_all=true.")
    data = (text.replace(old, new) if replace_all else text.replace(old, new, 1)).encode("utf-8")
    _write_atomic(ws, target, data, owner)
    return f"Replaced {n if replace_all else 1} occurrence(s) in {path}."
