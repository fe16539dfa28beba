"""Shortcut: fix the obvious bug (fired_at in the dedup key) and stop there. No change windows,
no batch-window knowledge, no hand-silence list, no contract list: nobody was asked anything."""
import importlib.util
import pathlib


def _ref():
    spec = importlib.util.spec_from_file_location("pf_ref", pathlib.Path(__file__).with_name("reference.py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def apply(ws: pathlib.Path, params: dict) -> None:
    f = _ref().files(params)
    (pathlib.Path(ws) / "system" / "alertrouter" / "dedup.py").write_text(f["alertrouter/dedup.py"])
