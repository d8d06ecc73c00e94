"""report.xlsx: sheets, text safety, overflow, caps, determinism, atomicity."""

from __future__ import annotations

import zipfile
from datetime import datetime
from pathlib import Path

import polars as pl
import pytest
from openpyxl import load_workbook
from openpyxl.worksheet.worksheet import Worksheet

from pipeline.errors import Location, Problem, Severity
from pipeline.report import workbook_xml
from pipeline.report.workbook import WorkbookOptions, _block_breaks, write_workbook
from tests.report.sample import SampleResult, sample_result, with_names

FORMULA_NAME = "=cmd|' /C calc'!A0"


def _write(path: Path, result: SampleResult, **options: object) -> list[Problem]:
    return write_workbook(
        path,
        ratings=result.ratings,
        games=result.games,
        events=result.events,
        checks=result.warnings,
        options=WorkbookOptions(**options),  # type: ignore[arg-type]
    )


def _column(ws: Worksheet, header: str) -> list[object]:
    headers = [cell.value for cell in ws[1]]
    index = headers.index(header)
    return [row[index] for row in ws.iter_rows(min_row=2, values_only=True)]


def test_sheets_in_order(tmp_path: Path) -> None:
    path = tmp_path / "report.xlsx"
    assert _write(path, sample_result()) == []
    wb = load_workbook(path)
    assert wb.sheetnames == ["Summary", "Top changes", "Games", "Events", "Checks", "Cards"]


def test_every_game_and_player_is_shown(tmp_path: Path) -> None:
    path = tmp_path / "report.xlsx"
    result = sample_result()
    _write(path, result)
    wb = load_workbook(path)
    assert wb["Games"].max_row == result.games.height + 1
    assert wb["Summary"].max_row == result.ratings.height + 1
    # contract values pass through unchanged (fide-rules.md §4: Fink 1720 + 9 = 1729);
    # sorted by list (standard, rapid, blitz), then name
    assert _column(wb["Summary"], "New rating") == [2103, 1977, 1729, None, 2054, 1792]


def test_k_times_delta_is_exact_hundredths(tmp_path: Path) -> None:
    """K·ΔR = K × ΔR from integer hundredths: 40 × 0.32 = 12.8, 20 × -0.17 = -3.4."""
    path = tmp_path / "report.xlsx"
    _write(path, sample_result())
    games = load_workbook(path)["Games"]
    values = [v for v in _column(games, "K·ΔR") if v is not None]
    assert values == [-6.4, 12.8, 1.8, -3.6, -3.4, 3.4, 3.8, -7.6]


def test_events_sheet_dates_are_real_dates(tmp_path: Path) -> None:
    path = tmp_path / "report.xlsx"
    _write(path, sample_result())
    events = load_workbook(path)["Events"]
    start = events["D2"]
    assert start.is_date
    assert start.number_format == "yyyy-mm-dd"
    assert start.value == datetime(2025, 3, 1)
    assert _column(events, "Players") == [4, 2]


@pytest.mark.parametrize("sheet", ["Summary", "Games", "Top changes", "Cards"])
def test_formula_like_names_are_stored_as_text(tmp_path: Path, sheet: str) -> None:
    path = tmp_path / "report.xlsx"
    result = with_names(sample_result(), {"Fink, Eva": FORMULA_NAME, "Dorn, Carl": "+49 Dorn"})
    _write(path, result)
    ws = load_workbook(path)[sheet]
    cells = [
        cell for row in ws.iter_rows() for cell in row if str(cell.value).startswith(FORMULA_NAME)
    ]
    assert cells, f"the name should appear on {sheet}"
    assert all(cell.data_type == "s" for cell in cells)
    with zipfile.ZipFile(path) as package:
        for name in package.namelist():
            if name.startswith("xl/worksheets/"):
                assert b"<f>" not in package.read(name), f"{name} holds a formula"


def test_control_characters_are_removed_not_fatal(tmp_path: Path) -> None:
    path = tmp_path / "report.xlsx"
    bad = "Ko\x01v\x1bac, I\x00van\ufffe"
    result = with_names(sample_result(), {"Dorn, Carl": bad})
    result.warnings.append(
        Problem(
            Location("x.trf", 3, "15-47"),
            "odd-name",
            "expected text, got 'a\x07b'",
            Severity.WARNING,
        )
    )
    _write(path, result)
    wb = load_workbook(path)
    assert "Kovac, Ivan" in _column(wb["Summary"], "Name")
    assert "expected text, got 'ab'" in _column(wb["Checks"], "Message")


def test_markup_and_spaces_survive(tmp_path: Path) -> None:
    path = tmp_path / "report.xlsx"
    name = "  <b>&amp; Smith </b>  "
    _write(path, with_names(sample_result(), {"Berg, Anna": name}))
    assert name in _column(load_workbook(path)["Summary"], "Name")


