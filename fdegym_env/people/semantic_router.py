"""The ``semantic`` router (the default): meaning-level routing, offline and deterministic.

A static word-embedding model whose weights ship inside the ``wordllama`` wheel (``l2_supercat``,
256 dimensions; loaded from the package's own folder with downloads disabled, once per process)
embeds each topic — its ``about``, its ``answer`` and its authored ``examples`` — and the message.
Long messages are split into sentences: the questions (sentences ending in ``?``, else the last
sentence) weigh as much as the whole message, so context and quoted evidence do not drown what is
asked. What decides a reply:

1. **Which topic**: the highest of ``semantic + hybrid * min(lexical, 10) / 10``, where
   ``semantic`` is the cosine of the message with the topic (the mean of its ``about`` and
   ``answer`` cosines, or its best example, whichever is higher) and ``lexical`` the
   :class:`~fdegym_env.people.routers.LexicalRouter` score. Ties go to the earlier topic.
2. **Whether it answers**: the lexical router's own decision on the whole message, or on its
   questions alone, is kept when it picks a topic; otherwise the best topic answers when its
   combined score reaches ``threshold`` and it speaks to at least ``min_cover`` of what the message
   (or its questions) is about (:meth:`LexicalRouter.about_cover`), or it is a clear winner
   (combined score ``sure`` or more, ``sure_lead`` ahead of the person's next topic). Below that
   the person does not have it, and the engine refers or says so.
   A message that meets a topic's ``requires`` gate (it quotes the evidence the topic asks for)
   is about that topic when nothing else was picked; a message asking for a decision on a
   proposal ("may I put it live?") gets the person's sign-off topic when it is within reach of
   their best. A request without a question mark ("I need the filed MCTs ...") is an ask.
3. **Gates**: a ``requires`` pattern met anywhere in this message or the last four earlier ones
   (quoted evidence counts), as in the lexical router.

Defaults were chosen on the tuning sets (``tests/routing/<task>.yaml``) only; figures on held-out
and blind sets are in docs/routing.md.

Example:
    >>> r = SemanticRouter([{"id": "ann", "topics": [
    ...     {"id": "refunds", "about": "when refunds are paid", "answer": "Refunds go out within 5 working days."},
    ...     {"id": "hours", "about": "office opening hours", "answer": "We open 9 to 5."}]}])
    >>> [t["id"] for t in r.route(r.people["ann"], "How quickly is a refund paid out?", [])[0]]
    ['refunds']
    >>> [t["id"] for t in r.route(r.people["ann"], "What time do you open?", [])[0]]
    ['hours']
"""

from __future__ import annotations

import functools
import os
import re
from typing import Any

import numpy as np

from fdegym_env.people.routers import MAX_TOPICS_PER_MESSAGE, LexicalRouter, Person, Topic, _regex_any, register_router
from fdegym_env.people.words import MODEL_CONFIG

MODEL_DIM = 256
# Messages longer than this are cut before embedding and word matching (a 100 KB paste costs
# the same as a long e-mail); gates still see the whole message.
MAX_CHARS = 4000
# Questions of one message heard one by one (a numbered list of five or six is common; topics told stay
# capped at the harness's MAX_TOPICS_PER_MESSAGE)
MAX_QUESTIONS = 8
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_ABBREVIATION = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|approx|incl|no|dr|mr|mrs|ms|st|cf)\.)$", re.I)
# A sentence that asks without a question mark: "I need the filed MCTs for each terminal pair."
_REQUEST = re.compile(
    r"^(?:also|and|so|then|first|second|lastly|finally)?[,:;\s-]*"
    r"(?:i(?:'d| would)? need (?:the|your|a|an|to know|to confirm)\b|please (?:confirm|send|tell|let|share|give|list)\b"
    r"|(?:could|can|would) you (?:confirm|send|tell|share|give|list|let me know)\b|let me know\b|tell me\b"
    r"|i(?:'d| would) (?:like|love) to know\b|i(?:'m| am) looking for (?:the|your)\b)", re.I)
# A numbered item of a list ("(2) ...", "2) ..."), and words before a list that make its items asks
_ITEM = re.compile(r"(?:(?<=\s)|^)\(?[1-9]\)\s")
_LEAD_IN_ASKS = re.compile(r"\b(?:questions?|ones|please|need|could you|can you|would you|tell me|let me know|"
                           r"confirm|specifics|details)\b|\?", re.I)


