"""The package's version: results, reports and the compiled cache's directory record it."""

__version__ = "0.1.0"
