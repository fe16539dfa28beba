"""Reference delivery for pager_fatigue, written from the facts an engineer learns on the job:

- dedup key: alert + service + member/instance, never the event's own timestamp (and, where
  lb-healthd appends a #g<generation> to the member on every re-registration, without that);
- contract-bound alerts (Dunmore MSA Schedule 4, clause 4.3) always page: no change window, quiet
  hours or threshold may hold them back (dedup may still group repeats of an open page);
- change windows from the CAB calendar silence the CI under change, in the feed's real format,
  honouring only the states that mean work is really happening;
- ledger replica lag inside the batch windows (UK wall clock) is expected: drop it;
- what on-call silence by hand every shift goes to a ticket instead of a page.
And the cases a careful engineer picks up on the way (each from the world, not the replay):
- a flapping LB member that stops coming back (consecutive failures past lb-healthd's fall of 3,
  monitoring_config.md; Kasia; the February incident register) is a new page, not another flap;
- no settlement or clearing runs on UK bank holidays (Femi; the rota page's Easter line), so lag
  in the usual window on those nights is real;
- the Sydney probe's own fault is a timeout (OPS-1150, synthetics runbook, Tomás); an HTTP status
  from apse2-probe-3 is our APAC edge failing (a February INC), so it pages;
- certscan 3 sends value null with the days left in labels.days_left and the summary (README:
  "value can be null"; late-February events), so the silence rule reads the days from there.
Thresholds are left exactly as they are.
"""
from __future__ import annotations

import pathlib

DEDUP = '''"""Page de-duplication.

An event that would page is grouped into an open page when an event with the same dedup key
paged (or was grouped) less than WINDOW_MIN minutes earlier. State lives in a small sqlite
file next to the code so it survives between alertbridge calls.

The key is alert + service + instance. It used to include the event's fired_at (OPS-877), which
made every re-fire of a flapping check a brand-new page.
"""
from __future__ import annotations

import os
import re
import sqlite3
from datetime import timedelta

WINDOW_MIN = 30
STRIP_LB_GENERATION = __STRIP__
_GEN = re.compile(r"#g\\d+$")
_DEFAULT_DB = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "var", "dedup_state.sqlite3")


def instance_of(ev: dict) -> str:
    inst = str(ev.get("instance") or "-")
    if STRIP_LB_GENERATION:
        inst = _GEN.sub("", inst)
    return inst


# lb-healthd marks a member down at 3 failed checks (fall 3) and back at 1 pass (rise 1). A flap
# never gets past 3/3; a member still failing beyond that has stopped coming back, and that is a
# new page even while its flap page is open.
LB_FALL = 3


def key_for(ev: dict, ts) -> str:
    key = "|".join([str(ev.get("alert") or "?"), str(ev.get("service") or "-"), instance_of(ev)])
    v = ev.get("value")
    if ev.get("alert") == "LBHealthCheckFailed" and isinstance(v, (int, float)) and v > LB_FALL:
        key += "|down"
    return key


class DedupState:
    def __init__(self, path: str | None = None):
        path = path or os.environ.get("ALERTROUTER_STATE") or _DEFAULT_DB
        os.makedirs(os.path.dirname(path), exist_ok=True)
        self.db = sqlite3.connect(path)
        self.db.execute("CREATE TABLE IF NOT EXISTS open_pages (k TEXT PRIMARY KEY, last_seen TEXT NOT NULL)")

    def seen_within(self, key: str, ts, minutes: int) -> bool:
        if ts is None:
            return False
        row = self.db.execute("SELECT last_seen FROM open_pages WHERE k = ?", (key,)).fetchone()
        if not row:
            return False
        from .timeutil import parse_ts
        last = parse_ts(row[0])
        return last is not None and abs(ts - last) <= timedelta(minutes=minutes)

    def touch(self, key: str, ts) -> None:
        if ts is None:
            return
        self.db.execute("INSERT INTO open_pages (k, last_seen) VALUES (?, ?) "
                        "ON CONFLICT(k) DO UPDATE SET last_seen = excluded.last_seen "
                        "WHERE excluded.last_seen > open_pages.last_seen", (key, ts.isoformat()))

    def close(self) -> None:
        self.db.commit()
        self.db.close()
'''

