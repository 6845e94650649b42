# The whole test suite, from a fresh machine: `make test` (README.md; .ci/run runs it).
PYTHON ?= python3

.PHONY: test install rust-checks python-checks bench

test: rust-checks install python-checks

install:
	$(PYTHON) -m pip install --quiet --upgrade ".[test]"

rust-checks:
	cargo fmt --all --check
	cargo clippy --workspace --all-targets --locked -- -D warnings
	cargo test -p doubleholdem-core --locked

python-checks:
	$(PYTHON) -m ruff check python tests benches
	$(PYTHON) -m ruff format --check python tests benches
	$(PYTHON) -m mypy
	$(PYTHON) -m pytest -q

bench: install
	$(PYTHON) -m pytest benches --benchmark-enable --benchmark-columns=min,median,ops -q
