PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: venv run demo test lint messages catalogs lock lock-upgrade add secrets

venv: $(STAMP)

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

# Everything is installed from the lock (requirements/dev.txt: exact versions with hashes), never
# from pyproject.toml's ranges; the code runs from this folder (a .pth file, no build step).
$(STAMP): pyproject.toml requirements/dev.txt | $(VENV)/bin/python
	$(VENV)/bin/python scripts/lockcheck.py
	$(VENV)/bin/pip install --quiet --require-hashes -r requirements/dev.txt
	$(VENV)/bin/python -c 'import pathlib, sysconfig; \
	    site = pathlib.Path(sysconfig.get_paths()["purelib"]); \
	    (site / "crazy10s-online.pth").write_text(str(pathlib.Path.cwd()) + "\n")'
	touch $(STAMP)

# The locks (README, "Dependencies"): after changing pyproject.toml's requirements, `make lock`;
# `make add DEP='name>=1,<2'` (DEV=1: the dev extra) adds one and locks; `make lock-upgrade`
# moves every pin to the newest version the ranges allow. pip-compile reads PyPI alone: no local
# wheel folder or extra index of this machine ends up in the lock.
PIP_COMPILE = env -u PIP_FIND_LINKS -u PIP_EXTRA_INDEX_URL -u PIP_INDEX_URL PIP_CONFIG_FILE=/dev/null \
	CUSTOM_COMPILE_COMMAND="make lock" $(VENV)/bin/pip-compile --quiet --generate-hashes \
	--allow-unsafe --strip-extras --no-emit-index-url --no-emit-find-links \
	--index-url https://pypi.org/simple $(UPGRADE)

$(VENV)/bin/pip-compile: | $(VENV)/bin/python
	$(VENV)/bin/pip install --quiet --require-hashes -r requirements/dev.txt

lock: $(VENV)/bin/pip-compile
	$(PIP_COMPILE) --extra dev --output-file requirements/dev.txt pyproject.toml
	$(PIP_COMPILE) --constraint requirements/dev.txt --output-file requirements/base.txt pyproject.toml
	$(MAKE) venv

lock-upgrade:
	$(MAKE) lock UPGRADE=--upgrade

add:
	@test -n "$(DEP)" || { echo "usage: make add DEP='name>=1,<2' [DEV=1]" >&2; exit 2; }
	$(PYTHON) scripts/add_dependency.py $(if $(DEV),--dev) '$(DEP)'
	$(MAKE) lock

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

# Extract the marked texts into the catalogs (then translate the new entries). No source
# locations in the catalogs: they would change with every edit of the code and make every
# branch's catalogs conflict.
catalogs: venv
	DEBUG=true $(VENV)/bin/python manage.py makemessages -a --no-location --no-obsolete \
	    $(foreach d,.venv var tests bench control build locale scripts,--ignore $(d)) -v 0

# scripts/run_dev.sh migrates, collects the static files and serves with DEBUG=true.
run: venv messages
	scripts/run_dev.sh

# The README's walkthrough against a running `make run` (BASE=http://127.0.0.1:8000 by default).
demo:
	scripts/demo.sh $(BASE)

test: venv messages
	scripts/test.sh

# mypy's settings and the packages it checks are in pyproject.toml ([tool.mypy]); its django
# plugin imports the settings, which DEBUG=true lets load without the production secrets.
lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	DEBUG=true $(VENV)/bin/mypy

# Production secrets, generated once and kept (README, "Production"): docker compose reads .env.
# A new SECRET_KEY ends every session and sent link; a new PUZZLE_SECRET changes the puzzles.
secrets:
	@if [ -e .env ]; then echo ".env exists: its secrets are kept (README, 'Production')" >&2; \
	    exit 1; fi
	@umask 077 && $(PYTHON) -c 'import secrets; \
	    print("SECRET_KEY=" + secrets.token_urlsafe(50)); \
	    print("PUZZLE_SECRET=" + secrets.token_urlsafe(50))' > .env
	@echo "Wrote .env (SECRET_KEY, PUZZLE_SECRET): keep it and back it up; it is never committed"
