"""Loading a task folder (docs/task_format.md) into a :class:`Task`.

A task is data plus a few small modules. Loading validates the data and names the file and field
of anything wrong; modules (traffic, grader, trial, sampler, solutions) load lazily.

Example:
    >>> from fdegym_env.core.registry import load_task
    >>> task = load_task("news_incident")
    >>> task.variant("base").params  # doctest: +SKIP
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import importlib.machinery
import importlib.util
import json
import random
import re
import sys
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import yaml

from fdegym_env.core import yamlio
from fdegym_env.core.errors import TaskFormatError, did_you_mean

LEVELS = ("L0", "L1", "L2", "L3")
SAMPLE_PREFIX = "sample:"
SPLIT_RANGES = {"train": (0, 1_000_000), "test": (1_000_000, 2_000_000)}
SAMPLE_CACHE = 256   # drawn variants kept per task: a sampler may simulate traffic, and a fixed
                     # ``sample:N`` is asked for again on every reset
_PLACEHOLDER = re.compile(r"\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}")
_MODULE_LOCK = threading.RLock()
TASKS_PACKAGE = "fdegym_tasks"   # synthetic parent of every loaded task folder's package
_PACKAGES: dict[Path, str] = {}  # resolved task folder -> its package name
_OWNERS: dict[str, "Task"] = {}   # package name -> the Task that loaded it (for task_of_module)


#: The functions each task module must define, as fdegym calls them, and the docs section that says
#: how. Checked twice from this one table: when a task loads (a top-level name in the source, before
#: any task code runs) and when a module is imported (a callable), so a grader without ``grade``
#: fails at load with its file named, not at the first submit as a NaN score.
MODULE_INTERFACE: dict[str, tuple[tuple[str, str], ...]] = {
    "grader": (("grade", "grade(deploy, params, traffic)"),),
    "traffic": (("held_out", "held_out(params, seed)"),),
    "trial": (("run", "run(deploy, params, day, traffic)"),),
    "sampler": (("sample", "sample(rng)"),),
    "solutions/*": (("apply", "apply(ws, params)"),),
}
MODULE_DOCS = {"grader": "grader.py", "traffic": "traffic.py", "trial": "trialpy-optional",
               "sampler": "samplerpy-optional", "solutions/*": "solutionspy"}


def interface_error(path: Path, kind: str, missing: list[str]) -> TaskFormatError:
    """``tasks/x/grader.py has no function grade(deploy, params, traffic): every grader.py must define it (...)``."""
    sigs = [sig for fn, sig in MODULE_INTERFACE[kind] if fn in missing]
    anchor = MODULE_DOCS[kind].replace(".", "")
    return TaskFormatError(f"{path} has no function {', '.join(sigs)}: every {kind}.py must define "
                           f"{'it' if len(sigs) == 1 else 'them'} (docs/task_format.md#{anchor})")


def _top_level_names(path: Path) -> set[str]:
    """Names a module's source binds at its top level (def, class, assignment, import)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    except SyntaxError as e:
        raise TaskFormatError(f"{path}:{e.lineno}: not valid Python: {e.msg}") from None
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(node, (ast.If, ast.Try)):
            names.add("*")             # conditional definitions: left to the import-time check
    return names


def check_module_interfaces(path: Path) -> None:
    """Each task module present (grader, traffic, trial, sampler) defines what fdegym calls, read
    from its source without running it."""
    for kind in ("grader", "traffic", "trial", "sampler"):
        f = path / f"{kind}.py"
        if f.is_file():
            names = _top_level_names(f)
            missing = [fn for fn, _ in MODULE_INTERFACE[kind] if fn not in names and "*" not in names]
            if missing:
                raise interface_error(f, kind, missing)


