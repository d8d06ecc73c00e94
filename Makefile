# elo-pipeline: every target creates .venv on demand.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install demo test test-slow fuzz lint fmt bench check clean catalogs catalogs-update

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
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

# after changing texts in the code: the .po files take the new msgids (translate them,
# then make catalogs)
catalogs-update: $(STAMP)
	$(BIN)/pybabel extract --no-location --width 100 -o .elo.pot pipeline
	$(BIN)/pybabel update -i .elo.pot -d pipeline/locale -D elo --width 100 \
		--no-fuzzy-matching --ignore-obsolete
	rm -f .elo.pot

clean:
	rm -rf $(VENV) reports .pytest_cache .mypy_cache .ruff_cache
