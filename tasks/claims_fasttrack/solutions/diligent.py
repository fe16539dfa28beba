"""Diligent: every key fact found (the ring's shops and its near-duplicate signature, the SIU flag
list, the photo channel, the delegated authority, the acknowledgement rule met by setting photo-less
claims up with a PhotoDrop link), shipped as a careful-looking intake. Misses the subtle cases:
copies of claims filed since the nightly extract, ring shop names typed differently, double
reports of the same loss paid twice, HEIC/uppercase image attachments."""

from pathlib import Path

from . import reference

HERE = Path(__file__).resolve().parent


def apply(ws: Path, params: dict) -> None:
    reference.configure(ws, params, reference.ring_names(params))
    src = (HERE / "menu" / "intake_basic" / "system" / "claimdesk" / "intake.py").read_text(encoding="utf-8")
    (Path(ws) / "system" / "claimdesk" / "intake.py").write_text(src, encoding="utf-8")
