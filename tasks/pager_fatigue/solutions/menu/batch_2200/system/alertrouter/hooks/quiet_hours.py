"""Alerts that are expected (and dropped) at certain times of day.

Ledger replica lag is expected while the ledger batches run (bulk writes on the primary); outside
those windows it is real (fraud features and the auth stand-in read from the replicas).
Windows are UK wall-clock times, so they move with the clocks.
"""
from ..timeutil import london

BATCH_WINDOWS = [('22:00', '00:30'), ('05:00', '05:45')]


def _mins(hhmm: str) -> int:
    h, m = hhmm.split(":")
    return int(h) * 60 + int(m)


def in_batch_window(ts) -> bool:
    loc = london(ts)
    m = loc.hour * 60 + loc.minute
    for a, b in BATCH_WINDOWS:
        ma, mb = _mins(a), _mins(b)
        if (ma <= m < mb) if ma <= mb else (m >= ma or m < mb):
            return True
    return False

def applies(ev: dict, ts) -> bool:
    if ts is None or ev.get("alert") != "PgReplicationLagHigh":
        return False
    if not str(ev.get("instance") or "").startswith("pg-ledger-replica"):
        return False
    return in_batch_window(ts)