@functools.lru_cache(maxsize=1)
def load_model() -> Any:
    """The embedding model, loaded once per process from the installed wheel (never downloaded).

    Raises:
        RuntimeError: ``wordllama`` is missing or its shipped weights are not found.
    """
    try:
        import wordllama
        from wordllama import WordLlama
    except ImportError as e:  # pragma: no cover - a core dependency
        raise RuntimeError("the semantic router needs the `wordllama` package (a core dependency of fdegym); "
                           "fix: pip install 'wordllama==0.4.0.post1', or pass router='lexical'") from e
    try:
        return WordLlama.load(MODEL_CONFIG, cache_dir=os.path.dirname(wordllama.__file__), dim=MODEL_DIM,
                              disable_download=True)
    except (FileNotFoundError, ValueError) as e:
        raise RuntimeError(f"wordllama's shipped {MODEL_CONFIG} weights were not found in the installed package "
                           f"({e}); fix: reinstall 'wordllama==0.4.0.post1' or pass router='lexical'") from e


def embed(texts: list[str]) -> np.ndarray:
    """Unit-length embeddings of ``texts`` (rows), as float64 for sums that do not depend on order."""
    if not texts:
        return np.zeros((0, MODEL_DIM))
    return np.asarray(load_model().embed(list(texts), norm=True), dtype=np.float64)


def split_message(message: str) -> tuple[str, str]:
    """(the message, what it asks): its sentences ending in ``?`` joined, else its last sentence.

    Example:
        >>> split_message("We saw 40 kills drop overnight. Log attached. Who owns the kill parser?")[1]
        'Who owns the kill parser?'
    """
    parts = _sentences(message)
    asks = [p for p in parts if _asks(p)] or parts[-1:]
    return message, " ".join(asks)


def _sentences(message: str) -> list[str]:
    """The message's sentences; an abbreviation's full stop ("e.g.", "Dr.") does not end one.

    Example:
        >>> _sentences("Other wordings (e.g. KILL, 'withdrawn')? Thanks.")
        ["Other wordings (e.g. KILL, 'withdrawn')?", 'Thanks.']
    """
    out: list[str] = []
    for part in (p.strip() for p in _SENTENCE.split(message)):
        if not part:
            continue
        if out and _ABBREVIATION.search(out[-1]):
            out[-1] += " " + part
        else:
            out.append(part)
    return out


def questions(message: str) -> list[str]:
    """The message's questions (its sentences ending in ``?``), when it asks more than one.

    Example:
        >>> questions("Two things. Can the pilot go live now? And who signs off the letters?")
        ['Can the pilot go live now?', 'And who signs off the letters?']
        >>> questions("Can the pilot go live now?")
        []
    """
    asks = [p for p in _sentences(message) if _asks(p)]
    return asks if len(asks) > 1 else []


# A request for a decision on a proposal ("may I put (1)-(4) live?", "is 70 the right cap?") and the
# topics that answer one: a person's sign-off topic, whatever the proposal's many details match.
_SIGN_OFF_ASK = re.compile(
    r"\bsign(?:s|ing)?[- ]?off\b|\bapprov(?:e|al)\b|\bhappy (?:with|for)\b|\b(?:ok|okay) (?:to|with|for)\b"
    r"|\bmay i\b|\bcan i (?:go|put|switch|ship|turn)\b|\bgo ahead\b|\bput [^?]{0,40}\blive\b|\bgo live\b"
    r"|\bany conditions?\b|\bis (?:this|that|it|\d[\d,.]*) (?:the )?right\b|\bset (?:it )?differently\b"
    r"|\bfor your (?:look|review|ok|okay)\b|\bagree(?:d)? to\b", re.I)
_SIGN_OFF_TOPIC = re.compile(
    r"\bsign(?:s|ing)?(?: (?:it|this|that|them))?[- ]?off\b|\bhappy (?:with|for)\b|\bgo[- ]live\b"
    r"|(?<!auto-)(?<!auto )\bapprov|\bobjects?\b", re.I)


def _is_sign_off(topic: Topic) -> bool:
    """Whether a topic's ``about`` speaks of signing off, approving, objecting or going live."""
    return bool(_SIGN_OFF_TOPIC.search(str(topic.get("about") or "")))