MAINT_JSON = '''"""Change-window suppression from the CAB calendar (ServiceNow JSON export in every batch).

A non-contract alert from a CI that is inside a change window is suppressed. Only changes in a
state that means the work is really happening count: __STATES__.
"""
from __future__ import annotations

from .timeutil import parse_ts

TRUSTED_STATES = __STATES__


def _service(ci: str) -> str:
    ci = (ci or "").strip().lower()
    return ci[:-4] if ci.endswith(".prd") else ci


def covered(ev: dict, ts, calendar) -> bool:
    if ts is None or not calendar:
        return False
    svc = str(ev.get("service") or "").lower()
    for c in calendar:
        if c.get("state") not in TRUSTED_STATES:
            continue
        if _service(c.get("cmdb_ci")) != svc:
            continue
        a, b = parse_ts(c.get("planned_start")), parse_ts(c.get("planned_end"))
        if a and b and a <= ts <= b:
            return True
    return False
'''

MAINT_ICS = '''"""Change-window suppression from the CAB calendar (iCalendar text in every batch).

DTSTART/DTEND are Europe/London wall-clock times (TZID=Europe/London); X-CMDB-CI names the CI as
'<service>.prd'. Only STATUS values in TRUSTED_STATES are approved work.
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from .timeutil import london

UTC = timezone.utc
TRUSTED_STATES = __STATES__


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
    lines = text.replace("\\r\\n", "\\n").split("\\n")
    unfolded = []
    for ln in lines:
        if ln.startswith((" ", "\\t")) and unfolded:
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
'''

ALWAYS = '''"""Alerts that page regardless of change windows, quiet hours and thresholds.

Dunmore Bank MSA, Schedule 4 clause 4.3: card-authorisation degradation must reach the on-call
engineer within five minutes of the first alert, whatever the alert volume. Compliance (A. Brennan)
confirmed the list below.
"""

CONTRACT_ALERTS = __CONTRACT__


def applies(ev: dict, ts) -> bool:
    return ev.get("alert") in CONTRACT_ALERTS
'''

QUIET = '''"""Alerts that are expected (and dropped) at certain times of day.

Ledger replica lag is expected while the ledger batches run (bulk writes on the primary); outside
those windows it is real (fraud features and the auth stand-in read from the replicas).
Windows are UK wall-clock times, so they move with the clocks.
"""
from datetime import date, timedelta

from ..timeutil import london

BATCH_WINDOWS = __WINDOWS__
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
'''

TICKET = '''"""Alerts that should open a ticket instead of paging: what on-call silence by hand every shift.

- CertExpirySoon with more than 7 days left (renewals are tracked in SECENG tickets)
- SyntheticCheckFailed from apse2-probe-3 (the Sydney probe; known broken, OPS-1150)
- KafkaConsumerLag of the analytics-etl consumer group (nightly ETL, not customer-facing)
"""


import re

_DAYS = re.compile(r"(?:expires in |: )(\\d+) ?d(?:ays)?\\b")


def days_left(ev: dict):
    """certscan 2 sends the days left as value; certscan 3 sends value null, labels.days_left and
    '<cert>: 12d left (notAfter ...)' in the summary."""
    v = ev.get("value")
    if isinstance(v, (int, float)):
        return v
    labels = ev.get("labels") or {}
    try:
        return int(str(labels.get("days_left")).strip())
    except (TypeError, ValueError):
        pass
    m = _DAYS.search(str(ev.get("summary") or ""))
    return int(m.group(1)) if m else None


def applies(ev: dict, ts) -> bool:
    a = ev.get("alert")
    inst = str(ev.get("instance") or "")
    if a == "CertExpirySoon":
        d = days_left(ev)
        return d is not None and d > 7
    if a == "SyntheticCheckFailed":
        # probe-3's own fault is always a timeout (connect / TLS handshake, OPS-1150); an HTTP
        # status means our APAC edge answered with an error, and that is real
        return inst.startswith("apse2-probe-3") and "timeout" in str(ev.get("summary") or "").lower()
    if a == "KafkaConsumerLag":
        return inst.startswith("analytics-etl")
    return False
'''


def files(params: dict) -> dict:
    states = repr(tuple(params["calendar_trusted_states"]))
    maint = MAINT_ICS if params.get("calendar_format") == "ics" else MAINT_JSON
    return {
        "alertrouter/dedup.py": DEDUP.replace("__STRIP__", repr(bool(params.get("lb_generation_suffix")))),
        "alertrouter/maintenance.py": maint.replace("__STATES__", states),
        "alertrouter/hooks/always_page.py": ALWAYS.replace("__CONTRACT__", repr(tuple(sorted(params["contract_alerts"])))),
        "alertrouter/hooks/quiet_hours.py": QUIET.replace("__WINDOWS__", repr([tuple(w) for w in params["batch_windows"]])),
        "alertrouter/hooks/ticket_only.py": TICKET,
    }


def apply(ws: pathlib.Path, params: dict) -> None:
    sysdir = pathlib.Path(ws) / "system"
    for rel, text in files(params).items():
        (sysdir / rel).write_text(text)
