# Everything bootstraps its own virtualenv in .venv from pyproject.toml.
PY ?= python3
VENV ?= .venv
BIN = $(VENV)/bin
STAMP = $(VENV)/.installed-stamp
RUN_STAMP = $(VENV)/.runtime-stamp
ADDR ?= 127.0.0.1:8000

# Links in pages and mail point at the address actually served unless SITE_URL is set.
export SITE_URL ?= http://$(ADDR)

.PHONY: install install-runtime run test lint migrate demo worker beat clean

# `make run` needs only the runtime dependencies; `make test`/`make install` add the
# test extras (pytest, hypothesis, schemathesis, playwright...).
$(RUN_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e .
	touch $(RUN_STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[test]"
	touch $(STAMP) $(RUN_STAMP)

install: $(STAMP)
install-runtime: $(RUN_STAMP)

migrate: install-runtime
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	$(BIN)/python manage.py demo

# The embedded default: SQLite in ./var, tasks in-process, sweep beside the web server.
# A local development server: DEBUG on (and its development key) unless the env says else.
run demo migrate: export DEBUG ?= 1
run: demo
	$(BIN)/python manage.py serve $(ADDR)

lint: install
	$(BIN)/ruff check .
	$(BIN)/lint-imports

test: install
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# Production-style processes (need CELERY_BROKER_URL and usually DATABASE_URL).
# One worker for turns and mail (production runs them apart: deploy/). It is started
# again whenever it exits with an error, so a broker outage never leaves it down.
QUEUES ?= gm,gm-mail
worker: install-runtime
	until $(BIN)/celery -A gm worker -l info -Q $(QUEUES); do \
		echo "celery worker exited ($$?); restarting in 2 s" >&2; sleep 2; done
beat: install-runtime
	$(BIN)/celery -A gm beat -l info

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache .ruff_cache .hypothesis