def questions_in_context(message: str, context: int = 1) -> list[str]:
    """The message's questions (as :func:`questions`), each with up to ``context`` statements just before
    it that follow the previous question: "(2) The December extract carries changes dated in January.
    Should those be billed in December?" is heard whole, not as "Should those be billed ...?" alone.
    The message's first sentence (a greeting, who is asking) is never context.

    Example:
        >>> questions_in_context("Hi Ann. (1) Is it daily? (2) Some rows are dated in January. Bill them now?")
        ['(1) Is it daily?', '(2) Some rows are dated in January. Bill them now?']
        >>> questions_in_context("Specifics please: (1) the filed MCTs by terminal; (2) the extra minutes for PRMs?")
        ['(1) the filed MCTs by terminal', '(2) the extra minutes for PRMs?']
    """
    parts = _sentences(message)
    numbered = _numbered_asks(message)
    if numbered:    # "Specifics please: (1) the filed MCTs ...; (2) how many extra minutes ...; (3) is ...?"
        parts = [item for p in parts for item in _items(p)]
    # a numbered item asks unless a sentence of its own follows it (then it is that sentence's context)
    asking = [_asks(p) or (numbered and bool(_ITEM.match(p))
                           and (i + 1 == len(parts) or bool(_ITEM.match(parts[i + 1]))))
              for i, p in enumerate(parts)]
    out: list[str] = []
    for i, p in enumerate(parts):
        if not asking[i]:
            continue
        before: list[str] = []
        j = i - 1
        while j >= 1 and len(before) < context and not asking[j]:
            before.insert(0, parts[j])
            j -= 1
        out.append(" ".join(before + [p]))
    return out if len(out) > 1 else []


def _numbered_asks(message: str) -> bool:
    """Whether a message lists numbered asks: two numbered items or more, and either an item is a
    question or the words before the first item ask ("Specifics please:", "Four quick ones:"). A
    numbered summary of a change ("summary for your review: 1) ... 2) ...") lists statements."""
    marks = list(_ITEM.finditer(message))
    if len(marks) < 2:
        return False
    lead = message[:marks[0].start()]
    lead = lead[lead.rfind(".") + 1:]                 # the sentence that introduces the list
    last = _sentences(message[marks[-1].start():])        # the last item ends with its sentence
    items = [message[a.start():b.start()] for a, b in zip(marks, marks[1:])] + last[:1]
    return bool(_LEAD_IN_ASKS.search(lead)) or any("?" in i for i in items)


def _items(sentence: str) -> list[str]:
    """A sentence cut before each numbered item it holds (the text before the first item stays whole)."""
    cuts = [m.start() for m in _ITEM.finditer(sentence)]
    bounds = [0, *[c for c in cuts if c > 0], len(sentence)]
    return [sentence[a:b].strip(" ;,") for a, b in zip(bounds, bounds[1:]) if sentence[a:b].strip(" ;,")]


def _asks(sentence: str) -> bool:
    """Whether a sentence asks something: it ends in ``?`` or makes a request ("I need the ...")."""
    return sentence.endswith("?") or bool(_REQUEST.match(sentence))


def clean(message: Any) -> str:
    """A message as text the router can read: non-strings stringified, control characters and
    undecodable junk turned into spaces, cut to :data:`MAX_CHARS`."""
    text = message if isinstance(message, str) else str(message)
    text = "".join(c if c.isprintable() or c in "\n\t" else " " for c in text[:MAX_CHARS])
    return text.encode("utf-8", "replace").decode("utf-8")


