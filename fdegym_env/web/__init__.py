"""The fdegym workbench: practise delivery in a browser, watch recorded runs, compare on a
leaderboard (``fdegym serve``, extra ``[web]``). See :mod:`fdegym_env.web.app`."""

from __future__ import annotations


def create_app(*args, **kwargs):
    """Build the Starlette app (see :func:`fdegym_env.web.app.create_app`)."""
    try:
        from fdegym_env.web.app import create_app as _create
    except ImportError as e:  # starlette/jinja2 missing
        raise ImportError(f"the workbench needs the [web] extra: pip install 'fdegym[web]' ({e})") from None
    return _create(*args, **kwargs)
