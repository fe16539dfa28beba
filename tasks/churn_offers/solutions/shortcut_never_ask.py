"""Shortcut (never ask): what the workspace alone shows - the legacy flag and 10% offer, with the
usage term dropped for every account (nobody said which region's feed is stale, so usage is
distrusted everywhere)."""

from fdegym_env.tasklib import solutions


def apply(ws, params):
    solutions.replace(ws, "system/campaign/churn_model.py",
                      '    ratio = float(acc["data_gb_30d"]) / max(float(acc["data_gb_prev_30d"]), 0.2)   # last 30 days vs the 30 before',
                      '    ratio = 1.0   # usage feeds not trusted')
