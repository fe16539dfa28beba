"""The leak check of ``fdegym validate``: at L2/L3 the agent sees only what the level allows.

Two scans per variant, rendering only (nothing is graded):

**Reset observation at L2 and L3** (title, brief, working arrangements, workspace listing: exactly
what :meth:`FDEGymEnv.reset <fdegym_env.core.env.FDEGymEnv.reset>` shows) must not contain

- the catalog ``title`` (task.yaml), word for word (case, punctuation and line breaks ignored), or
  :data:`TITLE_NGRAM` words of it in a row of which :data:`TITLE_CONTENT_WORDS` are not stop words;
- a ``truth.yaml`` fact: any run of :data:`OBS_NGRAM` words of a fact's text (filled from the
  variant) with at least :data:`MIN_CONTENT_WORDS` words that are not stop words; a fact's id
  (``F_...``); a fact's code identifiers (``snake_case`` names and ``file.py`` names in its text,
  except names of world files and of the entry points, which the brief may point at); and the
  fact's ``leak_terms`` (below);
- a variant name or a parameter name (identifiers with ``_`` or a digit: plain words such as
  ``high`` are ordinary vocabulary and are not searched; ``base`` never is);
- a distinctive parameter value: a string value with ``_`` (``vendor_korvex``) verbatim, or a run of
  :data:`OBS_NGRAM` words of a prose value (short values such as ``P1`` or ``arrest`` are the
  sponsor's vocabulary too).

**The workspace** (``world/`` as rendered for the variant, paths and text files) must not contain
the catalog title, a run of :data:`WORLD_NGRAM` words of a fact's or incident's text, a fact id,
a variant name, or the task's grader/traffic/trial/sampler/solution code (a file identical to one
of them, or holding enough of its code lines, see :func:`code_lines`). The world
legitimately states the evidence a fact is learned from, so ``leak_terms`` and short overlaps are
not searched there.

``truth.yaml`` may name what gives a fact away in few words, where word runs cannot see it::

    leak_terms:
      F_double_proration: [double proration, billed on both plans]

A term matches as whole words, case, hyphens and punctuation ignored ("double-proration" matches
"double proration"). Choose terms the sponsor's request would never use.

Example:
    >>> from fdegym_env.core.registry import load_task
    >>> leaks = scan_task(load_task("news_incident"), ["base"])     # doctest: +SKIP
    >>> [str(x) for x in leaks]                                     # doctest: +SKIP
    []
"""

from __future__ import annotations

import bisect
import hashlib
import io
import re
import shutil
import tempfile
import tokenize
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from fdegym_env.core.task import Task, TaskFormatError, Variant, render

LEVELS_CHECKED = ("L2", "L3")
OBS_NGRAM = 8            # words in a row shared with a fact: a leak in the observation
WORLD_NGRAM = 12         # ... in a world file (which states the evidence, in words that may overlap a fact)
MIN_CONTENT_WORDS = 4    # of them not stop words (a run of "in the ... of a" proves nothing)
TITLE_NGRAM = 5          # words in a row of the catalog title, at least 3 not stop words ("hides a
TITLE_CONTENT_WORDS = 3  # double proration bug"): a leak in the observation
CODE_MIN_LINES = 4       # code lines of one task module found in one world file: a leak when they are
CODE_MIN_SHARE = 0.25    # ... this share of the module's code lines, or
CODE_MANY_LINES = 12     # ... this many (a world module may share a small helper, e.g. a DST rule)
CODE_MIN_CHARS = 28      # shorter code lines (``return out``, ``import json``) are not distinctive
MAX_SCAN_BYTES = 4 << 20  # larger world files are scanned on their first 4 MB
MODULE_FILES = ("grader.py", "traffic.py", "trial.py", "sampler.py")

