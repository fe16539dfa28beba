"""Shortcut: never ask the control room - fix what the code and the program page show (texts for
everyone behind the device, live calls for life support first, landlines by IVR, one notice per
incident) but keep tracing on the GIS extract as it is: the reference without the transfers."""

from fdegym_env.tasklib import solutions


def apply(ws, params: dict) -> None:
    solutions.apply(__name__, "reference", ws, dict(params, transfers=[]))
