"""A task's discrete menu (menu.yaml): its items with their file changes, and the plan per named
variant that must reach the reference.

An item that changes files says where its change is kept instead of embedding file text::

    - label: "apply: dedup key = alert + service + instance"
      apply: dedup_key            # solutions/menu/dedup_key.patch or the folder solutions/menu/dedup_key/

``apply: [a, b]`` applies several kept changes in order (e.g. a new file, then a small patch on
it: alternatives that differ in one line keep that line's patch, not a copy of the file each).
``apply: <name>`` resolves to ``solutions/menu/<name>.patch``, the overlay folder
``solutions/menu/<name>/``, or (reusing a solution's change) ``solutions/<name>.patch``. A patch
becomes one ``edit_file`` step per hunk (its old lines, context included, replaced by its new
lines; a file the patch creates becomes a ``write_file``), a folder one ``write_file`` per file,
so the agent's action is the same tool call it always was; :func:`items` gives the expanded items.

``menu.yaml`` may declare, per named variant, the items (by ``id`` or exact ``label``) whose file
changes a menu policy applies to solve it::

    plans:
      base: [fix_r15_field_ops_p2, tidy_handheld_matching]
      night_pick: [fix_r15_field_ops_p1, tidy_handheld_matching]

``fdegym validate`` applies each plan's ``write_file``/``edit_file`` steps to the variant's world, in
order, and grades it: the menu must reach ``MENU_MIN`` uplift on every named variant (the README
promises an RL policy can reach the reference). ``python -m fdegym_env.tasklib.menu TASK`` searches
plans greedily (the apply item that adds most uplift, until the reference is reached) and prints
them for menu.yaml.
"""

from __future__ import annotations

import math
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

from fdegym_env.core import yamlio

MENU_MIN = 0.95
FILE_TOOLS = ("write_file", "edit_file")
INCIDENT_PENALTY = 2.0


def _task_dir(task: Any) -> Path:
    return Path(getattr(task, "path", task))


def load(task: Any) -> dict[str, Any] | None:
    """menu.yaml as data with every ``apply:`` item expanded to its steps, or None when the task has
    no menu. ``task`` is a Task or a task folder."""
    p = _task_dir(task) / "menu.yaml"
    if not p.is_file():
        return None
    data = yamlio.safe_load(p.read_text(encoding="utf-8")) or {}
    if isinstance(data.get("actions"), list):
        data["actions"] = [expand(_task_dir(task), item) for item in data["actions"]]
    return data


def items(task: Any) -> list[dict[str, Any]]:
    """The menu's items, expanded (``[]`` when the task has no menu)."""
    return list((load(task) or {}).get("actions") or [])


def change_source(task_dir: Path, name: str) -> Path:
    """Where an ``apply: <name>`` item's change is kept."""
    sols = Path(task_dir) / "solutions"
    for cand in (sols / "menu" / f"{name}.patch", sols / "menu" / name, sols / f"{name}.patch"):
        if cand.exists():
            return cand
    raise ValueError(f"{Path(task_dir) / 'menu.yaml'}: apply: {name!r} names no change; expected "
                     f"solutions/menu/{name}.patch, the folder solutions/menu/{name}/ or solutions/{name}.patch")


