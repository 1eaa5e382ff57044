"""One attempt at a delivery: sign it (Standard Webhooks), send it, and note what came back.

The request goes to the address checked just before (``addresses.checked_target``), not to a second
lookup of the name, with the name kept for the ``Host`` header and for checking the certificate.
Redirects are not followed: a redirect could lead anywhere, past the address check.
"""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime

import urllib3
from django.conf import settings
from standardwebhooks import Webhook
from urllib3 import exceptions as http_errors

from games.models import WebhookDelivery

from . import deliveries
from .addresses import AddressRefused, Target, checked_target
from .deliveries import Answer

USER_AGENT = "Scorekeeper-Webhooks/1"
# How much of a receiver's answer the delivery log keeps.
RESPONSE_EXCERPT = 1000


def signed_request(delivery: WebhookDelivery, moment: datetime) -> tuple[bytes, dict[str, str]]:
    """The body and the Standard Webhooks headers (``webhook-id``, ``-timestamp``, ``-signature``)."""
    body = json.dumps(delivery.payload, separators=(",", ":"), ensure_ascii=False)
    signature = Webhook(delivery.endpoint.secret).sign(delivery.message_id, moment, body)
    headers = {
        "webhook-id": delivery.message_id,
        "webhook-timestamp": str(int(moment.timestamp())),
        "webhook-signature": signature,
        "content-type": "application/json",
        "user-agent": USER_AGENT,
    }
    return body.encode(), headers


def pool_for(target: Target, timeout: float) -> urllib3.HTTPConnectionPool:
    """A one-connection pool to the checked address (the name kept for TLS), no retries of its own."""
    host = target.address or target.host
    limit = urllib3.Timeout(connect=timeout, read=timeout)
    if target.scheme == "https":
        return urllib3.HTTPSConnectionPool(host, port=target.port, timeout=limit, retries=False, maxsize=1,
                                           server_hostname=target.host, assert_hostname=target.host,
                                           cert_reqs="CERT_REQUIRED")
    return urllib3.HTTPConnectionPool(host, port=target.port, timeout=limit, retries=False, maxsize=1)


def reason(error: Exception, target: Target, timeout: float) -> str:
    """A sentence for the delivery log."""
    where = target.host_header
    # (NewConnectionError is a kind of ConnectTimeoutError in urllib3: ask for it first.)
    if isinstance(error, http_errors.NewConnectionError):
        cause = str(error).split(": ", 1)[-1]
        return f"could not connect to {where}: {cause}"
    if isinstance(error, http_errors.ConnectTimeoutError):
        return f"{where} did not accept a connection within {timeout:g} s"
    if isinstance(error, http_errors.ReadTimeoutError):
        return f"{where} did not answer within {timeout:g} s"
    if isinstance(error, http_errors.SSLError):
        return f"the TLS connection to {where} failed: {error}"
    return f"the request to {where} failed: {error}"


def post(delivery: WebhookDelivery) -> Answer:
    """Send the delivery once and say what happened; never raises for anything the receiver does."""
    timeout = float(settings.WEBHOOK_TIMEOUT)
    started = time.monotonic()
    try:
        target = checked_target(delivery.endpoint.url)
    except AddressRefused as error:
        return Answer(status_code=None, error=f"not sent: {error.message}")
    body, headers = signed_request(delivery, datetime.now(UTC))
    headers["host"] = target.host_header
    pool = pool_for(target, timeout)
    try:
        response = pool.urlopen("POST", target.path, body=body, headers=headers, redirect=False,
                                preload_content=False, assert_same_host=False)
        try:
            excerpt = response.read(RESPONSE_EXCERPT, decode_content=True)
        finally:
            response.release_conn()
        status_code = response.status
    except (http_errors.HTTPError, OSError) as error:
        return Answer(status_code=None, error=reason(error, target, timeout),
                      milliseconds=round(1000 * (time.monotonic() - started)))
    finally:
        pool.close()
    text = excerpt.decode("utf-8", "replace")
    refusal = "" if 200 <= status_code < 300 else (
        f"answered {status_code}; redirects are not followed: register the address it redirects to"
        if 300 <= status_code < 400 else f"answered {status_code}"
    )
    return Answer(status_code=status_code, error=refusal, response=text,
                  milliseconds=round(1000 * (time.monotonic() - started)))


def attempt_delivery(delivery_id: int, attempt: int) -> float | None:
    """Make attempt number ``attempt`` of a delivery, if it is still due; the seconds until the next
    attempt when it failed and another is due, else None."""
    delivery = deliveries.claim(delivery_id=delivery_id, attempt=attempt)
    if delivery is None:
        return None
    if not delivery.endpoint.is_active:
        answer = Answer(status_code=None, error="not sent: the endpoint is paused")
        return deliveries.note_answer(delivery=delivery, answer=answer, final=True)
    return deliveries.note_answer(delivery=delivery, answer=post(delivery))