class SemanticRouter:
    """Meaning-level routing: static embeddings shipped in a wheel, hybrid with lexical scores.

    Args:
        people: the spec's people (every person's topics are embedded once, here).
        threshold: the combined score a topic needs when the lexical router picked nothing.
        min_cover: the share of what the message (or its questions) is about that the topic must
            speak to, when the lexical router picked nothing.
        sure, sure_lead: a topic scoring at least ``sure`` and ``sure_lead`` ahead of the person's
            next topic answers without the cover test (a long message full of context words the
            topic does not use); ``sure=None`` turns this off. In a message with context around
            what it asks, the lead is ``sure_lead_long``.
        sign_off: a message asking for a decision on a proposal ("may I put it live?") that nothing
            else answered gets the person's sign-off topic scoring at least this, and at most
            ``sign_off_gap`` below the person's best topic; ``None``: off.
        context: how many statements just before a question of a message asking several are heard
            with it (:func:`questions_in_context`).
        hybrid: the weight of the (capped, scaled) lexical score in the combined score.
        question_weight: how much the questions weigh against the whole message in the cosine.
        **lexical_kwargs: settings of the inner :class:`LexicalRouter` (e.g. ``min_about``).
    """

    deterministic = True
    name = "semantic"

    def __init__(self, people: list[Person], threshold: float = 0.9, min_cover: float = 0.5, hybrid: float = 1.0,
                 question_weight: float = 0.5, sure: float | None = 1.4, sure_lead: float = 0.3,
                 sign_off: float | None = 1.0, sign_off_gap: float = 0.15, sure_lead_long: float = 0.0, context: int = 1,
                 **lexical_kwargs: Any):
        self.threshold, self.min_cover, self.hybrid, self.question_weight = threshold, min_cover, hybrid, question_weight
        self.sure, self.sure_lead, self.sign_off, self.sign_off_gap = sure, sure_lead, sign_off, sign_off_gap
        self.sure_lead_long, self.context = sure_lead_long, context
        self.lexical = LexicalRouter(people, **{"example_words": True, **lexical_kwargs})
        self.people = {p["id"]: p for p in people}
        self._vectors: dict[str, tuple[np.ndarray, np.ndarray, list[np.ndarray]]] = {}
        self._row: dict[str, dict[str, int]] = {}        # person -> topic id -> its row in _vectors
        for p in people:
            topics = p.get("topics") or []
            if not topics:
                continue
            about = embed([str(t.get("about") or t["id"].replace("_", " ")) for t in topics])
            answer = embed([str(t.get("answer", "")) for t in topics])
            examples = [embed([str(x) for x in t.get("examples") or []]) for t in topics]
            self._vectors[p["id"]] = (about, answer, examples)
            self._row[p["id"]] = {t["id"]: i for i, t in enumerate(topics)}
        self._last: tuple[str, np.ndarray] | None = None

    def _message_vectors(self, message: str) -> np.ndarray:
        """The message and its questions, embedded (the last message is kept: referrals ask again)."""
        if self._last is None or self._last[0] != message:
            self._last = (message, embed(list(split_message(message))))
        return self._last[1]

    def semantic_scores(self, person: Person, message: str) -> np.ndarray:
        """The cosine of each of ``person``'s topics with the message (in the order of
        ``person["topics"]``, which may be a subset of the spec's: a follow-up asked of the topics
        not yet told)."""
        vecs = self._vectors.get(person["id"])
        if vecs is None:
            return np.zeros(0)
        rows = [self._row[person["id"]][t["id"]] for t in person.get("topics") or []]
        about, answer, examples = vecs
        m = self._message_vectors(message)
        w = self.question_weight
        blend = np.array([1.0 - w, w])
        topic = blend @ (0.5 * (m @ about.T) + 0.5 * (m @ answer.T))
        for i, ex in enumerate(examples):
            if len(ex):
                topic[i] = max(topic[i], float(blend @ (m @ ex.T).max(axis=1)))
        return topic[rows]

    def scores(self, person: Person, message: str) -> dict[str, float]:
        """Each topic's combined score (semantic cosine plus scaled lexical score)."""
        message = clean(message)
        topics = person.get("topics") or []
        if not topics:
            return {}
        sem = self.semantic_scores(person, message)
        lex = self.lexical.scores(person, message)
        return {t["id"]: round(float(sem[i]) + self.hybrid * min(lex[t["id"]], 10.0) / 10.0, 9)
                for i, t in enumerate(topics)}

    def _best_if_answered(self, person: Person, text: str, whole: str, asks: str) -> list[Topic]:
        """The best-scoring topic, if it reaches the threshold and covers what ``whole`` or ``asks`` is about."""
        topics = person.get("topics") or []
        scores = self.scores(person, text)
        # a message with context around its question dilutes every score's cover, not its ranking
        lead = self.sure_lead if asks == whole else self.sure_lead_long
        winner = _clear_winner(topics, scores, self.sure, lead) if self.sure is not None else None
        if winner is not None:
            return [winner]    # far above the threshold and (in a short message) well ahead of the next topic
        best = max(topics, key=lambda t: scores[t["id"]])      # max keeps the first of equals
        cover = max(self.lexical.about_cover(person, best, self.lexical.about_words(whole)),
                    self.lexical.about_cover(person, best, self.lexical.about_words(asks)))
        return [best] if scores[best["id"]] >= self.threshold and cover >= self.min_cover else []

    def _question_topics(self, person: Person, question: str) -> list[Topic]:
        """The topics that answer one question of a message heard on its own."""
        return list(self.lexical.route(person, question, [])[0]) or self._best_if_answered(person, question, question, question)

    def decision_asked(self, message: str, topics: list[Topic]) -> bool:
        """Whether ``message`` asks for a decision on a proposal and one of ``topics`` is a sign-off
        topic: a follow-up that asks for the verdict again gets the verdict, not another topic."""
        asks = split_message(clean(message))[1]
        return bool(_SIGN_OFF_ASK.search(asks)) and any(_is_sign_off(t) for t in topics)

    def _sign_off_topic(self, person: Person, text: str) -> list[Topic]:
        """For a message asking for a decision on a proposal: the person's sign-off topics (their
        ``about`` speaks of signing off, approving, being happy with or going live) whose combined
        score reaches ``sign_off`` within ``sign_off_gap`` of the person's best topic, best first, at
        most two (a proposal in several parts). A long proposal matches many topics a little; what it
        asks is a decision."""
        own = [t for t in person.get("topics") or [] if _is_sign_off(t)]
        if not own or self.sign_off is None:
            return []
        scores = self.scores(person, text)
        floor = max(self.sign_off, max(scores.values()) - self.sign_off_gap)
        return [t for t in sorted(own, key=lambda t: -scores[t["id"]]) if scores[t["id"]] >= floor][:2]

    def follow_up_pick(self, person: Person, message: str, earlier: list[str], floor: float = 1.0,
                       lead: float = 0.2) -> tuple[list[Topic], dict[str, bool]]:
        """For a follow-up whose every matched topic was already told (the engine asks this of the
        topics not yet told): the best of them when its combined score reaches ``floor`` and leads
        the next by ``lead``, without the cover test; else nothing. Gates as in :meth:`route`."""
        topics = person.get("topics") or []
        best = _clear_winner(topics, self.scores(person, message), floor, lead) if topics else None
        chosen = [best] if best is not None else []
        return chosen, _gates(chosen, earlier, str(message))

    def route(self, person: Person, message: str, earlier: list[str]) -> tuple[list[Topic], dict[str, bool]]:
        full = message if isinstance(message, str) else str(message)
        text = clean(full)
        topics = person.get("topics") or []
        chosen: list[Topic] = []
        if topics and text.strip():
            whole, asks = split_message(text)
            chosen = list(self.lexical.route(person, whole, [])[0])
            if not chosen and asks != whole:
                chosen = list(self.lexical.route(person, asks, [])[0])
            if not chosen:
                # quoted evidence: a message that meets a topic's evidence gate is about that topic
                quoted = [t for t in topics if t.get("requires") and _regex_any(t["requires"], text)]
                if quoted:
                    scores = self.scores(person, text)
                    chosen = [max(quoted, key=lambda t: scores[t["id"]])]
            if not chosen:
                chosen = self._best_if_answered(person, text, whole, asks)
            if not chosen and _SIGN_OFF_ASK.search(asks):
                chosen = self._sign_off_topic(person, text)
            # a message of questions only is heard whole, unless it numbers them ("(1) ...? (2) ...?")
            listed = asks != whole or _numbered_asks(text)
            several = questions_in_context(text, self.context) if listed else []
            if several:
                # several questions in one message: each is also heard on its own, as a person reads them
                sign_off: list[Topic] | None = None       # scored on the whole message, once
                for q in several[:MAX_QUESTIONS]:
                    heard = self._question_topics(person, q)
                    if not heard and _SIGN_OFF_ASK.search(q):
                        # a question asking for a decision on the proposal the message sets out: the sign-off topic
                        sign_off = self._sign_off_topic(person, text) if sign_off is None else sign_off
                        heard = sign_off
                    for t in heard:
                        if t not in chosen:
                            chosen.append(t)
        chosen = chosen[:MAX_TOPICS_PER_MESSAGE + 2]
        return chosen, _gates(chosen, earlier, full)


def _clear_winner(topics: list[Topic], scores: dict[str, float], floor: float, lead: float) -> Topic | None:
    """The best-scoring topic (the first of equals) when it scores ``floor`` or more and ``lead``
    ahead of the next one; else None."""
    best = max(topics, key=lambda t: scores[t["id"]])
    runner_up = max([scores[t["id"]] for t in topics if t is not best], default=0.0)
    return best if scores[best["id"]] >= floor and scores[best["id"]] - runner_up >= lead else None


def _gates(chosen: list[Topic], earlier: list[str], message: str) -> dict[str, bool]:
    """Each chosen topic's ``requires`` gate: met anywhere in this message or the last four earlier ones."""
    context = "\n".join([str(e) for e in earlier[-4:]] + [message])
    return {t["id"]: _regex_any(t["requires"], context) for t in chosen if t.get("requires")}


def _make(people: list[Person], **kwargs: Any) -> SemanticRouter:
    return SemanticRouter(people, **kwargs)


register_router("semantic", _make)
