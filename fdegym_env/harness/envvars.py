"""The variant as environment variables while harness case code runs (the harness's convention)."""

from __future__ import annotations

import contextlib
import json
import os
import threading
from typing import Iterator

from fdegym_env.core.task import Variant

_ENV_LOCK = threading.RLock()


@contextlib.contextmanager
def variant_env(variant: Variant) -> Iterator[None]:
    """``FDEGYM_VARIANT`` and ``FDEGYM_VARIANT_PARAMS`` in ``os.environ`` while case code runs."""
    with _ENV_LOCK:
        saved = {k: os.environ.get(k) for k in ("FDEGYM_VARIANT", "FDEGYM_VARIANT_PARAMS")}
        os.environ["FDEGYM_VARIANT"] = variant.name
        os.environ["FDEGYM_VARIANT_PARAMS"] = json.dumps(variant.params, ensure_ascii=False)
        try:
            yield
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
