"""A small evaluation harness: run agent cases, reduce and grade them, write receipts."""
from .runner import run_case

__all__ = ["run_case"]
