"""Could the scenario's data be true? Checks of ``fdegym validate`` that render, never grade.

- **future records** (:func:`future_records`): a date in a workspace data file (text, CSV, JSON,
  logs, SQLite: dates written out, or epoch seconds/milliseconds in a column named like a date)
  after the episode's start clock (people.yaml ``clock.start``); a date with a time (ISO or slashed)
  counts from that minute, so a record at 14:50 on the start day is after a 09:00 start. Scheduled
  items are declared in task.yaml: ``scheduled_dates_ok: [data/rota.csv, "mail/*.txt"]`` (globs,
  relative to the world) exempt whole files; ``{path: data/certs.csv, fields: [not_after]}`` exempts
  only those CSV columns or JSON/JSONL keys (at any depth), and every other field is still checked
  (an expiry column is scheduled, the renewal-done column beside it is history).
  Code files are not records and are not scanned. A task with a sampler has this checked on
  :data:`REALISM_SAMPLES` sampled worlds too (a generator's dates move with the draw).
- **repeated notes** (:func:`repeated_notes`): one free-text note (:data:`NOTE_MIN_WORDS` words or
  more) written verbatim on more than :data:`NOTE_MAX_SHARE` of a column's notes, and at least
  :data:`NOTE_MIN_REPEATS` times: data written by many people over time does not repeat itself.
- **who is reachable** (:func:`reachability`): a brief (any level) saying someone has left, is away
  or must not be contacted while the directory lists them as reachable, or telling the agent to ask
  someone the directory marks off-limits.
- **silent rule changes** (:func:`silent_rules`): a named variant's parameter that the grader reads
  (its name is a string in grader.py or a sibling module it imports) changed from base, whose value
  appears in none of the variant's rendered documents, topic answers, inbox or briefs (a flag, or a
  list none of whose items is written out: no answer or document differs from base at all). Shares
  and rates in (0, 1) shape the traffic and are not searched.
- **capped trial examples** (:func:`capped_examples`): trial.py slicing a list to a few examples
  (``xs[:3]``) in a function that never reports ``len(xs)``.

Each returns ``validate`` cross-check entries (``{"check", "value", "passed"}``).
"""

from __future__ import annotations

import ast
import csv
import fnmatch
import io
import json
import re
import sqlite3
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any, Iterable, Iterator

from fdegym_env.core.task import LEVELS, Task, Variant

DATA_SUFFIXES = {".md", ".txt", ".csv", ".tsv", ".json", ".jsonl", ".log", ".eml", ".yaml", ".yml", ".sql"}
DB_SUFFIXES = {".db", ".sqlite", ".sqlite3"}
NOTE_MIN_WORDS = 7          # shorter stock phrases ('too small, sending back') are what people type
NOTE_MIN_CHARS = 30
NOTE_MIN_REPEATS = 3
NOTE_MAX_SHARE = 0.05
NOTE_MIN_CELLS = 20          # a column with fewer notes is too small to judge
EXAMPLE_CAP_MAX = 6          # xs[:k] with k up to this is a list of examples (longer slices are text/dates)
SHOWN = 4                    # offending items named per entry
REALISM_SAMPLES = 3          # sampled worlds (sample:0..) checked as well, with or without --samples

_ISO = re.compile(r"(?<![\d-])(20\d\d)-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d))?(?!\d)")
_DATE_COLUMN = re.compile(r"(date|time|_at$|_on$|^ts$|_ts$|timestamp|when|day$)", re.IGNORECASE)
_EPOCH = (datetime(2000, 1, 1).timestamp(), datetime(2100, 1, 1).timestamp())
_US = re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})/(20\d\d)(?![\d/])(?:,?[ T](\d\d?):(\d\d)(?!\d))?")
_UNREACHABLE = re.compile(
    r"\b(has left|have left|left the (company|firm|team|business)|no longer (works|with|at|here)|"
    r"is away|are away|on leave|out of (the )?office|must not be contacted|must never be contacted|"
    r"do not contact|don't contact|never contact|not to be contacted|off[- ]limits|unreachable|has retired)\b",
    re.IGNORECASE)
