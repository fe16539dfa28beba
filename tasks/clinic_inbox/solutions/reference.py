"""Reference: what an engineer who had every fact would deliver.

- red flags (the list's current owner's version) anywhere in the message -> nurse line, urgent
- repeats: controlled drugs in the practice's scope -> doctor; the rest -> pharmacy desk up to its
  daily capacity (weekend requests count against Monday), overflow stays with the duty nurse
- pure admin questions -> approved templates only (no clinical content, nothing clinical in the message)
- out of hours (the practice's real hours) -> the current safety-netting text, word for word
"""
from pathlib import Path

from solkit import reference_policy, write_router


def apply(ws: Path, params: dict) -> None:
    write_router(ws, reference_policy(params),
                 "## 3.0.0\n- Red flags read from subject AND body; repeat requests to pharmacy desk with CD rule "
                 "and daily capacity; approved admin templates; current OOH safety-netting wording.")
