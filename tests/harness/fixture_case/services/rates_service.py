"""The rates service: GET /fx -> {"fx": rate}; dev and prod modes quote different rates."""
import argparse
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import common  # noqa: E402

ap = argparse.ArgumentParser()
for a in ("--port", "--mode", "--state-dir", "--log"):
    ap.add_argument(a, required=True)
args = ap.parse_args()
RATE = common.PROD_FX if args.mode == "prod" else common.DEV_FX


class H(BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps({"fx": RATE}).encode()
        with open(args.log, "a") as f:
            f.write(json.dumps({"path": self.path}) + "\n")
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass


ThreadingHTTPServer(("127.0.0.1", int(args.port)), H).serve_forever()
