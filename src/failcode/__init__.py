"""failcode: a linter for failure-code hygiene."""

__version__ = "0.1.0"


def __getattr__(name: str):
    """`failcode.check_paths` / `failcode.check_source`, imported on first use: the engine imports
    this package for `__version__`, so importing the API here eagerly would be an import cycle."""
    if name in ("check_paths", "check_source"):
        from failcode import api

        return getattr(api, name)
    raise AttributeError(f"module 'failcode' has no attribute {name!r}")