def task_of_module(module_name: str) -> "Task":
    """The Task whose package holds ``module_name`` (a task module's ``__name__``)."""
    parts = module_name.split(".")
    if len(parts) < 2 or parts[0] != TASKS_PACKAGE or ".".join(parts[:2]) not in _OWNERS:
        raise ValueError(f"{module_name!r} is not a module of a loaded task (expected {TASKS_PACKAGE}.<task>.<module>, "
                         "imported through Task.module)")
    return _OWNERS[".".join(parts[:2])]


def task_package(path: Path, task_id: str) -> str:
    """Register the task folder ``path`` as the package ``fdegym_tasks.<task_id>`` (once per folder
    and process) and return that name. A second folder with the same id (a user's copy, a test
    fixture) gets ``fdegym_tasks.<task_id>_<hash of its path>``, so two folders never share modules.
    A folder's own ``__init__.py``, if any, runs as the package's body."""
    root = Path(path).resolve()
    with _MODULE_LOCK:
        if root in _PACKAGES:
            return _PACKAGES[root]
        top = sys.modules.get(TASKS_PACKAGE)
        if top is None:
            top = ModuleType(TASKS_PACKAGE, "Task folders loaded by fdegym_env.core.task, one subpackage each.")
            top.__path__ = []
            top.__package__ = TASKS_PACKAGE
            sys.modules[TASKS_PACKAGE] = top
        name = f"{TASKS_PACKAGE}.{task_id}"
        if name in sys.modules:
            name += "_" + hashlib.sha256(str(root).encode()).hexdigest()[:8]
        init = root / "__init__.py"
        if init.is_file():
            spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(root)])
            if spec is None:
                raise ImportError(f"cannot import {init} as {name}")
        else:
            spec = importlib.machinery.ModuleSpec(name, None, is_package=True)
            spec.submodule_search_locations = [str(root)]
        pkg = importlib.util.module_from_spec(spec)
        sys.modules[name] = pkg
        try:
            if spec.loader is not None:
                spec.loader.exec_module(pkg)
        except BaseException:
            del sys.modules[name]
            raise
        setattr(top, name.rsplit(".", 1)[1], pkg)
        _PACKAGES[root] = name
        return name