STOP_WORDS = frozenset("""
a about above after again against all also am an and any are as at be because been before being below
between both but by can could did do does doing down during each either else ever every few for from
further had has have having he her here hers him his how i if in into is it its itself just least less
let like made many may me might more most much must my never no nor not now of off on once one only or
other our ours out over own per same shall she should since so some such than that the their them then
there these they this those through to too under until up upon us very via was we were what when where
whether which while who whom whose why will with within without would yet you your s t d ll re ve m
""".split())

_WORD = re.compile(r"[a-z0-9]+")
_SNAKE = re.compile(r"(?<![A-Za-z0-9_])([A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]*[A-Za-z0-9])(?![A-Za-z0-9_])")
_PYFILE = re.compile(r"(?<![A-Za-z0-9_./-])([A-Za-z_][A-Za-z0-9_]*\.py)\b")


@dataclass(frozen=True)
class Leak:
    """One offending line. ``where`` is ``"L3 reset observation"`` or a world path; ``source`` the
    file the line comes from (``briefs/L3.md``, ``task.yaml agent_title``, a world file)."""

    where: str
    source: str
    line: int
    what: str
    text: str
    variants: tuple[str, ...] = ()
    match: str = ""

    def __str__(self) -> str:
        vs = _variant_span(self.variants)
        m = f" ({self.match!r})" if self.match else ""
        return f"{self.at} ({self.where}{', ' + vs if vs else ''}): {self.what}{m}: {self.text!r}"

    @property
    def at(self) -> str:
        """``file:line`` (a path leak has no line)."""
        return f"{self.source}:{self.line}" if self.line else self.source


def _variant_span(names: Iterable[str]) -> str:
    names = list(names)
    samples = sorted(int(n.split(":", 1)[1]) for n in names if n.startswith("sample:"))
    named = [n for n in names if not n.startswith("sample:")]
    if samples:
        run = f"sample:{samples[0]}" if len(samples) == 1 else f"sample:{samples[0]}..{samples[-1]} ({len(samples)})"
        named.append(run)
    return ", ".join(named)


# --- text -----------------------------------------------------------------------------------------
class _Text:
    """A text with its words (lower-cased, alphanumeric runs) and each word's line number."""

    def __init__(self, text: str):
        self.text = text
        self.lines = text.splitlines() or [""]
        starts = [0]
        for m in re.finditer("\n", text):
            starts.append(m.end())
        self._starts = starts
        low = text.lower()
        self.words: list[str] = []
        self.word_line: list[int] = []
        for m in _WORD.finditer(low):
            self.words.append(m.group())
            self.word_line.append(bisect.bisect_right(starts, m.start()))

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self._starts, offset)

    def line_text(self, n: int) -> str:
        s = self.lines[n - 1].strip() if 0 < n <= len(self.lines) else ""
        return s if len(s) <= 160 else s[:157] + "..."


def _words(s: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(s.lower()))


def _content(ngram: tuple[str, ...]) -> int:
    return sum(1 for w in ngram if w not in STOP_WORDS and not w.isdigit())


def _ngrams(text: str, n: int, min_content: int = MIN_CONTENT_WORDS) -> set[tuple[str, ...]]:
    w = _words(text)
    return {g for g in (w[i:i + n] for i in range(len(w) - n + 1)) if _content(g) >= min_content}