# "... deputises when she is away": a condition, which says nothing of anyone being away now
_CONDITION = re.compile(r"\b(when|whenever|while|if|in case|should)\s+(\w+\s+){0,2}$", re.IGNORECASE)
_ASK = r"\b(ask|talk to|speak to|contact|check with|call|email)\s+{name}\b"


# --- shared -------------------------------------------------------------------------------------------
def _files(world: Path, suffixes: set[str]) -> Iterator[Path]:
    for p in sorted(world.rglob("*")):
        if p.is_file() and p.suffix.lower() in suffixes and "__pycache__" not in p.parts:
            yield p


def _db_tables(path: Path) -> Iterator[tuple[str, list[str], list[tuple]]]:
    """(table, columns, rows) of an SQLite file, read-only."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for t in names:
            cur = con.execute(f'SELECT * FROM "{t}"')
            yield t, [d[0] for d in cur.description], cur.fetchall()
    except sqlite3.DatabaseError:
        return
    finally:
        con.close()


def start_clock(task: Task, variant: Variant) -> datetime | None:
    """The episode's start clock (people.yaml ``clock.start``), or None."""
    clock = task.people_spec(variant).get("clock") or {}
    start = clock.get("start")
    if not start:
        return None
    return datetime.fromisoformat(str(start))


def _entry(check: str, bad: list[str], ok_value: str) -> dict[str, Any]:
    if not bad:
        return {"check": check, "value": ok_value, "passed": True}
    more = f" (+{len(bad) - SHOWN} more)" if len(bad) > SHOWN else ""
    return {"check": check, "value": f"{len(bad)}: " + "; ".join(bad[:SHOWN]) + more, "passed": False}


# --- (a) records dated after the start clock -------------------------------------------------------------
def dates_in(text: str) -> Iterator[tuple[datetime, bool, int]]:
    """(when, has_time, offset) of every ISO (2026-03-02, 2026-03-02T09:15) or slashed date (3/2/2026):
    day first when some slashed date in ``text`` only reads that way, month first when some only reads
    that way, else (ambiguous) the earlier of the two readings."""
    for m in _ISO.finditer(text):
        y, mo, d, hh, mm = m.groups()
        try:
            yield datetime(int(y), int(mo), int(d), int(hh or 0), int(mm or 0)), hh is not None, m.start()
        except ValueError:
            continue
    slashed = [(m, int(m.group(1)), int(m.group(2)), int(m.group(3))) for m in _US.finditer(text)]
    firsts, seconds = any(a > 12 for _m, a, _b, _y in slashed), any(b > 12 for _m, _a, b, _y in slashed)
    for m, a, b, y in slashed:
        if firsts != seconds:
            d, mo = (a, b) if firsts else (b, a)
        else:                                                              # ambiguous: the earlier reading
            d, mo = min((a, b), (b, a), key=lambda dm: (dm[1], dm[0]))
        hh, mm = m.group(4), m.group(5)
        try:
            yield datetime(y, mo, d, int(hh or 0), int(mm or 0)), hh is not None, m.start()
        except ValueError:
            continue


def _after(when: datetime, has_time: bool, start: datetime) -> bool:
    return when > start if has_time else when.date() > start.date()


def _cell_dates(col: str, v: Any) -> Iterator[tuple[datetime, bool]]:
    """Dates in one SQLite cell: written out in text, or a number of epoch seconds (or milliseconds)
    in a column whose name says it holds a date or time (``created_at``, ``fnol_date``, ``ts``)."""
    if isinstance(v, str):
        for when, has_time, _ in dates_in(v):
            yield when, has_time
    elif isinstance(v, (int, float)) and not isinstance(v, bool) and _DATE_COLUMN.search(col):
        for secs in (v, v / 1000):
            if _EPOCH[0] <= secs < _EPOCH[1]:
                yield datetime.fromtimestamp(secs), True
                return


def _scheduled(allowed: Iterable[Any]) -> list[tuple[str, frozenset[str] | None]]:
    """(glob, exempt fields or None for the whole file) of each ``scheduled_dates_ok`` entry."""
    out: list[tuple[str, frozenset[str] | None]] = []
    for a in allowed:
        if isinstance(a, dict):
            out.append((str(a["path"]), frozenset(str(f) for f in a.get("fields") or [])))
        else:
            out.append((str(a), None))
    return out


