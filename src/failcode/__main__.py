"""`python -m failcode`: Python has put the working directory first on sys.path, and that is the
code being checked, never code to import (a `click.py` or `json.py` there would run). Drop it first."""

import os
import sys

if sys.path and sys.path[0] in ("", os.getcwd()):
    del sys.path[0]

from failcode.cli import main  # noqa: E402 - only now is it safe to import

if __name__ == "__main__":  # not when a spawned pool worker imports this module as `__mp_main__`
    main()
