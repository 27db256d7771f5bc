"""The package version, importable from any layer without importing the public API."""

__version__ = "0.1.0"
