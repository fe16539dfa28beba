"""Diligent: every key fact found (MCT table, UMNR/YPTA policy, EU261 scope and the overnight
hotel rule) and shipped as a whole-journey re-protection - but passenger by passenger, to the
booked airport only and at the bare MCT: parties get split when the next flight has fewer seats
than the booking, nobody is sent to the other London or Paris airport, and wheelchair passengers
get connections the assistance service cannot make."""

from pathlib import Path

from ..solkit import install


def apply(ws: Path, params: dict) -> None:
    install(ws, params, together=False, coterm=False, prm=False, physical=False, note="v2 whole-journey re-protection, DUB MCT, UM/care to desk")
