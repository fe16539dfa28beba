"""Reference: what an engineer who had every fact would deliver.

- red flags (the list's current owner's version) anywhere in the message -> nurse line, urgent;
  matched generously (plurals, -ing forms, missing apostrophes), as the clinical lead asked
- repeats: controlled drugs in the practice's scope, by generic or brand name -> doctor; the rest ->
  pharmacy desk up to its daily capacity (weekend and bank-holiday requests count against the next
  working day), overflow stays with the duty nurse; a carer's repeat typed into an Admin query is a
  repeat too
- pure admin questions -> approved templates only (nothing clinical, and no second ask - a repeat,
  a booking or a result - in the same message)
- out of hours (the practice's real hours, UK time - received_at is a UTC instant and the clocks go
  forward on 29 March - and closed on bank holidays) -> the current safety-netting text, word for word
"""
from pathlib import Path

from ..solkit import reference_policy, write_router


def apply(ws: Path, params: dict) -> None:
    write_router(ws, reference_policy(params),
                 "## 3.0.0\n- Red flags read from subject AND body (generous match); repeat requests to the pharmacy "
                 "desk with the CD rule (generic and brand names) and daily capacity; approved admin templates only "
                 "for single-question admin messages; UK local time (BST) and bank holidays; current OOH wording.")
