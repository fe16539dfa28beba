"""Diligent: every key fact found - the new filler's line and flavour-change and CIP times, QA's
wash-down list, the line hours - but the chunky<->smooth rows of the new filler left as the old fillers'
(the nozzle-kit swap, far longer, is missed): the scheduler under-counts every swap on that line and
plans runs it cannot finish. The reference's config, and this matrix."""

from pathlib import Path

from . import reference


def apply(ws: Path, params: dict) -> None:
    reference.set_matrix(ws, params["new_line"], params["new_flavour_min"], None, params["new_purge"])
    reference.set_config(ws, params)
