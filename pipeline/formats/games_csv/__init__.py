"""The plain games CSV (one row a game) and its companion players CSV: read (`read`), the
rows checked one at a time (`rows`) with the grammar of a result cell (`results`), and the
players CSV and how it is found (`players`)."""

from pipeline.formats.games_csv.read import looks_like_games_csv, read_games_csv

__all__ = ["looks_like_games_csv", "read_games_csv"]
