"""Solutions kept as real files, once.

A solution may be a unified diff ``solutions/<name>.patch`` against the world (the smallest way to
store a change to an existing file), or a folder ``solutions/<name>/`` mirroring the world (``system/...``, ``docs/...``):
applying it copies every file over the workspace; a file ending in ``.tmpl`` is rendered with the
variant's params (``{{param}}``, the renderer briefs use) and written without the suffix; a top-level
``ABOUT.md`` says why the solution is what it is and is not copied. A module
``solutions/<name>.py`` with ``apply(ws, params)`` may build on another solution instead of
re-loading files by path::

    from fdegym_env.tasklib import solutions

    def apply(ws, params):
        solutions.apply(__name__, "reference", ws, params)    # reference, then this
        solutions.replace(ws, "system/config.json", '"priority": "P2"', '"priority": "P1"')

``grading.apply_solution`` applies any kind; a module wins over a folder, a folder over a patch of
the same name. ``solutions/menu/`` is not a solution: it holds the changes menu.yaml's ``apply:``
items make (:mod:`fdegym_env.tasklib.menu`).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

from fdegym_env.core.task import MENU_DIR, PATCH_SUFFIX  # noqa: F401 (re-exported)

TEMPLATE_SUFFIX = ".tmpl"
ABOUT = "ABOUT.md"   # at an overlay's top level: why the solution is what it is (never copied)


def _task(owner: Any):
    if isinstance(owner, str):
        from fdegym_env.core.task import task_of_module
        return task_of_module(owner)
    return owner


def overlay_path(task: Any, name: str) -> Path | None:
    """``solutions/<name>/`` if it is an overlay folder (not a Python package)."""
    d = Path(task.path) / "solutions" / name
    return d if name != MENU_DIR and d.is_dir() and not (d / "__init__.py").exists() else None


def overlay(folder: Path, ws: Path, params: dict[str, Any]) -> list[str]:
    """Copy ``folder``'s files over ``ws`` (``.tmpl`` rendered); returns the paths written."""
    from fdegym_env.core.task import render
    written = []
    for src in sorted(p for p in Path(folder).rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        rel = src.relative_to(folder)
        if rel.as_posix() == ABOUT:
            continue
        dest = Path(ws) / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        if src.name.endswith(TEMPLATE_SUFFIX):
            dest = dest.with_name(src.name[:-len(TEMPLATE_SUFFIX)])
            dest.write_text(render(src.read_text(encoding="utf-8"), params, str(src)), encoding="utf-8")
        else:
            shutil.copyfile(src, dest)
        written.append(str(dest.relative_to(ws)))
    return written


def apply(owner: Any, name: str, ws: Path, params: dict[str, Any]) -> None:
    """Apply the solution ``name`` of ``owner``'s task (a Task, or a task module's ``__name__``)."""
    task = _task(owner)
    sols = Path(task.path) / "solutions"
    if not (sols / f"{name}.py").is_file():
        folder = overlay_path(task, name)
        if folder is not None:
            overlay(folder, Path(ws), params)
            return
        if (sols / f"{name}{PATCH_SUFFIX}").is_file():
            patch(task, Path(ws), f"{name}{PATCH_SUFFIX}")
            return
    task.module(f"solutions/{name}").apply(Path(ws), dict(params))   # a module (or a harness case's script)


def replace(ws: Path, rel: str, old: str, new: str, count: int = 1) -> None:
    """Replace ``old`` with ``new`` in the workspace file ``rel``; a missing ``old`` is an error (the
    solution no longer matches the world)."""
    p = Path(ws) / rel
    text = p.read_text(encoding="utf-8")
    if old not in text:
        raise ValueError(f"{rel}: expected text not found (the world changed under this solution): {old[:80]!r}")
    p.write_text(text.replace(old, new, count), encoding="utf-8")


def wrap_entry_points(owner: Any, ws: Path, body: str) -> None:
    """For a task's own bypasses: the generic wrapper (:func:`fdegym_env.admission.bypasses.wrap_entry_points`)
    around every entry point of ``owner``'s task; in ``body``, ``args`` are the call's arguments and
    ``_orig`` the delivered function."""
    from fdegym_env.admission.bypasses import wrap_entry_points as wrap
    wrap(Path(ws), _task(owner).entry_points, body)


class FilePatch:
    """One file's part of a unified diff: ``rel`` (from the workspace root), ``new_file`` (``--- /dev/null``)
    and its hunks as ``(header, old_lines, new_lines)`` (lines keep their newlines)."""

    def __init__(self, rel: str, new_file: bool):
        self.rel, self.new_file = rel, new_file
        self.hunks: list[tuple[str, list[str], list[str]]] = []


def parse_patch(text: str, source: str = "patch") -> list[FilePatch]:
    """Parse a unified diff (paths ``a/<rel>``/``b/<rel>``, as ``diff -u`` or
    :func:`difflib.unified_diff` write them). Deleting a file is not supported."""
    lines = text.splitlines(keepends=True)
    files: list[FilePatch] = []
    i = 0
    while i < len(lines):
        if not lines[i].startswith("--- "):
            i += 1
            continue
        if i + 1 >= len(lines) or not lines[i + 1].startswith("+++ "):
            raise ValueError(f"{source}: a '--- ' line must be followed by '+++ ' (line {i + 1})")
        old_rel = lines[i][4:].strip().split("\t")[0]
        rel = lines[i + 1][4:].strip().split("\t")[0]
        if rel == "/dev/null":
            raise ValueError(f"{source}: deletes {old_rel}; a solution or menu change may not delete a file")
        fp = FilePatch(rel[2:] if rel.startswith("b/") else rel, old_rel == "/dev/null")
        i += 2
        while i < len(lines) and lines[i].startswith("@@"):
            where = lines[i].strip()
            m = re.match(r"@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@", where)
            if m is None:
                raise ValueError(f"{source}: not a unified-diff hunk header: {where!r}")
            n_old, n_new = int(m.group(1) or 1), int(m.group(2) or 1)
            i += 1
            old: list[str] = []
            new: list[str] = []
            last = ""
            while i < len(lines) and (len(old) < n_old or len(new) < n_new or lines[i].startswith("\\")):
                tag, body = lines[i][:1], lines[i][1:]
                if tag == "\\":                 # "\ No newline at end of file": the line before has none
                    for side in ((old,) if last == "-" else (new,) if last == "+" else (old, new)):
                        if side:
                            side[-1] = side[-1].rstrip("\r\n")
                if tag in (" ", "-"):
                    old.append(body)
                if tag in (" ", "+"):
                    new.append(body)
                last = tag
                i += 1
            fp.hunks.append((where, old, new))
        files.append(fp)
    if not files:
        raise ValueError(f"{source}: no file in this diff (expected '--- a/<path>' / '+++ b/<path>' lines)")
    return files


def patch(owner: Any, ws: Path, name: str) -> list[str]:
    """Apply the unified diff ``solutions/<name>`` to ``ws``: each hunk's old lines must occur in order
    after the previous hunk, else a ValueError names the file and hunk (the world moved under the
    patch). A file the diff creates (``--- /dev/null``) is written. Returns the files changed."""
    src = Path(_task(owner).path) / "solutions" / name
    changed = []
    for fp in parse_patch(src.read_text(encoding="utf-8"), src.name):
        target = Path(ws) / fp.rel
        if fp.new_file:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text("".join(line for _h, _o, new in fp.hunks for line in new), encoding="utf-8")
            changed.append(fp.rel)
            continue
        text = target.read_text(encoding="utf-8").splitlines(keepends=True)
        pos, out = 0, []
        for where, old, new in fp.hunks:
            at = next((k for k in range(pos, len(text) - len(old) + 1) if text[k:k + len(old)] == old), None)
            if at is None:
                raise ValueError(f"{src.name}: hunk {where} does not apply to {fp.rel} (the world changed under "
                                 "this patch; regenerate it)")
            out += text[pos:at] + new
            pos = at + len(old)
        target.write_text("".join(out + text[pos:]), encoding="utf-8")
        changed.append(fp.rel)
    return changed
