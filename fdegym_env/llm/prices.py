"""What a model call costs: one price table for every caller that meters spend.

:data:`PRICES` is in USD per million tokens, ``(input, output[, cached input])``; :func:`price_of`
looks a model up (exact name, else the longest key it starts with, after dropping a ``provider/``
prefix), :func:`cost_usd` prices one call's tokens.

``FDEGYM_LLM_PRICE="in,out[,cached]"`` (USD per million tokens) sets the price of the environment's
own model (the ``env`` role: LLM router, harness gateways and graders), for a model the table does
not know or a provider that charges otherwise; :func:`env_price` applies it. The agent under
evaluation takes extra entries through ``prices=`` instead.
"""

from __future__ import annotations

import os

Price = tuple[float, ...]

# List prices as published by the vendors at the time of writing; check yours and pass ``prices=``
# (or set FDEGYM_LLM_PRICE for the environment's model) to override or extend.
PRICES: dict[str, Price] = {
    "gpt-4o": (2.50, 10.00, 1.25),
    "gpt-4o-mini": (0.15, 0.60, 0.075),
    "gpt-4.1": (2.00, 8.00, 0.50),
    "gpt-4.1-mini": (0.40, 1.60, 0.10),
    "gpt-4.1-nano": (0.10, 0.40, 0.025),
    "o3": (2.00, 8.00, 0.50),
    "o4-mini": (1.10, 4.40, 0.275),
    "claude-sonnet-4": (3.00, 15.00, 0.30),
    "claude-opus-4": (15.00, 75.00, 1.50),
    "claude-3-5-haiku": (0.80, 4.00, 0.08),
    "fdegym-fake": (1.00, 2.00, 0.50),  # the scripted test server (fdegym_env.testing.fake_llm)
}
PRICE_ENV = "FDEGYM_LLM_PRICE"


def price_of(model: str, prices: dict[str, Price] | None = None) -> Price | None:
    """The price entry of ``model`` in :data:`PRICES` updated with ``prices``; ``None`` if unknown.

    Example:
        >>> price_of("gpt-4o-mini-2024-07-18") == price_of("openai/gpt-4o-mini") == PRICES["gpt-4o-mini"]
        True
        >>> price_of("mystery"), price_of("mystery", {"mystery": (1, 2)})
        (None, (1, 2))
    """
    table = {**PRICES, **(prices or {})}
    for name in (model, model.split("/", 1)[-1]):
        if name in table:
            return tuple(table[name])
        keys = [k for k in table if name.startswith(k)]
        if keys:
            return tuple(table[max(keys, key=len)])
    return None


def parse_price(text: str) -> Price:
    """``"in,out[,cached]"`` (USD per million tokens) -> a price entry; empty fields are 0.

    Example:
        >>> parse_price("0.27,1.10"), parse_price("1")
        ((0.27, 1.1), (1.0, 0.0))
    """
    try:
        parts = [float(x or 0) for x in text.split(",")]
    except ValueError:
        raise ValueError(f"{PRICE_ENV}: expected 'in,out[,cached]' in USD per million tokens, got {text!r}") from None
    return tuple((parts + [0.0, 0.0])[:max(2, min(3, len(parts)))])


def env_price(model: str, environ: dict[str, str] | None = None) -> Price | None:
    """The price of the environment's model: ``FDEGYM_LLM_PRICE`` when set, else :func:`price_of`."""
    env = os.environ if environ is None else environ
    if env.get(PRICE_ENV):
        return parse_price(env[PRICE_ENV])
    return price_of(model)


def cost_usd(price: Price | None, prompt_tokens: int, completion_tokens: int, cached_tokens: int = 0) -> float:
    """USD of one call: uncached and cached input, and output, at ``price`` (``None``: unpriced, 0).

    Example:
        >>> cost_usd((1.0, 2.0, 0.5), 1000, 100, cached_tokens=400)
        0.001
    """
    if price is None:
        return 0.0
    pin, pout = price[0], price[1]
    pcached = price[2] if len(price) > 2 else pin
    return round(((prompt_tokens - cached_tokens) * pin + cached_tokens * pcached + completion_tokens * pout) / 1e6,
                 12)
