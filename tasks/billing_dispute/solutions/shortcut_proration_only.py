"""Shortcut: fix the double proration (and validate disputes against the fixed engine) but leave
pricing catalogue-driven: the price locks nobody mentioned in the code are never looked up."""
import pathlib

from fdegym_env.tasklib import solutions




def apply(ws: pathlib.Path, params: dict) -> None:
    solutions.apply(__name__, "reference", ws, params)
    p = pathlib.Path(ws) / "system" / "billing" / "rating.py"
    src = p.read_text()
    if "    lock = price_lock(contract, period)\n" not in src:
        raise RuntimeError("expected the reference's unit_price to call price_lock(contract, period); fix this shortcut")
    src = src.replace("    lock = price_lock(contract, period)\n", "    lock = None\n")
    p.write_text(src)
