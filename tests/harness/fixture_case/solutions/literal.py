import json
import os
import sys

ws = sys.argv[1]
p = json.loads(os.environ.get("FDEGYM_VARIANT_PARAMS") or "{}")
path = os.path.join(ws, "system", "payments", "review.py")
src = open(path).read()
src = src.replace("LIMIT = 1000", "LIMIT = 100")
open(path, "w").write(src)
