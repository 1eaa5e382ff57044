"""Webhooks: a league's events, signed following Standard Webhooks and sent to the endpoints its owners chose.

- ``addresses``: which addresses may be sent to (no server-side request forgery);
- ``payloads``: what each event says;
- ``dispatch``: turning an event into deliveries once the transaction commits, and queueing them;
- ``delivery``: one signed attempt over HTTP, and what follows from its answer;
- ``inprocess``: the sender used where no Celery worker runs (development without Redis).

Registering endpoints and recording attempts are services (``games/services/webhooks.py``); the
Celery tasks are in ``games/tasks.py``. Recording a hand never waits for any of it.
"""