def change_steps(src: Path) -> list[dict[str, Any]]:
    """The ``write_file``/``edit_file`` steps that make the change kept at ``src`` (a patch or a folder)."""
    from fdegym_env.tasklib.solutions import TEMPLATE_SUFFIX, parse_patch
    out: list[dict[str, Any]] = []
    if src.is_dir():
        for f in sorted(p for p in src.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            if f.name.endswith(TEMPLATE_SUFFIX):
                raise ValueError(f"{f}: a menu change cannot be a template (a menu item is the same action "
                                 "in every variant); write the file as the agent would")
            out.append({"tool": "write_file", "path": f.relative_to(src).as_posix(),
                        "content": f.read_text(encoding="utf-8")})
        return out
    for fp in parse_patch(src.read_text(encoding="utf-8"), str(src)):
        if fp.new_file:
            out.append({"tool": "write_file", "path": fp.rel,
                        "content": "".join(line for _h, _o, new in fp.hunks for line in new)})
            continue
        for where, old, new in fp.hunks:
            if not old:
                raise ValueError(f"{src}: hunk {where} of {fp.rel} has no old lines to find; regenerate the "
                                 "patch with context (diff -u)")
            out.append({"tool": "edit_file", "path": fp.rel, "old": "".join(old), "new": "".join(new)})
    return out


def expand(task_dir: Path, item: dict[str, Any]) -> dict[str, Any]:
    """``item`` with ``apply: <name>`` (or a list of names) replaced by the steps of those changes, in
    order (other items unchanged)."""
    if not isinstance(item, dict) or "apply" not in item:
        return item
    out = {k: v for k, v in item.items() if k != "apply"}
    names = item["apply"] if isinstance(item["apply"], list) else [item["apply"]]
    out["steps"] = [st for name in names for st in change_steps(change_source(Path(task_dir), str(name)))]
    if not out["steps"]:
        raise ValueError(f"{Path(task_dir) / 'menu.yaml'}: apply: {item['apply']!r} changes no file")
    return out


def steps(item: dict[str, Any]) -> list[dict[str, Any]]:
    return list(item["steps"]) if "steps" in item else [item["action"]]


def apply_items(task: Any) -> list[dict[str, Any]]:
    """The menu items that change files (every step a write_file or edit_file)."""
    return [i for i in items(task) if all(s.get("tool") in FILE_TOOLS for s in steps(i))]


def item_ref(item: dict[str, Any]) -> str:
    return item.get("id") or item["label"]


def find(task: Any, ref: str) -> dict[str, Any]:
    """The menu item whose id or label is ``ref``."""
    from fdegym_env.core.errors import did_you_mean
    menu_items = items(task)
    for item in menu_items:
        if ref in (item.get("id"), item["label"]):
            return item
    known = [item_ref(i) for i in menu_items]
    raise ValueError(f"{task.path}/menu.yaml: plans name item {ref!r}, which is not an id or label of an "
                     f"item.{did_you_mean(ref, known)}")


def plan(task: Any, variant: str) -> list[str] | None:
    """The declared plan for ``variant`` (item refs), or None."""
    p = ((load(task) or {}).get("plans") or {}).get(variant)
    return list(p) if p is not None else None


def apply(task: Any, refs: list[str], ws: Path) -> None:
    """Apply the file steps of the items ``refs`` to ``ws`` in order, as the env's tools would."""
    from fdegym_env.core import workspace as wsmod
    for ref in refs:
        item = find(task, ref)
        for st in steps(item):
            if st.get("tool") == "write_file":
                wsmod.write_file(ws, st["path"], st["content"])
            elif st.get("tool") == "edit_file":
                wsmod.edit_file(ws, st["path"], st["old"], st["new"], bool(st.get("replace_all")))
            else:
                raise ValueError(f"{task.path}/menu.yaml: plan item {ref!r} has a {st.get('tool')!r} step; a plan "
                                 "applies file changes only (write_file, edit_file)")


def search(task: Any, variant_name: str, rounds: int = 6, sandbox: str = "none") -> tuple[list[str], float]:
    """Greedy plan search: add the apply item that raises uplift most (an incident counts as
    ``INCIDENT_PENALTY`` less), until the plan reaches ``MENU_MIN`` with no incident; returns the plan and
    its uplift (incidents capping it, as validate scores it)."""
    from fdegym_env.core.paths import scratch_dir
    from fdegym_env.core.workspace import PathError, world_snapshot
    from fdegym_env.grading.grade import anchors, grade_system, score, uplift
    variant = task.variant(variant_name)
    a = anchors(task, variant, sandbox)
    chosen: list[str] = []
    best, final = -INCIDENT_PENALTY, 0.0
    for _ in range(rounds):
        round_best: tuple[float, str | None, float] = (best, None, final)
        for item in apply_items(task):
            ref = item_ref(item)
            if ref in chosen:
                continue
            with tempfile.TemporaryDirectory(prefix="fdegym-menu-", dir=scratch_dir()) as tmp:
                ws = Path(tmp) / "ws"
                shutil.copytree(world_snapshot(task, variant), ws, symlinks=True)
                try:
                    apply(task, chosen + [ref], ws)
                except PathError:
                    continue
                g = grade_system(task, variant, ws, sandbox)
            raw = uplift(g.kpi, a["kpi_baseline"], a["kpi_reference"])
            key = raw - (INCIDENT_PENALTY if g.incidents else 0.0)   # an incident may be fixed by a later item
            if not math.isnan(key) and key > round_best[0] + 1e-9:
                round_best = (key, ref, score(g.kpi, a["kpi_baseline"], a["kpi_reference"], g.incidents,
                                              0.0)["final_uplift"])
        if round_best[1] is None:
            break
        best, final = round_best[0], round_best[2]
        chosen.append(round_best[1])
        if final >= MENU_MIN:
            break
    return chosen, final


if __name__ == "__main__":
    from fdegym_env.core.registry import load_task
    t = load_task(sys.argv[1])
    found = {}
    for name in (sys.argv[2:] or list(t.variants)):
        refs, u = search(t, name)
        found[name] = refs
        print(f"# {name}: uplift {u:.4f}", flush=True)
    print(yaml.safe_dump({"plans": found}, sort_keys=False, width=200, allow_unicode=True))
