"""FIDE's Tournament Report File, TRF16 and TRF26 (and TRF(x)'s records): read (`read`, with
the tournament records in `records`, the fixed columns in `fields` and the all-at-once
reading of the player lines in `columns`), written (`write`) and checked for what a TRF can
carry (`fit`, the read-back of `elo convert`)."""

from pipeline.formats.trf.read import looks_like_trf, read_trf
from pipeline.formats.trf.write import write_trf

__all__ = ["looks_like_trf", "read_trf", "write_trf"]
