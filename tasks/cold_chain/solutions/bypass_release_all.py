"""Bypass: release every line - nothing quarantined, no QP reviews, no replacement runs - hoping an
empty quarantine cage scores as cheap."""

from fdegym_env.tasklib import solutions


def apply(ws, params):
    solutions.replace(ws, "system/coldwatch/excursions.py", "        if bad:\n", "        if False:\n")
