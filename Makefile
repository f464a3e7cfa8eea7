# Two entry points, both self-contained on a fresh machine with Python 3.10+:
#   make demo   set up .venv, then run the main job on the bundled Adult data
#   make test   set up .venv, then run the whole test suite
#   make bench  also set up benchmarks/.venv-competitors (anonypy, anjana, lighthouse), then benchmark
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: demo test bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python examples/demo.py

test: $(STAMP)
	$(BIN)/python -m ruff check skyprivacy tests
	$(BIN)/python -m mypy
	$(BIN)/python -m pytest

COMPETITORS := benchmarks/.venv-competitors/.installed-stamp

$(COMPETITORS):
	$(PYTHON) -m venv benchmarks/.venv-competitors
	benchmarks/.venv-competitors/bin/python -m pip install --quiet anonypy anjana project-lighthouse-anonymize
	touch $(COMPETITORS)

bench: $(STAMP) $(COMPETITORS)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
