"""Change-window suppression from the CAB calendar (iCalendar text in every batch).

DTSTART/DTEND are Europe/London wall-clock times (TZID=Europe/London); X-CMDB-CI names the CI as
'<service>.prd'. Only STATUS values in TRUSTED_STATES are approved work.
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from .timeutil import london

UTC = timezone.utc
TRUSTED_STATES = ('CONFIRMED',)


def _local_to_utc(naive: datetime) -> datetime:
    for off in (1, 0):
        cand = (naive - timedelta(hours=off)).replace(tzinfo=UTC)
        if london(cand) == naive:
            return cand
    return (naive - timedelta(hours=1)).replace(tzinfo=UTC)


def _dt(prop: str, value: str):
    value = value.strip()
    try:
        if value.endswith("Z"):
            return datetime.strptime(value, "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
        naive = datetime.strptime(value, "%Y%m%dT%H%M%S")
    except ValueError:
        return None
    if "TZID=" in prop and "London" not in prop:
        return naive.replace(tzinfo=UTC)
    return _local_to_utc(naive)


def parse(text: str) -> list:
    out, cur = [], None
    lines = text.replace("\r\n", "\n").split("\n")
    unfolded = []
    for ln in lines:
        if ln.startswith((" ", "\t")) and unfolded:
            unfolded[-1] += ln[1:]
        else:
            unfolded.append(ln)
    for ln in unfolded:
        if ln == "BEGIN:VEVENT":
            cur = {}
        elif ln == "END:VEVENT":
            if cur is not None:
                out.append(cur)
            cur = None
        elif cur is not None and ":" in ln:
            prop, value = ln.split(":", 1)
            name = prop.split(";", 1)[0].upper()
            if name in ("DTSTART", "DTEND"):
                cur[name] = _dt(prop, value)
            else:
                cur[name] = value.strip()
    return out


def _service(ci: str) -> str:
    ci = (ci or "").strip().lower()
    return ci[:-4] if ci.endswith(".prd") else ci


def covered(ev: dict, ts, calendar) -> bool:
    if ts is None or not isinstance(calendar, str):
        return False
    svc = str(ev.get("service") or "").lower()
    for c in parse(calendar):
        if c.get("STATUS", "").upper() not in TRUSTED_STATES:
            continue
        if _service(c.get("X-CMDB-CI")) != svc:
            continue
        a, b = c.get("DTSTART"), c.get("DTEND")
        if a and b and a <= ts <= b:
            return True
    return False
