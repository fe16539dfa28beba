"""Alerts that should open a ticket instead of paging: what on-call silence by hand every shift.

- CertExpirySoon with more than 7 days left (renewals are tracked in SECENG tickets)
- SyntheticCheckFailed from apse2-probe-3 (the Sydney probe; known broken, OPS-1150)
- KafkaConsumerLag of the analytics-etl consumer group (nightly ETL, not customer-facing)
"""


def applies(ev: dict, ts) -> bool:
    a = ev.get("alert")
    inst = str(ev.get("instance") or "")
    v = ev.get("value")
    if a == "CertExpirySoon":
        return isinstance(v, (int, float)) and v > 7
    if a == "SyntheticCheckFailed":
        return inst.startswith("apse2-probe-3")
    if a == "KafkaConsumerLag":
        return inst.startswith("analytics-etl")
    return False
