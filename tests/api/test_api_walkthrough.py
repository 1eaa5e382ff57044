"""Runs every curl example in docs/api.md, in order, and checks the response shown after it.

A ```bash block holding a curl command is followed by a ```http block: a status line, any headers, a blank
line and a JSON body. The body shown may leave fields out; every field it does show must match, and so must
every header shown. A ``text/csv`` body is compared line by line; a line shown ending in ``...`` need only
begin the same. A ``"$NAME"`` value in a body shown binds that name (``$TOKEN``: the token of the first
sign-up), used from then on in later requests' URLs, headers and bodies.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from rest_framework.test import APIClient

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
BLOCK = re.compile(r"```(bash|http)\n(.*?)```", re.S)


def examples(text: str) -> list[tuple[str, str]]:
    blocks = BLOCK.findall(text)
    pairs = []
    for (kind, body), (next_kind, answer) in zip(blocks, blocks[1:], strict=False):
        if kind == "bash" and "curl " in body:
            assert next_kind == "http", f"no response shown after:\n{body}"
            pairs.append((body, answer))
    return pairs


def parse_curl(command: str, variables: dict[str, str]) -> dict:
    words = shlex.split(command.replace("\\\n", " "))
    assert words[0] == "curl"
    request = {"method": "GET", "headers": {}, "data": None, "url": None}
    words = iter(words[1:])
    for word in words:
        if word == "-X":
            request["method"] = next(words)
        elif word == "-H":
            name, value = next(words).split(":", 1)
            request["headers"][name.strip()] = substitute(value.strip(), variables)
        elif word == "-d":
            request["data"] = substitute(next(words), variables)
        elif substitute(word, variables).startswith("http"):
            url = urlsplit(substitute(word, variables))
            request["url"] = url.path + (f"?{url.query}" if url.query else "")
        else:
            raise AssertionError(f"the walkthrough test does not know curl option {word!r}")
    if request["data"] is not None and request["method"] == "GET":
        request["method"] = "POST"
    return request


def substitute(text: str, variables: dict[str, str]) -> str:
    for name, value in variables.items():
        text = text.replace(f"${name}", value)
    return text


def parse_answer(answer: str) -> tuple[int, dict[str, str], str]:
    head, _, body = answer.partition("\n\n")
    status_line, *header_lines = head.split("\n")
    headers = dict(line.split(": ", 1) for line in header_lines if line.strip())
    return int(status_line.split()[1]), headers, body


def csv_matches(shown: str, actual: str, where: str) -> None:
    shown_lines, actual_lines = shown.strip().split("\n"), actual.lstrip("\ufeff").strip().split("\r\n")
    assert len(shown_lines) == len(actual_lines), f"{where}: {actual_lines!r}"
    for line, got in zip(shown_lines, actual_lines, strict=True):
        if line.endswith("..."):
            assert got.startswith(line[:-3]), f"{where}: documented {line!r}, got {got!r}"
        else:
            assert got == line, f"{where}: documented {line!r}, got {got!r}"


def send(client: APIClient, request: dict):
    extra = {f"HTTP_{name.upper().replace('-', '_')}": value for name, value in request["headers"].items()
             if name.lower() != "content-type"}
    kwargs = {"content_type": request["headers"].get("Content-Type", "application/json")}
    if request["data"] is not None:
        kwargs["data"] = request["data"]
    return client.generic(request["method"], request["url"], **kwargs, **extra)


def matches(shown, actual, variables: dict[str, str], where: str = "body") -> None:
    """Every field ``shown`` in the docs is in ``actual``; ``"$NAME"`` binds a variable the first time."""
    if isinstance(shown, str) and shown.startswith("$") and shown[1:].isupper():
        name = shown[1:]
        variables.setdefault(name, actual)
        assert actual == variables[name], where
    elif isinstance(shown, dict):
        assert isinstance(actual, dict), f"{where}: expected an object, got {actual!r}"
        for key, value in shown.items():
            assert key in actual, f"{where}: no {key!r} in {actual!r}"
            matches(value, actual[key], variables, f"{where}.{key}")
    elif isinstance(shown, list):
        assert isinstance(actual, list) and len(actual) == len(shown), f"{where}: {actual!r}"
        for n, (value, got) in enumerate(zip(shown, actual, strict=True)):
            matches(value, got, variables, f"{where}[{n}]")
    else:
        assert actual == shown, f"{where}: documented {shown!r}, got {actual!r}"


def test_the_docs_have_a_walkthrough():
    assert len(examples(DOC.read_text())) >= 15


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_walkthrough_in_docs_runs(settings):
    settings.SIGNUP = "open"
    client = APIClient()
    variables: dict[str, str] = {}
    for number, (command, answer) in enumerate(examples(DOC.read_text()), start=1):
        request = parse_curl(command, variables)
        status, headers, body = parse_answer(answer)
        response = send(client, request)
        label = f"example {number}: {request['method']} {request['url']}"
        # A download (a backup, a CSV) may come as it is read: its whole body is ``getvalue()``.
        content = response.getvalue()
        assert response.status_code == status, f"{label}: {response.status_code} {content!r}"
        for name, value in headers.items():
            assert response.has_header(name), f"{label}: no {name} header"
            matches(value, response[name], variables, f"{label} {name}")
        if headers.get("Content-Type", "").startswith("text/csv"):
            csv_matches(body, content.decode(), label)
        elif body.strip():
            matches(json.loads(body), json.loads(content), variables, label)
