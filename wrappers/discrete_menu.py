"""DiscreteMenu: a task as ``Discrete(N)`` actions and a ``Box`` observation, for SB3-style learners.

Actions come from the task's ``menu.yaml`` (read a known file, contact a person with a templated
question, apply a candidate change, wait, trial, submit). A menu item with ``steps`` executes each
step through the wrapped env in order (each is a turn; their rewards are summed), so the return
still equals the episode's score.

Observation (``Box(float32)``), all in [0, 1]:
    - two hashed sets of words (``n_hash`` buckets each, stable CRC32 hashing, 1 if any word of the
      bucket occurs): what was *heard* (the latest reply per person, the inbox, trial feedback) and
      what was *read* (the latest text per file and command, and the last observation) — kept
      apart so a long log does not drown a short, decisive reply;
    - structured features: turn / max_turns, customer days / max days, contact cost so far
      (clipped), inbox has news;
    - which menu items have been used, and the last action one-hot;
    - then, only if asked for by name in ``privileged=(...)`` (TextWorld's ``request_infos``
      pattern), features computed from grader-side knowledge a text agent never sees
      (:data:`PRIVILEGED_FEATURES`). Off by default, so a policy's score is comparable to a text
      agent's; a run that turns one on should say so.

``action_masks()`` (for sb3-contrib's MaskablePPO; defined here so ``SubprocVecEnv`` finds it):
every item except ``wait``/``trial``/``submit`` is usable once; ``trial`` while trial days remain;
``apply`` items only while their ``edit_file`` steps still find the text they replace.

Example:
    >>> from fdegym_env.core.env import FDEGymEnv
    >>> env = DiscreteMenu(FDEGymEnv(task="helpdesk_tutorial", variant="random"))
    >>> obs, info = env.reset(seed=0)
    >>> obs, r, term, trunc, info = env.step(int(env.action_masks().argmax()))
"""

from __future__ import annotations

import re
import zlib
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from fdegym_env.core import yamlio
from fdegym_env.core.env import unwrap_fdegym
from fdegym_env.core.errors import did_you_mean

_WORD = re.compile(r"[a-z0-9_]+")
REPEATABLE = ("wait", "trial", "submit")
READ_ONLY = ("list_files", "read_file", "directory", "contact", "inbox", "wait", "trial")  # never change a file
HEARD = ("person:", "tool:inbox", "tool:trial", "tool:wait")
N_STRUCT = 4
PRIVILEGED_FEATURES = {
    "key_fact_share": "share of truth.yaml's key facts the agent has obtained (the grader's discovery metric)",
}


def load_menu(task_path: Path) -> list[dict[str, Any]]:
    """menu.yaml's items, ``apply:`` items expanded to their file steps (:mod:`fdegym_env.tasklib.menu`)."""
    from fdegym_env.tasklib import menu
    path = Path(task_path) / "menu.yaml"
    if not path.is_file():
        raise FileNotFoundError(f"{path}: missing; DiscreteMenu needs the task's menu.yaml (docs/task_format.md)")
    raw = (yamlio.safe_load(path.read_text(encoding="utf-8")) or {}).get("actions")
    if not isinstance(raw, list) or not raw:
        raise ValueError(f"{path}: expected a non-empty list under 'actions'")
    for i, item in enumerate(raw):
        if not isinstance(item, dict) or not isinstance(item.get("label"), str):
            raise ValueError(f"{path}: actions[{i}] needs a string 'label'")
        if sum(k in item for k in ("action", "steps", "apply")) != 1:
            raise ValueError(f"{path}: actions[{i}] ({item['label']}) needs exactly one of 'action', 'steps' or "
                             "'apply'")
    return [menu.expand(Path(task_path), item) for item in raw]


def stable_bucket(word: str, n: int) -> int:
    return zlib.crc32(word.encode("utf-8")) % n


