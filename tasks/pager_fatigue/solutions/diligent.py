"""Diligent delivery: a good engineer who found every key fact and shipped them carefully, but
missed the subtle cases the next four weeks hold.

It has: the dedup key without fired_at (and without lb-healthd's #g generation where it exists),
the contract-bound alerts always paging, the CAB calendar in its real format with only the states
that mean work is happening, the ledger batch windows in UK local time, and the hand-silence
list as tickets. It misses:
- a flapping LB member that stops coming back is grouped into its own flap page (no escalation
  past lb-healthd's fall of 3), so the outage never pages;
- the batch windows are applied every night, bank holidays included (no run on Good Friday or
  Easter Monday, so lag then is real);
- every apse2-probe-3 failure becomes a ticket, including an HTTP error from the APAC edge;
- the cert rule reads only `value`, so certscan 3's events (value null, days in a label) page.

The reference's changes without those cases (``reference.changes(params, careful=False)``).
"""
from fdegym_env.tasklib import solutions

from . import reference


def apply(ws, params: dict) -> None:
    for name in reference.changes(params, careful=False).values():
        reference.apply_change(ws, name)
    if params.get("lb_generation_suffix"):   # the #g generation found and stripped, fall 3 still missed
        solutions.replace(ws, "system/alertrouter/dedup.py", "STRIP_LB_GENERATION = False", "STRIP_LB_GENERATION = True")
