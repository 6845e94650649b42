"""Worked examples that ship with the package (importable, and run by the tests)."""
