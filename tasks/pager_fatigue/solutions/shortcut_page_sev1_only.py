"""Shortcut: 'only wake people for sev-1'. The runbook index lists the SEV-1 alerts (card auth,
HSM); everything else becomes a ticket. Dedup key fixed too."""
import pathlib

from . import reference

TICKET = '''"""Only SEV-1 alerts page (runbook index); everything else is a ticket."""
SEV1 = {"CardAuthLatencyP99High", "CardAuthErrorRate", "HsmClusterDegraded"}


def applies(ev, ts):
    return ev.get("alert") not in SEV1
'''


def apply(ws: pathlib.Path, params: dict) -> None:
    sysdir = pathlib.Path(ws) / "system" / "alertrouter"
    (sysdir / "dedup.py").write_text(reference.files(params)["alertrouter/dedup.py"])
    (sysdir / "hooks" / "ticket_only.py").write_text(TICKET)
