"""failcode: a linter for failure-code hygiene."""

__version__ = "0.1.0"
