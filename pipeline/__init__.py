"""elo-pipeline: rate chess tournaments with FIDE's rules."""

__version__ = "0.1.0"
