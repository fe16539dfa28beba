"""Alerts that page regardless of change windows, quiet hours and thresholds.

Dunmore Bank MSA, Schedule 4 clause 4.3: card-authorisation degradation must reach the on-call
engineer within five minutes of the first alert, whatever the alert volume. Compliance (A. Brennan)
confirmed the list below.
"""

CONTRACT_ALERTS = ('CardAuthErrorRate', 'CardAuthLatencyP99High')


def applies(ev: dict, ts) -> bool:
    return ev.get("alert") in CONTRACT_ALERTS
