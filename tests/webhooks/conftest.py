"""A real HTTP receiver on loopback that checks each delivery's signature with the standardwebhooks package,
as an integrator's server would, and an endpoint registered for it."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from standardwebhooks import Webhook, WebhookVerificationError

from tests.api.conftest import anonymous, as_owner, client_for, private_league  # noqa: F401  (the API's actors)


class Receiver:
    """Answers each POST with the next status of ``answers`` (then 200), and keeps what it verified."""

    def __init__(self):
        self.secret: str | None = None
        self.answers: list[int] = []
        self.received: list[dict] = []  # verified deliveries: {"headers", "event"}
        self.refused: list[str] = []  # why a delivery's signature did not verify
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - the http.server name
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                headers = {name.lower(): value for name, value in self.headers.items()}
                with receiver.lock:
                    status = receiver.answers.pop(0) if receiver.answers else 200
                    try:
                        event = Webhook(receiver.secret).verify(body, headers)
                    except WebhookVerificationError as error:
                        receiver.refused.append(str(error))
                        status = 400
                    else:
                        receiver.received.append({"headers": headers, "event": event, "status": status})
                self.send_response(status)
                self.send_header("Content-Type", "text/plain")
                self.end_headers()
                self.wfile.write(b"ok" if status < 300 else b"not now")

            def log_message(self, *args):  # keep the test output quiet
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks/scorekeeper"
        # shutdown() waits for the loop's next look at its flag: every 20 ms, not the default half second.
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    def events(self, kind: str | None = None) -> list[dict]:
        with self.lock:
            return [item["event"] for item in self.received if kind is None or item["event"]["type"] == kind]

    def wait_for(self, count: int, kind: str | None = None, timeout: float = 20.0) -> list[dict]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            events = self.events(kind)
            if len(events) >= count:
                return events
            time.sleep(0.05)
        raise AssertionError(f"the receiver got {self.received!r} (refused: {self.refused!r})")


@pytest.fixture
def receiver():
    receiver = Receiver()
    receiver.thread.start()
    yield receiver
    receiver.server.shutdown()
    receiver.server.server_close()


@pytest.fixture
def endpoint(league, owner, receiver):
    """An endpoint of the league for every event, pointing at the receiver (which learns its secret)."""
    from games.models import WEBHOOK_EVENTS
    from games.services import webhook_create

    made = webhook_create(league=league, url=receiver.url, events=list(WEBHOOK_EVENTS), by=owner)
    receiver.secret = made.secret
    return made

