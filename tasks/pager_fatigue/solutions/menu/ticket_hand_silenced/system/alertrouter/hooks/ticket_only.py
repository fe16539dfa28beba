"""Alerts that should open a ticket instead of paging: what on-call silence by hand every shift.

- CertExpirySoon with more than 7 days left (renewals are tracked in SECENG tickets)
- SyntheticCheckFailed from apse2-probe-3 (the Sydney probe; known broken, OPS-1150)
- KafkaConsumerLag of the analytics-etl consumer group (nightly ETL, not customer-facing)
"""


import re

_DAYS = re.compile(r"(?:expires in |: )(\d+) ?d(?:ays)?\b")


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
