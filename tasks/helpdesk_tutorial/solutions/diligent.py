"""Diligent: every key fact found (owner, how tickets arrive, priority, P1 policy), shipped as
the parked R15 rule turned on with its own keyword list - or the kiosk category where pickers raise
them at the kiosks. Misses the subtle cases: other names for the device, copier "scanner" tickets,
supervisors who still phone handheld faults in where the kiosks are live."""

from fdegym_env.tasklib import solutions

PARKED = '"id": "R15-handheld", "enabled": false, "queue": "service_desk", "priority": "P3"'
TEXT = ', "field": "text", "match": ["rt7", "scanner", "handheld", "scan gun"]'


def apply(ws, params: dict) -> None:
    old, new = PARKED, f'"id": "R15-handheld", "enabled": true, "queue": "{params["owner_queue"]}", ' \
                       f'"priority": "{params["scanner_priority"]}"'
    if params["match_on"] == "category":   # the kiosk button instead of the text
        old, new = old + TEXT, new + ', "field": "category", "match": ["device/handheld"]'
    solutions.replace(ws, "system/config.json", old, new)
