# Two entry points for a fresh machine with Python 3 and make:
#   make play   installs the package into .venv and starts the game in the browser
#               (PORT=, DB=, NO_BROWSER=1 and ARGS= pass adjacency play's options)
#   make test   installs the package with its test tools and runs lint, types and tests
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PYTEST_ARGS ?=

# Python's compiled modules are kept under the venv (PYTHONPYCACHEPREFIX) for every
# command make runs, never in the tree, even where the environment says not to write
# them: each of the suite's hundreds of Python processes would otherwise compile the
# package's sources again. pip's install compiles the installed packages there too, so
# a fresh clone's tests find them compiled rather than each compiling what it imports.
export PYTHONPYCACHEPREFIX := $(abspath $(VENV))/pycache
export PYTHONDONTWRITEBYTECODE :=

.PHONY: play test test-core lint typecheck jscheck pytest pytest-run kernels test-site browser deploy-tools sandbox-tools javafx-tools typescript-tools constraints bench docs screenshots clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The project installs as adjacency-game (pyproject.toml); a venv that still holds it
# under its former name, adjacency, drops that first (one installed copy of the command).
UNINSTALL_FORMER := $(BIN)/python -m pip uninstall --quiet --yes adjacency 2>/dev/null || true

$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	@$(UNINSTALL_FORMER)
	$(BIN)/python -m pip install --quiet -e .
	touch $@

# make test installs every optional extra, so their tests run (never skip) in CI.
$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	@$(UNINSTALL_FORMER)
	$(BIN)/python -m pip install --quiet -e ".[dev,ray,rl,jax,openspiel,plots,docs,newjava]"
	touch $@ $(VENV)/.installed-run

# adjacency play's options from make's command line: make play PORT=8800 DB=games.sqlite3
# NO_BROWSER=1, and any others as ARGS='--host 0.0.0.0' (only from the command line: a
# PORT or DB in the environment is not taken for them).
given = $(if $(filter command line,$(origin $(1))),$($(1)))
quoted = '$(subst ','\'',$(1))'
PLAY_ARGS = $(if $(call given,PORT),--port $(call quoted,$(call given,PORT))) \
	$(if $(call given,DB),--db $(call quoted,$(call given,DB))) \
	$(if $(call given,NO_BROWSER),--no-browser) $(call given,ARGS)

play: $(VENV)/.installed-run
	$(strip $(BIN)/adjacency play $(PLAY_ARGS))

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check src tests benchmarks examples tools
	$(BIN)/ruff format --check src tests benchmarks examples tools
	$(BIN)/lint-imports  # the one-way layers of .importlinter

typecheck: $(VENV)/.installed-dev jscheck
	$(BIN)/mypy

# The pages' JavaScript, type-checked by Debian's TypeScript compiler (tsconfig.json:
# every module of both servers' static folders, checkJs), installed as the browser is.
jscheck: typescript-tools
	/usr/bin/tsc -p tsconfig.json

typescript-tools:
	@tools/provision-typescript

# The browser tests need Debian's Chromium: installed where possible, otherwise one line
# says what to install and nothing runs (tests are never skipped for want of it).
browser:
	@tools/provision-chromium

# The deployment tests (tests/deploy/) need Debian's Caddy and systemd-analyze, installed
# the same way.
deploy-tools:
	@tools/provision-deploy

# The sandbox's tests (tests/sandbox/) need Debian's bubblewrap and a kernel that lets it
# make user namespaces: installed the same way, then one trial sandbox is started.
sandbox-tools:
	@tools/provision-sandbox

# The tests that play a team's own JavaFX program through its window need Debian's OpenJFX
# and Xvfb: installed the same way.
javafx-tools:
	@tools/provision-javafx

# deploy/constraints.txt from the tested environment (run after make test passed): the
# runtime packages' versions that docs/deploy.md installs with pip's -c.
constraints: $(VENV)/.installed-dev
	$(BIN)/python tools/write_constraints.py

PROVISION := browser deploy-tools sandbox-tools javafx-tools typescript-tools

# The kernels the suite calls compiled (numba's cache) before any test's clock starts
# (tools/warm_kernels.py), beside lint and types rather than in several tests at once.
kernels: $(VENV)/.installed-dev
	$(BIN)/python tools/warm_kernels.py

