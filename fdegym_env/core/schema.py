"""The schema of a task folder's data files (docs/task_format.md), as pydantic v2 models.

``task.yaml``, ``variants.yaml``, ``truth.yaml`` and ``menu.yaml`` are checked against these models
when a task loads: an unknown key, a typo or a wrong type fails naming the file, the field's path and
the closest known field (``limits.max_turn`` -> "Did you mean 'max_turns'?"). ``people.yaml``'s
structure is checked here too, by :mod:`fdegym_env.people.spec`, which then checks what refers to
what (referrals, inbox senders, regexes). The JSON Schema of each file, for editors and the docs:
``fdegym schema task`` (or ``variants``, ``truth``, ``menu``, ``people``), or :func:`json_schema`.

Example:
    >>> check("task.yaml", {"limits": {"max_turn": 5}}, "tasks/x/task.yaml", partial=True)
    Traceback (most recent call last):
    ...
    fdegym_env.core.errors.TaskFormatError: tasks/x/task.yaml: limits.max_turn: unknown field. Did you mean 'max_turns'? ...
    >>> sorted(json_schema("menu")["properties"])
    ['actions', 'plans']
"""

from __future__ import annotations

import datetime as dt
import typing
from typing import Annotated, Any, Literal, Optional, Union, cast

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, model_validator
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


class ScheduledFields(_Strict):
    """A ``scheduled_dates_ok`` entry that exempts only some fields of the files it matches."""

    path: str = Field(description="world path (glob)")
    fields: list[str] = Field(min_length=1, description="CSV/TSV columns, JSON/JSONL keys (any depth) or SQLite "
                                                        "columns whose dates are scheduled; every other field "
                                                        "is still checked")


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
    runtime_state: list[str] = Field(
        default_factory=list, description="folders under system/ that hold production's own runtime state (e.g. "
                                          "state): a deployment gets them empty, never the workspace's copy")
    scheduled_dates_ok: list[Union[str, ScheduledFields]] = Field(
        default_factory=list, description="world paths (globs) whose dates after the start clock are scheduled "
                                          "items, not history (validate's future-records check); "
                                          "{path, fields} exempts only those fields of the file")
    notes: Optional[str] = Field(None, description="for authors; never shown to the agent")

    @model_validator(mode="after")
    def _state_folders(self) -> "TaskFile":
        for i, f in enumerate(self.runtime_state):
            parts = f.strip("/").split("/")
            if f.startswith("/") or not f.strip("/") or any(x in ("", ".", "..") for x in parts) or "*" in f:
                raise ValueError(f"runtime_state[{i}] {f!r}: a folder path relative to system/ (e.g. 'state'), "
                                 "no '..', '.', globs or leading '/'")
        return self


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
        for name, v in self.variants.items():
            if name != "base" and not v.angle:
                raise ValueError(f"{name}: field 'angle' (the kind of change) is required for a named variant")
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


# --- people.yaml ---------------------------------------------------------------------------------------
# Structure only: cross-references (referrals, inbox senders, after_stall, unless_asked), duplicate ids
# and regexes are checked by fdegym_env.people.spec, which runs this model first.
AUTO_REPLY_MARKS = ("(auto-reply)", "(automatic reply)", "(out of office)")  # how an out-of-office begins
MAX_EXAMPLES = 12            # example questions per topic
MAX_EXAMPLE_CHARS = 1200     # one example question, as an agent would write it
STAMP_EXAMPLE = "2026-03-05T09:00"


def _stamp(v: Any) -> Any:
    try:
        dt.datetime.strptime(v, "%Y-%m-%dT%H:%M")
    except (TypeError, ValueError):
        raise ValueError(f"expected a clock stamp like {STAMP_EXAMPLE!r} (YYYY-MM-DDTHH:MM), got {v!r}") from None
    return v


def _stamp_or_never(v: Any) -> Any:
    return v if v == "" else _stamp(v)


