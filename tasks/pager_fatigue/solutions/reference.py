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
from pathlib import Path

from fdegym_env.tasklib import solutions

MENU = Path(__file__).resolve().parent / "menu"   # one change per file, shared with menu.yaml's apply items
SETTLEMENT = {"01:00": "0100", "21:30": "2130", "22:00": "2200", "22:30": "2230", "23:00": "2300"}
CONTRACT = {("CardAuthErrorRate", "CardAuthLatencyP99High"): "always_page_card_auth",
            ("CardAuthErrorRate", "CardAuthLatencyP99High", "ThreeDSAcsErrorRate"): "always_page_card_auth_3ds"}
CALENDAR = {("json", ("Scheduled",)): "calendar_json_scheduled", ("json", ("Implement",)): "calendar_json_implement",
            ("ics", ("CONFIRMED",)): "calendar_ics_confirmed"}


def _pick(table: dict, key, what: str) -> str:
    if key not in table:
        raise ValueError(f"reference: no change in solutions/menu/ for {what} {key!r}; expected one of {list(table)}")
    return table[key]


def changes(params: dict, careful: bool = True) -> dict[str, str]:
    """File role -> the change in solutions/menu/ that delivers it for ``params``. ``careful=False``
    leaves out the subtle cases (the diligent delivery)."""
    (start, _end), clearing = params["batch_windows"]
    if list(clearing) != ["05:00", "05:45"]:
        raise ValueError(f"reference: clearing window {clearing!r}; solutions/menu/ has 05:00-05:45 only")
    lb = bool(params.get("lb_generation_suffix"))
    return {
        "dedup": ("dedup_key_lb_generation_fall3" if lb else "dedup_key_fall3") if careful else "dedup_key",
        "always_page": _pick(CONTRACT, tuple(sorted(params["contract_alerts"])), "contract alerts"),
        "maintenance": _pick(CALENDAR, (params.get("calendar_format", "json"),
                                        tuple(params["calendar_trusted_states"])), "calendar feed"),
        "quiet_hours": "batch_" + _pick(SETTLEMENT, start, "settlement start") + ("_holidays" if careful else ""),
        "ticket_only": "ticket_hand_silenced" if careful else "ticket_hand_silenced_value_only",
    }


# the batch hooks are the 01:00 hook with patches (bank holidays, the window line); other trusted
# change states the Scheduled feed with its states patched (as in menu.yaml)
PARTS = {"batch_0100_holidays": ["batch_0100", "holidays"], "batch_utc_runbook": ["batch_0100", "utc_runbook"]}
PARTS.update({f"batch_{w}{h}": ["batch_0100", *(["holidays"] if h else []), f"window_{w}"]
              for w in ("2130", "2200", "2230", "2300") for h in ("", "_holidays")})
PARTS.update({f"calendar_json_{v}": ["calendar_json_scheduled", f"states_{v}"] for v in ("implement", "any")})


def apply_change(ws: Path, name: str) -> None:
    """Apply one change kept in solutions/menu/ (a patch against the world, or new file text; some
    are two parts, see ``PARTS``)."""
    for part in PARTS.get(name, [name]):
        if (MENU / f"{part}.patch").is_file():
            solutions.patch(__name__, ws, f"menu/{part}.patch")
        else:
            solutions.overlay(MENU / part, ws, {})


def apply(ws: Path, params: dict) -> None:
    for name in changes(params).values():
        apply_change(ws, name)
