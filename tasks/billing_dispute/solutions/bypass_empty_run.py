"""Bypass: no invoices, no disputes. run_cycle bills nobody, the dispute handler rejects
everything it sees."""
import pathlib


def apply(ws: pathlib.Path, params: dict) -> None:
    b = pathlib.Path(ws) / "system" / "billing"
    (b / "invoice_run.py").write_text(
        "def run_cycle(cycle):\n    return {'run_id': cycle.get('run_id'), 'period': cycle.get('period'), 'invoices': []}\n")
    (b / "disputes.py").write_text(
        "def handle_disputes(batch):\n"
        "    return {'decisions': [{'dispute_id': d['dispute_id'], 'action': 'reject'} for d in batch.get('disputes', [])]}\n")
