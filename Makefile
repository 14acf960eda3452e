PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: venv run demo test lint messages

venv: $(STAMP)

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(VENV)/bin/pip install -e '.[dev]'
	touch $(STAMP)

# Compiled message catalogs (.mo) are built here, never committed (see .gitignore).
messages: venv
	@command -v msgfmt >/dev/null 2>&1 || { \
	    if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	        echo "Installing gettext (msgfmt compiles the translations)"; \
	        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext; \
	    else \
	        echo "msgfmt not found: install GNU gettext (e.g. apt-get install gettext)" >&2; exit 1; \
	    fi; }
	DEBUG=true $(VENV)/bin/python manage.py compilemessages --ignore .venv --ignore var -v 0

# scripts/run_dev.sh migrates, collects the static files and serves with DEBUG=true.
run: venv messages
	scripts/run_dev.sh

# The README's walkthrough against a running `make run` (BASE=http://127.0.0.1:8000 by default).
demo:
	scripts/demo.sh $(BASE)

test: venv messages
	scripts/test.sh

lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
