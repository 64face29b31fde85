"""The version of failcode, in a module of its own so that every module can read it without
importing the package (whose __init__ imports the API)."""

__version__ = "0.1.0"
