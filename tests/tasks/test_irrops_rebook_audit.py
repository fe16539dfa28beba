"""irrops_rebook grader audit: a boundary test for each incident rule (DESIGN_NOTES.md lists where an
agent learns each one), on hand-built plans with the real network model."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from fdegym_env.core.registry import load_task

TASK = load_task("irrops_rebook")
SIM = TASK.module("sim")
GRADER = TASK.module("grader")
BASE = dict(TASK.variant("base").params)


def flight(key, frm, to, dep_utc, block, status="OK", cap=184, booked=100):
    """A schedule row departing ``dep_utc`` ("2026-03-10T22:00") in UTC minutes of the model."""
    dep = SIM.to_min(dep_utc + "+00:00")
    hub_side = SIM.terminal(to if frm == SIM.HUB else frm)
    return {"key": key, "flight": "SK " + key.split("/")[0][2:], "from": frm, "to": to,
            "std": SIM.local(dep, frm), "sta": SIM.local(dep + block, to),
            "dep_terminal": hub_side if frm == SIM.HUB else None, "arr_terminal": hub_side if to == SIM.HUB else None,
            "equipment": "321", "status": status, "cap": cap, "au": cap, "booked": booked, "avail": cap - booked,
            "region": SIM.AIRPORTS[to][4] if frm == SIM.HUB else SIM.AIRPORTS[frm][4]}


def plan(flights, cancelled_key, passengers):
    c = next(f for f in flights if f["key"] == cancelled_key)
    c["status"] = "CNL"
    notice = SIM.local(SIM.to_min(c["std"]) - 150, SIM.HUB)
    return {"plan_id": "T", "hub": SIM.HUB, "issued_at": notice, "schedule": flights, "passengers": passengers,
            "cancelled": [{"key": c["key"], "flight": c["flight"], "from": c["from"], "to": c["to"], "std": c["std"],
                           "sta": c["sta"], "notice": notice}]}


def pax(pid, segs, disrupted, ssr=(), pnr=None):
    return {"pax_id": pid, "pnr": pnr or "PNR" + pid[-3:], "name": "X/Y MR", "ptc": "ADT", "ssr": list(ssr),
            "tier": None, "disrupted": disrupted,
            "segments": [{k: s[k] for k in ("key", "flight", "from", "to", "std", "sta")} for s in segs]}


def grade(p, decisions, **params):
    reply = SimpleNamespace(value={"decisions": decisions}, ok=True)
    return GRADER.evaluate(lambda _plan: reply, {**BASE, **params}, {"plans": [p]})


# P60461's case: SK 137 JFK 18:00 EDT 10 Mar -> DUB, onward DUB-CDG 11 Mar 09:40 (held)
def jfk_world():
    jfk_1800 = flight("SK137/10MAR", "JFK", "DUB", "2026-03-10T22:00", 400)     # 18:00 EDT (-04:00)
    jfk_2215 = flight("SK139/10MAR", "JFK", "DUB", "2026-03-11T02:15", 400)     # 22:15 EDT, red-eye
    jfk_next = flight("SK137/11MAR", "JFK", "DUB", "2026-03-11T22:00", 400)     # the next evening
    cdg_0940 = flight("SK442/11MAR", "DUB", "CDG", "2026-03-11T09:40", 100)
    cdg_1320 = flight("SK444/11MAR", "DUB", "CDG", "2026-03-11T13:20", 100)
    cdg_next = flight("SK442/12MAR", "DUB", "CDG", "2026-03-12T09:40", 100)
    return [jfk_1800, jfk_2215, jfk_next, cdg_0940, cdg_1320, cdg_next]


def test_new_york_is_on_daylight_time_after_8_march():
    assert SIM.local(SIM.to_min("2026-03-10T22:00+00:00"), "JFK") == "2026-03-10T18:00-04:00"
    assert SIM.local(SIM.to_min("2026-03-06T23:00+00:00"), "JFK") == "2026-03-06T18:00-05:00"
    assert SIM.local(SIM.to_min("2026-03-10T09:40+00:00"), "CDG") == "2026-03-10T10:40+01:00"
    assert SIM.wall_min(SIM.datetime(2026, 3, 10), "18:00", "JFK") == SIM.to_min("2026-03-10T22:00+00:00")


def test_same_evening_red_eye_keeping_the_booked_onward_leg_is_no_night_away():
    fl = jfk_world()
    p = plan(fl, "SK137/10MAR", [pax("P60461", [fl[0], fl[3]], "SK137/10MAR")])
    out = grade(p, [{"pax_id": "P60461", "action": "rebook", "segments": ["SK139/10MAR", "SK442/11MAR"]}],
                eu261_exempt=[])
    assert out["details"]["stranded"] == 0, out["incidents"]
    assert not any(i.startswith("stranded_overnight") for i in out["incidents"])
    # a new same-morning onward leg after the red-eye: still no night on the ground
    out = grade(p, [{"pax_id": "P60461", "action": "rebook", "segments": ["SK139/10MAR", "SK444/11MAR"]}],
                eu261_exempt=[])
    assert out["details"]["stranded"] == 0, out["incidents"]


def test_first_leg_on_a_later_date_is_a_night_away():
    fl = jfk_world()
    p = plan(fl, "SK137/10MAR", [pax("P60461", [fl[0], fl[3]], "SK137/10MAR")])
    out = grade(p, [{"pax_id": "P60461", "action": "rebook", "segments": ["SK137/11MAR", "SK442/12MAR"]}],
                eu261_exempt=[])
    assert out["details"]["stranded"] == 1
    assert any(i.startswith("stranded_overnight: P60461") and "SK 137 2026-03-11" in i for i in out["incidents"])
    # the same re-routing from a departure EU261 does not cover is no incident
    out = grade(p, [{"pax_id": "P60461", "action": "rebook", "segments": ["SK137/11MAR", "SK442/12MAR"]}],
                eu261_exempt=["JFK"])
    assert out["details"]["stranded"] == 0
    # sent to the desk instead: no incident (the desk finds the red-eye, so no hotel either)
    out = grade(p, [{"pax_id": "P60461", "action": "desk"}], eu261_exempt=[])
    assert out["details"]["stranded"] == 0 and out["details"]["hotel"] == 0 and out["details"]["desk"] == 1


def test_new_connection_across_midnight_at_the_hub_is_a_night_away():
    late = flight("SK3121/10MAR", "MAN", "DUB", "2026-03-10T21:00", 60)           # cancelled 21:00
    later = flight("SK3123/10MAR", "MAN", "DUB", "2026-03-10T22:40", 60)          # arrives 23:40
    onward = flight("SK410/10MAR", "DUB", "AMS", "2026-03-10T23:50", 95)
    morning = flight("SK410/11MAR", "DUB", "AMS", "2026-03-11T06:40", 95)
    fl = [late, later, onward, morning]
    p = plan(fl, "SK3121/10MAR", [pax("P00001", [late, onward], "SK3121/10MAR")])
    out = grade(p, [{"pax_id": "P00001", "action": "rebook", "segments": ["SK3123/10MAR", "SK410/11MAR"]}])
    assert out["details"]["stranded"] == 1
    assert SIM.night_away([later, morning], late, {"SK410/10MAR"})
    assert not SIM.night_away([later, onward], late, {"SK410/10MAR"})
    assert SIM.night_away(None, late, set())


@pytest.mark.parametrize("gap, incident", [(0, False), (-1, True)])
def test_misconnect_at_exactly_the_mct_is_legal_one_minute_less_is_not(gap, incident):
    mct = SIM.mct(BASE, "T2", "T2", "EU")
    cnl = flight("SK401/10MAR", "CDG", "DUB", "2026-03-10T07:00", 105)
    new = flight("SK403/10MAR", "CDG", "DUB", "2026-03-10T10:00", 105)             # arrives 11:45Z
    dep = SIM.to_min(new["sta"]) + mct + gap
    onward = flight("SK420/10MAR", "DUB", "LHR", SIM.local(dep, "DUB")[:16], 75)
    fl = [cnl, new, onward]
    p = plan(fl, "SK401/10MAR", [pax("P00002", [cnl], "SK401/10MAR")])
    p["passengers"][0]["segments"].append({k: onward[k] for k in ("key", "flight", "from", "to", "std", "sta")})
    out = grade(p, [{"pax_id": "P00002", "action": "rebook", "segments": ["SK403/10MAR", "SK420/10MAR"]}])
    assert any(i.startswith("misconnect: P00002") for i in out["incidents"]) is incident


@pytest.mark.parametrize("ssr, ypta_rule, incident", [("UMNR 09", False, True), ("YPTA 14", False, False),
                                                       ("YPTA 14", True, True), ("VGML", True, False)])
def test_unaccompanied_minor_rule(ssr, ypta_rule, incident):
    cnl = flight("SK401/10MAR", "CDG", "DUB", "2026-03-10T07:00", 105)
    new = flight("SK403/10MAR", "CDG", "DUB", "2026-03-10T10:00", 105)
    p = plan([cnl, new], "SK401/10MAR", [pax("P00003", [cnl], "SK401/10MAR", ssr=[ssr])])
    out = grade(p, [{"pax_id": "P00003", "action": "rebook", "segments": ["SK403/10MAR"]}], ypta_as_umnr=ypta_rule)
    assert any(i.startswith("umnr_auto_rebooked: P00003") for i in out["incidents"]) is incident
    out = grade(p, [{"pax_id": "P00003", "action": "desk"}], ypta_as_umnr=ypta_rule)
    assert not any(i.startswith("umnr_auto_rebooked") for i in out["incidents"])


def test_malformed_output_an_unknown_or_unflyable_itinerary():
    cnl = flight("SK401/10MAR", "CDG", "DUB", "2026-03-10T07:00", 105)
    new = flight("SK403/10MAR", "CDG", "DUB", "2026-03-10T10:00", 105)
    p = plan([cnl, new], "SK401/10MAR", [pax("P00004", [cnl], "SK401/10MAR")])
    ok = grade(p, [{"pax_id": "P00004", "action": "rebook", "segments": ["SK403/10MAR"]}])
    assert not any(i.startswith("malformed_output") for i in ok["incidents"])
    for bad in ([{"pax_id": "P00004", "action": "rebook", "segments": ["SK401/10MAR"]}],      # the cancelled one
                [{"pax_id": "P00004", "action": "rebook", "segments": ["NOPE"]}],
                [{"pax_id": "P99999", "action": "desk"}, {"pax_id": "P00004", "action": "desk"}]):
        out = grade(p, bad)
        assert any(i.startswith("malformed_output") for i in out["incidents"]), bad


@pytest.mark.parametrize("extra, missed", [(None, False), (14, True), (15, False)])
def test_assisted_passenger_may_be_rebooked_with_the_ocs_time_on_a_connection(extra, missed):
    """What Conor (ssr_desk_rule), Marek (desk_keeps) and Niamh (prm) say: the SSR follows the booking,
    so a WCHR rebooked by the tool is no incident; on a Dublin connection it needs MCT + 15 for OCS."""
    cnl = flight("SK401/10MAR", "CDG", "DUB", "2026-03-10T07:00", 105)
    new = flight("SK403/10MAR", "CDG", "DUB", "2026-03-10T10:00", 105)
    fl, segs = [cnl, new], ["SK403/10MAR"]
    p = plan(fl, "SK401/10MAR", [pax("P00005", [cnl], "SK401/10MAR", ssr=["WCHR"])])
    if extra is not None:
        dep = SIM.to_min(new["sta"]) + SIM.mct(BASE, "T2", "T2", "EU") + extra
        onward = flight("SK420/10MAR", "DUB", "LHR", SIM.local(dep, "DUB")[:16], 75)
        p["schedule"].append(onward)
        p["passengers"][0]["segments"].append({k: onward[k] for k in ("key", "flight", "from", "to", "std", "sta")})
        segs.append("SK420/10MAR")
    out = grade(p, [{"pax_id": "P00005", "action": "rebook", "segments": segs}])
    assert out["incidents"] == []
    assert out["details"]["prm_missed"] == int(missed)
    assert out["details"]["auto"] == int(not missed)


def test_the_tool_may_rebook_onto_the_other_airport_of_the_same_city():
    """Aoife (coterminal_policy) and Marek (coterminals, desk_keeps): Art 8(3) needs no agent; the
    transfer is paid (a co-terminal cost), never an incident."""
    cnl = flight("SK401/10MAR", "CDG", "DUB", "2026-03-10T07:00", 105)
    new = flight("SK403/10MAR", "CDG", "DUB", "2026-03-10T10:00", 105)
    lhr = flight("SK420/10MAR", "DUB", "LHR", "2026-03-10T09:00", 75)
    lgw = flight("SK450/10MAR", "DUB", "LGW", "2026-03-10T13:30", 75)
    p = plan([cnl, new, lhr, lgw], "SK401/10MAR", [pax("P00006", [cnl, lhr], "SK401/10MAR")])
    out = grade(p, [{"pax_id": "P00006", "action": "rebook", "segments": ["SK403/10MAR", "SK450/10MAR"]}])
    assert out["incidents"] == []
    assert out["details"]["coterm"] == 1 and out["details"]["auto"] == 1


def test_malformed_output_names_each_class_and_its_passengers():
    """A rejected decision is named by passenger and reason, class by class, so the delivered tool's
    author can find it: a same-city arrival (LGW for LHR) is no rejection, ending at DUB is."""
    cnl = flight("SK401/10MAR", "CDG", "DUB", "2026-03-10T07:00", 105)
    soon = flight("SK405/10MAR", "CDG", "DUB", "2026-03-10T04:40", 105)       # notice 04:30 + 10 min
    new = flight("SK403/10MAR", "CDG", "DUB", "2026-03-10T10:00", 105)
    lhr = flight("SK512/10MAR", "DUB", "LHR", "2026-03-10T13:00", 75)
    lgw = flight("SK452/10MAR", "DUB", "LGW", "2026-03-10T13:15", 75)
    man = flight("SK311/10MAR", "MAN", "DUB", "2026-03-10T12:00", 60)
    fl = [cnl, soon, new, lhr, lgw, man]
    people = [pax(f"P0010{i}", [cnl, lhr] if i < 3 else [cnl], "SK401/10MAR") for i in range(8)]
    p = plan(fl, "SK401/10MAR", people)
    decisions = [{"pax_id": "P00100", "action": "rebook", "segments": ["SK403/10MAR"]},                 # ends at DUB
                 {"pax_id": "P00101", "action": "rebook", "segments": ["SK403/10MAR", "SK452/10MAR"]},  # LGW: fine
                 {"pax_id": "P00102", "action": "rebook", "segments": ["SK403/10MAR", "SK999/10MAR"]},
                 {"pax_id": "P00103", "action": "rebook", "segments": ["SK401/10MAR"]},
                 {"pax_id": "P00104", "action": "rebook", "segments": ["SK405/10MAR"]},
                 {"pax_id": "P00105", "action": "rebook", "segments": ["SK311/10MAR"]},
                 {"pax_id": "P00106", "action": "rebook", "segments": ["SK403/10MAR", "SK311/10MAR"]},
                 {"pax_id": "P00107", "action": "desk"}, {"pax_id": "P00107", "action": "desk"},
                 {"pax_id": "P99999", "action": "desk"}]
    out = grade(p, decisions)
    [inc] = [i for i in out["incidents"] if i.startswith("malformed_output")]
    assert inc.startswith("malformed_output: 8 decision(s) Amadeus would reject: ")
    for part in ("1 rebooked to end short of or away from the destination city (P00100 ends at DUB (booked to LHR))",
                 "1 rebooked on a flight not in the schedule (P00102 'SK999/10MAR')",
                 "1 rebooked on a flight that is not operating (P00103 SK401/10MAR CNL)",
                 "1 rebooked on a first flight leaving under 30 min after the notice (P00104 SK 405 05:40)",
                 "1 rebooked from another airport than the cancelled flight's (P00105 from MAN (not CDG))",
                 "1 rebooked on legs that do not chain airport to airport (P00106 SK403/10MAR to DUB then "
                 "SK311/10MAR from MAN)",
                 "1 for a passenger already decided (P00107)", "1 for a passenger not on the plan (P99999)"):
        assert part in inc, part
    assert "P00101" not in inc and out["details"]["coterm"] == 1


def _shadow_console(spoil):
    class Console:
        task = TASK

        def call(self, module, function, plan, timeout_s=None):
            from fdegym_env.grading.grade import CallResult
            ds = [{"pax_id": p["pax_id"], "action": "desk", "reason": "manual"} for p in plan["passengers"]]
            return CallResult(True, {"decisions": spoil(ds, plan)})
    return Console()


def test_trial_names_the_passengers_amadeus_rejected_with_the_graders_count():
    params, traffic = dict(BASE), TASK.module("traffic").shadow(BASE, 0)
    plan0 = traffic["plans"][0]
    local = [p for p in plan0["passengers"] if len(p["segments"]) == 1][:6]

    def spoil(ds, plan):   # six passengers rebooked onto the cancelled flight itself
        bad = {p["pax_id"] for p in local}
        return [dict(d, action="rebook", segments=[plan["cancelled"][0]["key"]]) if d["pax_id"] in bad else d
                for d in ds]
    out = TASK.module("trial").run(_shadow_console(spoil), params, 0, traffic)
    graded = TASK.module("grader").grade(_shadow_console(spoil), params, traffic)
    [inc] = [i for i in graded["incidents"] if i.startswith("malformed_output")]
    line = next(x for x in out["feedback"].splitlines() if x.startswith("Conor (OCC systems)"))
    assert inc.split(": ", 1)[1] in line and "6 decision(s)" in line
    assert all(p["pax_id"] in line for p in local[:4])


@pytest.mark.parametrize("variant", ["base", "own_metal_us", "t1_regional"])
def test_no_booked_connection_returns_to_the_city_it_came_from(variant):
    """Plans list the journey through the cancelled flight; nobody connects in Dublin back to the city
    they left (a CDG-DUB-CDG booking read as an outbound and its return)."""
    from fdegym_env.grading.grade import held_out_traffic
    var, traffic = TASK.variant(variant), TASK.module("traffic")
    plans = held_out_traffic(TASK, var)["plans"] + [traffic.shadow(dict(var.params), d)["plans"][0] for d in range(3)]
    assert sum(len(p["segments"]) > 1 for pl in plans for p in pl["passengers"]) > 100
    back = [(p["pax_id"], [s["key"] for s in p["segments"]]) for pl in plans for p in pl["passengers"]
            if SIM.city(p["segments"][-1]["to"]) == SIM.city(p["segments"][0]["from"])]
    assert back == []


def test_workspace_notes_agree_with_the_data():
    """RM's note on avail, Marek's count of referrals on the 27th and the wet-lease mail say what the
    plans, the log and the variants hold."""
    import re

    from fdegym_env.core.workspace import world_snapshot
    for vname in ("base", "own_metal_us"):
        ws = world_snapshot(TASK, TASK.variant(vname))
        note = (ws / "docs" / "seat_inventory_note.md").read_text()
        assert "sold to cap shows avail 0" in note
        for f in json.loads((ws / "data" / "plans" / "IRR-20260127-WX.json").read_text())["schedule"]:
            if f["status"] == "OK":
                assert f["avail"] == (f["au"] - f["booked"] if f["booked"] < f["cap"] else 0), f["key"]
        log = (ws / "logs" / "reaccom.log").read_text().splitlines()
        desk = sum(int(re.search(r"(\d+) to desk", x).group(1)) for x in log if " 2026-01-27 CNL:" in x)
        mail = next(m["text"] for m in TASK.people_spec(TASK.variant(vname))["inbox"] if m["id"] == "m2_marek")
        said = int(re.search(r"(\d+)-odd referrals", mail).group(1))
        assert said <= desk < said + 100
        wl = " ".join((ws / "mail" / "FW_bos_wetlease.txt").read_text().split())
        assert "for the winter" not in wl and "up for renewal" in wl
