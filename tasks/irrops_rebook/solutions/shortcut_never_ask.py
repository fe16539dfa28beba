"""Shortcut: never ask anyone - re-protect the whole journey but with a blanket 150-minute
connection time (safe for any terminal or preclearance), every SSR that sounds like a child to
the desk, and every overnight passenger to the desk whatever EU261 says."""

from pathlib import Path

from ..solkit import install

SAFE = {"T2-T2": 150, "T1-T1": 150, "T1-T2": 150, "T2-T1": 150, "US-from-T2": 150, "US-from-T1": 150}


def apply(ws: Path, params: dict) -> None:
    install(ws, params, together=False, coterm=False, prm=False, physical=False, mct=SAFE,
            desk_ssr=["UMNR", "YPTA", "CHD"], exempt=[], note="v2 with blanket safety margins")
