"""The baseline of the recording benchmark: a minimal DRF endpoint that inserts one row.

Mounted at ``/bench/insert/`` only when ``SCOREKEEPER_BENCH_ENDPOINT=1`` (see scorekeeper/urls.py),
so it exists in the gunicorn that ``make bench`` starts and nowhere else. It goes through the
same middleware, JSON parsing and PostgreSQL connection as a hand, with DRF's token authentication
as DRF ships it, and does the least a write can: one INSERT of the body into a table the benchmark
creates. The difference between the two is the cost of Scorekeeper's own work (lock, rules,
idempotency), less what it saves (its token read written out once).
"""

from __future__ import annotations

import json

from django.db import connection, transaction
from django.urls import path
from rest_framework import status
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

CREATE_TABLE = (
    "CREATE TABLE IF NOT EXISTS bench_insert "
    "(id bigserial PRIMARY KEY, body jsonb NOT NULL, inserted_at timestamptz NOT NULL DEFAULT now())"
)


class MinimalInsert(APIView):
    # DRF's own token authentication, as a minimal DRF service has it (Scorekeeper's reads the token with a
    # statement written out once: a part of its own work, measured against this).
    authentication_classes = [TokenAuthentication, SessionAuthentication]
    permission_classes = [IsAuthenticated]

    def post(self, request):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("INSERT INTO bench_insert (body) VALUES (%s) RETURNING id", [json.dumps(request.data)])
            (row_id,) = cursor.fetchone()
        return Response({"id": row_id}, status=status.HTTP_201_CREATED)


urlpatterns = [path("insert/", MinimalInsert.as_view(), name="bench-insert")]
