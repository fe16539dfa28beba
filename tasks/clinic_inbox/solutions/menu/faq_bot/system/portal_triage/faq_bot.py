"""FAQ bot (added for the digital front door project): answers Admin query / Other messages
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
