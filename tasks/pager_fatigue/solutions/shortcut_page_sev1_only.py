"""Shortcut: 'only wake people for sev-1'. The runbook index lists the SEV-1 alerts (card auth,
HSM); everything else becomes a ticket. Dedup key fixed too."""
import importlib.util
import pathlib

TICKET = '''"""Only SEV-1 alerts page (runbook index); everything else is a ticket."""
SEV1 = {"CardAuthLatencyP99High", "CardAuthErrorRate", "HsmClusterDegraded"}


def applies(ev, ts):
    return ev.get("alert") not in SEV1
'''


def apply(ws: pathlib.Path, params: dict) -> None:
    spec = importlib.util.spec_from_file_location("pf_ref", pathlib.Path(__file__).with_name("reference.py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    sysdir = pathlib.Path(ws) / "system" / "alertrouter"
    (sysdir / "dedup.py").write_text(m.files(params)["alertrouter/dedup.py"])
    (sysdir / "hooks" / "ticket_only.py").write_text(TICKET)
