"""SIU helpers. flag_hits() is what the Monday SIU report (siu_weekly.py) runs over last week's
claims; intake does not call it (see CHANGELOG 2025-09-30)."""


def flag_hits(con, fnol):
    """Rows of siu_flags this FNOL matches, by uploaded photo hash or VIN tail."""
    hits = []
    for h in fnol.get("photos") or []:
        hits += [dict(r) for r in con.execute("SELECT * FROM siu_flags WHERE key_type='photo' AND key_value=?", (h,))]
    vin = (fnol.get("vin") or "")[-8:]
    if vin:
        hits += [dict(r) for r in con.execute("SELECT * FROM siu_flags WHERE key_type='vin8' AND key_value=?", (vin,))]
    return hits
