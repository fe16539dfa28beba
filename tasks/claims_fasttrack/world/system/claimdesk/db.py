"""sqlite helpers over data/claims.db (the nightly ClaimCenter extract)."""

import sqlite3
from pathlib import Path

DB = Path(__file__).resolve().parent.parent / "data" / "claims.db"


def connect(path=None):
    con = sqlite3.connect(str(path or DB))
    con.row_factory = sqlite3.Row
    return con


def claims_with_photo(con, sha1):
    return [dict(r) for r in con.execute(
        "SELECT c.* FROM photos p JOIN claims c ON c.claim_id = p.claim_id WHERE p.sha1 = ?", (sha1,))]
