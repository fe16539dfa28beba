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

Example (no sandbox needed to check a value):
    >>> spec = OutputSpec.of({"key": "id", "fields": {"queue": ["a", "b"], "n": "int"}})
    >>> decisions, bad = spec.check([{"id": "1", "queue": "a", "n": 2}, {"id": "2", "queue": "z", "n": 1}],
    ...                             ["1", "2", "3"])
    >>> sorted(decisions), bad
    (['1'], ["2: queue='z' not one of a, b", '3: no decision'])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

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


@dataclass(frozen=True)
class OutputSpec:
    """The declared shape of an entry point's result (task.yaml ``entry_points[].output``)."""

    key: str = "id"
    fields: tuple[tuple[str, Any], ...] = ()
    incident: str | None = None

    @classmethod
    def of(cls, raw: dict[str, Any] | None) -> "OutputSpec | None":
        if raw is None:
            return None
        fields = []
        for name, rule in (raw.get("fields") or {}).items():
            if isinstance(rule, str) and rule not in _TYPES:
                raise ValueError(f"output.fields.{name}: expected a list of allowed values or one of "
                                 f"{', '.join(_TYPES)}, got {rule!r}")
            fields.append((name, tuple(rule) if isinstance(rule, list) else rule))
        return cls(str(raw.get("key", "id")), tuple(fields), raw.get("incident"))

    def problem(self, decision: dict[str, Any]) -> str | None:
        """Why one decision is malformed, or None."""
        for name, rule in self.fields:
            if name not in decision:
                return f"no {name}"
            v = decision[name]
            if isinstance(rule, tuple):
                if not any(v == a and type(v) is type(a) for a in rule):
                    return f"{name}={v!r} not one of {', '.join(map(str, rule))}"
            elif not _TYPES[rule](v):
                return f"{name}={v!r} is not {rule}"
        return None

    def check(self, value: Any, ids: Iterable[Any]) -> tuple[dict[Any, dict], list[str]]:
        """``(decisions by id, problems)`` of a returned ``value`` for the input ``ids``. A later
        decision for the same id replaces an earlier one (as a dict built from the list would)."""
        by_id: dict[Any, dict] = {}
        if isinstance(value, list):
            for d in value:
                if isinstance(d, dict) and isinstance(d.get(self.key), (str, int)) and not isinstance(d.get(self.key), bool):
                    by_id[d[self.key]] = d
        good, bad = {}, []
        for i in ids:
            d = by_id.get(i)
            why = "no decision" if d is None else self.problem(d)
            if why is None:
                good[i] = d
            else:
                bad.append(f"{i}: {why}")
        return good, bad


@dataclass
class Reply:
    """One call's outcome: ``ok`` (it returned), ``value`` (raw), ``decisions`` (valid, by id),
    ``malformed`` (problems; only when ``ok``)."""

    ok: bool
    value: Any = None
    decisions: dict[Any, dict] = field(default_factory=dict)
    malformed: list[str] = field(default_factory=list)
    error: str | None = None


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


def call_batch(deploy: Any, entry: Any, batch: list[dict], *extra: Any) -> Reply:
    """Call ``entry`` (an EntryPoint) on ``batch`` (plus ``extra`` arguments) and check its output."""
    res = deploy.call(entry.module, entry.function, batch, *extra, timeout_s=entry.timeout_s)
    if not res.ok:
        return Reply(False, None, error=res.error)
    spec = OutputSpec.of(entry.output)
    if spec is None:
        return Reply(True, res.value)
    good, bad = spec.check(res.value, [item.get(spec.key) for item in batch])
    return Reply(True, res.value, good, bad)


class Decider:
    """``decide(batch, *extra) -> Reply`` over a deployment's entry point, counting malformed
    decisions; :meth:`incidents` reports them as one incident."""

    def __init__(self, deploy: Any, function: str | None = None):
        self.deploy = deploy
        self.entry = entry_point(deploy.task, function)
        self.malformed: list[str] = []

    def __call__(self, batch: list[dict], *extra: Any) -> Reply:
        reply = call_batch(self.deploy, self.entry, batch, *extra)
        self.malformed += reply.malformed
        return reply

    def incidents(self) -> list[str]:
        if not self.malformed:
            return []
        spec = OutputSpec.of(self.entry.output) or OutputSpec()
        name = spec.incident or f"malformed_{self.entry.function}"
        allowed = "; ".join(f"{n} in {', '.join(map(str, r))}" if isinstance(r, tuple) else f"{n}: {r}"
                            for n, r in spec.fields)
        return [f"{name}: {len(self.malformed)} item(s) came back without a valid decision "
                f"(expected a list of {{{spec.key}, {allowed}}}; e.g. {self.malformed[0]})"]
