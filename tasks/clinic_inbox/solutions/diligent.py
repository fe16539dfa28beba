"""Diligent: every key fact found and applied - the current red-flag list read from the whole message
(generously), the one-hour standard, the CD rule with brand names, the pharmacy desk's capacity, the
real opening hours in UK time with the Easter closures, the current safety-netting wording, templates
only for admin - but the subtle cases of real traffic missed:

- "purely admin" is read as "no symptom words": a change of address that also asks for an inhaler, a
  booking or a result still gets the template and nothing else;
- repeats are recognised by the portal's repeat form only: a carer typing mum's medicines into an
  Admin query sits at the front desk;
- the pharmacy desk's day count skips weekends but not bank holidays.
"""
from fdegym_env.tasklib import solutions

from . import reference


def apply(ws, params: dict) -> None:
    solutions.apply(__name__, "reference", ws, params)
    reference.write_policy(ws, {"90_overrides.json": {"repeat_in_body": False, "second_ask_words": [],
                                                      "desk_closed_dates": []}})
