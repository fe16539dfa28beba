"""Reference: re-protect the whole journey with the real Dublin MCT (terminal pair, US preclearance),
desk for unaccompanied minors (and YPTA where the UM procedure says so) and for EU261 passengers
facing a night away (the desk issues the hotel; departures EU261 does not cover are rebooked), a
booking kept together, and the same city's other airport when it is earlier - what the desk log
shows the agents doing by hand."""

from pathlib import Path

from ..solkit import install


def apply(ws: Path, params: dict) -> None:
    install(ws, params, note="v2 whole-journey re-protection, DUB MCT, UM/care to desk, parties, co-terminals")
