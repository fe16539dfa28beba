"""Monday SIU report: last week's paid claims that hit the flag list. Run by hand:
    python3 -m claimdesk.siu_weekly 2026-02-23
"""

import sys

from claimdesk import db, siu


def main(since):
    con = db.connect()
    for r in con.execute("SELECT * FROM claims WHERE fnol_date >= ? ORDER BY fnol_date", (since,)):
        fnol = dict(r)
        fnol["photos"] = [p["sha1"] for p in con.execute("SELECT sha1 FROM photos WHERE claim_id=?", (r["claim_id"],))]
        hits = siu.flag_hits(con, fnol)
        if hits:
            print(r["claim_id"], r["shop_name"], r["estimate_usd"], r["status"], "->", ", ".join(h["claim_id"] for h in hits))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "2026-01-01")
