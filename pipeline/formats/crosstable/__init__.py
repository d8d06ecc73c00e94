"""Swiss-Manager / chess-results crosstables, XLSX or CSV: read (`read`), with the rows above
the table (`preamble`), the table's header and layout (`layout`), its player rows
(`players`), their games with the opponents resolved (`games`), the grammar of a round cell
(`cells`) and the words of every language the exports are written in (`vocabulary`)."""

from pipeline.formats.crosstable.read import (
    looks_like_crosstable,
    read_crosstable_csv,
    read_crosstable_xlsx,
)

__all__ = ["looks_like_crosstable", "read_crosstable_csv", "read_crosstable_xlsx"]
