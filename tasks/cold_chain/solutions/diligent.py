"""Diligent: every key fact found - the SOP's rule, the import's misreading, door openings, the QP,
the loggers - and shipped with the importer fixed for the wording everyone quoted ('do not
refrigerate') and the master re-run from it: the ambient lines worded otherwise ('not to be
refrigerated', 'do not store in a refrigerator', 'after reconstitution store in a refrigerator')
stay on 2-8 and keep being quarantined. The reference, then this."""

from fdegym_env.tasklib import solutions

MISSED = {"HAL-BUD-TH": ("Budesonide 200mcg Turbohaler x1", 30), "HAL-EST-PT": ("Estradiol 50mcg patches x8", 25),
          "HAL-AMX-OS": ("Amoxicillin 250mg/5ml powder for oral suspension 100ml", 25)}


def apply(ws, params):
    solutions.apply(__name__, "reference", ws, params)
    for code, (desc, hi) in MISSED.items():
        solutions.replace(ws, "system/coldwatch/product_master.csv",
                          f"{code},{desc},,{hi},PIM label text (ambient) re-read,",
                          f"{code},{desc},2,8,pim_export_2026-06-11.csv,")
