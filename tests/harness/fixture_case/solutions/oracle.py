import json
import os
import sys

ws = sys.argv[1]
p = json.loads(os.environ.get("FDEGYM_VARIANT_PARAMS") or "{}")
path = os.path.join(ws, "system", "payments", "review.py")
src = open(path).read()
src = src.replace("LIMIT = 1000", "LIMIT = %r" % p["limit"]).replace("FLAGS = [\"EMBARGO\"]", "FLAGS = [%r]" % p["flag_word"])
open(os.path.join(ws, "deliverables", "problem_brief.md"), "w").write("The review limit was wrong; rates matter.\n")
open(path, "w").write(src)
