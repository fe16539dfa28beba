"""UK sizes for the site: supplier size label -> the UK size a shopper picks.

Called by the product feed job (nightly, and when Buying publishes new stock) with every
sku_size on sale; the storefront lists and sells each sku_size under the UK size returned.
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

log = logging.getLogger("catalogue.sizing")
CHARTS = Path(__file__).resolve().parent.parent / "size_charts.json"
_LABEL = re.compile(r"^\s*([A-Za-z]{2})\s*(\d{1,2})\s*$")


def load_charts() -> dict:
    return json.loads(CHARTS.read_text(encoding="utf-8"))["brands"]


def to_uk(brand: str, category: str, label: str, charts: dict) -> int | None:
    m = _LABEL.match(label or "")
    chart = charts.get(brand)
    if m is None or chart is None:
        log.warning("no conversion for %r %r (%s)", brand, label, category)
        return None
    if m.group(1).upper() != chart["system"]:
        log.warning("%s label %r is not %s", brand, label, chart["system"])
    offset = chart.get("categories", {}).get(category, chart["offset"])
    return int(m.group(2)) - int(offset)


def uk_sizes(items: list[dict]) -> list[dict]:
    """[{sku_size, brand, category, size_label}] -> [{sku_size, uk_size}] (same order)."""
    charts = load_charts()
    out = []
    for it in items:
        uk = to_uk(it.get("brand", ""), it.get("category", ""), it.get("size_label", ""), charts)
        out.append({"sku_size": it.get("sku_size"), "uk_size": uk})
    return out
