"""Whether a question asks for a figure or a date that the paragraph a person would give lacks.

An owner asked "how many claims were flagged in February?" whose script says how flagging works,
but holds no count, answers in role: "I don't have that number to hand, I'm afraid. What I can
tell you is this: ..." rather than reciting the paragraph as if it answered. The check is narrow on
purpose (a question that asks for a count or an amount, or for the date of a past event, and a
paragraph that names none beyond what the question itself says), so a paragraph that holds a
figure is never hedged, even where the figure is not quite the one asked for; docs/routing.md measures how often it fires where it should not.

Example:
    >>> missing_details("How many claims did SIU flag in February?", ["SIU loads flags by hand after each case."])
    ('count',)
    >>> missing_details("How many claims did SIU flag in February?", ["About forty in February, most of them Delta."])
    ()
    >>> missing_details("When was the last matched-pair test run?", ["Matched pairs are run on a sample of decisions."])
    ('date',)
    >>> missing_details("Since the Feb extract, when did v3 go live?", ["They cut us over to v3 on Feb 2."])
    ()
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_COUNT = re.compile(
    r"\bhow (many|much)\b|\bexact (count|number|figure|total|amount)\b"
    r"|\bthe (number|count|total|volume|percentage|proportion) of\b"
    r"|\bwhat (percentage|proportion|share|volume|number|figure|amount|count)\b"
    r"|\bwhat(?:'s| is| was| were) the (count|number|figure|total|volume|percentage|share|amount)\b",
    re.I)
# A date asked of a past event ("when did ...", "what date ..."); "when is it OK to ..." asks a rule.
_DATE = re.compile(
    r"\bwhen (was|did|were|has|had)\b|\bwhat date\b|\bwhich date\b|\bon what (date|day)\b|\bsince when\b"
    r"|\bhow long ago\b", re.I)
# "What figure does the form ask for?" asks which quantity something takes in, not for a number.
_WHICH_QUANTITY = re.compile(
    r"\bwhat (figure|number|amount|income|value)s? (does|do|did|will|would|should|is|are)\b[^?]{0,60}?"
    r"\b(ask|asks|asked|asking|request|requests|capture|captures|collect|collects|take|takes|expect|expects)"
    r"\b(?! (for )?(is|are|was|were)\b)", re.I)
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")
_NUMBER_WORDS = re.compile(
    r"\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|"
    r"hundred|hundreds|thousand|thousands|dozen|dozens|half|quarter|twice|double|couple|few|handful|"
    r"daily|nightly|weekly|monthly|hourly|yearly|annually|every)\b", re.I)
_MONTHS = ("january|february|march|april|may|june|july|august|september|october|november|december|"
           "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec")
_DAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thurs|fri|sat|sun"
# a day of a month ("Feb 2", "2 February") is one date, not the month the question may also name
_WHEN = re.compile(
    rf"\b(?:{_MONTHS})\.? \d{{1,2}}(?:st|nd|rd|th)?\b|\b\d{{1,2}}(?:st|nd|rd|th)? (?:of )?(?:{_MONTHS})\b"
    rf"|\b({_MONTHS}|{_DAYS})\b|\b\d{{1,2}}:\d{{2}}\b|\b\d{{1,2}}\s?(am|pm)\b|\b\d{{4}}-\d{{2}}-\d{{2}}\b"
    r"|\b(19|20)\d{2}\b|\b\d{1,2}(st|nd|rd|th)\b|\b(today|tonight|yesterday|tomorrow|ago|weekday|weekdays|"
    r"weekend|weekends|morning|afternoon|evening|overnight|midnight|noon|daily|nightly|weekly|monthly|"
    r"hourly|every|first|second|third|fourth|fifth)\b|\b(working|business) days?\b"
    r"|\b(last|next|this) (week|month|year|quarter)\b", re.I)


def _found(pattern: re.Pattern[str], text: str) -> set[str]:
    return {m.group(0).lower() for m in pattern.finditer(text)}


# Quoted text is evidence, not what is asked: "the form asks 'How much do you take home?'".
_QUOTED = re.compile(r'"[^"]*"|\u201c[^\u201d]*\u201d|(?<!\w)\'[^\']+\'(?!\w)')


def missing_details(question: str, answers: Iterable[str]) -> tuple[str, ...]:
    """What ``question`` asks for (``count``: a number or amount; ``date``: when a past event
    happened) that none of ``answers`` names beyond what the question says itself."""
    text = " ".join(answers)
    question = _WHICH_QUANTITY.sub(" ", _QUOTED.sub(" ", question))
    asks_count, asks_date = bool(_COUNT.search(question)), bool(_DATE.search(question))
    out = []
    if asks_count and not (_found(_NUMBER, text) - _found(_NUMBER, question)) \
            and not (_found(_NUMBER_WORDS, text) - _found(_NUMBER_WORDS, question)):
        out.append("count")
    if asks_date and not _found(_WHEN, text) - _found(_WHEN, question):
        out.append("date")
    return tuple(out)


NOT_TO_HAND = {
    ("count",): "I don't have that number to hand, I'm afraid.",
    ("date",): "I couldn't give you the exact date offhand, I'm afraid.",
    ("count", "date"): "I don't have those figures or dates to hand, I'm afraid.",
}
WHAT_I_CAN_SAY = "What I can tell you is this:"


def not_to_hand_line(missing: tuple[str, ...]) -> str:
    """The in-role line that opens a reply whose paragraph lacks what was asked for.

    Example:
        >>> not_to_hand_line(("date",))
        "I couldn't give you the exact date offhand, I'm afraid. What I can tell you is this:"
    """
    return f"{NOT_TO_HAND[missing]} {WHAT_I_CAN_SAY}"
