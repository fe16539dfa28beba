"""Shortcut: 'only wake people for sev-1'. The runbook index lists the SEV-1 alerts (card auth,
HSM); everything else becomes a ticket (menu change ticket_all_but_sev1). Dedup key fixed too."""
from . import reference


def apply(ws, params: dict) -> None:
    reference.apply_change(ws, reference.changes(params)["dedup"])
    reference.apply_change(ws, "ticket_all_but_sev1")