def _json_strings(obj: Any, skip: frozenset[str], path: str = "") -> Iterator[tuple[str, str]]:
    """(key path, text) of every string key and value in ``obj`` not under a key in ``skip``."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if str(k) in skip:
                continue
            yield f"{path}.{k}".lstrip("."), str(k)
            yield from _json_strings(v, skip, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _json_strings(v, skip, f"{path}[{i}]")
    elif isinstance(obj, str):
        yield path.lstrip("."), obj


def _field_dates(p: Path, rel: str, text: str, skip: frozenset[str]) -> Iterator[tuple[datetime, bool, str]]:
    """Dates in a CSV/TSV/JSON/JSONL file outside the fields in ``skip``, with where each is."""
    def found(cell: str, where: str) -> Iterator[tuple[datetime, bool, str]]:
        for when, has_time, at in dates_in(cell):
            yield when, has_time, f"{where} {cell[at:at + 16]!r}"
    suffix = p.suffix.lower()
    if suffix in (".csv", ".tsv"):
        reader = csv.reader(io.StringIO(text), delimiter="\t" if suffix == ".tsv" else ",")
        header = next(reader, [])
        for row in reader:
            for col, cell in zip(header, row):
                if col not in skip:
                    yield from found(cell, f"{rel}:{reader.line_num} {col}")
    elif suffix == ".jsonl":
        for i, line in enumerate(text.splitlines(), 1):
            try:
                obj = json.loads(line)
            except ValueError:
                yield from found(line, f"{rel}:{i}")
                continue
            for key, s in _json_strings(obj, skip):
                yield from found(s, f"{rel}:{i} {key}")
    elif suffix == ".json":
        try:
            doc = json.loads(text)
        except ValueError:
            yield from found(text, rel)
            return
        for key, s in _json_strings(doc, skip):
            yield from found(s, f"{rel} {key}")
    else:                                          # no fields to tell apart: the whole text
        for when, has_time, at in dates_in(text):
            yield when, has_time, f"{rel}:{text.count(chr(10), 0, at) + 1} {text[at:at + 16].split(chr(10))[0]!r}"


def future_records(world: Path, start: datetime, allowed: Iterable[Any] = ()) -> list[str]:
    """``file:line date`` for every date in the world's data after ``start``, except in files matched
    by a whole-file ``allowed`` glob and in the fields a ``{path, fields}`` entry names."""
    scheduled = _scheduled(allowed)
    out = []
    for p in _files(world, DATA_SUFFIXES | DB_SUFFIXES):
        rel = p.relative_to(world).as_posix()
        matched = [fields for g, fields in scheduled if fnmatch.fnmatch(rel, g)]
        if any(fields is None for fields in matched):
            continue
        skip = frozenset().union(*[f for f in matched if f is not None])
        if p.suffix.lower() in DB_SUFFIXES:
            for table, cols, rows in _db_tables(p):
                for i, row in enumerate(rows, 1):
                    for col, v in zip(cols, row):
                        if col in skip:
                            continue
                        if any(_after(when, has_time, start) for when, has_time in _cell_dates(col, v)):
                            shown = v[:40] if isinstance(v, str) else v
                            out.append(f"{rel}:{table}.{col} row {i} {shown!r}")
            continue
        text = p.read_text(encoding="utf-8", errors="replace")
        if skip:
            out += [where for when, has_time, where in _field_dates(p, rel, text, skip) if _after(when, has_time, start)]
            continue
        for when, has_time, at in dates_in(text):
            if _after(when, has_time, start):
                line = text.count("\n", 0, at) + 1
                snippet = text[at:at + 16].split("\n")[0]
                out.append(f"{rel}:{line} {snippet!r}")
    return out


def future_check(task: Task, variant: Variant, world: Path) -> dict[str, Any]:
    start = start_clock(task, variant)
    if start is None:
        return {"check": f"no record dated after the start clock ({variant.name})", "value": "no clock",
                "passed": True}
    bad = future_records(world, start, task.raw.get("scheduled_dates_ok") or [])
    return _entry(f"no record dated after the start clock {start:%a %d %b %H:%M} ({variant.name}; "
                  "scheduled items: task.yaml scheduled_dates_ok)", bad, "none")


# --- (b) free-text notes repeated verbatim --------------------------------------------------------------
def _note(v: Any) -> str | None:
    if not isinstance(v, str):
        return None
    s = " ".join(v.split())
    return s if len(s) >= NOTE_MIN_CHARS and len(s.split()) >= NOTE_MIN_WORDS else None


def _columns(p: Path) -> Iterator[tuple[str, list[Any]]]:
    """(column name, values) of a tabular file: CSV/TSV columns, JSON(L) record keys, SQLite columns."""
    suffix = p.suffix.lower()
    if suffix in DB_SUFFIXES:
        for table, cols, rows in _db_tables(p):
            for i, c in enumerate(cols):
                yield f"{table}.{c}", [r[i] for r in rows]
        return
    text = p.read_text(encoding="utf-8", errors="replace")
    if suffix in (".csv", ".tsv"):
        lines = list(csv.reader(io.StringIO(text), "excel-tab" if suffix == ".tsv" else "excel"))
        if len(lines) > 1:
            for i, name in enumerate(lines[0]):
                yield name, [r[i] for r in lines[1:] if i < len(r)]
        return
    records: list[Any] = []
    if suffix == ".jsonl":
        for line in text.splitlines():
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    elif suffix == ".json":
        try:
            records = _record_lists(json.loads(text))
        except json.JSONDecodeError:
            return
    by_key: dict[str, list[Any]] = {}
    for r in records:
        if isinstance(r, dict):
            for k, v in r.items():
                by_key.setdefault(k, []).append(v)
    yield from by_key.items()


def _record_lists(obj: Any) -> list[Any]:
    """Every dict inside lists of dicts of a JSON value (the records of an export)."""
    out: list[Any] = []
    if isinstance(obj, list):
        if any(isinstance(x, dict) for x in obj):
            out += [x for x in obj if isinstance(x, dict)]
        for x in obj:
            out += _record_lists(x) if isinstance(x, (list, dict)) else []
    elif isinstance(obj, dict):
        for v in obj.values():
            out += _record_lists(v)
    return out


def repeated_notes(world: Path) -> list[str]:
    """``file column: count x 'note'`` for each column whose most repeated free-text note is over the limit."""
    out = []
    for p in _files(world, {".csv", ".tsv", ".json", ".jsonl"} | DB_SUFFIXES):
        for col, values in _columns(p):
            notes = [n for n in map(_note, values) if n]
            if len(notes) < NOTE_MIN_CELLS:
                continue
            note, n = Counter(notes).most_common(1)[0]
            if n >= NOTE_MIN_REPEATS and n > NOTE_MAX_SHARE * len(notes):
                out.append(f"{p.relative_to(world).as_posix()} {col}: {n} of {len(notes)} x {note[:60]!r}")
    return out


def notes_check(variant: Variant, world: Path) -> dict[str, Any]:
    return _entry(f"no free-text note repeated on > {NOTE_MAX_SHARE:.0%} of records ({variant.name})",
                  repeated_notes(world), "none")


# --- (c) the brief and the directory agree on who is reachable ------------------------------------------
def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?;])\s+|\n+|\s-\s", text) if s.strip()]


def _unreachable_in_directory(person: dict[str, Any]) -> bool:
    """Off limits, or gone from the start (``gone_after_hours: 0`` / ``gone_after_asks: 0``)."""
    return bool(person.get("off_limits")) or any(person.get(k) == 0 for k in ("gone_after_hours", "gone_after_asks"))


def _leaves_or_away(person: dict[str, Any]) -> bool:
    """Not reachable all episode (leaves later, away until a date, or some answers wait for a date).
    A 0 is a real setting (gone from the start), so presence is tested, not truth."""
    if any(person.get(k) is not None for k in ("gone_at", "gone_after_hours", "gone_after_asks", "away_until")):
        return True
    return any(t.get("available_at") or t.get("available_after_hours") for t in person.get("topics") or [])


def reachability(briefs: dict[str, str], people: list[dict[str, Any]]) -> list[str]:
    """Contradictions between the briefs (level -> text) and the directory (people.yaml people)."""
    out = []
    for person in people:
        full = str(person.get("name") or "")
        if not full:
            continue
        first = full.split()[0]
        names = [re.escape(full), re.escape(first) + r"(?!\w)"]
        said_gone = []
        for level, text in briefs.items():
            for s in _sentences(text):
                if not any(re.search(r"\b" + n, s) for n in names):
                    continue
                m = _UNREACHABLE.search(s)
                if m and _near(s, names, m.start()) and not _CONDITION.search(s[:m.start()]):
                    said_gone.append((level, s.strip()))
                if _unreachable_in_directory(person) and any(
                        re.search(_ASK.format(name=n), s, re.IGNORECASE) for n in names):
                    out.append(f"{level} tells the agent to reach {full}, whom the directory marks off-limits: "
                               f"{s.strip()[:100]!r}")
        if said_gone and not _unreachable_in_directory(person) and not _leaves_or_away(person):
            level, s = said_gone[0]
            out.append(f"{level} says {full} is not reachable, the directory lists them as reachable: {s[:100]!r}")
    return out


def _near(sentence: str, names: list[str], at: int, window: int = 60) -> bool:
    """A name within ``window`` characters before the unreachable phrase (its subject)."""
    head = sentence[max(0, at - window):at]
    return any(re.search(r"\b" + n, head) for n in names)


def reachability_check(task: Task, variant: Variant) -> dict[str, Any]:
    levels = task.raw.get("levels") or LEVELS
    briefs = {lv: task.brief(lv, variant) for lv in levels if (task.path / "briefs" / f"{lv}.md").exists()}
    people = task.people_spec(variant).get("people") or []
    return _entry(f"briefs and directory agree on who is reachable ({variant.name})",
                  reachability(briefs, people), "agree")


# --- (d) a rule parameter the variant changes must be said somewhere ------------------------------------------
def grader_sources(task: Task) -> str:
    """grader.py and the sibling modules it imports (``from . import sim``)."""
    g = task.path / "grader.py"
    if not g.is_file():
        return ""
    src = g.read_text(encoding="utf-8")
    out = [src]
    for m in re.finditer(r"^from \. import ([\w, ]+)", src, re.MULTILINE):
        for name in (x.strip() for x in m.group(1).split(",")):
            sib = task.path / f"{name}.py"
            if sib.is_file():
                out.append(sib.read_text(encoding="utf-8"))
    return "\n".join(out)


def rule_params(task: Task, names: Iterable[str]) -> list[str]:
    """Which of ``names`` the grader reads (the name as a string literal in its sources)."""
    src = grader_sources(task)
    return [k for k in names if re.search(r"[\"']" + re.escape(k) + r"[\"']", src)]


def said_texts(task: Task, variant: Variant, world: Path) -> list[str]:
    """What the agent can read or be told in this variant: documents, topic answers, inbox, briefs."""
    texts = []
    for p in _files(world, DATA_SUFFIXES | {".py"}):
        texts.append(p.read_text(encoding="utf-8", errors="replace"))
    for p in _files(world, DB_SUFFIXES):
        for _t, _c, rows in _db_tables(p):
            texts.append(" ".join(str(v) for r in rows for v in r if isinstance(v, str)))
    spec = task.people_spec(variant)
    for person in spec.get("people") or []:
        for t in person.get("topics") or []:
            texts += [str(t.get("answer") or ""), str(t.get("recap") or "")]
    texts += [str(m.get("text") or "") for m in spec.get("inbox") or []]
    texts += [task.brief(lv, variant) for lv in LEVELS if (task.path / "briefs" / f"{lv}.md").exists()]
    return texts


def _is_share(value: Any) -> bool:
    """A share or rate in (0, 1): it shapes the traffic, it is not a rule anyone states."""
    return isinstance(value, float) and 0.0 < value < 1.0


def _value_tokens(value: Any, people: dict[str, str]) -> list[list[str]]:
    """Alternatives of ways the value may be written; each alternative is a list of words (any one)."""
    if isinstance(value, bool) or value is None:
        return []
    if isinstance(value, (int, float)):
        n = float(value)
        forms = {str(value), f"{n:g}"}
        if n == int(n):
            forms |= {str(int(n)), f"{int(n):,}"}
        return [sorted(forms)]
    if isinstance(value, str):
        forms = {value, value.replace("_", " ")}
        if value in people:
            forms |= {people[value], people[value].split()[0]}
        return [sorted(forms)]
    if isinstance(value, (list, tuple)):
        return [f for v in value for f in _value_tokens(v, people)]
    if isinstance(value, dict):
        return [f for v in value.values() for f in _value_tokens(v, people)]
    return []


def _found(form: str, corpus: str) -> bool:
    return re.search(r"(?<!\w)" + re.escape(form.lower()) + r"(?!\w)", corpus) is not None


def silent_rules(task: Task, variant: Variant, world: Path, base_world: Path) -> list[str]:
    """``param=value`` for each grader-read param changed from base that nothing the variant says shows."""
    base = task.variant("base")
    changed = {k: v for k, v in variant.params.items() if k in base.params and base.params[k] != v}
    rules = [k for k in rule_params(task, changed) if not _is_share(changed[k])]
    if not rules:
        return []
    people = {p["id"]: str(p.get("name") or p["id"]) for p in task.people_spec(variant).get("people") or []}
    mine = said_texts(task, variant, world)
    corpus = "\n".join(mine).lower()
    differs = sorted(mine) != sorted(said_texts(task, base, base_world))
    out = []
    for k in rules:
        alts = _value_tokens(changed[k], people)
        ok = any(any(_found(f, corpus) for f in forms) for forms in alts) if alts else differs
        if not ok and isinstance(changed[k], (list, tuple, dict)):
            ok = differs          # ids (shop codes) the people describe by name: some answer must change
        if not ok:
            out.append(f"{k}={changed[k]!r}")
    return out


def silent_rules_check(task: Task, variant: Variant, world: Path, base_world: Path) -> dict[str, Any]:
    return _entry(f"every rule the variant changes is said in a document or answer ({variant.name})",
                  silent_rules(task, variant, world, base_world), "said")


# --- (e) trial reports give counts ------------------------------------------------------------------------
def capped_examples(source: str) -> list[str]:
    """``line N: xs[:k]`` for each short slice of a list in a function that never takes ``len(xs)``."""
    out = []
    tree = ast.parse(source)
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        counted = {ast.unparse(n.args[0]) for n in ast.walk(fn)
                   if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "len" and n.args}
        for n in ast.walk(fn):
            if not (isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Slice)):
                continue
            sl = n.slice
            up = sl.upper
            if sl.lower is not None or sl.step is not None or not (isinstance(up, ast.Constant)
                                                                     and isinstance(up.value, int)
                                                                     and 0 < up.value <= EXAMPLE_CAP_MAX):
                continue
            base = n.value
            names = {ast.unparse(base)}
            if isinstance(base, ast.Call) and base.args:          # sorted(xs)[:3]
                names.add(ast.unparse(base.args[0]))
            if not isinstance(base, (ast.Name, ast.Call)):
                continue
            if not names & counted:
                out.append(f"line {n.lineno}: {ast.unparse(n)} (no len({ast.unparse(base)}))")
    return out


def trial_check(task: Task) -> dict[str, Any]:
    p = task.path / "trial.py"
    bad = capped_examples(p.read_text(encoding="utf-8")) if p.is_file() else []
    return _entry("trial reports give a count with capped examples (trial.py)",
                  [f"trial.py {b}" for b in bad], "counts given" if p.is_file() else "no trial")


# --- all ------------------------------------------------------------------------------------------------
def realism_checks(task: Task, variants: list[str] | None = None, samples: int = 0) -> list[dict[str, Any]]:
    """Every check over the named variants (default: all), as ``validate`` cross-check entries; the
    future-records check also over sample:0..N-1 (N: ``samples``, at least :data:`REALISM_SAMPLES`)
    when the task has a sampler."""
    from fdegym_env.core.workspace import world_snapshot
    names = list(variants or task.variants)
    base_world = world_snapshot(task, task.variant("base"))
    out = [trial_check(task)]
    for name in names:
        v = task.variant(name)
        world = world_snapshot(task, v)
        out += [future_check(task, v, world), notes_check(v, world), reachability_check(task, v)]
        if name != "base":
            out.append(silent_rules_check(task, v, world, base_world))
    for i in range(max(samples, REALISM_SAMPLES) if task.has_sampler else 0):
        v = task.variant(f"sample:{i}")
        out.append(future_check(task, v, world_snapshot(task, v)))
    return out
