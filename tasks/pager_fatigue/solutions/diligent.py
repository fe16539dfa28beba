"""Diligent delivery: a good engineer who found every key fact and shipped them carefully, but
missed the subtle cases the next four weeks hold.

It has: the dedup key without fired_at (and without lb-healthd's #g generation where it exists),
the contract-bound alerts always paging, the CAB calendar in its real format with only the states
that mean work is happening, the ledger batch windows in UK local time, and the hand-silence
list as tickets. It misses:
- a flapping LB member that stops coming back is grouped into its own flap page (no escalation
  past lb-healthd's fall of 3), so the outage never pages;
- the batch windows are applied every night, bank holidays included (no run on Good Friday or
  Easter Monday, so lag then is real);
- every apse2-probe-3 failure becomes a ticket, including an HTTP error from the APAC edge;
- the cert rule reads only `value`, so certscan 3's events (value null, days in a label) page.
"""
import pathlib

from . import reference




KEY = '''def key_for(ev: dict, ts) -> str:
    return "|".join([str(ev.get("alert") or "?"), str(ev.get("service") or "-"), instance_of(ev)])
'''

IN_WINDOW = '''def in_batch_window(ts) -> bool:
    loc = london(ts)
    m = loc.hour * 60 + loc.minute
    for a, b in BATCH_WINDOWS:
        ma, mb = _mins(a), _mins(b)
        if (ma <= m < mb) if ma <= mb else (m >= ma or m < mb):
            return True
    return False
'''

TICKET = '''"""Alerts that should open a ticket instead of paging: what on-call silence by hand every shift.

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
'''


def _between(text: str, start: str, end: str, new: str) -> str:
    i = text.index(start)
    j = text.index(end, i)
    return text[:i] + new + text[j:]


def files(params: dict) -> dict:
    f = dict(reference.files(params))
    d = f["alertrouter/dedup.py"]
    d = _between(d, "# lb-healthd marks a member down", "class DedupState", KEY + "\n\n")
    f["alertrouter/dedup.py"] = d
    q = f["alertrouter/hooks/quiet_hours.py"]
    q = _between(q, "# Settlement Ops run no settlement", "\n\ndef _mins", "")
    q = q.replace("from datetime import date, timedelta\n\n", "")
    q = _between(q, "def in_batch_window(ts)", "\n\ndef applies", IN_WINDOW.rstrip("\n"))
    f["alertrouter/hooks/quiet_hours.py"] = q
    f["alertrouter/hooks/ticket_only.py"] = TICKET
    return f


def apply(ws: pathlib.Path, params: dict) -> None:
    sysdir = pathlib.Path(ws) / "system"
    for rel, text in files(params).items():
        (sysdir / rel).write_text(text)
