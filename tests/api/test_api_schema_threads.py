"""The schema is built by one thread at a time: gunicorn's threaded workers answer several clients loading it at
once, and two builds side by side describe each other's views (a 500 each)."""

from concurrent.futures import ThreadPoolExecutor

from django.test import Client


def test_the_schema_loaded_by_four_clients_at_once_answers_each_of_them():
    def load(_):
        return Client().get("/api/v1/schema/?format=json").status_code

    with ThreadPoolExecutor(max_workers=4) as pool:
        assert list(pool.map(load, range(4))) == [200, 200, 200, 200]