@dataclass
class _Needles:
    """What one scan looks for: word phrases (matched on word sequences), word runs of a fixed
    length, and identifiers (matched verbatim, case-insensitive)."""

    phrases: dict[tuple[str, ...], str] = field(default_factory=dict)      # words -> what
    runs: dict[int, dict[tuple[str, ...], str]] = field(default_factory=dict)  # n -> {words: what}
    idents: dict[str, str] = field(default_factory=dict)                    # lower-cased -> what

    def phrase(self, text: str, what: str) -> None:
        w = _words(text)
        if w:
            self.phrases.setdefault(w, what)

    def run(self, text: str, n: int, what: str, min_content: int = MIN_CONTENT_WORDS) -> None:
        table = self.runs.setdefault(n, {})
        for g in _ngrams(text, n, min_content):
            table.setdefault(g, what)

    def ident(self, name: str, what: str) -> None:
        self.idents.setdefault(name.lower(), what)

    def key(self) -> str:
        blob = repr((sorted(self.phrases.items()), sorted((n, sorted(t.items())) for n, t in self.runs.items()),
                     sorted(self.idents.items())))
        return hashlib.sha256(blob.encode()).hexdigest()

    def find(self, t: _Text) -> list[tuple[int, str, str]]:
        """``(line, what, matched words)`` for every hit in ``t``: one per line and kind; a run of
        overlapping word runs counts once, at the line where it starts."""
        hits: dict[tuple[int, str], str] = {}
        words = t.words
        by_first: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        for ph, what in self.phrases.items():
            by_first.setdefault(ph[0], []).append((ph, what))
        for i, w in enumerate(words):
            for ph, what in by_first.get(w, ()):
                if tuple(words[i:i + len(ph)]) == ph:
                    hits.setdefault((t.word_line[i], what), " ".join(ph))
        for n, table in self.runs.items():
            i = 0
            while i <= len(words) - n:
                source = table.get(tuple(words[i:i + n]))
                if source is None:
                    i += 1
                    continue
                j = i + 1             # extend over overlapping runs of the same source
                while j <= len(words) - n and table.get(tuple(words[j:j + n])) == source:
                    j += 1
                span = words[i:j - 1 + n]
                shown = " ".join(span[:14]) + (" ..." if len(span) > 14 else "")
                hits.setdefault((t.word_line[i], f"{source}, {len(span)} words"), shown)
                i = j - 1 + n
        if self.idents:
            rx = _ident_regex(tuple(sorted(self.idents)))
            for m in rx.finditer(t.text):
                hits.setdefault((t.line_of(m.start()), self.idents[m.group(1).lower()]), m.group(1))
        return [(line, what, match) for (line, what), match in hits.items()
                if not (what.startswith("words of the catalog title") and (line, "the catalog title") in hits)]


_RX_CACHE: dict[tuple[str, ...], re.Pattern] = {}


def _ident_regex(names: tuple[str, ...]) -> re.Pattern:
    rx = _RX_CACHE.get(names)
    if rx is None:
        alts = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        rx = _RX_CACHE[names] = re.compile(rf"(?<![A-Za-z0-9_])({alts})(?![A-Za-z0-9_])", re.IGNORECASE)
    return rx


def _is_identifier(name: str) -> bool:
    """A name worth searching for verbatim: has ``_`` or a digit (``mid_month``, ``rf_list_2026``)."""
    return bool(re.fullmatch(r"[A-Za-z0-9_.:-]+", name)) and ("_" in name or any(c.isdigit() for c in name)) \
        and any(c.isalpha() for c in name)


# --- what the task declares -----------------------------------------------------------------------
def fact_texts(task: Task, variant: Variant) -> dict[str, str]:
    """``truth.yaml`` facts, filled from the variant (a fact whose placeholder the variant lacks keeps
    its text with the placeholder dropped)."""
    out = {}
    for fid, text in (task.truth.get("facts") or {}).items():
        if isinstance(text, dict):
            text = text.get("text", "")
        text = str(text)
        try:
            text = render(text, variant.params, f"{task.path / 'truth.yaml'}: facts.{fid}")
        except TaskFormatError:
            text = re.sub(r"\{\{[^}]*\}\}", " ", text)
        out[str(fid)] = text
    return out


