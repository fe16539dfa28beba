"""Choose the instruction level (docs/design.md, Instruction levels) of every episode of an env.

L0 states the real problem, the rules and how it is scored; L1 withholds the constraints; L2 gives
the business goal and symptoms only; L3 is the sponsor's original request. Only the brief changes:
the world, the people and the grader are identical across levels (tests/wrappers prove it).

Example:
    >>> env = InstructionLevel(gym.make("FDEGym/news_incident-v0"), "L0")   # doctest: +SKIP
    >>> obs, info = env.reset(seed=0)                                       # doctest: +SKIP
    >>> info["level"]                                                       # doctest: +SKIP
    'L0'
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from fdegym_env.core.task import LEVELS


class InstructionLevel(gym.Wrapper):
    """Force ``level`` on every ``reset`` (an explicit, different ``options["level"]`` is an error).

    Args:
        env: an FDEGym env (possibly wrapped).
        level: one of ``"L0"``, ``"L1"``, ``"L2"``, ``"L3"``.
    """

    def __init__(self, env: gym.Env, level: str):
        if level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}, got {level!r}; "
                             "L0 = full instructions ... L3 = the sponsor's original request")
        super().__init__(env)
        self.level = level

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        options = dict(options or {})
        asked = options.get("level", self.level)
        if asked != self.level:
            raise ValueError(f"InstructionLevel({self.level!r}) got reset(options={{'level': {asked!r}}}); "
                             f"drop the option or change the wrapper's level")
        options["level"] = self.level
        return self.env.reset(seed=seed, options=options)
