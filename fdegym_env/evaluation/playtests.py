"""Playtest folders (``fdegym episode``'s transcript and result) as a table, and their messages as a
routing set.

Each folder holds ``transcript.jsonl`` (a recorder transcript) and, once graded, ``result.json``.
Every ``contact`` reply is classified from the tags the people engine logged: **answered** (a topic's
answer, or its recap), **held** (a topic matched but held back: an evidence gate, a prerequisite, a
stall), **don't know** (no topic of that person matched; with the person referred to, if any) and
**refused** (off limits, out of patience, gone, away).

Usage::

    python -m fdegym_env.evaluation.playtests /work/playtests/*/episodes/*            # Markdown table
    python -m fdegym_env.evaluation.playtests DIRS... --traffic-out tests/routing/agent_traffic

``--traffic-out`` writes every contact message, per task, as an unlabelled routing set
(``person``, ``q``, the variant it was sent in, the reply's class); a labeller who did not write the
router adds ``subject``, ``owner`` and ``expect`` by meaning (docs/routing.md).

Example:
    >>> classify_reply(["legal_scope:gated"]), classify_reply(["dont_know", "refer:wire_editor"])
    ('held', 'dont_know')
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

HELD = ("gated", "stalled", "too_soon", "needs_prior")
REFUSED = ("off_limits", "out_of_patience", "gone", "away")


def classify_reply(tags: list[str]) -> str:
    """``answered``, ``held``, ``dont_know`` or ``refused`` for one contact's engine tags."""
    tags = [t for t in tags if t != "auto_reply"]     # how the reply came (an out-of-office), not what it said
    if any(t in REFUSED for t in tags) and not any(":" not in t and t not in REFUSED for t in tags):
        return "refused"
    if "dont_know" in tags:
        return "dont_know"
    hows = [t.partition(":")[2] for t in tags]
    if any(h in ("", "repeat") for h in hows):
        return "answered"
    if any(h in HELD for h in hows):
        return "held"
    return "dont_know"


@dataclass
class Contact:
    """One message to a person and how it was answered."""
    turn: int
    to: str
    message: str
    reply: str
    tags: list[str]
    kind: str
    referred_to: str | None = None


@dataclass
class Playtest:
    """One played episode: identity, graded result and its contacts."""
    folder: Path
    task: str
    variant: str
    level: str
    seed: int | None
    agent: str
    result: dict[str, Any] | None
    contacts: list[Contact] = field(default_factory=list)
    actions: int = 0

    def count(self, kind: str) -> int:
        return sum(c.kind == kind for c in self.contacts)


def load(folder: str | Path) -> Playtest:
    """Read one episode folder.

    Raises:
        FileNotFoundError: the folder has no ``transcript.jsonl``.
        ValueError: the transcript has no reset line.
    """
    folder = Path(folder)
    lines = [json.loads(line) for line in (folder / "transcript.jsonl").read_text(encoding="utf-8").splitlines()
             if line.strip()]
    reset = next((d for d in lines if d.get("type") == "reset"), None)
    if reset is None:
        raise ValueError(f"{folder / 'transcript.jsonl'}: no reset line (not an fdegym transcript?)")
    result_path = folder / "result.json"
    result = json.loads(result_path.read_text(encoding="utf-8")) if result_path.exists() else None
    pt = Playtest(folder=folder, task=reset["task"], variant=reset["variant"], level=reset["level"],
                  seed=reset.get("seed"), agent=reset.get("agent", ""), result=result)
    for d in lines:
        if d.get("type") != "step":
            continue
        pt.actions += 1
        info = d.get("info") or {}
        c = info.get("contact")
        action = d.get("action") or {}
        if not isinstance(c, dict) or not isinstance(action, dict) or action.get("tool") != "contact":
            continue   # trials, waits and the inbox log a ledger entry too
        tags = [str(t) for t in c.get("tags") or []]
        refer = next((t.partition(":")[2] for t in tags if t.startswith("refer:")), None)
        pt.contacts.append(Contact(turn=int(d.get("turn") or 0), to=str(c.get("to", "")),
                                   message=str(action.get("message", "")),
                                   reply=str((d.get("observation") or {}).get("text", "")), tags=tags,
                                   kind=classify_reply(tags), referred_to=refer))
    return pt


