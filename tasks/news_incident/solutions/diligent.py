"""Diligent: every key fact found and built in, the subtle cases of the traffic missed.

What a good engineer ships after talking to the right people: kills for each agency as they really
send them, new versions as updates, Meridian's embargo clock, legal's scope, the desk's capacity.
What it misses (diligent.patch on top of the reference), because the archived week barely shows it
and nobody volunteered it:

- a new version of a story that is not live yet (still in the Held queue, or waiting for its
  embargo) is sent as `update`, and cms-bridge only updates live stories, so the old text is what
  the desk or the schedule later puts out;
- Kestrel's gateway has no version numbers: a corrected Kestrel story arrives as version 1 under the
  same slug, and this treats it as a new story (a second copy on the site).
"""

from fdegym_env.tasklib import solutions


def apply(ws, params):
    solutions.apply(__name__, "reference", ws, params)
    solutions.patch(__name__, ws, "diligent.patch")
