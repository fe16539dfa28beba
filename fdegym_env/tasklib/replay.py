"""Replay batches through a deployment and check the output shape declared in task.yaml.

An entry point may declare what it returns::

    entry_points:
      - module: triage.router
        function: route_batch
        timeout_s: 15
        output: {key: id, fields: {queue: [service_desk, network], priority: [P1, P2, P3]}}

:func:`call_batch` calls it with one batch and keeps, per input item, the decision whose ``key``
names it — if every declared field holds an allowed value (or a value of the named type). Items
without such a decision are *malformed* when the call returned; a crash or hang is not (the
deployment records those as ``entry_point_failed`` incidents, as before). :class:`Decider`
collects the malformed count over a replay and reports one incident, ``malformed_<function>`` (or
the declared ``incident`` name).

Options for connectors that do not pass bare lists (all optional; the defaults are the above):

- ``items: messages`` — the batch is a mapping whose item list is ``batch["messages"]`` (the whole
  mapping is passed to the entry point; a bare list given to ``decide`` is wrapped as
  ``{"messages": list}``);
- ``results: decisions`` — the reply is a mapping whose decision list is ``reply["decisions"]``
  (any other reply has no decisions);
- nullable fields: a type name ending in ``?`` (``reply: str?``) or a value list holding ``null``
  (``priority: [urgent, routine, null]``) also admits null, and the field may then be absent;
- ``on_malformed: item`` (default) drops a malformed decision and keeps the rest (a later decision
  for the same key replaces an earlier one, decisions for unknown keys are ignored);
  ``on_malformed: batch`` rejects the whole reply — no decisions at all — when any returned item is
  malformed, a key is decided twice or is not in the batch, or an input item has no decision.

Example (no sandbox needed to check a value):
    >>> spec = OutputSpec.of({"key": "id", "fields": {"queue": ["a", "b"], "n": "int"}})
    >>> decisions, bad = spec.check([{"id": "1", "queue": "a", "n": 2}, {"id": "2", "queue": "z", "n": 1}],
    ...                             ["1", "2", "3"])
    >>> sorted(decisions), bad
    (['1'], ["2: queue='z' not one of a, b", '3: no decision'])
    >>> strict = OutputSpec.of({"results": "decisions", "fields": {"note": "str?"}, "on_malformed": "batch"})
    >>> strict.check({"decisions": [{"id": "1"}, {"id": "1", "note": None}]}, ["1"])
    ({}, ['1: decided twice'])
"""

from __future__ import annotations

import typing
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from pydantic import ConfigDict, ValidationError

from fdegym_env.core import schema

_TYPES: dict[str, Callable[[Any], bool]] = {
    "str": lambda v: isinstance(v, str),
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "float": lambda v: isinstance(v, float),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "bool": lambda v: isinstance(v, bool),
    "list": lambda v: isinstance(v, list),
    "dict": lambda v: isinstance(v, dict),
    "any": lambda v: True,
}
TYPE_NAMES: tuple[str, ...] = typing.get_args(schema.FieldType)   # "str?": text or null
POLICIES: tuple[str, ...] = typing.get_args(schema.OutputSpec.model_fields["on_malformed"].annotation)


def _nullable(rule: Any) -> bool:
    return (isinstance(rule, list) and None in rule) or (isinstance(rule, str) and rule.endswith("?"))


def _valid_key(k: Any) -> bool:
    return isinstance(k, (str, int)) and not isinstance(k, bool)


class OutputSpec(schema.OutputSpec):
    """The declared shape of an entry point's result (task.yaml ``entry_points[].output``): its fields
    are :class:`fdegym_env.core.schema.OutputSpec`, the one definition task.yaml is checked against;
    this class adds how a reply is checked."""

    model_config = ConfigDict(frozen=True)

    @classmethod
    def of(cls, raw: dict[str, Any] | None) -> "OutputSpec | None":
        if raw is None:
            return None
        try:
            return cls.model_validate(raw)
        except ValidationError as e:
            raise ValueError(schema.format_errors(cls, e, "output", raw)) from None

    def problem(self, decision: dict[str, Any]) -> str | None:
        """Why one decision is malformed, or None."""
        for name, rule in self.fields.items():
            if name not in decision:
                if _nullable(rule):
                    continue
                return f"no {name}"
            v = decision[name]
            if isinstance(rule, list):
                if not any(v == a and type(v) is type(a) for a in rule):
                    return f"{name}={v!r} not one of {', '.join(map(str, rule))}"
            elif not (v is None and rule.endswith("?")) and not _TYPES[rule.rstrip("?")](v):
                return f"{name}={v!r} is not {self._type_text(rule)}"
        return None

    @staticmethod
    def _type_text(rule: str) -> str:
        return f"{rule[:-1]} or null" if rule.endswith("?") else rule

    def ids(self, batch: Any) -> list[Any]:
        """The keys of the input items of ``batch`` (a list, or a mapping holding it under ``items``)."""
        items = batch.get(self.items) if self.items and isinstance(batch, dict) else batch
        return [item.get(self.key) for item in items or []]

    def decisions_of(self, value: Any) -> Any:
        """The returned decision list (``value[results]`` when declared), or None if there is none."""
        if self.results:
            value = value.get(self.results) if isinstance(value, dict) else None
        return value if isinstance(value, list) else None

    def check(self, value: Any, ids: Iterable[Any]) -> tuple[dict[Any, dict], list[str]]:
        """``(decisions by id, problems)`` of a returned ``value`` for the input ``ids``. Under
        ``on_malformed: item`` a later decision for the same id replaces an earlier one (as a dict
        built from the list would); under ``batch`` any problem leaves no decisions at all."""
        ids = list(ids)
        listed = self.decisions_of(value)
        if self.on_malformed == "batch":
            return self._check_whole(value, listed, ids)
        by_id: dict[Any, dict] = {}
        for d in listed or []:
            if isinstance(d, dict) and _valid_key(d.get(self.key)):
                by_id[d[self.key]] = d
        good: dict[Any, dict] = {}
        bad: list[str] = []
        for i in ids:
            d = by_id.get(i)
            why = "no decision" if d is None else self.problem(d)
            if d is not None and why is None:
                good[i] = d
            else:
                bad.append(f"{i}: {why}")
        return good, bad

    def _check_whole(self, value: Any, listed: list | None, ids: list) -> tuple[dict[Any, dict], list[str]]:
        if listed is None:
            where = f"an object with a {self.results!r} list" if self.results else "a list"
            return {}, [f"the reply is not {where}: {str(value)[:120]}"]
        wanted, seen, good, bad = set(ids), set(), {}, []
        for d in listed:
            k = d.get(self.key) if isinstance(d, dict) else None
            if not _valid_key(k):
                bad.append(f"a decision without a valid {self.key}: {str(d)[:120]}")
                continue
            if k in seen:
                bad.append(f"{k}: decided twice")
            elif k not in wanted:
                bad.append(f"{k}: not in the batch")
            elif (why := self.problem(d)) is not None:
                bad.append(f"{k}: {why}")
            else:
                good[k] = d
            seen.add(k)
        bad += [f"{i}: no decision" for i in ids if i not in seen]
        return ({}, bad) if bad else (good, [])


