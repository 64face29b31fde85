"""failcode: a linter for failure-code hygiene.

`failcode.check_paths` and `failcode.check_source` (from `failcode.api`) are the library entry for
editors and tools. They are imported on first use, not here: `python -m failcode` runs this file
before `__main__` can drop the working directory from `sys.path`, and a checked repository may
hold a `pathspec.py` or `tomllib.py` that an eager import of the engine would run.
"""

from failcode.version import __version__

__all__ = ["__version__", "check_paths", "check_source"]


def __getattr__(name: str):
    if name in ("check_paths", "check_source"):
        from failcode import api

        return getattr(api, name)
    raise AttributeError(f"module 'failcode' has no attribute {name!r}")
