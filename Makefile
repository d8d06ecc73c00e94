# elo-pipeline: every target creates .venv on demand, from requirements.lock.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
LOCK   := requirements.lock

.PHONY: install demo test test-slow fuzz lint fmt bench check clean catalogs catalogs-update \
	lock lock-upgrade

# Installs the exact versions in $(LOCK), each checked against its hashes, wheels only (nothing
# is compiled): first the locked pip (the lock's pip== entry), which then installs the rest;
# then the project itself, without its dependencies (--no-deps) and built by the locked
# setuptools (--no-build-isolation), so nothing is resolved again. A changed pyproject.toml or
# lock reinstalls (a package dropped from the lock stays in .venv until `make clean install`).
$(STAMP): pyproject.toml $(LOCK)
	$(PYTHON) -m venv $(VENV)
	awk '/^[^ #]/ { pin = /^pip==/ } pin' $(LOCK) \
		| $(BIN)/python -m pip install --quiet --require-hashes --only-binary :all: -r /dev/stdin
	$(BIN)/python -m pip install --quiet --require-hashes --only-binary :all: -r $(LOCK)
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/elo run samples/ --registry samples/registry/players_list_foa.txt --out reports/demo

test: $(STAMP)
	$(BIN)/python -m pytest -q

test-slow: $(STAMP)
	$(BIN)/python -m pytest -q -m slow

fuzz: $(STAMP)
	$(BIN)/python -m pytest -q -m slow tests/ingest/test_fuzz.py

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

fmt: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(STAMP)
	$(BIN)/python -m bench

check: lint test

# --lang: compile pipeline/locale/<lang>/LC_MESSAGES/elo.po to the elo.mo shipped beside it
# (tests/test_i18n.py checks that the .mo is up to date and every text is translated)
catalogs: $(STAMP)
	$(BIN)/pybabel compile -d pipeline/locale -D elo --statistics

# after changing texts in the code or the templates (babel.cfg: where they are marked): the
# .po files take the new msgids (translate them,
# then make catalogs)
catalogs-update: $(STAMP)
	$(BIN)/pybabel extract --no-location --width 100 -F babel.cfg -o .elo.pot pipeline
	$(BIN)/pybabel update -i .elo.pot -d pipeline/locale -D elo --width 100 \
		--no-fuzzy-matching --ignore-obsolete
	rm -f .elo.pot

# make lock: after changing the dependencies in pyproject.toml, resolve $(LOCK) again from
# its ranges, keeping the pins that still fit; make lock-upgrade: the newest versions the
# ranges allow (then make test). uv resolves: it makes the lock for CPython 3.11 on Linux x86_64
# (this project's machines and CI) whatever machine runs it, with every file's hash. uv is a
# maintainer's tool, not something the tests run, so it is kept out of the lock: installed into
# .venv on demand at the version below. pip and setuptools (pyproject's build requirement) are
# locked beside the project's dependencies, since the install uses them.
UV_VERSION := 0.13.9
LOCK_TOOLS := pip 'setuptools>=68'

define LOCK_HEADER
# The exact versions that make install, make test and CI install: every runtime and dev
# dependency of pyproject.toml, transitive ones included, with pip and setuptools, which
# install them and build the project. Made for CPython 3.11 on Linux x86_64.
# Refresh with `make lock` after changing pyproject.toml's dependencies (keeps the pins that
# still fit), or `make lock-upgrade` for the newest versions its ranges allow; never by hand.
# tests/test_lock.py checks that this file, pyproject.toml and the installed versions agree.
endef
export LOCK_HEADER

lock-upgrade: LOCK_ARGS := --upgrade
lock-upgrade: lock

# (uv keeps the pins of the file it writes to: a copy of the lock in .venv, replacing the lock
# only when something changed, so that an unchanged lock reinstalls nothing)
lock:
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet uv==$(UV_VERSION)
	rm -f $(VENV)/lock.txt && (test ! -f $(LOCK) || cp $(LOCK) $(VENV)/lock.txt)
	printf '%s\n' $(LOCK_TOOLS) | $(BIN)/uv pip compile --quiet pyproject.toml - --extra dev \
		--python-version 3.11 --python-platform x86_64-unknown-linux-gnu --generate-hashes \
		--custom-compile-command 'make lock' --output-file $(VENV)/lock.txt $(LOCK_ARGS)
	{ printf '%s\n' "$$LOCK_HEADER"; cat $(VENV)/lock.txt; } > $(VENV)/lock.new
	cmp -s $(VENV)/lock.new $(LOCK) || mv $(VENV)/lock.new $(LOCK)
	rm -f $(VENV)/lock.txt $(VENV)/lock.new

clean:
	rm -rf $(VENV) reports .pytest_cache .mypy_cache .ruff_cache
