"""Alerts that are expected (and dropped) at certain times of day.

Ledger replica lag is expected while the ledger batches run (bulk writes on the primary); outside
those windows it is real (fraud features and the auth stand-in read from the replicas).
Windows are UK wall-clock times, so they move with the clocks.
"""
from datetime import date, timedelta

from ..timeutil import london

BATCH_WINDOWS = [('21:30', '00:00'), ('05:00', '05:45')]
# Settlement Ops run no settlement and no clearing ingest on England & Wales bank holidays
# (no scheme settlement day): a window that would start on one of these dates does not happen.
BANK_HOLIDAYS = {date(2026, 1, 1), date(2026, 4, 3), date(2026, 4, 6), date(2026, 5, 4), date(2026, 5, 25),
                 date(2026, 8, 31), date(2026, 12, 25), date(2026, 12, 28)}


def _mins(hhmm: str) -> int:
    h, m = hhmm.split(":")
    return int(h) * 60 + int(m)


def in_batch_window(ts) -> bool:
    loc = london(ts)
    m = loc.hour * 60 + loc.minute
    for a, b in BATCH_WINDOWS:
        ma, mb = _mins(a), _mins(b)
        if ma <= mb:
            started = loc.date() if ma <= m < mb else None
        elif m >= ma:
            started = loc.date()
        elif m < mb:
            started = loc.date() - timedelta(days=1)  # a window that began before midnight
        else:
            started = None
        if started is not None and started not in BANK_HOLIDAYS:
            return True
    return False


def applies(ev: dict, ts) -> bool:
    if ts is None or ev.get("alert") != "PgReplicationLagHigh":
        return False
    if not str(ev.get("instance") or "").startswith("pg-ledger-replica"):
        return False
    return in_batch_window(ts)
