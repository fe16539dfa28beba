"""Shortcut: fix the double proration (and validate disputes against the fixed engine) but leave
pricing catalogue-driven: the price locks nobody mentioned in the code are never looked up."""
import importlib.util
import pathlib

def reference():
    """The reference delivery (loaded by path: solutions are not a package)."""
    spec = importlib.util.spec_from_file_location("_bd_reference", pathlib.Path(__file__).with_name("reference.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod




def apply(ws: pathlib.Path, params: dict) -> None:
    reference().apply(ws, params)
    p = pathlib.Path(ws) / "system" / "billing" / "rating.py"
    src = p.read_text()
    if "    lock = price_lock(contract, period)\n" not in src:
        raise RuntimeError("expected the reference's unit_price to call price_lock(contract, period); fix this shortcut")
    src = src.replace("    lock = price_lock(contract, period)\n", "    lock = None\n")
    p.write_text(src)
