"""FIDE's rating lists, the project's registry of players: the combined and single-list TXT
downloads (`txt`, their header line in `header`), the XML download (`xml`) and a CSV with
the XML's tag names, zipped or not (`read`), with the fields' meanings in `fields`. The
CLI's `--registry` option names such a file."""

from pipeline.formats.rating_list.read import looks_like_rating_list, read_rating_list

__all__ = ["looks_like_rating_list", "read_rating_list"]