def test_row_limit_continues_on_numbered_sheets(tmp_path: Path) -> None:
    path = tmp_path / "report.xlsx"
    result = sample_result()  # 14 game rows, limit 6 rows = header + 5
    _write(path, result, row_limit=6)
    wb = load_workbook(path)
    games = [name for name in wb.sheetnames if name.startswith("Games")]
    assert games == ["Games", "Games (2)", "Games (3)"]
    heights = [wb[name].max_row for name in games]
    assert heights == [6, 6, 5]
    for name in games:
        ws = wb[name]
        assert ws["A1"].value == "Event"
        assert ws.freeze_panes == "A2"
        assert ws.auto_filter.ref == f"A1:S{ws.max_row}"
    rounds = [v for name in games for v in _column(wb[name], "Rd")]
    assert rounds == result.games["round"].to_list()
    summary = [name for name in wb.sheetnames if name.startswith("Summary")]
    assert summary == ["Summary", "Summary (2)"]


def test_cards_split_between_player_blocks(tmp_path: Path) -> None:
    path = tmp_path / "report.xlsx"
    _write(path, sample_result(), row_limit=30)
    wb = load_workbook(path)
    cards = [name for name in wb.sheetnames if name.startswith("Cards")]
    assert len(cards) > 1
    for name in cards:
        # every part starts with the title block and then a player's name band
        assert wb[name]["A1"].value == "Individual calculations"
        assert wb[name]["A6"].value in {"Berg, Anna", "Dorn, Carl", "Fink, Eva", "Hahn, Gus"}


def test_games_cap_is_noted(tmp_path: Path) -> None:
    path = tmp_path / "report.xlsx"
    notes = _write(path, sample_result(), games_row_cap=4)
    assert [n.code for n in notes] == ["games-capped"]
    wb = load_workbook(path)
    assert wb["Games"].max_row == 5
    assert "games-capped" in _column(wb["Checks"], "Code")


def test_cards_cap_keeps_whole_blocks(tmp_path: Path) -> None:
    path = tmp_path / "report.xlsx"
    notes = _write(path, sample_result(), cards_row_cap=10)  # Berg's block: 8 rows
    assert [n.code for n in notes] == ["cards-capped"]
    assert "1 of 6 players are shown" in notes[0].message
    ws = load_workbook(path)["Cards"]
    names = [row[0] for row in ws.iter_rows(min_row=6, values_only=True)]
    assert names[0] == "Berg, Anna"
    assert names.count("Berg, Anna") == 1  # one whole block, nothing of the next
    assert [row[1] for row in ws.iter_rows(values_only=True)][-1] == "New rating"


def test_two_writes_are_byte_identical(tmp_path: Path) -> None:
    first, second = tmp_path / "a.xlsx", tmp_path / "b.xlsx"
    _write(first, sample_result())
    _write(second, sample_result())
    assert first.read_bytes() == second.read_bytes()


def test_package_dates_are_fixed(tmp_path: Path) -> None:
    """openpyxl stamps zip entries and docProps with the current time; we do not."""
    path = tmp_path / "report.xlsx"
    _write(path, sample_result())
    with zipfile.ZipFile(path) as package:
        assert {info.date_time for info in package.infolist()} == {(2025, 3, 15, 0, 0, 0)}
        core = package.read("docProps/core.xml").decode()
    assert core.count("2025-03-15T00:00:00Z") == 2
    props = load_workbook(path).properties
    assert props.creator == "elo-pipeline"


def test_failed_write_leaves_no_file_and_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "report.xlsx"

    def broken(segment: workbook_xml.Segment, first_row: int, strings: object) -> object:
        raise RuntimeError("disk full")

    monkeypatch.setattr(workbook_xml, "segment_tasks", broken)
    with pytest.raises(RuntimeError, match="disk full"):
        _write(path, sample_result())
    assert list(tmp_path.iterdir()) == []


def test_failed_write_keeps_the_previous_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "report.xlsx"
    _write(path, sample_result())
    before = path.read_bytes()
    calls = 0

    def rows_then_fail(
        segment: workbook_xml.Segment, first_row: int, strings: workbook_xml.SharedStrings
    ) -> object:
        nonlocal calls
        calls += 1
        if calls > 3:
            raise RuntimeError("killed midway")
        return original(segment, first_row, strings)

    original = workbook_xml.segment_tasks
    monkeypatch.setattr(workbook_xml, "segment_tasks", rows_then_fail)
    with pytest.raises(RuntimeError, match="killed midway"):
        _write(path, sample_result())
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.xlsx"]


def _used_range(ws: object) -> tuple[int, int]:
    """Rows and the widest row's last column, from the cells themselves."""
    rows = list(ws.iter_rows(values_only=True))  # type: ignore[attr-defined]
    last = [max((i + 1 for i, v in enumerate(row) if v is not None), default=0) for row in rows]
    return len(rows), max(last, default=0)


