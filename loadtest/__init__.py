"""Scorekeeper's load and fault harness: real gunicorn, PostgreSQL, Redis and Celery on loopback.

``python -m loadtest`` (``make load``) runs the full load test and every fault scenario;
``tests/load/`` runs CI-sized versions of the same scenarios. See docs/load.md.
"""
