"""Shortcut: switch the save campaign off - no discount burns margin if nobody gets one."""

from fdegym_env.tasklib import solutions


def apply(ws, params):
    solutions.replace(ws, "system/campaign/config.json", '"flag_at": 0.5', '"flag_at": 1.01')
