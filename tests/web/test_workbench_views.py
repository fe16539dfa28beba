"""Markdown briefs are rendered without letting raw HTML through."""

from __future__ import annotations

import pytest

pytest.importorskip("jinja2")
pytest.importorskip("markdown_it")


def test_markdown_renders_and_refuses_raw_html():
    from fdegym_env.web.views import markdown
    html = str(markdown("# Brief\n\n**bold** <script>alert(1)</script>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"))
    assert "<h1>Brief</h1>" in html and "<strong>bold</strong>" in html and "<table>" in html
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_timeline_cuts_long_arguments_with_an_ellipsis():
    from types import SimpleNamespace

    from fdegym_env.web.views import timeline_row
    e = SimpleNamespace(turn=1, action={"tool": "contact", "to": "night_editor", "message": "x" * 100},
                        valid=True, reward=0.0, customer_time=None, cost_so_far=0.0)
    args = timeline_row(e)["args"]
    assert args.startswith("to='night_editor', message='xxx") and args.endswith("'…")
