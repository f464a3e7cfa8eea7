"""The version of skyprivacy (one place: the package, certificates and the command line read
it here; pyproject.toml states the same number)."""

__version__ = "0.1.0"
