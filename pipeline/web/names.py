"""The outputs `elo serve` hands out name the files as they were uploaded: `elo run` wrote
them with the paths of the job's folder on the server (summary.json's problems and
events, identities.csv's `file`, the Events, Identities and Checks sheets, errors.txt),
which say nothing to the user and show the server's temporary folders. Each output is
rewritten once, after the run, with `Job.relative` (pipeline.web.store)."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from xml.sax.saxutils import escape

from pipeline.report import pretty_json
from pipeline.report.atomic import atomic_open, atomic_write_text

Relative = Callable[[str], str]  # a text with the job's folders left out of its paths

_SHARED_STRINGS = "xl/sharedStrings.xml"  # where report.xlsx keeps every cell text


def _json(path: Path, relative: Callable[[object], object]) -> None:
    value = json.loads(path.read_text(encoding="utf-8"))
    atomic_write_text(path, pretty_json.dumps(relative(value)) + "\n")


def _text(path: Path, relative: Relative) -> None:
    text = path.read_text(encoding="utf-8")
    shown = relative(text)
    if shown != text:
        atomic_write_text(path, shown)


def _workbook(path: Path, prefixes: Sequence[str]) -> None:
    """report.xlsx with the `prefixes` left out of its shared strings (escaped as the
    XML holds them); every other member copied as it is."""
    with zipfile.ZipFile(path) as source:
        xml = source.read(_SHARED_STRINGS).decode("utf-8")
        shown = xml
        for prefix in prefixes:
            shown = shown.replace(escape(prefix), "")
        if shown == xml:
            return
        members = [(info, source.read(info)) for info in source.infolist()]
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED, allowZip64=True) as target:
        for info, content in members:
            if info.filename == _SHARED_STRINGS:
                content = shown.encode("utf-8")
            target.writestr(info, content)
    with atomic_open(path) as out:
        out.write(data.getvalue())


def as_uploaded(
    written: Sequence[Path], relative: Callable[[object], object], prefixes: Sequence[str]
) -> None:
    """Rewrite the outputs `written` with `relative` (Job.relative) applied to their
    texts: summary.json as JSON, the CSV and text files as text, report.xlsx's cell
    texts (`prefixes`: the folder paths `relative` leaves out, longest first)."""

    def text(value: str) -> str:
        shown = relative(value)
        assert isinstance(shown, str)
        return shown

    for path in written:
        if path.suffix == ".json":
            _json(path, relative)
        elif path.suffix in (".csv", ".txt"):
            _text(path, text)
        elif path.suffix == ".xlsx":
            _workbook(path, prefixes)


__all__ = ["as_uploaded"]
