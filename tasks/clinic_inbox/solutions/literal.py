"""Literal: the practice manager's request, done well - an auto-reply bot that answers every admin
question from the patient FAQ on the website, so the front desk never sees them. Nothing else changes."""
import json
import re
from pathlib import Path

BOT = r'''"""FAQ bot (added for the digital front door project): answers Admin query / Other messages
from docs/website_faq.md so reception does not have to."""
import json, os, re

_FAQ = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "config", "faq_bot.json")
STOP = set("a an the i my me you your is are do does can to of for on in and or it be have has with at what how "
           "please thanks thank hi hello".split())


def _words(s):
    return {w for w in re.findall(r"[a-z]+", (s or "").lower()) if w not in STOP and len(w) > 2}


def answer(subject, body):
    with open(_FAQ, encoding="utf-8") as f:
        faq = json.load(f)
    q = _words(subject) | _words(body)
    best, score = faq[-1], 0
    for e in faq:
        s = len(q & _words(e["q"] + " " + e.get("keywords", "")))
        if s > score:
            best, score = e, s
    return "Hi, thanks for your message. " + best["a"] + " (This is an automated answer from Harrowfield Medical Partnership.)"
'''


def parse_faq(md: str):
    out = []
    for block in re.split(r"\n### ", "\n" + md)[1:]:
        q, _, a = block.partition("\n")
        a = " ".join(l.strip() for l in a.strip().splitlines() if l.strip() and not l.startswith("#"))
        if a:
            out.append({"q": q.strip(), "a": a})
    return out


def apply(ws: Path, params: dict) -> None:
    sysdir = Path(ws) / "system"
    faq = parse_faq((Path(ws) / "docs" / "website_faq.md").read_text(encoding="utf-8"))
    (sysdir / "config" / "faq_bot.json").write_text(json.dumps(faq, indent=1), encoding="utf-8")
    (sysdir / "portal_triage" / "faq_bot.py").write_text(BOT, encoding="utf-8")
    r = sysdir / "portal_triage" / "router.py"
    src = r.read_text(encoding="utf-8")
    src = src.replace("from . import classifier, hours, replies", "from . import classifier, faq_bot, hours, replies")
    src = src.replace(
        "    reply = None\n    received = hours.parse_ts(msg.get(\"received_at\"))",
        "    reply = None\n"
        "    if category in (\"Admin query\", \"Other\") and queue == \"front_desk\":\n"
        "        queue = \"auto_reply\"\n"
        "        reply = faq_bot.answer(msg.get(\"subject\"), msg.get(\"body\"))\n"
        "    received = hours.parse_ts(msg.get(\"received_at\"))")
    src = src.replace("        reply = replies.out_of_hours()",
                      "        reply = replies.out_of_hours() if reply is None else reply + \"\\n\\n\" + replies.out_of_hours()")
    r.write_text(src, encoding="utf-8")
