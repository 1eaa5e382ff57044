"""gunicorn settings for Scorekeeper (``make serve-prod``); each can be overridden from the environment."""

import multiprocessing
import os

bind = os.environ.get("BIND", "127.0.0.1:8000")
# One worker per core (at least two): a request is CPU work in the worker and the database, not waiting, so workers
# beyond the cores only queue behind one another and lengthen the tail (docs/deploy.md, make bench).
workers = int(os.environ.get("WEB_WORKERS", max(2, multiprocessing.cpu_count())))
# Four threads a worker: a request is taken at once by a thread, not left in the socket's queue until a worker is
# free, so a hand does not wait behind the polls of the pages watching a club night, and a worker goes on with another
# request while one waits on the database. make bench measured more hands a second at the same p99 than with sync
# workers, and a smaller slowdown of recording by a night's watchers (docs/deploy.md).
threads = int(os.environ.get("WEB_THREADS", "4"))
# The threaded worker, whatever the threads: its main loop tells the arbiter it is alive while a request is being
# answered, where the sync worker only does so between requests, so a sync worker sending a download for longer
# than ``timeout`` (a large league's backup streams for a minute; a phone on a slow network reads slowly) is
# killed mid-stream and the download arrives cut short.
worker_class = os.environ.get("WEB_WORKER_CLASS", "gthread")
timeout = int(os.environ.get("WEB_TIMEOUT", "30"))
graceful_timeout = 20
# Recycle workers now and then (0: never, as the benchmarks do so as to measure steady serving).
max_requests = int(os.environ.get("WEB_MAX_REQUESTS", "2000"))
max_requests_jitter = max_requests // 10
accesslog = "-"
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms id=%({x-request-id}o)s'
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
# What gunicorn refuses before Scorekeeper sees the request, with its own small HTML page (not the API's
# JSON): a request line (method, path and query string) over limit_request_line bytes is a 400; more than
# limit_request_fields headers, or one longer than limit_request_field_size bytes, a 431. These are the
# largest values gunicorn allows for the line and a header; docs/deploy.md and docs/api.md list them.
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190
