"""FIDE's XML rating list (`players_list_xml_foa.xml`), streamed.

The document is `<playerslist>` holding repeated `<player>` elements whose children are
FIDE's tags (`fideid`, `name`, … `flag`; fide-rules.md §8). The real file is about 850 MB,
so it is never held whole: bytes are fed to the parser in 1 MB pieces, each `<player>`
becomes one small dict, and every 100,000 players the dicts become a typed polars chunk.

Safety: the parser is defusedxml's `DefusedXMLParser` with DTDs, entity declarations and
external references forbidden, so a DOCTYPE (and with it any entity-expansion attack) is
refused before anything is expanded. For speed the element callbacks are installed on its
expat parser directly (no element tree is built); the defusing handlers stay in place.

A problem points at the player's record: the line of its first element, and the tag as
the column. Unknown tags inside a player are ignored (FIDE may add some); a tag given twice
in one player is a problem.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from xml.parsers import expat

import polars as pl
from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser

from pipeline.errors import InputError
from pipeline.formats.rating_list.fields import (
    COLUMNS,
    LINE,
    ProblemBudget,
    RawFrame,
    convert_fields,
    finish_registry,
)
from schemas.registry import Registry

CHUNK_PLAYERS = 100_000
READ_BYTES = 1 << 20
_TAGS = frozenset(COLUMNS)
_RAW_SCHEMA: dict[str, type[pl.DataType]] = {LINE: pl.Int64, **dict.fromkeys(COLUMNS, pl.String)}


def _player_collector(
    parser: expat.XMLParserType, budget: ProblemBudget, rows: list[dict[str, str | int]]
) -> tuple[Callable[[str], None], Callable[[str], None]]:
    """Expat callbacks (end of element, character data) that append one dict per
    <player> to `rows`: the text of each known child, and LINE (its first child's line).
    Locals in a closure: this runs for every element of an 850 MB file."""
    text: list[str] = []
    current: dict[str, str | int] = {}
    join = "".join
    tags = _TAGS

    def end(tag: str) -> None:
        nonlocal current
        if tag in tags:
            if not current:
                current[LINE] = parser.CurrentLineNumber
            elif tag in current:
                budget.add(
                    int(current[LINE]),
                    tag,
                    "duplicate-element",
                    f"expected one <{tag}> in a <player>, got a second one",
                )
            current[tag] = join(text)
        elif tag == "player":
            if not current:
                current[LINE] = parser.CurrentLineNumber
            rows.append(current)
            current = {}
        text.clear()

    return end, text.append


def _typed_chunk(rows: list[dict[str, str | int]], budget: ProblemBudget) -> pl.DataFrame:
    raw = pl.from_dicts(rows, schema=_RAW_SCHEMA).with_columns(
        pl.col(tag).str.strip_chars() for tag in COLUMNS
    )
    return convert_fields(RawFrame(raw, {tag: tag for tag in COLUMNS}), budget)


def read_rating_list_xml(pieces: Iterable[bytes], file: str, max_problems: int) -> pl.DataFrame:
    """Every player of an XML rating list (its bytes in pieces) as the registry frame."""
    budget = ProblemBudget(file, max_problems)
    defused = DefusedXMLParser(forbid_dtd=True, forbid_entities=True, forbid_external=True)
    parser = defused.parser
    rows: list[dict[str, str | int]] = []
    # only element ends and text are needed; no start handler, and no default handler
    # either (it would then be called for every start tag; expat itself rejects undefined
    # entities, and defusedxml's handlers for DOCTYPE and entity declarations stay)
    parser.StartElementHandler = None
    parser.DefaultHandlerExpand = None
    parser.EndElementHandler, parser.CharacterDataHandler = _player_collector(parser, budget, rows)
    parser.buffer_text = True
    chunks: list[pl.DataFrame] = []
    try:
        for piece in pieces:
            parser.Parse(piece, False)
            if len(rows) >= CHUNK_PLAYERS:
                chunks.append(_typed_chunk(rows, budget))
                rows.clear()
        parser.Parse(b"", True)
    except expat.ExpatError as error:
        raise InputError.single(
            file,
            error.lineno,
            None,
            "bad-xml",
            f"expected well-formed XML, got {expat.ErrorString(error.code)} "
            f"at column {error.offset + 1}",
        ) from None
    except DefusedXmlException:
        raise InputError.single(
            file,
            parser.CurrentLineNumber,
            None,
            "xml-forbidden",
            "expected an XML rating list without DOCTYPE or entity declarations, got one "
            "(refused: they can expand into huge documents or read other files)",
        ) from None
    if rows or not chunks:
        chunks.append(_typed_chunk(rows, budget))
    typed = pl.concat(chunks) if len(chunks) > 1 else chunks[0]
    return finish_registry(typed, budget, str(Registry.fideid))
