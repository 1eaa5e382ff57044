"""Webhooks: a league's events, signed following Standard Webhooks and sent to the endpoints its owners chose.

- ``addresses``: which addresses may be sent to (no server-side request forgery);
- ``payloads``: what each event says;
- ``deliveries``: the delivery log: the deliveries an event makes, claiming an attempt, noting its answer;
- ``delivery``: one signed attempt over HTTP, and what follows from its answer;
- ``inprocess``: the sender used where no Celery worker runs (development without Redis).

Registering endpoints is a service (``games/services/webhooks.py``); which events make deliveries is
written in ``games/subscribers.py``, and the Celery tasks that send them are in ``games/tasks.py``.
Recording a hand never waits for any of it.
"""
