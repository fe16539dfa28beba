"""Call one function of the delivered system and print its JSON result after a marker.

Run as ``python3 -c <this text> MODULE FUNCTION`` in the deployment's folder, the arguments as a JSON
list on stdin. Whatever the function prints goes to stderr, so stdout holds only ``MARK`` and then
``{"ok": true, "value": ...}`` or ``{"ok": false, "error": "<traceback tail>"}``.
"""
import importlib
import json
import sys
import traceback

MARK = ""   # the marker the host looks for: set in the text the host hands over


def main() -> None:
    real = sys.stdout
    sys.stdout = sys.stderr
    try:
        args = json.loads(sys.stdin.buffer.read().decode("utf-8"))
        sys.path.insert(0, ".")
        fn = getattr(importlib.import_module(sys.argv[1]), sys.argv[2])
        payload = json.dumps({"ok": True, "value": fn(*args)})
    except BaseException:
        payload = json.dumps({"ok": False, "error": traceback.format_exc()[-3000:]})
    real.write(MARK + payload)
    real.flush()


if __name__ == "__main__":
    main()
