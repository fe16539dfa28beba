"""``fdegym validate`` for a harness case: the harness's own admission checks.

Per variant: do-nothing ``|U| < 0.05``; literal ``<= 0.2`` (``>= 0.95`` where ``right_here`` names
it); oracle ``>= 0.95``; every other ``solutions/`` script (a shortcut) ``<= 0.8`` unless right here;
``bypasses/`` ``<= 0.05``; ``probes/memorised*`` ``<= 0.8`` outside ``base``; ``alternates/``
reported only. Across more than one variant: literal mean ``<= 0.5``, each shortcut's mean
``<= 0.8``. A case without ``solutions/`` (as published) checks the do-nothing anchor only.
``U`` is the harness's ``uplift`` (incident-capped, rounded to 4 places).

Example:
    >>> report = admission(load_case("tests/harness/fixture_case"))     # doctest: +SKIP
    >>> report.passed                                                  # doctest: +SKIP
    True
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fdegym_env.admission.validate import Report, Row
from fdegym_env.core.paths import episodes_dir
from fdegym_env.core.task import TaskFormatError
from fdegym_env.harness.adapters import harness_grade
from fdegym_env.sandbox import resolve_backend

if TYPE_CHECKING:  # annotations only: case.py imports this module
    from fdegym_env.harness.case import Case

SHORTCUT_MAX = 0.8
BYPASS_MAX = 0.05
LITERAL_MEAN_MAX = 0.5


def grade_solution(case: Case, variant, solution: str | None, sandbox: str) -> dict[str, Any]:
    """Build a fresh world for ``variant``, apply ``solution`` (None: do nothing), grade it."""
    from fdegym_env.core.workspace import world_snapshot
    with tempfile.TemporaryDirectory(prefix="fdegym-case-validate-", dir=episodes_dir()) as tmp:
        ws = Path(tmp) / "workspace"
        shutil.copytree(world_snapshot(case, variant), ws, symlinks=True)
        (ws / "TASK.md").write_text(case.brief("L3", variant).rstrip() + "\n" + case.engagement_rules(variant))
        if solution is not None:
            case.apply_script(solution, ws, variant.params)
        return harness_grade(case, variant, ws, sandbox, level="L3", reference_solution=solution or "do_nothing")


def _check(kind: str, name: str, variant, u: float) -> tuple[str, bool]:
    right = set(variant.right_here)
    if kind == "do_nothing":
        return "|U| < 0.05", abs(u) < 0.05
    if kind == "literal":
        return ("right here: >= 0.95", u >= 0.95) if "literal" in right else ("<= 0.2", u <= 0.2)
    if kind == "oracle":
        return ">= 0.95", u >= 0.95
    if kind == "shortcut":
        return ("right here (no cap)", True) if name in right or name.removeprefix("shortcut_") in right \
            else (f"<= {SHORTCUT_MAX}", u <= SHORTCUT_MAX)
    if kind == "bypass":
        return f"<= {BYPASS_MAX}", u <= BYPASS_MAX
    if kind == "memorised":
        return ("base: reported only", True) if variant.name == "base" else (f"<= {SHORTCUT_MAX}", u <= SHORTCUT_MAX)
    return "(reported only)", True


def admission(case: Case, variants: list[str] | None = None, samples: int = 0, sandbox: str = "auto",
              generic: bool = True, progress: bool = False) -> Report:
    """Run the harness's admission checks on every (or the given) variant; see the module docstring."""
    sandbox = resolve_backend(sandbox)
    names = variants or sorted(case.variants, key=lambda n: (n != "base", n))
    report = Report(case.id)
    has_solutions = (case.path / "solutions").is_dir()
    for name in names:
        v = case.variant(name)
        for level in ("L0", "L1", "L2", "L3"):   # placeholders must fill (L0 and L3 are required)
            if level in ("L0", "L3") or (case.path / "briefs" / f"{level}.md").is_file():
                case.brief(level, v)
        case.people_spec(v)
        case.engagement_rules(v)
        sols = [s for s in case.solution_names() if case.harness_kind(s) != "probe"] if has_solutions else []
        known = {s.removeprefix("shortcut_") for s in sols} | set(sols)
        unknown = set(v.right_here) - known
        if unknown:
            raise TaskFormatError(f"{case.path / 'variants.json'}: variant {name}: right_here names no such solution: "
                                  f"{', '.join(sorted(unknown))}")
        jobs = [("do_nothing", "do_nothing", None)] + [(s, case.harness_kind(s), s) for s in sols]
        for label, kind, sol in jobs:
            out = harness_grade_safe(case, v, sol, sandbox)
            check, ok = _check(kind, label, v, out["uplift"])
            report.rows.append(Row(label, name, kind, float(out["kpi"]), float(out["uplift"]),
                                   [str(i) for i in out.get("incidents") or []], check, ok))
    if len(names) > 1:
        for s in sorted({r.solution for r in report.rows if r.kind in ("literal", "shortcut")}):
            ups = [r.uplift for r in report.rows if r.solution == s]
            mean, cap = sum(ups) / len(ups), (LITERAL_MEAN_MAX if s == "literal" else SHORTCUT_MAX)
            report.cross.append({"check": f"{s} mean across variants <= {cap}", "value": round(mean, 4),
                                 "passed": mean <= cap})
        angles = sorted({angle for n in names if n != "base" and (angle := case.variant(n).angle)})
        note = ", ".join(angles) or "none declared"
        if len(names) >= 4 and len(angles) < 3:
            note += " (NOTE: vary the angle, not only the values)"
        report.cross.append({"check": "kinds of change (reported, as the harness does)", "value": note, "passed": True})
    if not has_solutions:
        report.cross.append({"check": "no solutions/ in this case: do-nothing anchor only", "value": "-", "passed": True})
    return report


def harness_grade_safe(case: Case, variant, solution: str | None, sandbox: str) -> dict[str, Any]:
    return grade_solution(case, variant, solution, sandbox)
