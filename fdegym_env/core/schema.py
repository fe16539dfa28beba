"""The schema of a task folder's data files (docs/task_format.md), as pydantic v2 models.

``task.yaml``, ``variants.yaml``, ``truth.yaml`` and ``menu.yaml`` are checked against these models
when a task loads: an unknown key, a typo or a wrong type fails naming the file, the field's path and
the closest known field (``limits.max_turn`` -> "Did you mean 'max_turns'?"). ``people.yaml`` is
checked by :mod:`fdegym_env.people.spec`. The JSON Schema of each file, for editors and the docs:
``fdegym schema task`` (or ``variants``, ``truth``, ``menu``), or :func:`json_schema`.

Example:
    >>> check("task.yaml", {"limits": {"max_turn": 5}}, "tasks/x/task.yaml", partial=True)
    Traceback (most recent call last):
    ...
    fdegym_env.core.errors.TaskFormatError: tasks/x/task.yaml: limits.max_turn: unknown field. Did you mean 'max_turns'? ...
    >>> sorted(json_schema("menu")["properties"])
    ['actions', 'plans']
"""

from __future__ import annotations

import typing
from typing import Any, Literal, Optional, Union, cast

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic_core import InitErrorDetails

from fdegym_env.core.errors import TaskFormatError, did_you_mean


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=False)


# --- task.yaml ---------------------------------------------------------------------------------------
class Sponsor(_Strict):
    id: str = Field(description="the sponsor's stakeholder id (people.yaml)")
    name: str
    role: str


class Metric(_Strict):
    name: str = Field(description="the customer's own business metric")
    unit: str
    direction: Literal["maximize", "minimize"]


# each type name, and the same with "?" (null admitted; not for "any")
FieldType = Literal["str", "int", "float", "number", "bool", "list", "dict", "any",
                    "str?", "int?", "float?", "number?", "bool?", "list?", "dict?"]


class OutputSpec(_Strict):
    """What an entry point must return (checked by :mod:`fdegym_env.tasklib.replay`): a list of
    mappings, one per input item, keyed by ``key``; each field either one of its allowed values or of
    the named type (``str?``: text or null, and the field may be absent; a value list holding
    ``null`` likewise)."""

    key: str = Field("id", description="the field naming the input item a decision is for")
    fields: dict[str, Union[list[Any], FieldType]] = \
        Field(default_factory=dict, description="field -> allowed values, or a type name (name? admits null)")
    incident: Optional[str] = Field(None, description="incident name for bad output (default malformed_<function>)")
    items: Optional[str] = Field(None, description="the batch is a mapping with its item list under this key "
                                                   "(default: the batch is a bare list)")
    results: Optional[str] = Field(None, description="the reply is a mapping with its decision list under this key "
                                                     "(default: the reply is a bare list)")
    on_malformed: Literal["item", "batch"] = Field(
        "item", description="item: drop a malformed decision, keep the rest; batch: any malformed item, "
                            "duplicate or unknown key, or missing decision rejects the whole reply")


class EntryPointSpec(_Strict):
    module: str = Field(description="module under system/, e.g. wire_ingest.pipeline")
    function: str
    doc: str = ""
    timeout_s: Optional[float] = Field(None, gt=0, description="per-call time limit (default: task call_timeout_s)")
    output: Optional[OutputSpec] = Field(None, description="the shape of the returned decisions (tasklib.replay)")


class Limits(_Strict):
    max_turns: int = Field(150, ge=1, description="steps before the episode ends and is graded")
    max_customer_days: float = Field(30, gt=0)
    max_wall_seconds: float = Field(3600, gt=0)


