# toskit developer commands. Everything runs inside ./.venv, created on demand.
#
#   make lab          install toskit[lab], JupyterLab on notebooks/ (127.0.0.1; prints the URL;
#                     toskit lsp checks YAML files in its editor, via jupyterlab-lsp)
#   make test         install toskit[dev]; ruff + unit tests + notebooks (nbval) + browser checks
#   make demo         Voila on the tour notebook (127.0.0.1:8866), no asset from the internet
#   make bench        every bench/bench_*.py, collected into bench/results.json
#   make conformance  the OASIS TOSCA 2.0 corpus in conformance/ (bench/conformance.py)
#   make notebooks    re-execute the tutorials in place (stores fresh outputs)
#
# The install steps are skipped while their stamp file (.venv/.toskit-installed
# for [dev], .venv/.toskit-lab-installed for [lab]) is newer than pyproject.toml.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

PYTHON3 ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
PY      := $(BIN)/python
STAMP   := $(VENV)/.toskit-installed
LAB_STAMP := $(VENV)/.toskit-lab-installed
CHROMIUM ?= /usr/bin/chromium
HOST    ?= 127.0.0.1
NOTEBOOKS := $(sort $(wildcard notebooks/[0-9]*.ipynb))
# What ruff checks: the package, the tests, the benchmarks, binder/ (notebooks are excluded in pyproject).
LINT_PATHS := $(wildcard toskit tests bench binder conftest.py)

.PHONY: help install venv chromium lint typecheck unit nbval browser test lab demo bench conformance notebooks clean

help:
	@sed -n '2,11p' Makefile | sed 's/^# \{0,1\}//'

# --- environment -----------------------------------------------------------

$(PY):
	@$(PYTHON3) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else "toskit needs Python >= 3.10 (set PYTHON3=...)")'
	$(PYTHON3) -m venv $(VENV)

# An editable install leaves toskit/ without bytecode, and with
# PYTHONDONTWRITEBYTECODE set (as in many containers and CI images) every run
# would compile it again: ~60 ms more CPU per `toskit check` (issue #31).
# compileall writes toskit/**/__pycache__ whatever that variable says.
COMPILE_BYTECODE = $(PY) -m compileall -q -j 0 toskit >/dev/null

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	$(COMPILE_BYTECODE)
	@touch $(STAMP)
	@echo "toskit: .venv is ready ($$($(PY) --version))"

venv install: $(STAMP)

