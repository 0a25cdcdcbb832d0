"""The one place the version is written: pyproject.toml and ``--version`` read it here."""

__version__ = "0.2.0"
