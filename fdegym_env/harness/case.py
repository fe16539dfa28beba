"""A case folder in the reference harness's format, loaded as a :class:`fdegym_env.core.task.Task`.

The harness's layout (``engagement.json``, ``build_world.py``, ``briefs/``, ``npcs.json``,
``truth.json``, ``grader.py``, ``variants.json``, ``pilot.py``, ``solutions/``, ``alternates/``,
``bypasses/``, ``probes/``, service scripts) is read as it is, nothing converted. A :class:`Case`
answers everything :class:`~fdegym_env.core.env.FDEGymEnv`, grading, validation, the CLI and the agents
ask of a task; the harness's own code paths run underneath:

- the variant reaches case code as ``FDEGYM_VARIANT`` / ``FDEGYM_VARIANT_PARAMS`` in the
  environment while it runs (``build``, ``grade``, ``pilot.run``, solution scripts, services);
- the world is ``build_world.build(ws)`` (cached per variant), plus ``bin/`` and ``deliverables/``;
- ``TASK.md`` is brief + the harness's rules (v1/v2/v3) + ``rules_extra``;
- solution scripts run as ``python3 <script> <ws>``; ``oracle`` is the reference;
- the grader runs on the host like the harness's, with ``sys.executable`` pointing into fdegym's
  sandbox (:mod:`fdegym_env.harness.delivered`); its ``kpi_baseline``/``kpi_oracle`` are the anchors.

Example:
    >>> from fdegym_env.harness import load_case
    >>> case = load_case("tests/harness/fixture_case")
    >>> case.gym_id, case.solution_names()[:2]  # doctest: +SKIP
    ('FDEGymCases/fixture_case-v0', ['alternate_read_docs', 'bypass_read_truth'])
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import re
import subprocess
import sys
import threading
import warnings
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any, Iterator

from fdegym_env.core.errors import did_you_mean
from fdegym_env.core.task import LEVELS, Task, TaskFormatError, Variant
from fdegym_env.harness.envvars import variant_env  # noqa: F401  (re-exported)
from fdegym_env.harness.rules import rules_text

NAMESPACE = "FDEGymCases"
HOST_PYTHON = sys.executable
_PLACEHOLDER = re.compile(r"\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}")
_IMPORT_LOCK = threading.RLock()
SOLUTION_DIRS = ("solutions", "alternates", "bypasses", "probes")


def is_case_dir(path: str | Path) -> bool:
    """True for a folder in the harness's case format (and not one of fdegym's own task folders)."""
    p = Path(path)
    return (p.is_dir() and not (p / "task.yaml").exists() and (p / "build_world.py").is_file()
            and (p / "grader.py").is_file() and (p / "npcs.json").is_file())


def render(text: str, params: dict[str, Any], where: str, as_json: bool = False) -> str:
    """The harness's placeholder filling: every ``{{k}}`` from ``params``; ``as_json`` escapes values
    for text inside a JSON string. A placeholder left over is an error when the variant has params."""
    for k, v in params.items():
        v = str(v)
        if as_json:
            v = json.dumps(v, ensure_ascii=False)[1:-1]
        text = text.replace("{{%s}}" % k, v)
    left = sorted(set(_PLACEHOLDER.findall(text))) if params else []
    if left:
        raise TaskFormatError(f"{where}: the variant has no value for placeholder(s) {', '.join(left)} "
                              f"(have: {', '.join(sorted(params))}); fix: add them to variants.json")
    return text


def _read_json(path: Path, default: Any = None) -> Any:
    if not path.exists():
        if default is not None:
            return default
        raise TaskFormatError(f"{path}: missing (a harness case needs it)")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise TaskFormatError(f"{path}: not valid JSON: {e}") from None


def _people_from_npcs(data: dict[str, Any], where: str) -> dict[str, Any]:
    """npcs.json -> the people spec fdegym validates (``pilot`` -> ``trial``; unknown fields dropped
    with a warning, since a case written for the harness may carry fields only it reads)."""
    from fdegym_env.people.spec import PERSON_FIELDS, TOP_FIELDS, TOPIC_FIELDS, validate_people
    data = dict(data)
    if "pilot" in data and "trial" not in data:
        data["trial"] = data.pop("pilot")
    dropped = sorted(k for k in data if k not in TOP_FIELDS)
    for k in dropped:
        data.pop(k)
    people = []
    for p in data.get("npcs", data.get("people")) or []:
        p = dict(p)
        dropped += [f"{p.get('id')}.{k}" for k in p if k not in PERSON_FIELDS]
        p = {k: v for k, v in p.items() if k in PERSON_FIELDS}
        topics = []
        for t in p.get("topics") or []:
            dropped += [f"{p.get('id')}.{t.get('id')}.{k}" for k in t if k not in TOPIC_FIELDS]
            topics.append({k: v for k, v in t.items() if k in TOPIC_FIELDS})
        p["topics"] = topics
        people.append(p)
    data.pop("npcs", None)
    data["people"] = people
    if dropped:
        warnings.warn(f"{where}: fields fdegym does not read were ignored: {', '.join(dropped[:10])}", stacklevel=3)
    return validate_people(data, where)


@dataclass
class Case(Task):
    """A harness case folder as a Task (see the module docstring). Build with :func:`load_case`."""

    cfg: dict[str, Any] = field(default_factory=dict, repr=False)
    namespace: str = NAMESPACE

    # --- construction ---------------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | Path, namespace: str = NAMESPACE) -> "Case":
        path = Path(path).resolve()
        if not is_case_dir(path):
            missing = [n for n in ("build_world.py", "grader.py", "npcs.json") if not (path / n).is_file()]
            raise TaskFormatError(f"{path}: not a harness case folder (missing: {', '.join(missing) or 'n/a'}; "
                                  "expected engagement.json, build_world.py, briefs/, npcs.json, truth.json, grader.py)")
        cfg = _read_json(path / "engagement.json", {})
        if not isinstance(cfg, dict):
            raise TaskFormatError(f"{path / 'engagement.json'}: expected a JSON object, got {type(cfg).__name__}")
        for s in cfg.get("services") or []:
            if not (isinstance(s, dict) and isinstance(s.get("name"), str) and isinstance(s.get("script"), str)):
                raise TaskFormatError(f"{path / 'engagement.json'}: each of 'services' needs 'name' and 'script', got {s!r}")
            if not (path / s["script"]).is_file():
                raise TaskFormatError(f"{path / 'engagement.json'}: service {s['name']!r}: no script {s['script']!r} in the case")
        npcs = _read_json(path / "npcs.json")
        matcher = npcs.get("matcher", "regex") if isinstance(npcs, dict) else "regex"
        router = "regex" if matcher != "llm" else ("llm" if os.environ.get("FDEGYM_LLM_BASE_URL") else "semantic")
        given = cfg.get("metric")
        given = given if isinstance(given, dict) else {}
        metric = {"name": str(given.get("name", "kpi")), "unit": str(given.get("unit", "")),
                  "direction": str(given.get("direction", "maximize"))}
        limits: dict[str, float] = {"max_turns": 200, "max_customer_days": 30, "max_wall_seconds": 9000}
        limits.update(cfg.get("limits") or {})
        case_id = re.sub(r"[^A-Za-z0-9_.]", "_", path.name)
        case = cls(path=path, id=case_id, version=int(cfg.get("version", 0)), title=str(cfg.get("title") or _title(path, case_id)),
                   sector=str(cfg.get("sector", "")), customer=str(cfg.get("org") or cfg.get("customer") or ""),
                   sponsor=dict(cfg.get("sponsor") or {}), metric=metric, entry_points=(), limits=limits,
                   held_out_seed=0, router=router, raw=cfg, cfg=cfg, namespace=namespace)
        _ = case.variants  # validate eagerly
        return case

    @property
    def gym_id(self) -> str:
        return f"{self.namespace}/{self.id}-v{self.version}"

    @property
    def world_path(self) -> Path:
        """An empty folder: the world is built by ``build_world.py`` (see :meth:`module` ``traffic``)."""
        from fdegym_env.core.paths import cache_dir
        p = cache_dir() / "compat" / "empty_world"
        p.mkdir(parents=True, exist_ok=True)
        return p

    # --- variants -----------------------------------------------------------------------------------
    @cached_property
    def variants(self) -> dict[str, Variant]:
        p = self.path / "variants.json"
        data = _read_json(p, {"base": {}})
        if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
            raise TaskFormatError(f"{p}: expected {{variant name: {{param: value}}}}")
        data.setdefault("base", {})
        return {name: Variant(name, dict(params), params.get("angle"), tuple(params.get("right_here") or ()))
                for name, params in data.items()}

    @property
    def has_sampler(self) -> bool:
        return False

    def variant_for(self, params: dict[str, Any]) -> Variant:
        """The named variant with exactly these params (else an anonymous one)."""
        for v in self.variants.values():
            if v.params == params:
                return v
        return Variant("custom", dict(params), params.get("angle"), tuple(params.get("right_here") or ()))

    # --- content ------------------------------------------------------------------------------------
    def brief(self, level: str, variant: Variant) -> str:
        if level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
        p = self.path / "briefs" / f"{level}.md"
        if not p.is_file():
            have = sorted(x.stem for x in (self.path / "briefs").glob("L*.md"))
            raise ValueError(f"case {self.id!r} has no {level} brief (has: {', '.join(have) or 'none'}); pick one of those levels")
        return render(p.read_text(encoding="utf-8"), variant.params, str(p))

    def engagement_rules(self, variant: Variant) -> str:
        """What the harness appends to the brief in ``TASK.md``: rules v1/v2/v3 + ``rules_extra``."""
        return rules_text(self.cfg.get("rules")) + render(self.cfg.get("rules_extra", ""), variant.params,
                                                          str(self.path / "engagement.json") + ": rules_extra")

    def people_spec(self, variant: Variant) -> dict[str, Any]:
        p = self.path / "npcs.json"
        text = render(p.read_text(encoding="utf-8"), variant.params, str(p), as_json=True)
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise TaskFormatError(f"{p}: not valid JSON after filling the variant {variant.name!r}: {e}") from None
        return _people_from_npcs(data, str(p))

    @cached_property
    def truth_raw(self) -> dict[str, Any]:
        return _read_json(self.path / "truth.json", {})

    @cached_property
    def truth(self) -> dict[str, Any]:
        return {"key_facts": list(self.truth_raw.get("key_stakeholder_facts", [])), **self.truth_raw}

    @cached_property
    def content_hash(self) -> str:
        h = hashlib.sha256(b"fdegym-compat-1")
        for f in sorted(self.path.rglob("*")):
            if f.is_file() and "__pycache__" not in f.parts:
                h.update(str(f.relative_to(self.path)).encode())
                h.update(f.read_bytes())
        return h.hexdigest()[:16]

    # --- solutions ----------------------------------------------------------------------------------
    @cached_property
    def solution_scripts(self) -> dict[str, Path]:
        """fdegym name -> script: ``oracle`` is ``reference``; other ``solutions/`` are ``shortcut_*``;
        ``alternates/x`` -> ``alternate_x``, ``bypasses/x`` -> ``bypass_x``, ``probes/x`` -> ``probe_x``."""
        out: dict[str, Path] = {}
        for sub in SOLUTION_DIRS:
            d = self.path / sub
            for f in sorted(d.glob("*.py")) if d.is_dir() else []:
                n = f.stem
                if sub == "solutions":
                    name = {"oracle": "reference", "literal": "literal"}.get(n, n if n.startswith("shortcut_") else "shortcut_" + n)
                else:
                    prefix = {"alternates": "alternate_", "bypasses": "bypass_", "probes": "probe_"}[sub]
                    name = n if n.startswith(prefix) else prefix + n
                out[name] = f
        return out

    def harness_kind(self, name: str) -> str:
        """The harness's kind of a solution: do_nothing, literal, oracle, shortcut, alternate, bypass, memorised."""
        if name in ("do_nothing", "literal"):
            return name
        if name == "reference":
            return "oracle"
        f = self.solution_scripts[name]
        sub = f.parent.name
        if sub == "probes":
            return "memorised" if f.stem.startswith("memorised") else "probe"
        return {"solutions": "shortcut", "alternates": "alternate", "bypasses": "bypass"}[sub]

    def solution_names(self) -> list[str]:
        return sorted(self.solution_scripts)

    def apply_script(self, name: str, ws: Path, params: dict[str, Any]) -> None:
        """Run a solution script the harness's way: ``python3 <script> <ws>`` with the variant in the env."""
        script = self.solution_scripts.get(name)
        if script is None:
            raise ValueError(f"case {self.id!r} has no solution {name!r}." + did_you_mean(name, list(self.solution_scripts))
                             + f" (has: {', '.join(self.solution_names())})")
        v = self.variant_for(params)
        env = dict(os.environ, FDEGYM_VARIANT=v.name, FDEGYM_VARIANT_PARAMS=json.dumps(v.params, ensure_ascii=False))
        r = subprocess.run([HOST_PYTHON, str(script), str(ws)], env=env, cwd=str(script.parent),
                           capture_output=True, text=True, timeout=600)
        if r.returncode != 0:
            raise RuntimeError(f"solution {name} ({script}) failed with exit code {r.returncode}: {r.stderr[-800:]}")

    # --- case modules ---------------------------------------------------------------------------------
    @contextlib.contextmanager
    def imports(self) -> Iterator[None]:
        """The case folder first on ``sys.path`` (case modules import their siblings), siblings isolated."""
        siblings = {p.stem for p in self.path.glob("*.py")}
        with _IMPORT_LOCK:
            saved = {n: sys.modules.pop(n) for n in siblings if n in sys.modules}
            sys.path.insert(0, str(self.path))
            try:
                yield
            finally:
                try:
                    sys.path.remove(str(self.path))
                except ValueError:
                    pass
                for n in siblings:
                    sys.modules.pop(n, None)
                sys.modules.update(saved)

    def load_case_module(self, name: str) -> ModuleType:
        """A fresh import of ``<case>/<name>.py`` (call inside :func:`variant_env` and :meth:`imports`:
        case modules may read the variant at import)."""
        path = self.path / f"{name}.py"
        if not path.is_file():
            raise TaskFormatError(f"{path}: missing module")
        spec = importlib.util.spec_from_file_location(f"fdegym_case_{self.id}_{name}", path)
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot import {path}")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod

    # services, pilots and an LLM gateway may make grading depend on more than the workspace
    deterministic_grading = False
    # the harness deploys the whole workspace (pilots and services may read beside system/)
    deployed_folder = None

    def module(self, name: str) -> Any:
        """The task-format modules fdegym calls, implemented over the harness's files (namespaces that
        stand in for modules)."""
        from fdegym_env.harness import adapters
        if name == "traffic":
            return SimpleNamespace(dev=lambda params, out: adapters.build_world(self, params, Path(out)),
                                   held_out=lambda params, seed: None)
        if name == "grader":
            return SimpleNamespace(grade=lambda deploy, params, traffic: adapters.grade(self, deploy, params))
        if name == "trial":
            return SimpleNamespace(run=lambda deploy, params, day, traffic: adapters.pilot_day(self, deploy, params, day))
        if name.startswith("solutions/"):
            sol = name.split("/", 1)[1]
            sol = {"oracle": "reference"}.get(sol, sol)
            return SimpleNamespace(apply=lambda ws, params: self.apply_script(sol, Path(ws), params))
        raise TaskFormatError(f"case {self.id!r}: no module {name!r} in the harness format")

    def has_module(self, name: str) -> bool:
        if name == "trial":
            return (self.path / "pilot.py").is_file()
        return name in ("traffic", "grader") or (name.startswith("solutions/") and name.split("/", 1)[1] in
                                                 set(self.solution_scripts) | {"oracle"})

    # --- hooks the env, grading and validate call ------------------------------------------------------
    def start_episode(self, env: Any) -> Any:
        from fdegym_env.harness.episode import CaseEpisode
        return CaseEpisode(self, env)

    def own_anchors(self, variant: Variant, sandbox: str = "auto") -> dict[str, Any]:
        from fdegym_env.harness.adapters import anchors
        return anchors(self, variant, sandbox)

    def own_admission(self, **kwargs: Any) -> Any:
        from fdegym_env.harness.admission import admission
        return admission(self, **kwargs)


def _title(path: Path, case_id: str) -> str:
    for level in ("L3", "L0", "L1", "L2"):
        p = path / "briefs" / f"{level}.md"
        if p.is_file():
            for line in p.read_text(encoding="utf-8").splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return case_id


def load_case(path: str | Path, namespace: str = NAMESPACE) -> Case:
    """Load a harness case folder (see :class:`Case`)."""
    return Case.load(path, namespace)
