"""What the verdict page teaches: the score formula with the person's own numbers, and the diffs of
the delivery and of the reference solution against the world as found.

Example:
    >>> lines = explain({"kpi": 0.5, "kpi_baseline": 0.0, "kpi_reference": 1.0, "incidents": [],
    ...                  "contact_cost": 0.1, "score": 0.4, "resolved": False})
    >>> lines["uplift"]
    'U = (kpi − as found) / (reference − as found) = (0.5 − 0) / (1 − 0) = 0.5'
"""

from __future__ import annotations

import difflib
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

from fdegym_env.grading.grade import RESOLVED_AT

MAX_DIFF_CHARS = 60_000
MAX_FILE_BYTES = 400_000
ENV_WRITTEN = "TASK.md"       # the brief the env writes into the workspace at reset: not part of a delivery
_PATH = re.compile(r"(?<![\w/.-])[A-Za-z0-9_][A-Za-z0-9_.-]*(?:/[A-Za-z0-9_.-]+)+")
_FAILURE = re.compile(r"did not return|exited with code|raised|not JSON|entry_point_failed|crash", re.I)


def system_failed(result: dict[str, Any]) -> bool:
    """Whether the delivered system crashed or hung while graded (its KPI is then not a measurement)."""
    return any(_FAILURE.search(str(i)) for i in result.get("incidents") or [])


def explain(r: dict[str, Any]) -> dict[str, str]:
    """The formula, step by step, with this result's numbers."""
    kpi, base, ref = float(r.get("kpi") or 0.0), float(r.get("kpi_baseline") or 0.0), float(r.get("kpi_reference") or 0.0)
    span = ref - base
    raw = (kpi - base) / span if span else 0.0
    incidents = list(r.get("incidents") or [])
    capped = min(raw, 0.0) if incidents else raw
    final_u = max(-1.0, capped)
    cost = float(r.get("contact_cost") or 0.0)
    score = final_u - cost
    return {
        "uplift": f"U = (kpi − as found) / (reference − as found) = ({kpi:.4g} − {base:.4g}) / ({ref:.4g} − {base:.4g}) = {raw:.4g}",
        "cap": (f"{len(incidents)} incident(s): an incident caps U at 0, so U = min({raw:.4g}, 0) = {capped:.4g}"
                if incidents else "No incident, so U is not capped (an incident would cap it at 0)."),
        "score": f"score = max(−1, U) − contact cost = max(−1, {capped:.4g}) − {cost:.4g} = {score:.4g}",
        "resolved": (f"Resolved needs score ≥ {RESOLVED_AT:g} and no incident: "
                     f"{score:.3f} {'≥' if score >= RESOLVED_AT else '<'} {RESOLVED_AT:g}"
                     f"{', but an incident' if incidents else ''} → {'resolved' if r.get('resolved') else 'not resolved'}."),
    }


def document_sources(fact_text: str) -> list[str]:
    """The workspace paths a key fact's text in ``truth.yaml`` names as where it can be learnt
    (``Sources: wire_editor, data/wire.`` names ``data/wire``); people's ids are not paths."""
    return [m.rstrip(".") for m in _PATH.findall(fact_text)]


def learnt_from(fact_text: str, read: set[str], commands: list[str]) -> str | None:
    """The document a fact was learnt from, when the truth names one and the person read it (a file
    at or under that path with ``read_file``) or opened it in the shell (a command naming it that
    does more than list or change directory)."""
    for src in document_sources(fact_text):
        for path in sorted(read):
            if path == src or path.startswith(src + "/") or path.startswith(src + "."):
                return path
        for cmd in commands:
            if cmd.split()[:1] in (["ls"], ["cd"]):
                continue
            if re.search(rf"(?<![\w/.-]){re.escape(src)}(?![\w-])", cmd):
                return src
    return None


def _text(p: Path) -> list[str] | None:
    if not p.is_file() or p.stat().st_size > MAX_FILE_BYTES:
        return None
    data = p.read_bytes()
    if b"\0" in data[:4096]:
        return None
    return data.decode("utf-8", errors="replace").splitlines(keepends=True)


def tree_diff(before: Path, after: Path) -> str:
    """A unified diff of every text file that differs between two folders (capped)."""
    rels = sorted({p.relative_to(before).as_posix() for p in before.rglob("*") if p.is_file()}
                  | {p.relative_to(after).as_posix() for p in after.rglob("*") if p.is_file()})
    out: list[str] = []
    size = 0
    for rel in rels:
        if "__pycache__" in rel or rel.startswith(".fdegym") or rel == ENV_WRITTEN:
            continue
        a, b = _text(before / rel), _text(after / rel)
        if a == b or (a is None and (before / rel).is_file()) or (b is None and (after / rel).is_file()):
            continue
        chunk = "".join(difflib.unified_diff(a or [], b or [], f"a/{rel}", f"b/{rel}"))
        out.append(chunk if chunk.endswith("\n") else chunk + "\n")
        size += len(chunk)
        if size > MAX_DIFF_CHARS:
            out.append(f"… (diff cut at {MAX_DIFF_CHARS} characters)\n")
            break
    return "".join(out)


def diffs(task: Any, variant: Any, workspace: Path) -> dict[str, str]:
    """The person's delivery and the reference solution, each against the world as found."""
    from fdegym_env.core.workspace import world_snapshot
    from fdegym_env.grading.grade import apply_solution
    world = world_snapshot(task, variant)
    out = {"yours": tree_diff(world, Path(workspace)), "reference": ""}
    if "reference" in (task.solution_names() or []):
        with tempfile.TemporaryDirectory(prefix="fdegym-ref-") as tmp:
            ref = Path(tmp) / "workspace"
            shutil.copytree(world, ref, symlinks=True)
            apply_solution(task, "reference", ref, dict(variant.params))
            out["reference"] = tree_diff(world, ref)
    return out
