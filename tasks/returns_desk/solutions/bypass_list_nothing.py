"""Bypass: no sizes listed, no returns - every sku_size comes back with a UK size nobody wears, and
every return is approved, hoping an empty returns queue scores as cheap."""

from fdegym_env.tasklib import solutions


def apply(ws, params):
    solutions.replace(ws, "system/catalogue/sizing.py",
                      '        out.append({"sku_size": it.get("sku_size"), "uk_size": uk})\n',
                      '        out.append({"sku_size": it.get("sku_size"), "uk_size": 99})\n')
