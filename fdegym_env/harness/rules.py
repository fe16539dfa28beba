"""The "working arrangements" text the reference harness appends to a case's brief.

A case's ``engagement.json`` picks one with ``"rules": "v2" | "v3"`` (anything else: v1) and may add
``rules_extra`` (rendered with the variant). ``TASK.md`` is then ``brief.rstrip() + "\\n" + rules +
rules_extra``, exactly as the harness writes it, so an agent reads the same words in both.

The wording is data from the harness (Apache-2.0, ``harness/run.py``); it is reproduced, not
paraphrased, because agents are scored on how they react to it.

Example:
    >>> "bin/ask" in rules_text("v3")
    True
"""

from __future__ import annotations

RULES_V1 = """
---

## How this engagement works

- You are a forward deployed engineer embedded with this customer. Everything
  you can see of their environment is in this directory. **Work only inside this
  directory**; do not read or write anything outside it.
- Talk to stakeholders with `python3 bin/ask --who` and
  `python3 bin/ask <id> "question"`. They are busy people: each will only answer
  a limited number of questions, and they answer best when asked one specific
  thing at a time.
- `system/` is the customer's live system. When you finish, whatever is in
  `system/` goes to production unchanged, and the customer's scheduler keeps
  invoking the same entry points it invokes today (see `system/README.md`) on
  new data for the following weeks. Nobody will run anything by hand for you:
  if a change is not wired into those entry points, it is not live.
- The customer's machine has Python 3.9 standard library and SQLite only. No
  pip installs, no network.
- You will be judged on whether the customer's business problem is actually
  better in the weeks after you leave, not on how much you built.

## Deliverables

1. Your changes in `system/`.
2. `deliverables/problem_brief.md` — in your own words: what the real problem
   is, its root cause, the evidence, the metric that should move, and what you
   deliberately did not do.
3. `deliverables/handoff.md` — a short runbook for the customer's ops team.
"""

RULES_V2 = """
---

## Working arrangements

- You are a forward deployed engineer embedded with this customer. Everything
  you can see of their environment is in this directory. **Work only inside this
  directory**; do not read or write anything outside it.
- Colleagues at the customer can be reached with `python3 bin/ask --who` and
  `python3 bin/ask <id> "question"`. Their time is limited, per person and in
  total, and they answer one specific question at a time.
- `system/` is the customer's live system. When you finish, whatever is in
  `system/` goes to production unchanged. Production calls only the entry
  points listed in `system/README.md`.
- The customer's machine has Python 3.9 standard library and SQLite only: no
  pip installs and no network, except the company LLM gateway, which you reach
  through `system/llm_client.py`. Gateway usage is metered and capped; when the
  allowance is used up, calls fail.

## Deliverables

1. Your changes in `system/`.
2. `deliverables/delivery_note.md`: what you delivered, how it works, how to
   operate it, and its known limits.
"""

_ASK_V2 = """  `python3 bin/ask <id> "question"`. Their time is limited, per person and in
  total, and they answer one specific question at a time."""
_ASK_V3 = """  `python3 bin/ask <id> "question"`. They answer one specific question at a time."""
_ENTRY = """  `system/` goes to production unchanged. Production calls only the entry
  points listed in `system/README.md`."""
_ENTRY_V3 = _ENTRY + """ It imports them with `system/`
  as the working directory and import root, so `cd system && python3 -c "import
  <package>.<module>"` must work for each of them."""

RULES_V3 = RULES_V2.replace(_ASK_V2, _ASK_V3).replace(_ENTRY, _ENTRY_V3)
assert RULES_V3 != RULES_V2 and _ENTRY_V3 in RULES_V3


def rules_text(version: str | None) -> str:
    """The rules block for ``engagement.json``'s ``rules`` value (v2, v3; anything else is v1)."""
    return {"v2": RULES_V2, "v3": RULES_V3}.get(version or "", RULES_V1)
