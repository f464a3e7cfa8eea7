# Two entry points, both self-contained on a fresh machine with Python 3.10+:
#   make demo   set up .venv, then run the main job on the bundled Adult data
#   make test   set up .venv, then run the whole test suite
#   make bench  also set up benchmarks/.venv-competitors (anonypy, anjana, lighthouse), then benchmark
#   make docs   build the manual (guides + API reference) into site/, warnings as errors, offline
#   make docs-serve   serve it on http://127.0.0.1:8000
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

DOCS_STAMP := $(VENV)/.docs-stamp

.PHONY: demo test bench docs docs-serve clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# the docs extra (mkdocs, mkdocstrings): make test builds the manual too (tests/test_docs_build.py)
$(DOCS_STAMP): pyproject.toml $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[docs]'
	touch $(DOCS_STAMP)

demo: $(STAMP)
	$(BIN)/python examples/demo.py

test: $(STAMP) $(DOCS_STAMP)
	$(BIN)/python -m ruff check skyprivacy tests benchmarks examples
	$(BIN)/python -m mypy
	$(BIN)/python -m pytest -n 2 --dist loadscope

COMPETITORS := benchmarks/.venv-competitors/.installed-stamp

$(COMPETITORS):
	$(PYTHON) -m venv benchmarks/.venv-competitors
	benchmarks/.venv-competitors/bin/python -m pip install --quiet anonypy anjana project-lighthouse-anonymize
	touch $(COMPETITORS)

bench: $(STAMP) $(COMPETITORS)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python benchmarks/run_all.py

docs: $(DOCS_STAMP)
	$(BIN)/python -m mkdocs build --strict

docs-serve: $(DOCS_STAMP)
	$(BIN)/python -m mkdocs serve --strict

clean:
	rm -rf $(VENV) build site *.egg-info .pytest_cache .hypothesis
