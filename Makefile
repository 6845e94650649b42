# The whole test suite, from a fresh machine: `make test` (README.md; .ci/run runs it).
PYTHON ?= python3
# The oldest and the newest supported CPython (pyenv's on the CI machine).
OLDEST_PYTHON ?= $(lastword $(wildcard /root/.pyenv/versions/3.9.*/bin/python3))
NEWEST_PYTHON ?= $(lastword $(wildcard /root/.pyenv/versions/3.13.*/bin/python3))
# Seconds of coverage-guided fuzzing per target (fuzz/README.md).
FUZZ_SECONDS ?= 8

.PHONY: test install rust-checks python-checks random docs fuzz pythons bench dist

test: rust-checks install python-checks docs fuzz pythons

# The sdist and the manylinux2014 (glibc 2.17+) wheel of this machine built from it with
# zig, into dist/, checked as an index would check them, and the README's first command
# run from the sdist in a fresh environment (.ci/dist.sh). install and pythons use this wheel.
dist:
	PYTHON=$(PYTHON) bash .ci/dist.sh

# Also the musllinux_1_2 x86-64 and manylinux2014 aarch64 wheels, cross-compiled into dist/
# and checked the same way; the aarch64 one run under qemu (.ci/wheels.sh; not in `make test`).
wheels: dist
	bash .ci/wheels.sh

# The wheel of dist/ with the test dependencies (what `pip install ".[test]"` would build).
install: dist
	$(PYTHON) -m pip install --quiet --force-reinstall --no-deps dist/doubleholdem-*.whl
	$(PYTHON) -m pip install --quiet --upgrade "$$(ls dist/doubleholdem-*.whl)[test]"

rust-checks:
	cargo fmt --all --check
	cargo clippy --workspace --all-targets --locked -- -D warnings
	cargo test -p doubleholdem-core --locked

python-checks:
	$(PYTHON) -m ruff check python tests benches fuzz .ci docs/hooks
	$(PYTHON) -m ruff format --check python tests benches fuzz .ci docs/hooks
	$(PYTHON) -m mypy
	$(PYTHON) -m pytest -q -n 2 -p no:randomly --durations=15

# The suite in a random order (pytest-randomly, SEED or a new seed each run) on two
# workers (pytest-xdist): a test that depends on order or timing fails here first.
random:
	$(PYTHON) -m pytest -q -n 2 $(if $(SEED),--randomly-seed=$(SEED))

# The documentation site into site/, warnings as errors (mkdocs.yml).
docs:
	@$(PYTHON) -c "import mkdocs, mkdocstrings, material" 2>/dev/null || { \
	    echo 'make docs needs the docs extra: pip install ".[docs]"' >&2; exit 2; }
	NO_MKDOCS_2_WARNING=1 $(PYTHON) -m mkdocs build --strict --quiet

fuzz:
	$(PYTHON) fuzz/run.py all --seconds $(FUZZ_SECONDS)

pythons: dist
	WHEEL="$$(ls dist/doubleholdem-*.whl)" bash .ci/pythons.sh "$(OLDEST_PYTHON)" "$(NEWEST_PYTHON)"

bench: install
	$(PYTHON) -m pytest benches --benchmark-enable --benchmark-columns=min,median,ops -q
