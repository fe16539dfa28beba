"""Diligent: every key fact found - the Niagara units, the protocol cannot be relaxed, Amendment 3 and
its activation date - and shipped with the screener still keeping the first draw of each analyte:
a patient whose redraw came back in range (protocol 5.3) still screen-fails. The reference, then this."""

from fdegym_env.tasklib import solutions


def apply(ws, params):
    solutions.apply(__name__, "reference", ws, params)
    solutions.replace(ws, "system/screener/eligibility.py",
                      '        if r["analyte"] not in latest or str(r.get("collected") or "") >= str(latest[r["analyte"]].get("collected") or ""):\n',
                      '        if r["analyte"] not in latest:\n')
