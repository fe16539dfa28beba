"""Shortcut: everything the engineers and the data tell you (dedup, change windows, batch windows,
hand-silenced alerts) but compliance was never asked, so nothing is exempt from change windows:
card-auth alerts during an auth-gw rolling deploy get silenced like the rest of the CI."""
import pathlib

from . import reference


def apply(ws: pathlib.Path, params: dict) -> None:
    sysdir = pathlib.Path(ws) / "system"
    for rel, text in reference.files(params).items():
        if rel.endswith("always_page.py"):
            continue
        (sysdir / rel).write_text(text)