class DiscreteMenu(gym.Wrapper):
    """See the module docstring."""

    def __init__(self, env: gym.Env, n_hash: int = 256, privileged: tuple[str, ...] | list[str] = ()):
        super().__init__(env)
        if isinstance(privileged, str):
            privileged = (privileged,)
        for name in privileged:
            if name not in PRIVILEGED_FEATURES:
                raise ValueError(f"privileged: unknown feature {name!r}.{did_you_mean(name, PRIVILEGED_FEATURES)} "
                                 f"Known: {', '.join(PRIVILEGED_FEATURES)}.")
        self.privileged = tuple(privileged)
        self.menu = load_menu(unwrap_fdegym(env).task.path)
        self.n = len(self.menu)
        self.n_hash = n_hash
        self.action_space = spaces.Discrete(self.n)
        size = 2 * n_hash + N_STRUCT + 2 * self.n + len(self.privileged)
        self.observation_space = spaces.Box(0.0, 1.0, shape=(size,), dtype=np.float32)
        self._size = size
        self.labels = [m["label"] for m in self.menu]
        self._kinds = [self._kind(m) for m in self.menu]
        self._bags: dict[str, np.ndarray] = {}
        self._texts: dict[str, str | None] = {}   # file texts read since the last step that could write
        self._texts_turn = -1                      # the env turn those texts were read at

    @staticmethod
    def _kind(item: dict[str, Any]) -> str:
        first = item["action"] if "action" in item else item["steps"][0]
        if "steps" in item or first.get("tool") in ("write_file", "edit_file"):
            return "apply"
        return first.get("tool", "?")

    # --- gym API -------------------------------------------------------------------------------
    def reset(self, **kwargs):
        self._texts_turn = -1
        obs, info = self.env.reset(**kwargs)
        self.memory: dict[str, np.ndarray] = {}
        self.last_text = obs["text"]
        self.used = np.zeros(self.n, dtype=bool)
        self.last = -1
        self.trials = 0
        info = dict(info, menu_label=None)
        return self._observe(obs), info

    def step(self, action):
        a = np.asarray(action)
        if a.size != 1 or not np.issubdtype(a.dtype, np.integer):
            raise ValueError(f"action must be one integer in 0..{self.n - 1} (a menu index), got {action!r}")
        i = int(a.reshape(()))
        if not 0 <= i < self.n:
            raise ValueError(f"action must be in 0..{self.n - 1}, got {action!r}")
        item = self.menu[i]
        steps = [item["action"]] if "action" in item else item["steps"]
        total, obs, terminated, truncated, info = 0.0, None, False, False, {}
        texts = []
        for st in steps:
            fresh = self._texts_turn == self.env.unwrapped.turn
            obs, r, terminated, truncated, info = self.env.step(dict(st))
            if fresh and st.get("tool") in READ_ONLY:   # the texts read before this step still hold
                self._texts_turn = self.env.unwrapped.turn
            total += float(r)
            texts.append(obs["text"])
            if terminated or truncated:
                break
        self._remember(steps[0], "\n".join(texts))
        self.used[i] = True
        self.last = i
        if self._kinds[i] == "trial":
            self.trials += 1
        info = dict(info, menu_label=item["label"])
        return self._observe(obs), total, bool(terminated), bool(truncated), info

    def action_masks(self) -> np.ndarray:
        mask = ~self.used
        for i, kind in enumerate(self._kinds):
            if kind in ("wait", "submit"):
                mask[i] = True
            elif kind == "trial":
                people = unwrap_fdegym(self.env).episode_state()[0]
                mask[i] = self.trials < int(people.trial_cfg.get("max_runs", 3))
            elif kind == "apply" and mask[i]:
                mask[i] = self._applicable(self.menu[i])
        if not mask.any():
            mask[[k == "submit" for k in self._kinds]] = True
        return mask

    def _applicable(self, item: dict[str, Any]) -> bool:
        """An edit whose 'old' text is no longer in its file would only produce an error. Steps are
        followed in order, so an edit of a file an earlier step of the item writes is checked
        against that text."""
        ws = unwrap_fdegym(self.env).episode_state()[2]
        texts: dict[str, str] = {}      # files as the item's earlier steps leave them
        for st in item.get("steps", [item.get("action", {})]):
            if st.get("tool") == "write_file":
                texts[st["path"]] = st["content"]
            elif st.get("tool") == "edit_file":
                text = texts[st["path"]] if st["path"] in texts else self._text(ws / st["path"])
                if text is None or st["old"] not in text:
                    return False
                texts[st["path"]] = text.replace(st["old"], st["new"], -1 if st.get("replace_all") else 1)
        return True

    def _text(self, p: Path) -> str | None:
        """A file's text (None if it is not a file), read once between steps that may write files:
        masks are asked every step, and most steps only read or talk (see :data:`READ_ONLY`)."""
        turn = unwrap_fdegym(self.env).turn
        if self._texts_turn != turn:   # a step that may have written files (or one made below this wrapper)
            self._texts.clear()
            self._texts_turn = turn
        key = str(p)
        if key not in self._texts:
            self._texts[key] = p.read_text(encoding="utf-8", errors="replace") if p.is_file() else None
        return self._texts[key]

    # --- features ------------------------------------------------------------------------------
    def _remember(self, step: dict[str, Any], text: str) -> None:
        tool = str(step.get("tool"))
        key = {"read_file": f"file:{step.get('path')}", "contact": f"person:{step.get('to')}"}.get(tool, f"tool:{tool}")
        self.memory[key] = self._bag(text)
        self.last_text = text

    def _bag(self, text: str) -> np.ndarray:
        """Hashed word counts of one text (cached: the same file or reply recurs across episodes)."""
        vec = self._bags.get(text)
        if vec is None:
            vec = np.zeros(self.n_hash, dtype=np.float32)
            for w in _WORD.findall(text.lower()):
                vec[stable_bucket(w, self.n_hash)] += 1.0
            if len(self._bags) > 4096:
                self._bags.clear()
            self._bags[text] = vec
        return vec

    def _observe(self, obs: dict) -> np.ndarray:
        u = unwrap_fdegym(self.env)
        vec = np.zeros(self._size, dtype=np.float32)
        heard = np.zeros(self.n_hash, dtype=np.float32)
        read = self._bag(self.last_text).copy()
        for key, bag in self.memory.items():
            np.add(heard if key.startswith(HEARD) else read, bag, out=heard if key.startswith(HEARD) else read)
        vec[: self.n_hash] = heard > 0
        vec[self.n_hash: 2 * self.n_hash] = read > 0
        people = u.episode_state()[0]
        s = 2 * self.n_hash
        vec[s] = min(1.0, u.turn / max(1, u.max_turns))
        vec[s + 1] = min(1.0, people.clock.hours / max(1.0, 24 * u.max_customer_days))
        vec[s + 2] = min(1.0, people.contact_cost)
        vec[s + 3] = 1.0 if people.inbox_new() else 0.0
        s += N_STRUCT
        vec[s: s + self.n] = self.used
        if self.last >= 0:
            vec[s + self.n + self.last] = 1.0
        s += 2 * self.n
        for k, name in enumerate(self.privileged):
            vec[s + k] = self._privileged(name)
        return vec

    def _privileged(self, name: str) -> float:
        u = unwrap_fdegym(self.env)
        if name == "key_fact_share":
            key = u.task.truth.get("key_facts", []) or []
            return len(set(key) & u.episode_state()[0].known) / len(key) if key else 0.0
        raise AssertionError(name)  # names are checked in __init__
