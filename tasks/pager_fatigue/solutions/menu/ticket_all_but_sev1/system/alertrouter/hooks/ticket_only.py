"""Only SEV-1 alerts page (runbook index); everything else is a ticket."""
SEV1 = {"CardAuthLatencyP99High", "CardAuthErrorRate", "HsmClusterDegraded"}


def applies(ev, ts):
    return ev.get("alert") not in SEV1
