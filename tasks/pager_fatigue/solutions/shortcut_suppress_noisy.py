"""Shortcut: 'suppress everything noisy'. Count pages per alert in the February pager log and
drop every alert that paged more than 40 times in the fortnight, except the card-auth ones
(everybody knows those matter)."""
import csv
import pathlib
from collections import Counter

HOOK = '''"""Noisy alerts (pager log, Feb 2026) are dropped."""
NOISY = %r


def applies(ev, ts):
    return ev.get("alert") in NOISY
'''


def apply(ws: pathlib.Path, params: dict) -> None:
    ws = pathlib.Path(ws)
    with open(ws / "data" / "pager_log.csv") as f:
        c = Counter(row["alert"] for row in csv.DictReader(f))
    noisy = sorted(a for a, n in c.items() if n > 40 and not a.startswith("CardAuth"))
    (ws / "system" / "alertrouter" / "hooks" / "quiet_hours.py").write_text(HOOK % (noisy,))
