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