class TaskFile(_Strict):
    """task.yaml: identity, metric, entry points, limits, defaults."""

    id: str = Field(pattern=r"^[a-z0-9_]+$", description="must equal the folder name")
    version: int = Field(ge=0, description="registered as FDEGym/<id>-v<version>")
    title: str = Field(description="the catalog title (names the real problem; shown at L0/L1 only)")
    agent_title: Optional[str] = Field(None, description="the sponsor's framing, shown at L2/L3")
    sector: str
    customer: str
    sponsor: Sponsor
    metric: Metric
    entry_points: list[EntryPointSpec] = Field(min_length=1)
    limits: Limits = Field(default_factory=Limits)
    held_out_seed: int = 1
    router: Literal["semantic", "regex", "lexical", "llm"] = "semantic"
    call_timeout_s: Optional[float] = Field(None, gt=0, description="time limit per entry-point call at grading")
    process: Optional[Literal["per_call", "persistent"]] = Field(
        None, description="per_call: a fresh process per entry-point call; persistent: one process per grading")
    levels: Optional[list[Literal["L0", "L1", "L2", "L3"]]] = None
    tutorial: bool = False
    scheduled_dates_ok: list[str] = Field(
        default_factory=list, description="world paths (globs) whose dates after the start clock are scheduled "
                                          "items, not history (validate's future-records check)")
    notes: Optional[str] = Field(None, description="for authors; never shown to the agent")


# --- variants.yaml -------------------------------------------------------------------------------------
class VariantSpec(_Strict):
    angle: Optional[str] = Field(None, description="the kind of change relative to base (format, rule, ...)")
    params: dict[str, Any] = Field(default_factory=dict, description="the hidden truth (missing keys: base's)")
    right_here: list[str] = Field(default_factory=list, description="solutions that are right in this variant")
    note: Optional[str] = None


class VariantsFile(BaseModel):
    """variants.yaml: ``base`` plus named variants."""

    model_config = ConfigDict(extra="forbid")
    variants: dict[str, VariantSpec]

    @model_validator(mode="after")
    def _base(self) -> "VariantsFile":
        if "base" not in self.variants:
            raise ValueError("needs a 'base' variant")
        return self


# --- truth.yaml ----------------------------------------------------------------------------------------
class FactSpec(_Strict):
    text: str
    leak_terms: list[str] = Field(default_factory=list, description="distinctive terms the leak check looks for")


class TruthFile(_Strict):
    """truth.yaml: key facts (discovery metrics) and what counts as an incident."""

    key_facts: list[str] = Field(default_factory=list)
    facts: dict[str, Union[str, FactSpec]] = Field(default_factory=dict)
    incidents: dict[str, str] = Field(default_factory=dict)
    leak_terms: dict[str, list[str]] = Field(default_factory=dict, description="per fact id: distinctive terms")

    @model_validator(mode="after")
    def _known_facts(self) -> "TruthFile":
        for i, f in enumerate(self.key_facts):
            if self.facts and f not in self.facts:
                raise ValueError(f"key_facts[{i}] {f!r} is not a fact id under 'facts'.{did_you_mean(f, self.facts)}")
        return self


# --- menu.yaml -----------------------------------------------------------------------------------------
class MenuAction(BaseModel):
    model_config = ConfigDict(extra="allow")  # the tool's arguments; checked by the action parser
    tool: str


class MenuItem(_Strict):
    id: Optional[str] = None
    label: str
    action: Optional[MenuAction] = None
    steps: Optional[list[MenuAction]] = Field(None, min_length=1)
    apply: Optional[Union[str, list[str]]] = Field(None, description=(
        "a change kept once as a file: solutions/menu/<name>.patch, the folder solutions/menu/<name>/ "
        "or solutions/<name>.patch (or a list of them, applied in order); expanded to edit_file/write_file "
        "steps"))

    @model_validator(mode="after")
    def _one(self) -> "MenuItem":
        if sum(x is not None for x in (self.action, self.steps, self.apply)) != 1:
            raise ValueError(f"({self.label}) needs exactly one of 'action', 'steps' or 'apply'")
        return self


class MenuFile(_Strict):
    """menu.yaml: candidate high-level actions for discrete-action agents."""

    actions: list[MenuItem] = Field(min_length=1)
    plans: dict[str, list[str]] = Field(default_factory=dict, description=(
        "named variant -> ids or labels of the apply items whose file changes reach the reference there "
        "(checked by fdegym validate: uplift >= 0.95)"))


FILES: dict[str, type[BaseModel]] = {"task.yaml": TaskFile, "variants.yaml": VariantsFile,
                                     "truth.yaml": TruthFile, "menu.yaml": MenuFile}


# --- checking ------------------------------------------------------------------------------------------
def _unwrap(tp: Any) -> list[Any]:
    """The model classes inside an annotation (Optional, list, dict values, unions)."""
    origin = typing.get_origin(tp)
    if origin is None:
        return [tp]
    args = typing.get_args(tp)
    if origin is dict:
        args = args[1:]
    out = []
    for a in args:
        out += _unwrap(a)
    return out


