"""YAML reading for task files: libyaml's C parser when PyYAML was built with it (5-10x faster on
people.yaml and variants.yaml, which load on every env construction and sampled variant), the pure
Python ``SafeLoader`` otherwise. Both accept the same safe subset of YAML."""

from __future__ import annotations

from typing import IO, Any

import yaml

SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_load(stream: str | bytes | IO) -> Any:
    """``yaml.safe_load`` on the fastest safe loader available."""
    return yaml.load(stream, Loader=SafeLoader)