def _text(v: Any) -> Any:
    if not isinstance(v, str) or not v.strip():
        raise ValueError(f"must be a non-empty string, got {v!r}")
    return v


def _out_of_office(v: Any) -> Any:
    if isinstance(v, str) and not v.startswith(AUTO_REPLY_MARKS):
        raise ValueError(f"an out-of-office must begin with one of {', '.join(AUTO_REPLY_MARKS)}, got {v[:40]!r}")
    return v


def _word(v: Any) -> Any:
    """YAML reads `[mct, 40, null, yes]` as str, int, None, bool: keywords are words."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, (str, int, float)):
        return str(v)
    raise ValueError(f"a keyword is a word, got {v!r}")


def _examples(v: Any) -> Any:
    if not isinstance(v, list) or not v or len(v) > MAX_EXAMPLES:
        got = f"{len(v)} items" if isinstance(v, list) else repr(v)[:60]
        raise ValueError(f"must be a list of 1-{MAX_EXAMPLES} questions, got {got}; "
                         f"fix: write each example question as one list item")
    return v


def _example(v: Any) -> Any:
    _text(v)
    if len(v) > MAX_EXAMPLE_CHARS:
        raise ValueError(f"is {len(v)} characters, expected at most {MAX_EXAMPLE_CHARS}; "
                         f"fix: shorten the quoted context")
    return v


def _refs(v: Any) -> Any:
    if not (isinstance(v, str) or (isinstance(v, list) and v and all(isinstance(r, str) for r in v))):
        raise ValueError(f"expected '<person>' or '<person>/<topic>', or a list of them, got {v!r}")
    return v


Stamp = Annotated[str, BeforeValidator(_stamp), Field(pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$",
                                                      description=f"a clock stamp like {STAMP_EXAMPLE}")]
Never = Annotated[str, BeforeValidator(_stamp_or_never), Field(
    pattern=r"^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})?$", description=f"a clock stamp like {STAMP_EXAMPLE}, or '' for never")]
Text = Annotated[str, BeforeValidator(_text), Field(min_length=1)]
Keyword = Annotated[str, BeforeValidator(_word)]
Example = Annotated[str, BeforeValidator(_example), Field(min_length=1, max_length=MAX_EXAMPLE_CHARS)]
Hours = Annotated[float, Field(ge=0)]


class _PeopleModel(BaseModel):
    # strict: YAML's `yes`/`"3"` are not silently read as true/3 (the engine reads these dicts as written)
    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)


class Topic(_PeopleModel):
    """One thing a person can tell: routed to by ``about``/``examples``/``keywords`` (or ``triggers``)."""

    id: str
    answer: str = Field(description="the paragraph the person replies with")
    about: Optional[str] = Field(None, description="what the topic answers, in the person's words (routers)")
    examples: Optional[Annotated[list[Example], BeforeValidator(_examples)]] = Field(
        None, min_length=1, max_length=MAX_EXAMPLES, description="questions an agent might send that this "
                                                                 "topic answers (meaning-level routers)")
    keywords: Optional[list[Keyword]] = Field(None, description="the topic's words (the lexical router)")
    triggers: Optional[list[str]] = Field(None, description="regexes (the regex router)")
    requires: Optional[list[str]] = Field(None, description="evidence gate: regexes the message must match")
    gate: Optional[str] = Field(None, description="evidence gate as text (the llm router)")
    gate_miss: Optional[str] = Field(None, description="the reply when the gate is not met")
    requires_hint: Optional[str] = None
    facts: Optional[list[str]] = Field(None, description="fact ids the answer releases")
    requires_facts: Optional[list[str]] = Field(None, description="fact ids the agent must hold first")
    requires_miss: Optional[str] = None
    exclusive: Optional[bool] = None
    stall: Optional[list[str]] = Field(None, description="lines said instead of the answer, in turn (one per ask)")
    stall_again: Optional[str] = None
    stall_seconds: Optional[Hours] = None
    available_at: Optional[Stamp] = None
    available_after_hours: Optional[Hours] = None
    recap: Optional[str] = Field(None, description="one line standing for the answer when asked again")


class Person(_PeopleModel):
    """A stakeholder the agent can ``contact``."""

    id: str
    name: str
    role: str
    blurb: str
    fallback: Optional[str] = Field(None, description="the reply when no topic answers")
    dont_know: Optional[str] = Field(None, description="'not my area' line naming who would know ({name}, {role})")
    patience: Optional[int] = Field(None, ge=0, description="hard cap on questions answered")
    out_of_patience: Optional[str] = None
    cost: Optional[float] = Field(None, ge=0, description="score points per question")
    soft_limit: Optional[int] = Field(None, ge=0, description="past this many questions each costs cost*over_factor")
    over_factor: Optional[float] = Field(None, ge=0)
    off_limits: Optional[bool] = Field(None, description="every contact costs; with no topics, off_limits_reply")
    off_limits_reply: Optional[str] = None
    gone_after_hours: Optional[Hours] = None
    gone_at: Optional[Never] = None
    gone_after_asks: Optional[int] = Field(None, ge=0)
    gone_label: Optional[str] = None
    gone_reply: Optional[str] = None
    away_until: Optional[Stamp] = Field(None, description="away (on leave) until then; needs a clock")
    away_label: Optional[Text] = None
    away_reply: Optional[Annotated[Text, AfterValidator(_out_of_office)]] = None
    overflow: Optional[str] = None
    topics: Optional[list[Topic]] = None
    misconceptions: Optional[list[str]] = None
    persona: Optional[str] = None

    @model_validator(mode="after")
    def _pairs(self) -> "Person":
        away = [k for k in ("away_label", "away_reply") if getattr(self, k) is not None]
        if away and self.away_until is None:
            raise ValueError(f"{', '.join(away)} needs 'away_until: YYYY-MM-DDTHH:MM'")
        if self.off_limits and not self.topics and self.off_limits_reply is None:
            raise ValueError("an off_limits person without topics needs 'off_limits_reply'")
        return self


class InboxMessage(_PeopleModel):
    """A message that arrives once all of its ``after_*`` conditions hold (and it is still news)."""

    id: str
    from_: str = Field(alias="from", description="the person who sends it")
    from_if_gone: Optional[str] = Field(
        None, description="who sends it instead when the sender has left by the time it falls due (their deputy)")
    text: str
    facts: Optional[list[str]] = Field(None, description="fact ids it releases")
    after_hours: Optional[Hours] = None
    after_asks: Optional[int] = Field(None, ge=0)
    after_fact: Optional[str] = None
    after_stall: Optional[str] = Field(None, description="<person>/<topic> held back from the agent at least once")
    stall_delay_hours: Optional[Hours] = None
    unless_asked: Optional[Annotated[Union[str, list[str]], BeforeValidator(_refs)]] = Field(
        None, description="<person> or <person>/<topic> (or a list): not sent to someone who already asked")

    @model_validator(mode="after")
    def _delay(self) -> "InboxMessage":
        if self.stall_delay_hours is not None and self.after_stall is None:
            raise ValueError("'stall_delay_hours' needs 'after_stall: <person>/<topic>'")
        return self


class ClockSpec(_PeopleModel):
    start: Optional[Stamp] = Field(None, description="the episode's first moment")
    ask_minutes: Optional[float] = Field(None, ge=0, description="customer minutes a message takes (default 120)")
    wait_cost_per_day: Optional[float] = Field(None, ge=0)


class TrialSpec(_PeopleModel):
    max_runs: Optional[int] = Field(None, ge=0, description="trial days offered (default 3)")
    cost: Optional[list[float]] = Field(None, description="each day's cost, day 1 first (the last repeats)")
    exhausted: Optional[str] = None
    advance_hours: Optional[Hours] = Field(None, description="customer hours each trial day takes")


class RepliesSpec(_PeopleModel):
    refer_elsewhere: Optional[bool] = Field(None, description="a person who cannot answer names who can")
    recap_repeats: Optional[bool] = Field(None, description="a topic already answered is recapped in one line")
    not_to_hand: Optional[bool] = Field(None, description="a paragraph without the figure asked for says so")


class PeopleFile(_PeopleModel):
    """people.yaml: stakeholders, their topics, the clock, the inbox and the trial window."""

    people: Optional[list[Person]] = Field(None, min_length=1)
    npcs: Optional[list[Person]] = Field(None, min_length=1, description="the harness's name for 'people'")
    total_questions: Optional[int] = Field(None, ge=0, description="a budget shared by everyone, or null")
    show_budget: Optional[bool] = None
    clock: Optional[ClockSpec] = None
    inbox: Optional[list[InboxMessage]] = None
    trial: Optional[TrialSpec] = None
    matcher: Optional[str] = Field(None, description="the harness's router (regex or llm)")
    replies: Optional[RepliesSpec] = None

    @model_validator(mode="after")
    def _someone(self) -> "PeopleFile":
        if self.people is None and self.npcs is None:
            raise ValueError("needs 'people': a non-empty list of people")
        return self


FILES: dict[str, type[BaseModel]] = {"task.yaml": TaskFile, "variants.yaml": VariantsFile,
                                     "truth.yaml": TruthFile, "menu.yaml": MenuFile,
                                     "people.yaml": PeopleFile}


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
                fields = {f.alias or n: f for n, f in m.model_fields.items()}
                if isinstance(part, str) and part in fields:
                    nxt += _unwrap(fields[part].annotation)
                elif m is VariantsFile:
                    nxt.append(VariantSpec)
        if isinstance(part, int) or not nxt:
            nxt = nxt or current  # list index or dict key: the item type is already unwrapped
        current = nxt
    names: list[str] = []
    for m in current:
        if isinstance(m, type) and issubclass(m, BaseModel):
            names += [f.alias or n for n, f in m.model_fields.items() if (f.alias or n) not in names]
    return names


def _path(loc: tuple, data: Any = None) -> str:
    """``people[0] (ann).topics[2] (refunds).answer``: list items with an ``id`` are named by it."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
            data = data[part] if isinstance(data, list) and -len(data) <= part < len(data) else None
            if isinstance(data, dict) and isinstance(data.get("id"), str):
                out += f" ({data['id']})"
        elif part in ("str", "FactSpec", "MenuAction") or "[" in str(part):
            continue  # pydantic's union-member markers
        else:
            out += ("." if out else "") + str(part)
            data = data.get(part) if isinstance(data, dict) else None
    return out