def _fields_at(model: type[BaseModel], loc: tuple) -> list[str]:
    """Field names of the model reached by following ``loc`` from ``model`` (for did-you-mean)."""
    current: list[Any] = [model]
    for part in loc:
        nxt: list[Any] = []
        for m in current:
            if isinstance(m, type) and issubclass(m, BaseModel):
                if isinstance(part, str) and part in m.model_fields:
                    nxt += _unwrap(m.model_fields[part].annotation)
                elif m is VariantsFile:
                    nxt.append(VariantSpec)
        if isinstance(part, int) or not nxt:
            nxt = nxt or current  # list index or dict key: the item type is already unwrapped
        current = nxt
    names: list[str] = []
    for m in current:
        if isinstance(m, type) and issubclass(m, BaseModel):
            names += [n for n in m.model_fields if n not in names]
    return names


def _path(loc: tuple) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in ("str", "FactSpec", "MenuAction") or "[" in str(part):
            continue  # pydantic's union-member markers
        else:
            out += ("." if out else "") + str(part)
    return out


def format_errors(model: type[BaseModel], err: ValidationError, where: str) -> str:
    lines = []
    errors = err.errors()
    # a union (a fact as text or as a mapping) reports one error per member: keep the deepest
    paths = [_path(tuple(e["loc"])) for e in errors]
    errors = [e for e, p in zip(errors, paths)
              if not any(q != p and (q.startswith(p + ".") or q.startswith(p + "[")) for q in paths)]
    for e in errors:
        loc = tuple(e["loc"])
        if model is VariantsFile and loc[:1] == ("variants",):
            loc = loc[1:]
        path = _path(loc) or "(top level)"
        if e["type"] == "extra_forbidden":
            known = _fields_at(model, tuple(p for p in (("variants",) + loc if model is VariantsFile else loc)[:-1]))
            key = str(loc[-1])
            lines.append(f"{path}: unknown field.{did_you_mean(key, known)} Known fields here: {', '.join(known)}.")
        elif e["type"] == "missing":
            lines.append(f"{path}: missing field")
        else:
            got = e.get("input")
            shown = repr(got) if not isinstance(got, (dict, list)) else type(got).__name__
            lines.append(f"{path}: {e['msg'].removeprefix('Value error, ')} (got {shown})")
    return f"{where}: " + ("\n  ".join(lines) if len(lines) == 1 else "\n  " + "\n  ".join(lines)) + \
        " (see docs/task_format.md; `fdegym schema` prints the JSON Schema)"


def check(file: str, data: Any, where: str, partial: bool = False) -> BaseModel:
    """Validate one data file's content; raise :class:`TaskFormatError` naming ``where``, the field
    path and a did-you-mean. ``partial``: only report unknown fields and wrong types (for checking a
    fragment)."""
    model = FILES[file]
    payload = {"variants": data} if model is VariantsFile else data
    if not isinstance(data, dict):
        raise TaskFormatError(f"{where}: expected a mapping at the top level, got {type(data).__name__}")
    try:
        return model.model_validate(payload)
    except ValidationError as err:
        if partial:
            errs = [e for e in err.errors() if e["type"] != "missing"]
            if not errs:
                return model.model_construct(**payload)
            # each reported error holds the keys an initial one needs (type, loc, input, ctx)
            err = ValidationError.from_exception_data(err.title, cast("list[InitErrorDetails]", errs))
        raise TaskFormatError(format_errors(model, err, where)) from None


def json_schema(name: str) -> dict[str, Any]:
    """The JSON Schema of ``task``, ``variants``, ``truth`` or ``menu`` (``.yaml`` optional)."""
    key = name if name.endswith(".yaml") else f"{name}.yaml"
    if key not in FILES:
        raise ValueError(f"no schema for {name!r}.{did_you_mean(key, FILES)} Known: "
                         f"{', '.join(k.removesuffix('.yaml') for k in FILES)}")
    if key == "variants.yaml":
        s = {"title": "variants.yaml", "type": "object", "required": ["base"],
             "additionalProperties": VariantSpec.model_json_schema()}
    else:
        s = FILES[key].model_json_schema()
        s["title"] = key
    s["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return s
