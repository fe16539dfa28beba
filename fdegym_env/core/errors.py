"""Error types and the one "did you mean" helper. This module imports nothing from fdegym_env.

Example:
    >>> did_you_mean("max_turn", ["max_turns", "max_customer_days"])
    " Did you mean 'max_turns'?"
    >>> did_you_mean("zzz", ["max_turns"])
    ''
    >>> did_you_mean("prnt", ["print", "help"], quote="`")
    ' Did you mean `print`?'
"""

from __future__ import annotations

import difflib
from typing import Iterable


class TaskFormatError(ValueError):
    """A task folder that does not follow docs/task_format.md; the message names file and field."""


class MissingDependencyError(RuntimeError):
    """An optional dependency is not installed; the message names the package and the extra to install."""

    def __init__(self, what: str, package: str, extra: str) -> None:
        super().__init__(f"{what} needs the `{package}` package, which is not installed "
                         f"(fix: pip install 'fdegym[{extra}]' or pip install {package})")
        self.package, self.extra = package, extra


def closest(word: str, choices: Iterable[str]) -> str | None:
    """The choice closest to ``word`` (difflib ratio >= 0.6), or None."""
    near = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1)
    return near[0] if near else None


def did_you_mean(word: str, choices: Iterable[str], quote: str | None = None) -> str:
    """``" Did you mean 'x'?"`` for the closest choice, or ``""`` when nothing is close.

    ``quote`` wraps the suggestion (default: ``repr``)."""
    near = closest(word, choices)
    if near is None:
        return ""
    shown = repr(near) if quote is None else f"{quote}{near}{quote}"
    return f" Did you mean {shown}?"


class InfrastructureError(RuntimeError):
    """fdegym itself failed to run something (a sandbox or grading worker lost for a reason of ours,
    not because of what the agent delivered). Never an incident, never cached; retrying may succeed."""
