"""Replay archived wire days through the ingest with a throwaway state db and print what it did.

    cd system && python3 tools/replay.py ../data/wire/2026-04-07.jsonl [more files...]
    cd system && python3 tools/replay.py --all          # every file in ../data/wire/
"""

from __future__ import annotations

import collections
import json
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    files = sorted((HERE.parent / "data" / "wire").glob("*.jsonl")) if argv[:1] == ["--all"] else [Path(a) for a in argv]
    if not files:
        print(__doc__)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["INGEST_DB"] = str(Path(tmp) / "replay.db")
        sys.path.insert(0, str(HERE))
        from wire_ingest.pipeline import process_batch
        total = collections.Counter()
        for f in files:
            items = [json.loads(line) for line in f.read_text(encoding="utf-8").splitlines() if line.strip()]
            out = process_batch(items)
            c = collections.Counter(d["action"] for d in out)
            total.update(c)
            print(f"{f.name}: {len(items)} items  " + "  ".join(f"{k}={v}" for k, v in sorted(c.items())))
            if "-v" in os.environ.get("REPLAY_FLAGS", ""):
                for it, d in zip(items, out):
                    print(f"   {it.get('received', '')[:16]}  {it.get('agency', ''):<4} {d['action']:<9} "
                          f"{str(it.get('slug', ''))[:28]:<28} {str(it.get('headline', ''))[:60]}")
        print("total: " + "  ".join(f"{k}={v}" for k, v in sorted(total.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