@dataclass
class Reply:
    """One call's outcome: ``ok`` (it returned), ``value`` (raw), ``decisions`` (valid, by id),
    ``malformed`` (problems; only when ``ok``), ``rejected`` (``on_malformed: batch`` threw the whole
    reply away)."""

    ok: bool
    value: Any = None
    decisions: dict[Any, dict] = field(default_factory=dict)
    malformed: list[str] = field(default_factory=list)
    error: str | None = None
    rejected: bool = False


def entry_point(task: Any, function: str | None = None):
    """The task's entry point named ``function`` (or its only one)."""
    eps = list(task.entry_points)
    if function is None:
        if len(eps) != 1:
            raise ValueError(f"{task.id}: {len(eps)} entry points; name one of "
                             f"{', '.join(e.function for e in eps)}")
        return eps[0]
    for e in eps:
        if function in (e.function, f"{e.module}.{e.function}"):
            return e
    raise ValueError(f"{task.id}: no entry point {function!r} in task.yaml (declared: "
                     f"{', '.join(e.module + '.' + e.function for e in eps)})")


def call_batch(deploy: Any, entry: Any, batch: Any, *extra: Any, timeout_s: float | None = None,
               spec: OutputSpec | None = None) -> Reply:
    """Call ``entry`` (an EntryPoint) on ``batch`` (plus ``extra`` arguments) and check its output.
    With a declared ``items`` a bare list is passed as ``{items: batch}``. ``spec``: the entry
    point's parsed output declaration, when the caller already has it (:class:`Decider` parses it once)."""
    spec = spec if spec is not None else OutputSpec.of(entry.output)
    if spec is not None and spec.items and isinstance(batch, list):
        batch = {spec.items: batch}
    res = deploy.call(entry.module, entry.function, batch, *extra, timeout_s=timeout_s or entry.timeout_s)
    if not res.ok:
        return Reply(False, None, error=res.error)
    if spec is None:
        return Reply(True, res.value)
    good, bad = spec.check(res.value, spec.ids(batch))
    return Reply(True, res.value, good, bad, rejected=bool(bad) and spec.on_malformed == "batch")


class Decider:
    """``decide(batch, *extra) -> Reply`` over a deployment's entry point, counting malformed
    decisions (and rejected replies); :meth:`incidents` reports them as one incident. ``timeout_s``
    overrides the entry point's per-call limit (e.g. a trial's shadow connector)."""

    def __init__(self, deploy: Any, function: str | None = None, timeout_s: float | None = None):
        self.deploy = deploy
        self.entry = entry_point(deploy.task, function)
        self.spec = OutputSpec.of(self.entry.output)     # parsed once, not per batch
        self.timeout_s = timeout_s
        self.malformed: list[str] = []
        self.rejected = 0

    def __call__(self, batch: Any, *extra: Any) -> Reply:
        reply = call_batch(self.deploy, self.entry, batch, *extra, timeout_s=self.timeout_s, spec=self.spec)
        self.malformed += reply.malformed
        self.rejected += reply.rejected
        return reply

    def incidents(self) -> list[str]:
        if not self.malformed:
            return []
        spec = self.spec or OutputSpec()
        name = spec.incident or f"malformed_{self.entry.function}"
        allowed = "; ".join(f"{n} in {', '.join(map(str, r))}" if isinstance(r, list)
                            else f"{n}: {spec._type_text(r)}" for n, r in spec.fields.items())
        shape = f"a list of {{{spec.key}, {allowed}}}"
        if spec.results:
            shape = f"{{{spec.results}: [{{{spec.key}, {allowed}}}]}}"
        if spec.on_malformed == "batch":
            return [f"{name}: {self.rejected} repl(ies) rejected whole, {len(self.malformed)} problem(s) "
                    f"(expected {shape}, one per item, each key once; e.g. {self.malformed[0]})"]
        return [f"{name}: {len(self.malformed)} item(s) came back without a valid decision "
                f"(expected {shape}; e.g. {self.malformed[0]})"]
