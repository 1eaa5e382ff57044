"""A small blocking HTTP client for the API (stdlib only), safe to use from many threads at once.

gunicorn's sync workers close the connection after every response, so each request opens its
own; a lost connection or a timeout is a reply with status 0, never an exception.
"""

from __future__ import annotations

import http.client
import json
import math
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit


@dataclass(frozen=True)
class Reply:
    status: int  # 0: no answer (connection refused, dropped or timed out)
    body: Any
    seconds: float
    headers: dict[str, str] = field(default_factory=dict)
    sent_at: float = 0.0  # time.monotonic() when the request was sent

    @property
    def code(self) -> str | None:
        return self.body.get("code") if isinstance(self.body, dict) else None

    @property
    def failed(self) -> bool:
        """No answer or a server error: the outcome is unknown and the request may be retried."""
        return self.status == 0 or self.status >= 500


class Api:
    def __init__(self, base_url: str, token: str | None = None, timeout: float = 30.0):
        parts = urlsplit(base_url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.token, self.timeout = token, timeout

    def request(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Reply:
        sent = {"Accept": "application/json", **(headers or {})}
        if self.token:
            sent["Authorization"] = f"Token {self.token}"
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        started, sent_at = time.perf_counter(), time.monotonic()
        connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        try:
            connection.request(method, path, body=payload, headers=sent)
            response = connection.getresponse()
            raw = response.read()
            status, answer_headers = response.status, {k.lower(): v for k, v in response.getheaders()}
        except (OSError, http.client.HTTPException) as error:  # TimeoutError is an OSError
            return Reply(0, f"{error.__class__.__name__}: {error}", time.perf_counter() - started, sent_at=sent_at)
        finally:
            connection.close()
        seconds = time.perf_counter() - started
        try:
            parsed: Any = json.loads(raw) if raw else None
        except ValueError:
            parsed = raw[:300].decode(errors="replace")
        return Reply(status, parsed, seconds, answer_headers, sent_at)

    def get(self, path: str) -> Reply:
        return self.request("GET", path)

    def post(self, path: str, body: Any, headers: dict[str, str] | None = None) -> Reply:
        return self.request("POST", path, body, headers)


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile (``fraction`` in 0..1) of ``values``; 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = min(len(ordered), max(1, math.ceil(fraction * len(ordered))))
    return ordered[rank - 1]
