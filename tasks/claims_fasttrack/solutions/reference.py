"""Reference: straight-through payment done the way the facts allow - SIU flag list and the ring's
near-duplicate signature (from SIU) go to SIU, double reports go to the desk to be merged, photo-less
claims are set up at once with a PhotoDrop link (acknowledged at FNOL instead of after the Friday
sweep), the rest within the delegated authority is paid straight through. The intake module lives
in solutions/menu/intake_careful/ (the menu's careful intake); this writes it and the config it reads.

Subtle cases handled from the world's evidence (SIU sheet, intake log, README, people):
* chained copies - the ring copies claims filed days before, which the nightly claims.db does not
  hold yet: intake remembers what it has seen (data/intake_seen.db);
* the ring's shops are typed by hand ("CRESTLINE COLLISION CTR", "Rivercity Paint & Body"): match
  the EIN, and names normalised;
* a second report of the same loss by the same insured reuses the photos on the SAME policy - it is
  no fraud, but fast track would pay it twice: desk, to merge;
* image attachments count as photos in any case (.JPG, .HEIC), PDFs do not.
"""

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent


def configure(ws: Path, params: dict, names: list[str]) -> None:
    path = Path(ws) / "system" / "config.json"
    cfg = json.loads(path.read_text(encoding="utf-8"))
    cfg["fast_track"].update(enabled=True, max_estimate_usd=float(params["authority_usd"]))
    cfg["photodrop"]["enabled"] = True
    cfg["media_fields"] = ["attachments"] + (["snapclaim"] if params["photo_channel"] == "email" else [])
    cfg["ring"] = {"key": params["ring_key"], "eins": [params["ring_ein"]], "names": names}
    path.write_text(json.dumps(cfg, indent=2) + "\n", encoding="utf-8")


def ring_names(params: dict) -> list[str]:
    text = params["ring_names"].replace(" and ", ", ")
    return [n.strip() for n in text.split(",") if n.strip()]


def apply(ws: Path, params: dict) -> None:
    configure(ws, params, ring_names(params))
    src = (HERE / "menu" / "intake_careful" / "system" / "claimdesk" / "intake.py").read_text(encoding="utf-8")
    (Path(ws) / "system" / "claimdesk" / "intake.py").write_text(src, encoding="utf-8")