@dataclass(frozen=True)
class Variant:
    """One hidden truth of a scenario: named (variants.yaml) or sampled (``sample:N``)."""

    name: str
    params: dict[str, Any]
    angle: str | None = None
    right_here: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """A stable id of the variant's content (used for caches)."""
        blob = json.dumps({"name": self.name, "params": self.params}, sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


def render(text: str, params: dict[str, Any], where: str) -> str:
    """Fill ``{{name}}`` placeholders from ``params``; an unfilled placeholder is an error."""

    def sub(m: re.Match) -> str:
        if m.group(1) not in params:
            raise TaskFormatError(f"{where}: placeholder {{{{{m.group(1)}}}}} has no value in the variant's "
                                  f"params (have: {', '.join(sorted(params)) or 'none'})")
        return str(params[m.group(1)])

    return _PLACEHOLDER.sub(sub, text)


def _read_yaml(path: Path) -> Any:
    try:
        with open(path, encoding="utf-8") as f:
            return yamlio.safe_load(f)
    except FileNotFoundError:
        raise TaskFormatError(f"{path}: missing (see docs/task_format.md)") from None
    except yaml.YAMLError as e:
        raise TaskFormatError(f"{path}: not valid YAML: {e}") from None


_LIMITS: dict[str, float] = {"max_turns": 150, "max_customer_days": 30, "max_wall_seconds": 3600}


@dataclass(frozen=True)
class EntryPoint:
    module: str
    function: str
    doc: str = ""
    timeout_s: float | None = None
    output: dict[str, Any] | None = field(default=None, hash=False, compare=False)   # tasklib.replay checks it


PATCH_SUFFIX = ".patch"
MENU_DIR = "menu"    # solutions/menu/: the changes of menu.yaml's ``apply:`` items, not a solution


def solution_names_in(task_dir: Path) -> list[str]:
    """The solutions of a task folder: modules ``<name>.py``, overlay folders ``<name>/`` and patches
    ``<name>.patch`` (one name each; ``solutions/menu/`` is not one)."""
    d = Path(task_dir) / "solutions"
    if not d.is_dir():
        return []
    mods = {p.stem for p in d.glob("*.py") if p.stem != "__init__"}
    dirs = {p.name for p in d.iterdir() if p.is_dir() and p.name not in ("__pycache__", MENU_DIR)
            and not (p / "__init__.py").exists()}
    patches = {p.name[:-len(PATCH_SUFFIX)] for p in d.glob("*" + PATCH_SUFFIX)}
    return sorted(mods | dirs | patches)


@dataclass
class Task:
    """A loaded task folder."""

    path: Path
    id: str
    version: int
    title: str
    sector: str
    customer: str
    sponsor: dict[str, Any]
    metric: dict[str, Any]
    entry_points: tuple[EntryPoint, ...]
    limits: dict[str, float]
    held_out_seed: int
    router: str
    raw: dict[str, Any] = field(repr=False, default_factory=dict)
    agent_title: str | None = None   # what the agent sees at L2/L3 (the sponsor's framing); None: no title

    # --- construction -------------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | Path) -> "Task":
        path = Path(path)
        where = str(path / "task.yaml")
        data = _read_yaml(path / "task.yaml")
        if not isinstance(data, dict):
            raise TaskFormatError(f"{where}: expected a mapping at the top level")
        from fdegym_env.core import schema  # types, unknown keys and typos, with a did-you-mean
        spec = schema.check("task.yaml", data, where)
        assert isinstance(spec, schema.TaskFile)
        if spec.id != path.name:
            raise TaskFormatError(f"{where}: field 'id' is {spec.id!r} but the folder is {path.name!r}")
        agent_title = spec.agent_title
        if agent_title is not None:
            if not agent_title.strip():
                raise TaskFormatError(f"{where}: field 'agent_title' should be a non-empty string (the sponsor's framing "
                                      f"shown at L2/L3) or absent (no title there), got {agent_title!r}")
            if " ".join(agent_title.lower().split()) == " ".join(spec.title.lower().split()):
                raise TaskFormatError(f"{where}: field 'agent_title' repeats the catalog 'title' ({spec.title!r}); the "
                                      "catalog title may name the hidden problem, so L2/L3 need the sponsor's own "
                                      "framing instead (or no agent_title at all)")
            agent_title = agent_title.strip()
        eps = tuple(EntryPoint(ep.module, ep.function, ep.doc, ep.timeout_s,
                               ep.output.model_dump() if ep.output is not None else None)
                    for ep in spec.entry_points)
        task = cls(path=path, id=spec.id, version=spec.version, title=spec.title, sector=spec.sector,
                   customer=spec.customer, sponsor=spec.sponsor.model_dump(), metric=spec.metric.model_dump(),
                   entry_points=eps, limits={**_LIMITS, **(data.get("limits") or {})}, held_out_seed=spec.held_out_seed,
                   router=spec.router, raw=data, agent_title=agent_title)
        for sub in ("world", "briefs"):
            if not (path / sub).is_dir():
                raise TaskFormatError(f"{path / sub}: missing folder (see docs/task_format.md)")
        for level in LEVELS:
            if not (path / "briefs" / f"{level}.md").is_file():
                raise TaskFormatError(f"{path / 'briefs' / (level + '.md')}: missing brief for level {level}")
        _ = task.variants, task.truth  # validate eagerly
        if (path / "menu.yaml").is_file():
            schema.check("menu.yaml", _read_yaml(path / "menu.yaml"), str(path / "menu.yaml"))
        check_module_interfaces(path)
        return task

    @property
    def gym_id(self) -> str:
        return f"FDEGym/{self.id}-v{self.version}"

    # --- variants -----------------------------------------------------------------------------
    @cached_property
    def variants(self) -> dict[str, Variant]:
        where = str(self.path / "variants.yaml")
        data = _read_yaml(self.path / "variants.yaml")
        from fdegym_env.core import schema
        spec = schema.check("variants.yaml", data, where)
        assert isinstance(spec, schema.VariantsFile)
        base = spec.variants["base"].params
        return {name: Variant(name, {**base, **v.params} if name != "base" else dict(base), v.angle, tuple(v.right_here))
                for name, v in spec.variants.items()}

    @property
    def has_sampler(self) -> bool:
        return (self.path / "sampler.py").is_file()

    def variant(self, name: str = "base") -> Variant:
        """A named variant, or ``sample:N`` drawn by the task's sampler with seed N."""
        if name.startswith(SAMPLE_PREFIX):
            if not self.has_sampler:
                raise ValueError(f"task {self.id!r} has no sampler.py, so no variant {name!r}; "
                                 f"named variants: {', '.join(self.variants)}")
            cache: OrderedDict[str, Variant] = self.__dict__.setdefault("_samples", OrderedDict())
            if name in cache:
                cache.move_to_end(name)
                return cache[name]
            try:
                seed = int(name[len(SAMPLE_PREFIX):])
            except ValueError:
                raise ValueError(f"expected 'sample:<integer>', got {name!r}") from None
            drawn = self.module("sampler").sample(random.Random(seed))
            params = dict(self.variants["base"].params)
            params.update(drawn.get("params", {}))
            cache[name] = Variant(name, params, drawn.get("angle", "sampled"), tuple(drawn.get("right_here") or ()))
            if len(cache) > SAMPLE_CACHE:
                cache.popitem(last=False)
            return cache[name]
        if name not in self.variants:
            hint = did_you_mean(name, list(self.variants))
            raise ValueError(f"task {self.id!r} has no variant {name!r}.{hint} "
                             f"Variants: {', '.join(self.variants)}" + (", sample:<N>" if self.has_sampler else ""))
        return self.variants[name]

    def sample_variant(self, rng: random.Random, split: str = "train") -> Variant:
        if split not in SPLIT_RANGES:
            raise ValueError(f"split must be one of {', '.join(SPLIT_RANGES)}, got {split!r}")
        lo, hi = SPLIT_RANGES[split]
        return self.variant(f"{SAMPLE_PREFIX}{rng.randrange(lo, hi)}")

    # --- content --------------------------------------------------------------------------------
    def brief(self, level: str, variant: Variant) -> str:
        if level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
        p = self.path / "briefs" / f"{level}.md"
        return render(p.read_text(encoding="utf-8"), variant.params, str(p))

    def people_spec(self, variant: Variant) -> dict[str, Any]:
        p = self.path / "people.yaml"
        raw = "\n".join(line for line in p.read_text(encoding="utf-8").splitlines()
                        if not line.lstrip().startswith("#"))  # placeholders in comments are not filled
        text = render(raw, variant.params, str(p))
        try:
            data = yamlio.safe_load(text)
        except yaml.YAMLError as e:
            raise TaskFormatError(f"{p}: not valid YAML after filling the variant {variant.name!r}: {e}") from None
        from fdegym_env.people.spec import validate_people
        if isinstance(data, dict):
            # fdegym's own tasks: a person who cannot answer names who can, and a topic already
            # answered is recapped in one line, and a paragraph that lacks the figure or date asked
            # for says so first (the harness's cases keep its semantics).
            data["replies"] = {"refer_elsewhere": True, "recap_repeats": True, "not_to_hand": True,
                               **(data.get("replies") or {})}
        return validate_people(data, str(p))

    @cached_property
    def truth(self) -> dict[str, Any]:
        p = self.path / "truth.yaml"
        data = (_read_yaml(p) if p.exists() else {}) or {}
        from fdegym_env.core import schema
        schema.check("truth.yaml", data, str(p))
        return data

    @cached_property
    def content_hash(self) -> str:
        """Hash of every file of the task: caches keyed on it go stale when the task changes."""
        h = hashlib.sha256()
        for f in sorted(self.path.rglob("*")):
            if f.is_file() and "__pycache__" not in f.parts:
                h.update(str(f.relative_to(self.path)).encode())
                h.update(f.read_bytes())
        return h.hexdigest()[:16]

    def solution_names(self) -> list[str]:
        """Solution modules ``solutions/<name>.py``, overlay folders ``solutions/<name>/`` and patches
        ``solutions/<name>.patch`` (:mod:`fdegym_env.tasklib.solutions`)."""
        return solution_names_in(self.path)

    # --- modules --------------------------------------------------------------------------------
    @property
    def package(self) -> str:
        """The task folder's import name (``fdegym_tasks.<id>``): task modules import their siblings
        relatively (``from . import sim``) and each file is one module object per process."""
        name = task_package(self.path, self.id)
        _OWNERS.setdefault(name, self)
        return name

    def module(self, name: str) -> ModuleType:
        """Import ``<task>/<name>.py`` (e.g. ``grader``, ``solutions/reference``) as a submodule of
        :attr:`package`."""
        path = self.path / f"{name}.py"
        if not path.is_file():
            raise TaskFormatError(f"{path}: missing module")
        with _MODULE_LOCK:
            mod = importlib.import_module(f"{self.package}.{name.replace('/', '.')}")
        kind = "solutions/*" if name.startswith("solutions/") and name.count("/") == 1 else name
        missing = [fn for fn, _ in MODULE_INTERFACE.get(kind, ()) if not callable(getattr(mod, fn, None))]
        if missing:
            raise interface_error(path, kind, missing)
        return mod

    def has_module(self, name: str) -> bool:
        return (self.path / f"{name}.py").is_file()

    def preload(self) -> None:
        """Import the modules every graded episode calls (traffic, grader, trial) now: the env does
        this when it is built, so its first episodes do not pay for imports mid-rollout and a task
        module that cannot be imported fails at construction, not at the first submit."""
        for name in ("traffic", "grader", "trial", "sampler"):
            if self.has_module(name):
                try:
                    self.module(name)
                except TaskFormatError:
                    raise
                except Exception as e:
                    raise TaskFormatError(f"{self.path / name}.py: cannot be imported: {type(e).__name__}: {e} "
                                          f"(fix the module; `python -c 'import {self.package}.{name}'` "
                                          f"shows the traceback)") from e

    # --- extension points with neutral defaults -----------------------------------------------------
    # A task kind that is not a task folder (the reference harness's cases, fdegym_env.harness.case)
    # overrides these; the env, grading, validate and the workspace call them on every task.

    #: False when grading may not be a pure function of the workspace (then it is not cached).
    deterministic_grading: ClassVar[bool] = True

    #: The workspace folder a deployment receives ("system": production gets ``system/`` and nothing
    #: else, as the engagement rules say); None: the whole workspace.
    deployed_folder: ClassVar[str | None] = "system"

    @property
    def runtime_state(self) -> tuple[str, ...]:
        """task.yaml ``runtime_state``: folders of the deployed folder that are production's own runtime
        state (a sqlite db, a dedup file). A deployment gets each of them empty, so what the agent's own
        runs left there neither changes a grade or trial nor re-keys their caches."""
        return tuple(str(f).strip("/") for f in self.raw.get("runtime_state") or ())

    @property
    def world_path(self) -> Path:
        """The folder the workspace starts as a copy of."""
        return self.path / "world"

    def engagement_rules(self, variant: Variant) -> str | None:
        """Working arrangements appended to the brief; None: the env's standard ones."""
        return None

    def start_episode(self, env: Any) -> Any | None:
        """Per-episode machinery started after the workspace exists (an object with ``close()`` and
        ``ports``), or None."""
        return None

    def own_anchors(self, variant: Variant, sandbox: str = "auto") -> dict[str, Any] | None:
        """Anchors the task measures itself; None: grading measures them with the grader."""
        return None

    def own_admission(self, **kwargs: Any) -> Any | None:
        """An admission report the task produces itself; None: fdegym's admission checks run."""
        return None
