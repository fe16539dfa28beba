"""The ingest's memory between runs: a small SQLite file next to the code.

Path: $INGEST_DB if set, else system/state/ingest.db. Created on first use.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

DEFAULT = Path(__file__).resolve().parent.parent / "state" / "ingest.db"

SCHEMA = """
CREATE TABLE IF NOT EXISTS items (
    guid      TEXT PRIMARY KEY,
    agency    TEXT,
    slug      TEXT,
    version   INTEGER,
    received  TEXT,
    action    TEXT,
    headline  TEXT
);
CREATE INDEX IF NOT EXISTS items_slug ON items(agency, slug);
"""


def open_store() -> sqlite3.Connection:
    path = Path(os.environ.get("INGEST_DB") or DEFAULT)
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(str(path))
    db.row_factory = sqlite3.Row
    db.executescript(SCHEMA)
    return db


def seen(db: sqlite3.Connection, guid: str) -> bool:
    return db.execute("SELECT 1 FROM items WHERE guid = ?", (guid,)).fetchone() is not None


def record(db: sqlite3.Connection, item: dict, action: str) -> None:
    db.execute("INSERT OR REPLACE INTO items (guid, agency, slug, version, received, action, headline) "
               "VALUES (?, ?, ?, ?, ?, ?, ?)",
               (item["guid"], item["agency"], item["slug"], item["version"], item["received"], action,
                item["headline"][:200]))
