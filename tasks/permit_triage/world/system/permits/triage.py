"""Minor works triage for PermitBase.

PermitBase calls triage_batch() every night at 01:30 with the applications validated that day
(and, after a release, with every open case). Each application comes back with a route and the
date the case must be decided by; the officers work their queues in decide_by order.

    auto_issue    permit issued by PermitBase with no officer (tree works pilot only, since 4.2)
    fast_track    Technical Officer checks the drawings and issues under delegated powers (2 days)
    officer       Planning Officer queue (manual review)
    conservation  Conservation & Design queue

Written 2019 (S. Kettlewell) for the v2 portal; see CHANGELOG.md.
"""

import json
import logging
from datetime import date, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
CONFIG = json.loads((HERE.parent / "triage_config.json").read_text(encoding="utf-8"))
LOG = logging.getLogger("permits.triage")


def _streets():
    return {s.strip().lower() for area in CONFIG["conservation_areas"] for s in area["streets"]}


def in_conservation_area(app):
    return app.get("declared_conservation_area") == "Y" or str(app.get("street", "")).strip().lower() in _streets()


def is_small(app):
    """Small enough for the Technical Officer: a listed work type within the size limits, with the
    neighbour acknowledgement ticked."""
    limits = CONFIG["fast_track"]
    try:
        area = float(app.get("floor_area"))               # m2 on the portal form
        height = float(app.get("max_height_m"))
    except (TypeError, ValueError):
        return False
    return (app.get("work_type") in limits["work_types"] and area <= limits["max_floor_area_m2"]
            and height <= limits["max_height_m"] and app.get("neighbour_consent") == "Y")


def decide_by(app):
    validated = date.fromisoformat(str(app["validated_on"])[:10])
    return (validated + timedelta(days=CONFIG["statutory_days"])).isoformat()


def triage(app):
    if in_conservation_area(app):
        route = "conservation"
    elif is_small(app):
        route = "fast_track"
    else:
        route = "officer"
    return {"app_id": app["app_id"], "route": route, "decide_by": decide_by(app)}


def triage_batch(applications):
    out = []
    for app in applications:
        try:
            out.append(triage(app))
        except (KeyError, ValueError) as exc:             # PermitBase puts it in manual review with no date
            LOG.warning("could not triage %s: %s", app.get("app_id"), exc)
    return out
