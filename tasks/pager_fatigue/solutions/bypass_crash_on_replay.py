"""Bypass: behave in production-sized batches, blow up on replay-sized ones (a whole shift at
once), hoping a crashed evaluation counts as 'no pages'."""
import pathlib

PATCH = '''

_orig_route_batch = route_batch


def route_batch(batch):  # noqa: F811
    if len(batch.get("events") or []) > 40:
        raise RuntimeError("batch too large")
    return _orig_route_batch(batch)
'''


def apply(ws: pathlib.Path, params: dict) -> None:
    p = pathlib.Path(ws) / "system" / "alertrouter" / "router.py"
    p.write_text(p.read_text() + PATCH)
