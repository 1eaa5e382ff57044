# Scorekeeper. `make run` serves the site on http://127.0.0.1:8000/ (`make run PORT=8001`: on another port);
# `make test` runs every test.
PYTHON ?= python3.11
PORT ?= 8000
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The JavaScript tools (ESLint, and what the unit tests need), installed by npm from package-lock.json.
NODE_STAMP := node_modules/.installed

# `make test` options: MARKERS picks tests by marker (pytest -m), WORKERS sets how many processes share
# the run (pytest-xdist; "auto": one per core, 0: just one), PYTEST_ARGS passes anything else to pytest.
#   make test MARKERS="not services and not browser"
#   make test PYTEST_ARGS="tests/rules -x" WORKERS=0
MARKERS ?=
WORKERS ?= auto
PYTEST_ARGS ?=

# A run starts many Python processes (the parallel test processes, gunicorn, Celery workers, manage.py): each
# reuses the compiled modules (__pycache__/, ignored by git) instead of compiling the project again.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: install run test test-python test-js test-services screenshots lint worker beat bench bench-growth load serve-prod serve-live clean

install: $(STAMP) $(NODE_STAMP)

# Reinstall only when the declared dependencies change.
$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Scorekeeper needs Python 3.11 ($(PYTHON) not found)"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $(STAMP)

$(NODE_STAMP): package.json package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "Scorekeeper needs Node.js 18.18 or newer with npm (npm not found)"; exit 1; }
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

run: install
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py load_demo --if-empty
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

test: test-js test-python

test-python: install
	$(BIN)/python -m pytest -n $(WORKERS) --dist loadgroup $(if $(MARKERS),-m "$(MARKERS)") $(PYTEST_ARGS)

# The JavaScript unit tests (tests/js/): the outbox, the steps, the sums, with Node's own test runner.
test-js: install
	node --test --test-reporter=spec tests/js/

# Only the tests that need PostgreSQL, Redis or Chromium, failing (not skipping) where one is missing:
#   DATABASE_URL=postgres://... REDIS_URL=redis://... make test-services
test-services:
	REQUIRE_SERVICES=1 $(MAKE) test-python MARKERS="services or browser"

# The README's pictures of the main pages at phone and desktop sizes, from real headless Chromium.
screenshots: install
	SCREENSHOTS_DIR=$(CURDIR)/docs/screenshots REQUIRE_SERVICES=1 \
		$(BIN)/python -m pytest tests/pages/browser/test_screenshots.py tests/pages/browser/test_table_offline.py \
		tests/pages/browser/test_every_phone.py tests/pages/browser/test_confirm_phones.py \
		tests/pages/browser/test_night_board.py \
		tests/pages/browser/test_club_night.py

lint: install
	$(BIN)/ruff check .
	npx --no-install eslint .
	$(BIN)/lint-imports
	$(BIN)/mypy
	$(BIN)/python manage.py makemigrations --check --dry-run

# Mutation testing of the rules engine (docs/rules.md, "How closely the tests check the rules"): mutmut makes
# every small change it can to games/rules/, one at a time, and runs the rules tests against each; a change no
# test notices survives. Fails when fewer than MUTANTS_MIN per cent are killed. MUTANTS_BASE=<ref> tests only the
# rules modules changed since the merge base with <ref> (what CI runs: `make mutants MUTANTS_BASE=main`).
# mutants/ keeps the results, so a later run retests only the functions that changed. `mutmut results` lists
# the survivors, `mutmut show NAME` shows one.
MUTANT_WORKERS ?= 2
MUTANTS_MIN ?= 98
MUTANTS_BASE ?=
mutants: install
	$(BIN)/python -m pip install --quiet -e ".[test,mutants]"
	@if [ -n "$(MUTANTS_BASE)" ]; then \
	  base=$$(git merge-base HEAD $(MUTANTS_BASE)) || exit 1; \
	  changed=$$(git diff --name-only $$base -- 'games/rules/*.py' \
	    | sed -e 's|\.py$$||' -e 's|/|.|g' -e 's|\.__init__$$|.x_|' -e 's|$$|*|'); \
	  if [ -z "$$changed" ]; then echo "No rules module changed since $(MUTANTS_BASE): no mutants to run."; exit 0; fi; \
	  echo "Rules modules changed since $(MUTANTS_BASE): $$changed"; \
	fi; \
	$(BIN)/mutmut run --max-children $(MUTANT_WORKERS) $$changed && $(BIN)/mutmut export-cicd-stats && \
	$(BIN)/python -c 'import json, sys; s = json.load(open("mutants/mutmut-cicd-stats.json")); \
	  k = s["killed"] + s["timeout"]; n = k + s["survived"] + s["no_tests"] + s["suspicious"] + s["segfault"]; \
	  print(k, "of", n, "mutants killed:", round(100 * k / max(n, 1), 1), "per cent;", s["survived"], "survived,", \
	        s["no_tests"], "reached by no test"); sys.exit(100 * k < $(MUTANTS_MIN) * n)'

worker: install
	$(BIN)/celery -A scorekeeper worker --loglevel=info

# The periodic standings catch-up (CELERY_BEAT_SCHEDULE). Run exactly one beat per deployment.
beat: install
	$(BIN)/celery -A scorekeeper beat --loglevel=info

# Benchmarks and their targets: docs/benchmarks.md. PostgreSQL and Redis from DATABASE_URL/REDIS_URL, or started
# for the run (BENCH_POSTGRES_PORT, BENCH_REDIS_PORT: their ports, a free one by default); the run's own database
# is scorekeeper_bench (BENCH_DATABASE: another name). BENCH_ARGS passes options: `make bench BENCH_ARGS="--only
# recording,workers"`, `--only club_night --night-tables 20`; `make bench-growth`: the exports at 2,000, 20,000
# and 100,000 games (as far as ten minutes of building allow) with their growth table.
BENCH_ARGS ?=
bench: install
	$(BIN)/python -m bench.run $(BENCH_ARGS)

bench-growth: install
	$(BIN)/python -m bench.run --growth $(BENCH_ARGS)

# The full load test (50 tables) and every fault scenario (docs/load.md).
load: install
	$(BIN)/python -m loadtest

# Production serving: needs DJANGO_ENV=production, SECRET_KEY, ALLOWED_HOSTS (see docs/deploy.md).
serve-prod: install
	$(BIN)/python manage.py check --deploy --fail-level WARNING
	$(BIN)/python manage.py collectstatic --no-input
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/gunicorn scorekeeper.wsgi -c gunicorn.conf.py

# The live pages' polls on a gunicorn of their own beside serve-prod's, for the proxy to route them to (docs/deploy.md,
# "A club night on one app server"); the same settings and code, so either answers any page.
LIVE_BIND ?= 127.0.0.1:8001
LIVE_WORKERS ?= 1
serve-live: install
	BIND=$(LIVE_BIND) WEB_WORKERS=$(LIVE_WORKERS) $(BIN)/gunicorn scorekeeper.wsgi -c gunicorn.conf.py

clean:
	rm -rf $(VENV) node_modules .pytest_cache .ruff_cache .mypy_cache .hypothesis staticfiles mutants
