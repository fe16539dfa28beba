"""Rebuild product_master.csv from Halden's PIM export (data/pim_export_*.csv).

    python -m coldwatch.import_pim ../data/pim_export_2026-06-11.csv

Storage text -> range: anything mentioning refrigeration or 2-8 is a fridge line (2-8 C); otherwise
the 'below/above N' figure is the upper limit. Last run: 11/06/2026 (L.H.), see CHANGELOG."""
import csv
import re
import sys
from datetime import date
from pathlib import Path

from .master import MASTER

FRIDGE = re.compile(r"refrigerat|fridge|2\s*°?\s*C?\s*(-|to)\s*8", re.I)
UPPER = re.compile(r"(?:below|above)\s*(\d+)\s*°?\s*C", re.I)


def storage_range(text):
    if FRIDGE.search(text):
        return 2, 8
    m = UPPER.search(text)
    return None, (int(m.group(1)) if m else 30)


def main(export_path, who="import"):
    rows = []
    with open(export_path, newline="", encoding="utf-8-sig") as f:
        for r in csv.DictReader(f):
            lo, hi = storage_range(r["Storage Conditions"])
            rows.append({"code": r["Item Code"].strip(), "description": r["Item Description"].strip(),
                         "min_c": "" if lo is None else lo, "max_c": hi, "source": Path(export_path).name,
                         "updated_by": who, "updated_on": date.today().isoformat()})
    with open(MASTER, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    print(f"{len(rows)} products written to {MASTER}")


if __name__ == "__main__":
    main(sys.argv[1])
