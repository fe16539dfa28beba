"""Diligent: every key fact found and built in, the subtle cases of the traffic missed.

What a good engineer ships after talking to the right people: kills for each agency as they really
send them, new versions as updates, Meridian's embargo clock, legal's scope, the desk's capacity.
What it misses, because the archived week barely shows it and nobody volunteered it:

- a new version of a story that is not live yet (still in the Held queue, or waiting for its
  embargo) is sent as `update`, and cms-bridge only updates live stories, so the old text is what
  the desk or the schedule later puts out;
- Kestrel's gateway has no version numbers: a corrected Kestrel story arrives as version 1 under the
  same slug, and this treats it as a new story (a second copy on the site).
"""

from __future__ import annotations

from pathlib import Path

from . import reference as _ref

_VERSIONS = '''    root = new_version_of(db, item)
    if root:
        store.record(db, item, "update", root=root)
        if store.is_killed(db, root):
            return _decision(item, "drop", "new version of a killed story", story=root)
        return _decision(item, "update", f"version {item['version']} replaces the live story", story=root)
'''

_NEW_VERSION_OF = '''def new_version_of(db, item):
    """Same agency slug, higher version: a correction or write-through of a story we have."""
    if item["version"] > 1:
        root = store.root_for_slug(db, item["agency"], item["slug"])
        if root and root != item["guid"]:
            return root
    return None


def legal_hold(item):'''


def pipeline_source() -> str:
    src = _ref.PIPELINE
    a = src.index("    root = new_version_of(db, item)\n")
    b = src.index("    if legal_hold(item):")
    src = src[:a] + _VERSIONS + "\n" + src[b:]
    a = src.index("KNA_RESEND = re.compile(")
    b = src.index("def legal_hold(item):") + len("def legal_hold(item):")
    return src[:a] + _NEW_VERSION_OF + src[b:]


def apply(ws: Path, params: dict) -> None:
    _ref.apply(ws, params)
    (Path(ws) / "system" / "wire_ingest" / "pipeline.py").write_text(pipeline_source(), encoding="utf-8")