def _incidents(result: dict[str, Any] | None) -> str:
    if not result:
        return "not graded"
    inc = result.get("incidents") or []
    if not inc:
        return "none"
    kinds: dict[str, int] = {}
    for i in inc:
        k = str(i).split(":")[0].strip()
        kinds[k] = kinds.get(k, 0) + 1
    return ", ".join(f"{k} ×{n}" if n > 1 else k for k, n in kinds.items())


def table(playtests: list[Playtest]) -> str:
    """A Markdown table: one row per playtest, then the totals."""
    head = ("| task | variant | seed | score | uplift | contact cost | actions | messages | answered | held | "
            "don't know (referred) | refused | incidents |")
    rows = [head, "|" + "---|" * 13]
    for p in playtests:
        r = p.result or {}
        num = (lambda k, r=r: f"{r[k]:.3f}" if isinstance(r.get(k), (int, float)) else "-")
        referred = sum(c.kind == "dont_know" and c.referred_to is not None for c in p.contacts)
        rows.append(f"| {p.task} | {p.variant} | {p.seed} | {num('score')} | {num('uplift')} | {num('contact_cost')} | "
                    f"{p.actions} | {len(p.contacts)} | {p.count('answered')} | {p.count('held')} | "
                    f"{p.count('dont_know')} ({referred}) | {p.count('refused')} | {_incidents(p.result)} |")
    graded = [p.result for p in playtests if p.result]
    msgs = sum(len(p.contacts) for p in playtests)
    if graded:
        mean = sum(float(r["score"]) for r in graded) / len(graded)
        resolved = sum(bool(r.get("resolved")) for r in graded)
        dk = sum(p.count("dont_know") for p in playtests)
        rows.append("")
        rows.append(f"{len(playtests)} playtests, {len(graded)} graded: mean score {mean:.3f}, resolved {resolved}; "
                    f"{msgs} messages, {dk} answered \"don't know\" ({dk / max(msgs, 1):.0%}).")
    return "\n".join(rows)


def traffic(playtests: list[Playtest]) -> dict[str, dict[str, Any]]:
    """Every contact message per task, as an unlabelled routing set."""
    out: dict[str, dict[str, Any]] = {}
    for p in playtests:
        qs = out.setdefault(p.task, {"questions": []})["questions"]
        for c in p.contacts:
            qs.append({"person": c.to, "q": c.message, "variant": p.variant, "reply_was": c.kind,
                       "source": f"{p.folder.name} turn {c.turn}"})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m fdegym_env.evaluation.playtests",
                                 description="Playtest episode folders as a Markdown table; their messages as routing sets.")
    ap.add_argument("folders", nargs="+", help="episode folders (each with transcript.jsonl)")
    ap.add_argument("--traffic-out", default=None, help="write <task>.yaml routing sets (unlabelled) here")
    ap.add_argument("--json", action="store_true", help="one JSON object per playtest instead of the table")
    a = ap.parse_args(argv)
    playtests = []
    for f in a.folders:
        try:
            playtests.append(load(f))
        except (OSError, ValueError) as e:
            print(f"error: {f}: {e}", file=sys.stderr)
            return 2
    if a.json:
        for p in playtests:
            print(json.dumps({"folder": str(p.folder), "task": p.task, "variant": p.variant, "seed": p.seed,
                              "result": p.result, "contacts": [c.__dict__ for c in p.contacts]}, default=str))
    else:
        print(table(playtests))
    if a.traffic_out:
        out = Path(a.traffic_out)
        out.mkdir(parents=True, exist_ok=True)
        for task, rset in traffic(playtests).items():
            (out / f"{task}.yaml").write_text(
                "# agent traffic: every contact message of the playtests, unlabelled until a labeller adds\n"
                "# subject / owner / expect by meaning (docs/routing.md)\n"
                + yaml.safe_dump(rset, sort_keys=False, allow_unicode=True, width=110), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