def leak_terms(task: Task) -> dict[str, list[str]]:
    """``truth.yaml`` ``leak_terms``: fact id -> terms that give the fact away."""
    raw = task.truth.get("leak_terms") or {}
    where = f"{task.path / 'truth.yaml'}: leak_terms"
    if not isinstance(raw, dict):
        raise TaskFormatError(f"{where}: expected a mapping of fact id -> list of terms, got {type(raw).__name__}")
    facts = task.truth.get("facts") or {}
    out = {}
    for fid, terms in raw.items():
        if fid not in facts:
            raise TaskFormatError(f"{where}: {fid!r} is not a fact of truth.yaml (facts: {', '.join(facts)})")
        if isinstance(terms, str):
            terms = [terms]
        if not isinstance(terms, list) or not all(isinstance(x, str) and _words(x) for x in terms):
            raise TaskFormatError(f"{where}.{fid}: expected a list of non-empty strings, got {terms!r}")
        out[str(fid)] = terms
    return out


def _string_values(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _string_values(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _string_values(v)


def _world_names(world: Path, task: Task) -> set[str]:
    """Names the brief may legitimately point at: world file/folder names and entry points."""
    names = set()
    for p in world.rglob("*"):
        names.add(p.name.lower())
        names.add(p.stem.lower())
    for ep in getattr(task, "entry_points", ()):
        names.update(x.lower() for x in ep.module.split("."))
        names.add(ep.function.lower())
        names.add(f"{ep.module}.{ep.function}".lower())
    return names


def observation_needles(task: Task, variant: Variant, world: Path) -> _Needles:
    nd = _Needles()
    nd.phrase(task.title, "the catalog title")
    nd.run(task.title, TITLE_NGRAM, "words of the catalog title", TITLE_CONTENT_WORDS)
    allowed = _world_names(world, task)
    for fid, text in fact_texts(task, variant).items():
        nd.ident(fid, f"fact id {fid}")
        nd.run(text, OBS_NGRAM, f"text of fact {fid}")
        for rx in (_SNAKE, _PYFILE):
            for m in rx.finditer(text):
                name = m.group(1).rstrip(".")
                if name.lower() not in allowed and name.lower().rsplit(".", 1)[0] not in allowed:
                    nd.ident(name, f"code name from fact {fid}")
    for fid, terms in leak_terms(task).items():
        for term in terms:
            nd.phrase(term, f"leak term of fact {fid}")
    for name in task.variants:
        if name != "base" and _is_identifier(name):
            nd.ident(name, "variant name")
    for pname, value in variant.params.items():
        if _is_identifier(pname):
            nd.ident(pname, "parameter name")
        for s in _string_values(value):
            if "_" in s and _is_identifier(s) and s.lower() not in allowed:
                nd.ident(s, f"value of parameter {pname}")
            elif len(_words(s)) >= OBS_NGRAM:
                nd.run(s, OBS_NGRAM, f"value of parameter {pname}")
    return nd


def world_needles(task: Task, variant: Variant) -> _Needles:
    nd = _Needles()
    nd.phrase(task.title, "the catalog title")
    for fid, text in fact_texts(task, variant).items():
        nd.ident(fid, f"fact id {fid}")
        nd.run(text, WORLD_NGRAM, f"text of fact {fid} (truth.yaml)")
    for iid, text in (task.truth.get("incidents") or {}).items():
        nd.run(str(text), WORLD_NGRAM, f"text of incident {iid} (truth.yaml)")
    for name in task.variants:
        if name != "base" and _is_identifier(name):
            nd.ident(name, "variant name")
    return nd


# --- code -----------------------------------------------------------------------------------------
def code_lines(source: str) -> set[str]:
    """The distinctive code lines of a Python module: stripped lines of at least
    :data:`CODE_MIN_CHARS` characters holding code outside strings and comments, imports left out.
    A world file leaks a module when it holds :data:`CODE_MIN_LINES` of them that are
    :data:`CODE_MIN_SHARE` of the module or :data:`CODE_MANY_LINES` lines. (Lines inside
    string literals are left out: solutions quote world code as the text they replace, and traffic
    generators hold the sentences the dev data is made of.)"""
    try:
        toks = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return set()
    skip = {tokenize.STRING, tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
            tokenize.ENDMARKER}
    for name in ("FSTRING_START", "FSTRING_MIDDLE", "FSTRING_END"):
        if hasattr(tokenize, name):
            skip.add(getattr(tokenize, name))
    code_rows = {t.start[0] for t in toks if t.type not in skip and t.start[0] == t.end[0]}
    lines = source.splitlines()
    out = set()
    for n in code_rows:
        s = lines[n - 1].strip() if n <= len(lines) else ""
        if len(s) >= CODE_MIN_CHARS and not s.startswith("#") and not re.match(r"(import|from)\s", s):
            out.add(s)
    return out


def task_modules(task: Task) -> dict[str, str]:
    """The task's own code, never to be readable from a workspace: grader, traffic, trial, sampler,
    other top-level modules and solutions. Returns ``{relative path: source}``."""
    out = {}
    files = sorted(task.path.glob("*.py")) + sorted((task.path / "solutions").glob("*.py"))
    for p in files:
        if p.name == "__init__.py":
            continue
        try:
            out[p.relative_to(task.path).as_posix()] = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
    return out


# --- scans ----------------------------------------------------------------------------------------
def _read_text(p: Path) -> str | None:
    try:
        with open(p, "rb") as f:
            data = f.read(MAX_SCAN_BYTES)
    except OSError:
        return None
    if b"\x00" in data[:8192]:
        return None
    return data.decode("utf-8", "replace")


def scan_observation(task: Task, variant: Variant, level: str, world: Path,
                     needles: _Needles | None = None) -> list[Leak]:
    """Leaks in the reset observation of ``level`` (rendered exactly as ``reset`` renders it)."""
    from fdegym_env.core.env import episode_brief, limits_in_task_md, reset_segments, task_limits
    needles = needles or observation_needles(task, variant, world)
    tmp = Path(tempfile.mkdtemp(prefix="fdegym-leaks-"))
    try:
        ws = tmp / "workspace"
        shutil.copytree(world, ws, symlinks=True)
        limits = task_limits(task, variant)
        (ws / "TASK.md").write_text(episode_brief(task, level, variant) + limits_in_task_md(task, variant, limits),
                                    encoding="utf-8")
        segs = reset_segments(task, level, variant, ws, limits)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    text = "".join(s for _, s in segs)
    bounds, src_start, pos = [], [], 1       # source of each observation line, and its first line
    for source, s in segs:
        bounds.append(pos)
        src_start.append((source, pos))
        pos += s.count("\n")
    t = _Text(text)
    out = []
    for line, what, match in needles.find(t):
        k = bisect.bisect_right(bounds, line) - 1
        source, first = src_start[max(k, 0)]
        out.append(Leak(f"{level} reset observation", source, line - first + 1, what, t.line_text(line),
                        (variant.name,), match))
    return out


_WORLD_CACHE: dict[tuple[str, str], list[tuple[int, str, str]]] = {}


def scan_world(task: Task, variant: Variant, world: Path, needles: _Needles | None = None) -> list[Leak]:
    """Leaks in the world as rendered for ``variant`` (file paths and text files)."""
    needles = needles or world_needles(task, variant)
    nkey = needles.key()
    modules = {rel: (src, code_lines(src)) for rel, src in task_modules(task).items()}
    whole = {hashlib.sha256(src.encode()).hexdigest(): rel for rel, (src, _) in modules.items()}
    out = []
    for p in sorted(world.rglob("*")):
        rel = p.relative_to(world).as_posix()
        for _, what, match in needles.find(_Text(p.name)):   # each name once, not in every path below it
            out.append(Leak("workspace path", rel, 0, what, rel, (variant.name,), match))
        if not p.is_file() or p.is_symlink():
            continue
        text = _read_text(p)
        if text is None:
            continue
        digest = hashlib.sha256(text.encode()).hexdigest()
        if digest in whole:
            out.append(Leak("workspace", rel, 1, f"a copy of the task's {whole[digest]}", "(whole file)",
                            (variant.name,)))
            continue
        key = (digest, nkey)
        hits = _WORLD_CACHE.get(key)
        t = None
        if hits is None:
            t = _Text(text)
            hits = _WORLD_CACHE[key] = needles.find(t)
            if len(_WORLD_CACHE) > 50_000:
                _WORLD_CACHE.clear()
        for line, what, match in hits:
            t = t or _Text(text)
            out.append(Leak("workspace", rel, line, what, t.line_text(line), (variant.name,), match))
        stripped: dict[str, int] = {}
        for i, ln in enumerate(text.splitlines(), 1):
            s = ln.strip()
            if len(s) >= CODE_MIN_CHARS:
                stripped.setdefault(s, i)
        for mrel, (_, lines) in modules.items():
            shared = [stripped[s] for s in lines if s in stripped]
            if len(shared) >= CODE_MIN_LINES and (len(shared) >= CODE_MANY_LINES
                                                  or len(shared) >= CODE_MIN_SHARE * len(lines)):
                first = min(shared)
                t = t or _Text(text)
                out.append(Leak("workspace", rel, first, f"code of the task's {mrel} ({len(shared)} of its lines)",
                                t.line_text(first), (variant.name,)))
    return out


def scan_variant(task: Task, variant: Variant, levels: Iterable[str] = LEVELS_CHECKED,
                 world: bool = True) -> list[Leak]:
    """Every leak of one variant: its L2/L3 reset observations and (``world=True``) its workspace."""
    from fdegym_env.core.workspace import world_snapshot
    snap = world_snapshot(task, variant)
    out = []
    obs_needles = observation_needles(task, variant, snap)
    for level in levels:
        out += scan_observation(task, variant, level, snap, obs_needles)
    if world:
        out += scan_world(task, variant, snap)
    return out


def scan_task(task: Task, variants: list[str] | None = None, samples: int = 0,
              levels: Iterable[str] = LEVELS_CHECKED) -> list[Leak]:
    """Leaks over the given named variants (default: all) and ``sample:0..samples-1``, merged: the
    same line leaking in several variants is one :class:`Leak` listing them."""
    names = list(variants or task.variants)
    if samples and task.has_sampler:
        names += [f"sample:{i}" for i in range(samples)]
    merged: dict[tuple, list[str]] = {}
    first: dict[tuple, Leak] = {}
    for name in names:
        for leak in scan_variant(task, task.variant(name), levels):
            k = (leak.where, leak.source, leak.line, leak.what)
            merged.setdefault(k, []).append(name)
            first.setdefault(k, leak)
    out = []
    for k, vs in merged.items():
        leak = first[k]
        out.append(Leak(leak.where, leak.source, leak.line, leak.what, leak.text, tuple(dict.fromkeys(vs)),
                        leak.match))
    return sorted(out, key=lambda x: (x.where, x.source, x.line, x.what))


def leak_checks(task: Task, variants: list[str] | None = None, samples: int = 0) -> list[dict[str, Any]]:
    """The leak check as ``validate`` cross-check entries: one failing entry per leak (naming the
    file and line), or one passing entry saying what was scanned."""
    leaks = scan_task(task, variants, samples)
    if not leaks:
        n = len(variants or task.variants) + (samples if task.has_sampler else 0)
        return [{"check": "no leak in the L2/L3 reset observation or the workspace",
                 "value": f"{n} variant(s) x {'/'.join(LEVELS_CHECKED)} + world", "passed": True}]
    return [{"check": f"leak at {leak.at} ({leak.where}; {_variant_span(leak.variants)})",
             "value": f"{leak.what} ({leak.match!r}) in: {leak.text!r}", "passed": False} for leak in leaks]
