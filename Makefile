# Every target creates .venv when missing and installs what it needs.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test test-slow demo bench lint install clean browser screenshots

$(STAMP): pyproject.toml setup.py
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -e '.[dev,ray]'
	touch $(STAMP)

install: $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .

# The batched kernels are compiled once, in two processes, before the suite: otherwise each of the two test
# workers would compile all of them (minutes of CPU each on a machine with a cold cache).
test: $(STAMP) browser
	$(BIN)/ruff check .
	$(BIN)/pokerzoo compile --jobs 2
	$(BIN)/pytest -n 2 -q

# The browser tests (tests/browser) drive Debian's chromium with selenium. Installed here where the
# machine allows (root with apt); elsewhere those tests are skipped and say why.
CHROMIUM := /usr/bin/chromium
CHROMEDRIVER := /usr/bin/chromedriver
browser:
	@if [ -x $(CHROMIUM) ] && [ -x $(CHROMEDRIVER) ]; then \
		echo "browser tests: $$($(CHROMIUM) --version 2>/dev/null | head -1)"; \
	elif [ "$$(id -u)" != 0 ]; then \
		echo "browser tests will be skipped: installing chromium needs root (apt-get install chromium chromium-driver)"; \
	elif ! command -v apt-get >/dev/null 2>&1; then \
		echo "browser tests will be skipped: no apt-get here to install chromium"; \
	else \
		start=$$(date +%s); \
		if (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
				chromium chromium-driver) >/dev/null 2>&1; then \
			echo "chromium installed for the browser tests in $$(( $$(date +%s) - start )) s"; \
		else \
			echo "browser tests will be skipped: apt-get could not install chromium and chromium-driver"; \
		fi; \
	fi

# Refresh the pictures in docs/screenshots (the viewer on every game, the play page).
screenshots: $(STAMP) browser
	POKERZOO_SCREENSHOTS=docs/screenshots $(BIN)/pytest -q tests/browser/test_screenshots.py

test-slow: $(STAMP)
	$(BIN)/pytest -q -m slow

demo: $(STAMP)
	$(BIN)/pokerzoo demo

bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) build *.egg-info runs
