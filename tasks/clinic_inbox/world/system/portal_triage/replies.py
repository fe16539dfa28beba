"""Automatic replies the portal sends on our behalf."""

from __future__ import annotations

import json
import os

_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "config", "practice.json")


def out_of_hours() -> str:
    with open(_PATH, encoding="utf-8") as f:
        return json.load(f)["ooh_reply"]