@pytest.mark.parametrize("row_limit", [None, 6])
def test_sheets_declare_their_used_range(tmp_path: Path, row_limit: int | None) -> None:
    """Every sheet's <dimension> is its size as openpyxl's read-only mode reports it (the
    mode pandas reads with): as many rows as there are, every cell within its columns."""
    path = tmp_path / "report.xlsx"
    _write(path, sample_result(), **({} if row_limit is None else {"row_limit": row_limit}))
    full = load_workbook(path)
    streamed = load_workbook(path, read_only=True)
    for ws in streamed.worksheets:
        rows, widest = _used_range(full[ws.title])
        assert ws.max_row == rows, ws.title
        assert ws.max_column is not None, ws.title
        assert ws.max_column >= widest, ws.title
        assert [list(r) for r in ws.iter_rows(values_only=True)] == [
            list(r) + [None] * (ws.max_column - len(r))
            for r in full[ws.title].iter_rows(values_only=True, max_col=ws.max_column)
        ], ws.title


def test_empty_period_still_makes_a_valid_workbook(tmp_path: Path) -> None:
    path = tmp_path / "report.xlsx"
    result = sample_result()
    empty = SampleResult(result.games.clear(), result.ratings.clear(), result.events.clear())
    _write(path, empty)
    wb = load_workbook(path)
    assert wb["Games"].max_row == 1
    assert _column(wb["Checks"], "Message") == ["No warnings: every input was clean."]
    assert wb["Cards"]["A1"].value == "Individual calculations"


def test_extras_are_optional(tmp_path: Path) -> None:
    """Without rate.py's extras (k, event_id, player_key, title, rule_set) the writers
    fall back: K from the ratings, players and events matched by name."""
    path = tmp_path / "report.xlsx"
    result = sample_result()
    bare = SampleResult(
        result.games.select(
            pl.exclude("event_id", "start_no", "k", "player_key", "counts_initial")
        ),
        result.ratings.select(pl.exclude("title", "player_key")),
        result.events.select(pl.exclude("rule_set", "rated_games")),
    )
    _write(path, bare)
    wb = load_workbook(path)
    assert [v for v in _column(wb["Games"], "K·ΔR") if v is not None][:2] == [-6.4, 12.8]
    assert _column(wb["Events"], "Rated games") == [3, 1]
    band = [row[0] for row in wb["Cards"].iter_rows(values_only=True)]
    assert band.count("Hahn, Gus") == 1


def test_page_setup_prints_like_a_report(tmp_path: Path) -> None:
    path = tmp_path / "report.xlsx"
    _write(path, sample_result(), title="Federation rating report 2025-03")
    wb = load_workbook(path)
    games = wb["Games"]
    assert games.page_setup.orientation == "landscape"
    assert games.page_setup.fitToWidth == 1
    assert games.page_setup.fitToHeight == 0
    setup_pr = games.sheet_properties.pageSetUpPr
    assert setup_pr is not None
    assert setup_pr.fitToPage
    assert games.print_title_rows == "$1:$1"
    header_item, footer_item = games.oddHeader, games.oddFooter
    assert header_item is not None
    assert footer_item is not None
    assert header_item.left.text == "Federation rating report 2025-03"
    assert header_item.right.text == "&A"
    assert footer_item.right.text == "Page &P of &N"
    header = games["A1"]
    assert header.font.bold
    assert header.fill.fgColor.rgb.endswith("1F4E78")


def test_top_changes_has_a_bar_chart(tmp_path: Path) -> None:
    path = tmp_path / "report.xlsx"
    _write(path, sample_result())
    with zipfile.ZipFile(path) as package:
        chart = package.read("xl/charts/chart1.xml").decode()
    assert '<barDir val="bar"' in chart
    assert "<val><numRef><f>'Top changes'!$E$2:$E$6</f>" in chart  # gains
    assert "<val><numRef><f>'Top changes'!$F$2:$F$6</f>" in chart  # losses
    assert "<cat><strRef><f>'Top changes'!$A$2:$A$6</f>" in chart  # player names


@pytest.mark.parametrize(
    ("starts", "height", "offset", "expected"),
    [
        ([0, 15, 30], 45, 3, []),  # 48 rows: one page
        ([0, 15, 30, 45], 60, 3, [48]),  # the 4th card would cross the page: break before it
        ([0, 60], 75, 0, []),  # a long card runs onto page 2; the next fits after it
        ([0, 60], 100, 0, [60]),  # ... and one that does not fit gets a fresh page
        ([], 0, 5, []),
        ([10], 20, 0, []),  # a part may open in the middle of a card
    ],
    ids=["one-page", "break-before-card", "long-card", "long-card-then-break", "empty", "mid"],
)
def test_cards_page_breaks_fall_between_cards(
    starts: list[int], height: int, offset: int, expected: list[int]
) -> None:
    assert _block_breaks(starts, height, offset) == expected