# What the tutorials need, nothing else (no test, browser or benchmark tools).
# JupyterLab's announcements plugin (its news feed and update check) is
# disabled for this environment only: page_config.json in .venv/etc/jupyter.
$(LAB_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[lab]'
	$(COMPILE_BYTECODE)
	$(BIN)/jupyter labextension disable --level=sys_prefix "@jupyterlab/apputils-extension:announcements"
	@touch $(LAB_STAMP)
	@echo "toskit: .venv has toskit[lab] ($$(du -sh $(VENV) | cut -f1))"

# Debian's Chromium for the browser checks. Playwright drives it through
# executable_path; it never downloads a browser of its own.
chromium:
	@if [ -x "$(CHROMIUM)" ]; then \
	  : ; \
	elif [ "$$(id -u)" = "0" ]; then \
	  echo "toskit: installing Debian's chromium for the browser checks"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else \
	  echo "toskit: the browser checks need Chromium at $(CHROMIUM). Install it with:"; \
	  echo "    sudo apt-get update && sudo apt-get install -y chromium"; \
	  exit 1; \
	fi

# --- checks ----------------------------------------------------------------

# ruff, then mypy over toskit/ (clean since #15 item 5: a new type error
# fails `make lint`, hence `make test`).
lint: $(STAMP)
	$(BIN)/ruff check $(LINT_PATHS)
	$(BIN)/ruff format --check $(LINT_PATHS)
	$(BIN)/python -m mypy

# mypy alone, at its default strictness ([tool.mypy] in pyproject.toml).
typecheck: $(STAMP)
	$(BIN)/python -m mypy

# pytest exits 5 when it collects nothing; that is not a failure of the suite.
PYTEST = status=0; $(BIN)/pytest $(1) || status=$$?; \
	if [ $$status -eq 5 ]; then echo "toskit: pytest collected no tests"; status=0; fi; exit $$status

NBVAL_ARGS := --nbval-lax --nbval-sanitize-with nbval.cfg --nbval-current-env

# Shadow mode (docs/source.md): every document the tests under these paths
# parse is parsed by both YAML paths, which must agree. All of tests/ but
# tests/hostile (its cases have 2 s CPU bounds, and parsing twice crosses
# them) and tests/browser (pages, not documents); ~8-25 % more CPU on them.
SHADOWED := $(foreach p,$(filter-out tests/hostile tests/browser tests/__pycache__ tests/conftest.py tests/corpus.py,$(wildcard tests/*)),--yaml-shadow-in $(p))

# The doctests of toskit's module docstrings run with the unit tests.
unit: $(STAMP)
	@$(call PYTEST,--doctest-modules toskit tests --ignore=tests/browser $(SHADOWED))

nbval: $(STAMP)
	@$(call PYTEST,$(NBVAL_ARGS) notebooks)

# The test of the hostile suite's bounds (issue #30 item 6): tests/hostile
# beside two CPU burners that stop by themselves (tests/hostile/under_load.py).
# Not part of `make test`: it loads the machine on purpose.
.PHONY: hostile-under-load
hostile-under-load: $(STAMP)
	$(PY) tests/hostile/under_load.py

browser: $(STAMP) chromium
	@$(call PYTEST,tests/browser)

# One pytest run for the doctests of toskit/, unit tests, notebooks and
# browser checks, so the closing line is the summary of the whole suite. The
# notebooks are named one by one: --doctest-modules must not import
# notebooks/src/*.py (running a tutorial is nbval's job). The conformance
# line is a report; its floor is a test (tests/test_conformance_floor.py).
test: $(STAMP) chromium lint
	@$(PY) bench/conformance.py 2>&1 | grep -E '^conformance|corpus not found' || true
	@$(call PYTEST,--doctest-modules toskit tests $(NBVAL_ARGS) $(NOTEBOOKS) $(SHADOWED))

# --- notebooks, demo -------------------------------------------------------

# Jupyter refuses to run as root without --allow-root (CI machines and containers are root).
ALLOW_ROOT = $$([ "$$(id -u)" = 0 ] && echo --allow-root)

# LAB_PORT: empty picks a free port. The token goes to the server through the
# environment (not the command line, which other users can read with ps).
# A browser opens only when there is a display; the URL is printed either way.
LAB_PORT ?=
lab: $(LAB_STAMP)
	@port="$(LAB_PORT)"; \
	if [ -z "$$port" ]; then \
	  port=$$($(PY) -c 'import socket; s = socket.socket(); s.bind(("$(HOST)", 0)); print(s.getsockname()[1])'); \
	fi; \
	token=$$($(PY) -c 'import secrets; print(secrets.token_hex(24))'); \
	if [ -n "$${DISPLAY:-}$${WAYLAND_DISPLAY:-}" ]; then browser=--ServerApp.open_browser=True; \
	else browser=--ServerApp.open_browser=False; fi; \
	echo "toskit: JupyterLab on notebooks/ at http://$(HOST):$$port/lab?token=$$token"; \
	JUPYTER_TOKEN=$$token exec $(BIN)/jupyter lab $$browser --ServerApp.ip=$(HOST) \
	  --ServerApp.port=$$port --ServerApp.port_retries=0 --ServerApp.root_dir=notebooks \
	  --LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate $(ALLOW_ROOT)

# Voila with the repository's `toskit` template (share/jupyter/voila/templates/
# toskit): Voila's lab template without its links to a CDN.
demo: $(STAMP)
	@echo "toskit: Voila on the tour at http://$(HOST):8866/"
	JUPYTER_PATH=$(CURDIR)/share/jupyter $(BIN)/voila notebooks/00-tour.ipynb --no-browser \
	  --Voila.ip=$(HOST) --port=8866 --template=toskit

# Re-run every tutorial and store its outputs (what GitHub and nbviewer show).
notebooks: $(STAMP)
	$(PY) notebooks/build.py

# --- benchmarks, conformance -----------------------------------------------

# Each bench/bench_NAME.py runs on its own; its output, exit status and time
# go into bench/results.json. A script may also write its own figures as JSON
# to the path in $TOSKIT_BENCH_JSON; they are included under "data".
define BENCH_COLLECT
import json, os, subprocess, sys, tempfile, time
from pathlib import Path
scripts = sorted(Path("bench").glob("bench_*.py"))
if not scripts:
    print("toskit: no bench/bench_*.py yet"); sys.exit(0)
results, failed = {}, []
for script in scripts:
    name = script.stem.removeprefix("bench_")
    fd, data_path = tempfile.mkstemp(suffix=".json"); os.close(fd)
    env = dict(os.environ, TOSKIT_BENCH_JSON=data_path)
    print(f"== {script} ==", flush=True)
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, str(script)], env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    seconds = round(time.perf_counter() - started, 2)
    print(proc.stdout, end="", flush=True)
    entry = {"script": str(script), "exit": proc.returncode, "seconds": seconds,
             "output": proc.stdout.splitlines()}
    raw = Path(data_path).read_text() if Path(data_path).stat().st_size else ""
    os.unlink(data_path)
    if raw:
        try:
            entry["data"] = json.loads(raw)
        except ValueError:
            entry["data_error"] = "TOSKIT_BENCH_JSON did not hold JSON"
    results[name] = entry
    if proc.returncode:
        failed.append(name)
Path("bench/results.json").write_text(json.dumps(results, indent=2) + "\n")
print()
print(f"{'benchmark':<20} {'exit':>4} {'seconds':>8}")
for name, entry in results.items():
    print(f"{name:<20} {entry['exit']:>4} {entry['seconds']:>8}")
print("toskit: results in bench/results.json")
sys.exit(1 if failed else 0)
endef
export BENCH_COLLECT

bench: $(STAMP)
	$(PY) -c "$$BENCH_COLLECT"

conformance: $(STAMP)
	$(PY) bench/conformance.py

clean:
	rm -rf test-artifacts bench/results.json conformance-report.json .pytest_cache
