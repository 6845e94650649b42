# The whole test suite, from a fresh machine: `make test` (README.md; .ci/run runs it).
PYTHON ?= python3
# The oldest and the newest supported CPython (pyenv's on the CI machine).
OLDEST_PYTHON ?= $(lastword $(wildcard /root/.pyenv/versions/3.9.*/bin/python3))
NEWEST_PYTHON ?= $(lastword $(wildcard /root/.pyenv/versions/3.13.*/bin/python3))
# Seconds of coverage-guided fuzzing per target (fuzz/README.md).
FUZZ_SECONDS ?= 8

.PHONY: test install rust-checks python-checks fuzz pythons bench

test: rust-checks install python-checks fuzz pythons

install:
	$(PYTHON) -m pip install --quiet --upgrade ".[test]"

rust-checks:
	cargo fmt --all --check
	cargo clippy --workspace --all-targets --locked -- -D warnings
	cargo test -p doubleholdem-core --locked

python-checks:
	$(PYTHON) -m ruff check python tests benches fuzz .ci
	$(PYTHON) -m ruff format --check python tests benches fuzz .ci
	$(PYTHON) -m mypy
	$(PYTHON) -m pytest -q

fuzz:
	$(PYTHON) fuzz/run.py all --seconds $(FUZZ_SECONDS)

pythons:
	PYTHON=$(PYTHON) bash .ci/pythons.sh "$(OLDEST_PYTHON)" "$(NEWEST_PYTHON)"

bench: install
	$(PYTHON) -m pytest benches --benchmark-enable --benchmark-columns=min,median,ops -q