def format_errors(model: type[BaseModel], err: ValidationError, where: str, data: Any = None) -> str:
    """One line per error: the field's path (list items named by their ``id`` when ``data``, the
    checked content, is given), what is wrong and, for an unknown field, the closest known one."""
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
        path = _path(loc, data) or "(top level)"
        if e["type"] == "extra_forbidden":
            known = _fields_at(model, tuple(p for p in (("variants",) + loc if model is VariantsFile else loc)[:-1]))
            key = str(loc[-1])
            lines.append(f"{path}: unknown field.{did_you_mean(key, known)} Known fields here: {', '.join(known)}.")
        elif e["type"] == "missing":
            lines.append(f"{path}: missing field")
        else:
            got, msg = e.get("input"), e["msg"].removeprefix("Value error, ")
            shown = repr(got) if not isinstance(got, (dict, list)) else type(got).__name__
            said = e["type"] == "value_error" and ("got " in msg or isinstance(got, dict))
            lines.append(f"{path}: {msg}" + ("" if said else f" (got {shown})"))
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
        raise TaskFormatError(format_errors(model, err, where, data)) from None


def json_schema(name: str) -> dict[str, Any]:
    """The JSON Schema of ``task``, ``variants``, ``truth``, ``menu`` or ``people`` (``.yaml`` optional)."""
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
