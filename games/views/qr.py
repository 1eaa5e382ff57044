"""A link as a QR code (SVG, drawn here: no outside service), to show on a phone or print."""

from __future__ import annotations

import io

import segno
from django.http import HttpResponse


def qr_response(link: str, *, title: str) -> HttpResponse:
    """``link`` as a QR code image; private and never stored (the link it carries is a secret)."""
    svg = io.BytesIO()
    segno.make(link, error="m").save(svg, kind="svg", scale=8, border=2, dark="#111", light="#fff", title=title)
    response = HttpResponse(svg.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "private, no-store"
    return response


def qr_inline(link: str, *, title: str) -> str:
    """``link`` as a QR code to put in a page (an ``<svg>`` element): the printed table cards carry several."""
    return segno.make(link, error="m").svg_inline(border=2, dark="#000", light="#fff", title=title, omitsize=True)
