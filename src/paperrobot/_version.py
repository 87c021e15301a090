"""The program's version, the one source: ``paperrobot.__version__`` (--version, saves, the web page's footer) and
pyproject.toml's (the installed metadata) both read it. A module of its own, below every layer, so that core/save.py
can name it without importing the top package."""
__version__ = "0.2.0"
