"""Shortcut: never ask the control room - fix what the code and the program page show (texts for
everyone behind the device, live calls for life support first, landlines by IVR, one notice per
incident) but keep tracing on the GIS extract as it is."""

from pathlib import Path

HERE = Path(__file__).resolve().parent
from . import reference  # same change, without the control room


def apply(ws: Path, params: dict) -> None:
    reference.apply(ws, dict(params, transfers=[]))
