# Scorekeeper. `make run` serves the site on http://127.0.0.1:8000/; `make test` runs every test.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test lint worker beat bench load serve-prod clean

install: $(STAMP)

# Reinstall only when the declared dependencies change.
$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Scorekeeper needs Python 3.11 ($(PYTHON) not found)"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $(STAMP)

run: install
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py load_demo --if-empty
	$(BIN)/python manage.py runserver 127.0.0.1:8000

test: install
	$(BIN)/python -m pytest

lint: install
	$(BIN)/ruff check .
	$(BIN)/python manage.py makemigrations --check --dry-run

worker: install
	$(BIN)/celery -A scorekeeper worker --loglevel=info

# The periodic standings catch-up (CELERY_BEAT_SCHEDULE). Run exactly one beat per deployment.
beat: install
	$(BIN)/celery -A scorekeeper beat --loglevel=info

# Benchmarks and their targets: docs/benchmarks.md. PostgreSQL and Redis from DATABASE_URL/REDIS_URL, or started
# for the run (BENCH_POSTGRES_PORT, BENCH_REDIS_PORT: their ports, a free one by default).
bench: install
	$(BIN)/python -m bench.run

# The full load test (50 tables) and every fault scenario (docs/load.md).
load: install
	$(BIN)/python -m loadtest

# Production serving: needs DJANGO_ENV=production, SECRET_KEY, ALLOWED_HOSTS (see docs/deploy.md).
serve-prod: install
	$(BIN)/python manage.py check --deploy --fail-level WARNING
	$(BIN)/python manage.py collectstatic --no-input
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/gunicorn scorekeeper.wsgi -c gunicorn.conf.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis staticfiles
