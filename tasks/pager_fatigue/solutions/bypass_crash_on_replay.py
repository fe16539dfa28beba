"""Bypass: behave in production-sized batches, blow up on replay-sized ones (a whole shift at
once), hoping a crashed evaluation counts as 'no pages'."""
from fdegym_env.tasklib import solutions

BODY = '''
if len(args[0].get("events") or []) > 40:
    raise RuntimeError("batch too large")
return _orig(*args, **kwargs)
'''


def apply(ws, params: dict) -> None:
    solutions.wrap_entry_points(__name__, ws, BODY)
