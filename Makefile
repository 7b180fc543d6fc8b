# Everything a fresh machine needs: Python 3.11+ and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: play test soak bench arena mutate mutate-rest map validate clean

# pip's own output (setuptools warns on every editable install that the folder it links must
# stay) goes to $(PIP_LOG) and is shown only when an install fails: a first `make play` or
# `make test` prints one line of its own, then the game or the tests.
PIP_LOG := $(VENV)/pip.log
PIP = $(BIN)/python -m pip install --quiet
QUIETLY = > $(PIP_LOG) 2>&1 || { cat $(PIP_LOG); echo "make: the install failed; its log is $(PIP_LOG)"; exit 1; }

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	@$(PIP) --upgrade pip $(QUIETLY)

$(STAMP): $(BIN)/python pyproject.toml
	@echo "Installing kiev-tui and the packages it needs into $(VENV) (log: $(PIP_LOG))"
	@$(PIP) -e . $(QUIETLY)
	@touch $@

$(TEST_STAMP): $(BIN)/python pyproject.toml
	@echo "Installing kiev-tui and the packages its tests need into $(VENV) (log: $(PIP_LOG))"
	@$(PIP) -e '.[test]' $(QUIETLY)
	@touch $(STAMP) $@

# Byte-code is compiled ahead: start-up then never pays for compiling our modules, even
# where PYTHONDONTWRITEBYTECODE keeps Python from caching them itself.
# make play SCENARIO=<game>/<name> starts that scenario; the game comes from the scenario.
SCENARIO ?=
play: $(STAMP)
	@$(BIN)/python -m compileall -q kiev_tui > /dev/null
	$(BIN)/kiev-tui play $(if $(SCENARIO),'$(SCENARIO)')

test: $(TEST_STAMP)
	$(BIN)/python -m pytest -q

soak: $(TEST_STAMP)
	$(BIN)/python -m pytest -q -m slow tests

# make bench BENCH_ARGS="--quick --only startup": options of python -m benchmarks (see --help)
bench: $(TEST_STAMP)
	@$(BIN)/python -m compileall -q kiev_tui benchmarks > /dev/null
	$(BIN)/python -m benchmarks $(BENCH_ARGS)

# The computer players measured (issue 17): strong AI against the random bot and the easy AI,
# as each side, on the campaign; about 15 minutes here. BENCH_ARGS=--quick: a few minutes.
arena: $(TEST_STAMP)
	@$(BIN)/python -m compileall -q kiev_tui benchmarks > /dev/null
	$(BIN)/python -m benchmarks --only ai $(BENCH_ARGS)

MUTATE_STAMP := $(VENV)/.installed-mutate
$(MUTATE_STAMP): $(TEST_STAMP)
	@$(PIP) -e '.[test,mutate]' $(QUIETLY)
	@touch $@

# Mutation testing of the Kiev rules modules; results stay in mutants/ so a second run
# only retests what changed. The report lists the share killed per module.
mutate: $(MUTATE_STAMP)
	-$(BIN)/mutmut run --max-children 2
	$(BIN)/python tests/mutation_report.py

# The mutants `make mutate` left unchecked (mutmut runs the load-time functions last, and
# slowly), each against its own module's tests in a warm forked process: see
# tests/mutation_batch.py. It writes into mutants/ like mutmut; never run both at once.
mutate-rest: $(MUTATE_STAMP)
	$(BIN)/python tests/mutation_batch.py --unchecked
	$(BIN)/python tests/mutation_report.py

# Each game's map.toml is built from its geo.toml; add --check to a builder to test instead.
map: $(STAMP)
	$(BIN)/python -m kiev_tui.games.spi_kiev.mapbuild
	$(BIN)/python -m kiev_tui.games.barbarossa1941.mapbuild

validate: $(STAMP)
	$(BIN)/kiev-tui validate data/spi_kiev
	$(BIN)/kiev-tui validate data/barbarossa1941

clean:
	rm -rf $(VENV) .pytest_cache mutants