# The docs site (mkdocs --strict) built once, for tests/docs/test_site.py, which waits for
# .test-site/built (or reads .test-site/failed): make test builds it beside the tests.
test-site: $(VENV)/.installed-dev
	@mkdir -p .test-site && rm -f .test-site/built .test-site/failed
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir .test-site/site 2> .test-site.log \
		|| { tail -40 .test-site.log; touch .test-site/failed; exit 1; }
	@touch .test-site/built

# Derandomised hypothesis (the ci profile of tests/conftest.py): every run draws the
# examples CI drew. The 15 slowest tests are printed; tests/time_guard.py names any test
# over 60 s (and fails the run under CI). A test that fails is run once more (--reruns 1):
# the run passes if it then passes, and tests/time_guard.py names it with its failure.
# Three workers on two cores: the suite's processes wait on browsers, JVMs, servers and
# sandboxes, and three keep both cores busy (vmstat: 4 to 6 % idle over a whole run; the
# 1.1 cores that time -v once reported left out Chromium's processes). The suite is bound
# by CPU: five workers ran tests/web in 4 min 58 s against three's 4 min 41 s. Measured
# from a fresh clone: 24 min 29 s of pytest quiet (26 min 20 s in all), every test under
# 35 s; 30 min 25 s beside 16 busy loops (a load of 16 to 27, median 23), every test
# under 47 s.
pytest: $(VENV)/.installed-dev $(PROVISION) kernels test-site
	@$(MAKE) --no-print-directory pytest-run

pytest-run:
	ADJACENCY_TEST_SITE=.test-site/site HYPOTHESIS_PROFILE=ci \
		$(BIN)/python -m pytest -n 3 --dist loadgroup --durations=15 --reruns 1 -raR \
		$(PYTEST_ARGS)

# The provisioning first, one step after another (each may install Debian's packages);
# then the checks beside the kernels, two at a time on two cores; then the tests, with the
# docs site built beside them (its minute of mkdocs is no longer a step the tests wait
# for: the tests that read the site run last, tests/docs/conftest.py).
test: $(VENV)/.installed-dev
	@$(MAKE) --no-print-directory $(PROVISION)
	@$(MAKE) --no-print-directory -j2 --output-sync=target lint typecheck kernels
	@$(MAKE) --no-print-directory -j2 test-site pytest-run

# The quick loop of daily work: the tests that need nothing beyond Python and this venv.
# tests/needs.py marks each test with what else it needs (Chromium, a Ray cluster, a JDK,
# Node, Caddy and systemd, the built docs site, bubblewrap, OpenJFX and Xvfb); those tests are deselected, not skipped.
# No lint or types, no provisioning; make test stays the whole suite that CI runs.
NEEDS := browser ray jvm node deploy site sandbox javafx
space := $(subst ,, )
CORE := not $(subst $(space), and not ,$(NEEDS))

test-core: $(VENV)/.installed-dev kernels
	HYPOTHESIS_PROFILE=ci $(BIN)/python -m pytest -n 2 --dist loadgroup -m "$(CORE)" $(PYTEST_ARGS)

# The documentation site (mkdocs.yml) into site/; --strict: a broken link or reference fails.
# make test builds it too (tests/docs/test_site.py).
docs: $(VENV)/.installed-dev
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

# The visual regression test's pictures taken anew (tests/visual/baselines/, every page
# state at 1366x768 and 390x844 in English and Indonesian), the docs' phone pictures
# (docs/screenshots/phone-id-*.png) and the puzzle runs' end screens in both languages at
# 1366x768, 1280x720 and 390x844, after a change of a page's look: review, then commit.
screenshots: $(VENV)/.installed-dev browser
	ADJACENCY_SCREENSHOTS=1 $(BIN)/python -m pytest -n 0 -q tests/integrations/test_pages_look_as_before.py \
		tests/web/test_puzzles_browser.py::test_a_timed_run_ends_on_its_end_screen_with_its_puzzles_to_replay \
		tests/web/test_puzzle_runs_browser.py::test_a_streak_skips_once_by_next_and_ends_on_its_end_screen

bench: $(VENV)/.installed-run
	$(BIN)/adjacency bench

clean:
	rm -rf $(VENV) site .test-site .test-site.log .pytest_cache .mypy_cache .ruff_cache .hypothesis
