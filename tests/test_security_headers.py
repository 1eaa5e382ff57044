"""A Content-Security-Policy on every page, templates that need no inline script or style, TRACE refused and
OPTIONS answered everywhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I), "an inline <script>"),
    (re.compile(r"<style\b", re.I), "a <style> element"),
    (re.compile(r"\sstyle\s*=", re.I), "a style attribute"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "an event handler attribute"),
    (re.compile(r"javascript:", re.I), "a javascript: URL"),
]


def policy(response) -> dict[str, str]:
    header = response["Content-Security-Policy"]
    return {part.split()[0]: part.strip() for part in header.split(";") if part.strip()}


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/no-such-page/", "/api/v1/games/", "/admin/login/"])
def test_every_answer_carries_a_policy_without_inline_script_or_style(client, db, path):
    directives = policy(client.get(path))
    assert directives["default-src"] == "default-src 'self'"
    assert directives["script-src"] == "script-src 'self'"
    assert directives["style-src"] == "style-src 'self'"
    assert directives["frame-ancestors"] == "frame-ancestors 'none'"
    assert "unsafe" not in "".join(directives.values())


def test_only_the_api_documentation_relaxes_it_and_only_for_images(client, db):
    directives = policy(client.get("/api/v1/docs/"))
    assert directives["img-src"] == "img-src 'self' data:"
    assert directives["script-src"] == "script-src 'self'" and directives["style-src"] == "style-src 'self'"


@pytest.mark.parametrize("template", sorted(TEMPLATES.rglob("*.html")), ids=lambda path: path.name)
def test_our_templates_have_no_inline_script_or_style(template):
    text = template.read_text()
    for pattern, what in INLINE:
        assert not pattern.search(text), f"{template.relative_to(TEMPLATES)} has {what}"


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/api/v1/games/", "/api/v1/schema/", "/healthz"])
def test_trace_is_refused(client, db, path):
    response = client.generic("TRACE", path)
    assert response.status_code == 405
    assert "TRACE" not in response["Allow"]


@pytest.mark.parametrize(("path", "allowed"), [
    ("/api/v1/games/", {"GET", "POST", "HEAD", "OPTIONS"}),
    ("/api/v1/games/1/hands/1/", {"GET", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}),
    ("/", {"GET", "HEAD", "POST", "OPTIONS"}),
    ("/accounts/login/", {"GET", "POST", "PUT", "HEAD", "OPTIONS"}),  # Django's form view takes PUT as POST
])
def test_options_is_answered_with_what_is_allowed(client, db, path, allowed):
    response = client.options(path)
    assert response.status_code == 204
    assert set(response["Allow"].split(", ")) == allowed


def test_a_method_a_page_does_not_answer_is_405(client, db):
    response = client.put("/")
    assert response.status_code == 405
    assert "PUT" not in response["Allow"]
