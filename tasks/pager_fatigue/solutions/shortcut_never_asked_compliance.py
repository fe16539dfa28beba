"""Shortcut: everything the engineers and the data tell you (dedup, change windows, batch windows,
hand-silenced alerts) but compliance was never asked, so nothing is exempt from change windows:
card-auth alerts during an auth-gw rolling deploy get silenced like the rest of the CI."""
import importlib.util
import pathlib


def apply(ws: pathlib.Path, params: dict) -> None:
    spec = importlib.util.spec_from_file_location("pf_ref", pathlib.Path(__file__).with_name("reference.py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    sysdir = pathlib.Path(ws) / "system"
    for rel, text in m.files(params).items():
        if rel.endswith("always_page.py"):
            continue
        (sysdir / rel).write_text(text)
