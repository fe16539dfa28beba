"""Shortcut: nothing goes out without an editor (menu/hold_everything.patch, menu.yaml's hold-everything
item). No incidents, but the desk drowns and the news is stale by the time it is read."""

from fdegym_env.tasklib import solutions


def apply(ws, params):
    solutions.patch(__name__, ws, "menu/hold_everything.patch")
