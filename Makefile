PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: venv run test lint

venv: $(STAMP)

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(VENV)/bin/pip install -e '.[dev]'
	touch $(STAMP)

run: venv
	$(VENV)/bin/python manage.py migrate --noinput
	scripts/run_dev.sh

test: venv
	scripts/test.sh

lint: venv
	$(VENV)/bin/ruff check .
