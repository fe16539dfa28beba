"""Production texture: how often the most repeated sentence occurs per data file.

Data written by many people over time rarely repeats a whole sentence; a generator's template
does. This counts, per file of a world folder (and for a variant's held-out traffic), the sentence
that occurs most often. Only free text counts: a sentence needs ``MIN_WORDS`` words and
``MIN_CHARS`` characters, so ids, category labels and sign-offs such as "Thanks" are ignored.

Usage::

    python -m fdegym_env.admission.texture news_incident            # world files and base held-out traffic
    python -m fdegym_env.admission.texture news_incident --top 3 --variant legal_widened

Example:
    >>> from fdegym_env.admission.texture import most_repeated
    >>> most_repeated(["The feed is down. Call Sam.", "The feed is down. Call Jo now please."])
    (2, 'the feed is down.')
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any, Iterable, Iterator

MIN_CHARS = 15
MIN_WORDS = 4
TEXT_SUFFIXES = {".md", ".txt", ".csv", ".json", ".jsonl", ".log", ".eml", ".yaml", ".yml", ".tsv", ".py", ".sql"}
_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+")


def sentences(text: str) -> Iterator[str]:
    """Normalised free-text sentences of ``text`` (lower case, single spaces)."""
    for s in _SPLIT.split(text):
        words = s.split()
        s = " ".join(words).lower()
        if len(s) >= MIN_CHARS and len(words) >= MIN_WORDS:
            yield s


def strings_of(obj: Any) -> Iterator[str]:
    """Every string inside a JSON-like value (dict keys excluded)."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from strings_of(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from strings_of(v)


def file_strings(path: Path) -> list[str]:
    """The text fields of one file: JSON values, CSV cells, or the whole text."""
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix == ".json":
        try:
            return list(strings_of(json.loads(text)))
        except json.JSONDecodeError:
            return [text]
    if path.suffix == ".jsonl":
        out: list[str] = []
        for line in text.splitlines():
            try:
                out.extend(strings_of(json.loads(line)))
            except json.JSONDecodeError:
                out.append(line)
        return out
    if path.suffix in (".csv", ".tsv"):
        dialect = "excel-tab" if path.suffix == ".tsv" else "excel"
        return [cell for row in csv.reader(io.StringIO(text), dialect) for cell in row]
    return [text]


def most_repeated(texts: Iterable[str]) -> tuple[int, str]:
    """(count, sentence) of the most repeated sentence across ``texts``; (0, "") if none."""
    counts = Counter(s for t in texts for s in sentences(t))
    if not counts:
        return 0, ""
    sentence, n = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
    return n, sentence


def world_report(world: Path) -> list[dict[str, Any]]:
    """Per text file under ``world``: its most repeated sentence and how often it occurs."""
    rows = []
    for p in sorted(world.rglob("*")):
        if p.is_file() and p.suffix in TEXT_SUFFIXES and "__pycache__" not in p.parts:
            n, s = most_repeated(file_strings(p))
            rows.append({"file": str(p.relative_to(world)), "count": n, "sentence": s})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m fdegym_env.admission.texture", description=__doc__.split("\n\n")[0])
    ap.add_argument("task")
    ap.add_argument("--variant", default="base")
    ap.add_argument("--top", type=int, default=0, help="only the N files with the most repeated sentences")
    ap.add_argument("--no-held-out", action="store_true", help="skip generating the held-out traffic")
    args = ap.parse_args(argv)
    from fdegym_env.core.registry import load_task
    from fdegym_env.core.workspace import world_snapshot
    task = load_task(args.task)
    variant = task.variant(args.variant)
    rows = world_report(world_snapshot(task, variant))
    if not args.no_held_out:
        from fdegym_env.grading.grade import held_out_traffic
        n, s = most_repeated(strings_of(held_out_traffic(task, variant)))
        rows.append({"file": f"<held-out traffic, {variant.name}>", "count": n, "sentence": s})
    if args.top:
        rows = sorted(rows, key=lambda r: -r["count"])[: args.top]
    for r in rows:
        print(f"{r['count']:>6}  {r['file']:<48} {r['sentence'][:90]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
