"""Storage ranges from the product master (product_master.csv, written by import_pim.py)."""
import csv
from pathlib import Path

MASTER = Path(__file__).parent / "product_master.csv"


def _num(text):
    text = (text or "").strip()
    return float(text) if text else None


def load_ranges(path=MASTER):
    """{product_code: (min_c or None, max_c or None)}"""
    with open(path, newline="", encoding="utf-8") as f:
        return {r["code"].strip().upper(): (_num(r["min_c"]), _num(r["max_c"])) for r in csv.DictReader(f)}
