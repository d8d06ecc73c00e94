"""Which period an event belongs to (closing dates), which events a run rates, the
same event given twice, single periods with --write-list and --pending, players without
FIDE IDs carried by name, the list round trip and reruns replacing their outputs."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.formats.rating_list.read import read_rating_list
from pipeline.period.calendar import closing_date, list_date, period_of, shift
from pipeline.period.lists import write_list
from pipeline.period.nextlist import as_list
from pipeline.period.pending import empty, in_window, read_pending
from tests.period.builders import Ev, P, read_rows, write_event, write_registry
from tests.period.test_chain_by_hand import REGISTRY, open_with_e, rr


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    ("end", "period"),
    [
        (dt.date(2025, 7, 28), "2025-07"),
        (dt.date(2025, 7, 29), "2025-07"),  # the list of 1 August closes on 29 July
        (dt.date(2025, 7, 30), "2025-08"),  # 28-30 July: rated into the list of 1 September
        (dt.date(2025, 7, 31), "2025-08"),
        (dt.date(2025, 2, 26), "2025-02"),  # the list of 1 March closes on 26 February
        (dt.date(2025, 2, 27), "2025-03"),
        (dt.date(2025, 2, 28), "2025-03"),
        (dt.date(2024, 2, 27), "2024-02"),  # a leap year: 1 March 2024 minus 3 days
        (dt.date(2024, 2, 28), "2024-03"),
        (dt.date(2024, 2, 29), "2024-03"),
        (dt.date(2025, 12, 29), "2025-12"),
        (dt.date(2025, 12, 30), "2026-01"),  # into the list of 1 February of the next year
        (dt.date(2025, 6, 29), "2025-07"),  # the day after the list of 1 July closed
    ],
)
def test_closing_dates(end: dt.date, period: str) -> None:
    assert period_of(end) == period
    assert closing_date(shift(period, -1)) < end <= closing_date(period)


def test_list_and_closing_dates_of_a_period() -> None:
    assert (list_date("2025-07"), closing_date("2025-07")) == (
        dt.date(2025, 8, 1),
        dt.date(2025, 7, 29),
    )


def three_months(folder: Path) -> list[Path]:
    return [
        write_event(folder, rr("Jan RR", dt.date(2025, 1, 10), ["1", "=", "=", "0", "0", "1"])),
        write_event(folder, rr("Feb RR", dt.date(2025, 2, 7), ["=", "1", "1", "=", "=", "="])),
        write_event(folder, rr("Mar RR", dt.date(2025, 3, 7), ["1", "=", "=", "0", "0", "1"])),
    ]


def test_several_periods_without_period_or_chain_is_a_usage_error(tmp_path: Path) -> None:
    three_months(tmp_path / "ev")
    code, _, err = invoke("run", str(tmp_path / "ev"), "--out", str(tmp_path / "out"))
    assert code == 2
    assert err == (
        "elo: error: the events belong to 3 rating periods (2025-01: 1 event, 2025-02: 1 "
        "event, 2025-03: 1 event); rate one with --period YYYY-MM, or every period in order "
        "with --chain\n"
    )
    assert not list((tmp_path / "out").iterdir())


def test_period_rates_its_events_and_names_the_period_of_the_others(tmp_path: Path) -> None:
    jan, _feb, mar = three_months(tmp_path / "ev")
    out = tmp_path / "out"
    code, _, err = invoke("run", str(tmp_path / "ev"), "--period", "2025-02", "--out", str(out))
    assert code == 0, err
    skipped = [line for line in err.splitlines() if line.endswith("[other-period]")]
    assert skipped == [
        f"{jan}: warning: expected an event of period 2025-02 (ending 2025-01-30 to "
        "2025-02-26), got one ending 2025-01-12: it belongs to period 2025-01 (rated into "
        "the list of 2025-02-01); skipped [other-period]",
        f"{mar}: warning: expected an event of period 2025-02 (ending 2025-01-30 to "
        "2025-02-26), got one ending 2025-03-09: it belongs to period 2025-03 (rated into "
        "the list of 2025-04-01); skipped [other-period]",
    ]
    assert {r["games"] for r in read_rows(out / "ratings.csv")} == {"3"}  # February only
    assert {r["tournament"] for r in read_rows(out / "games.csv")} == {"Feb RR"}


def test_an_undated_event_cannot_be_placed_in_a_chain(tmp_path: Path) -> None:
    three_months(tmp_path / "ev")
    undated = rr("Undated RR", dt.date(2025, 1, 20), ["1", "1", "1", "1", "1", "1"])
    path = write_event(tmp_path / "ev", undated)
    text = path.read_text(encoding="utf-8")
    path.write_text(
        "".join(line for line in text.splitlines(True) if not line.startswith(("042", "052"))),
        encoding="utf-8",
    )
    code, _, err = invoke("run", str(tmp_path / "ev"), "--chain", "--out", str(tmp_path / "o"))
    assert code == 1
    assert (
        f"{path}: expected a start or end date to place the event in one of the run's rating "
        "periods (2025-01, 2025-02, 2025-03), got none [no-event-date]"
    ) in err.splitlines()


def test_the_same_file_twice_is_a_duplicate_event(tmp_path: Path) -> None:
    (jan, *_) = three_months(tmp_path / "ev")
    copy = tmp_path / "ev" / "downloads" / "jan (1).trf"
    copy.parent.mkdir()
    shutil.copy(jan, copy)
    code, _, err = invoke("run", str(tmp_path / "ev"), "--chain", "--out", str(tmp_path / "o"))
    assert code == 0, err  # rated once, from the first: a warning, not an error
    line = (
        f"{copy}: warning: expected each event once, got the event of {jan} again (the same "
        f"bytes); rated once, from {jan} [duplicate-event]"
    )
    assert line in err.splitlines()
    code, _, err = invoke("validate", str(jan), str(copy))
    assert code == 0
    assert line in err.splitlines()


def test_a_period_at_a_time_with_write_list_and_pending_equals_the_chain(
    tmp_path: Path,
) -> None:
    jan = tmp_path / "jan"
    feb = tmp_path / "feb"
    write_event(jan, open_with_e("Jan Open", dt.date(2025, 1, 17), ["1", "=", "0"]))
    write_event(feb, open_with_e("Feb Open", dt.date(2025, 2, 14), ["1", "1", "="]))
    registry = write_registry(tmp_path / "list.csv", REGISTRY)
    code, _, err = invoke(
        "run", str(jan), "--registry", str(registry), "--write-list", "--out", str(tmp_path / "o1")
    )
    assert code == 0, err
    assert [r["opponent_rating"] for r in read_rows(tmp_path / "o1" / "pending.csv")] == [
        "1600",
        "1700",
        "1800",
    ]
    code, _, err = invoke(
        "run",
        str(feb),
        "--registry",
        str(tmp_path / "o1" / "players_list.csv"),
        "--pending",
        str(tmp_path / "o1" / "pending.csv"),
        "--out",
        str(tmp_path / "o2"),
    )
    assert code == 0, err
    e = next(r for r in read_rows(tmp_path / "o2" / "ratings.csv") if r["fide_id"] == "1005")
    assert (e["status"], e["games"], e["rating_after"]) == ("initial", "6", "1820")


def test_a_bad_pending_file_is_reported_at_its_lines(tmp_path: Path) -> None:
    path = tmp_path / "pending.csv"
    path.write_text(
        "list,fide_id,name,period,event,opponent_rating,score,first_event_zero\n"
        'standard,1005,"Echo, Eva",2025-01,Jan Open,1600,1,0\n'
        'classical,1005,"Echo, Eva",2025-1,Jan Open,0,2,x\n',
        encoding="utf-8",
    )
    write_event(tmp_path / "ev", open_with_e("Feb Open", dt.date(2025, 2, 14), ["1", "1", "="]))
    code, _, err = invoke(
        "run", str(tmp_path / "ev"), "--pending", str(path), "--out", str(tmp_path / "o")
    )
    assert code == 1
    lines = [line for line in err.splitlines() if line.endswith("[bad-value]")]
    assert sorted(line.split(": ", 1)[0] for line in lines) == [
        f"{path}:3:first_event_zero",
        f"{path}:3:list",
        f"{path}:3:opponent_rating",
        f"{path}:3:period",
        f"{path}:3:score",
    ]
    assert "Traceback" not in err


def test_players_without_fide_ids_are_carried_by_name(tmp_path: Path) -> None:
    people = [P("Oak, Olga", None, 1800), P("Pine, Piet", None, 1700),
              P("Reed, Rob", None, 1600), P("Sage, Sam", None, 1500)]  # fmt: skip
    pairs = [[(1, 4, "1"), (2, 3, "1")], [(1, 3, "1"), (4, 2, "0")], [(1, 2, "1"), (3, 4, "1")]]
    write_event(
        tmp_path / "ev", Ev("Club Jan", dt.date(2025, 1, 10), dt.date(2025, 1, 12), people, pairs)
    )
    write_event(
        tmp_path / "ev", Ev("Club Feb", dt.date(2025, 2, 7), dt.date(2025, 2, 9), people, pairs)
    )
    out = tmp_path / "out"
    code, _, err = invoke("run", str(tmp_path / "ev"), "--chain", "--out", str(out))
    assert code == 0, err
    jan = {r["name"]: r for r in read_rows(out / "2025-01" / "ratings.csv")}
    feb = {r["name"]: r for r in read_rows(out / "2025-02" / "ratings.csv")}
    for name in jan:
        assert feb[name]["rating_before"] == jan[name]["rating_after"]
    assert jan["Oak, Olga"]["rating_after"] != "1800"
    listed = {r["name"]: r for r in read_rows(out / "2025-02" / "players_list.csv")}
    assert listed["Oak, Olga"]["fideid"] == ""
    assert listed["Oak, Olga"]["rating"] == feb["Oak, Olga"]["rating_after"]


def test_the_list_written_reads_back_as_the_same_frame(tmp_path: Path) -> None:
    frame = as_list(
        pl.DataFrame(
            {
                "fideid": [1001, None, 1003],
                "name": ["Alpha, Anna", "Oak, Olga", 'Ng, "Q"'],
                "country": ["NED", None, "FRA"],
                "sex": ["F", None, "M"],
                "title": ["GM", None, None],
                "rating": [2500, 1820, None],
                "games": [9, 6, None],
                "k": [10, 40, None],
                "rapid_rating": [2400, None, 1500],
                "rapid_games": [0, None, 3],
                "rapid_k": [10, None, 20],
                "birthday": [1980, 2000, None],
                "flag": ["w", None, "i"],
                "career_games": [None, 6, None],
                "ever_2400": [True, False, None],
                "rapid_ever_2400": [True, None, False],
            }
        )
    )
    write_list(tmp_path, frame, empty())
    back = read_rating_list(tmp_path / "players_list.csv")
    assert_frame_equal(back, frame)
    assert read_pending(tmp_path / "pending.csv").height == 0


def test_the_chain_lists_read_back_unchanged(tmp_path: Path) -> None:
    three_months(tmp_path / "ev")
    registry = write_registry(tmp_path / "list.csv", REGISTRY)
    out = tmp_path / "out"
    code, _, err = invoke(
        "run", str(tmp_path / "ev"), "--registry", str(registry), "--chain", "--out", str(out)
    )
    assert code == 0, err
    first = read_rating_list(out / "2025-03" / "players_list.csv")
    (tmp_path / "again").mkdir()
    write_list(tmp_path / "again", first, empty())
    assert (tmp_path / "again" / "players_list.csv").read_bytes() == (
        out / "2025-03" / "players_list.csv"
    ).read_bytes()


def test_a_rerun_replaces_what_the_run_before_wrote(tmp_path: Path) -> None:
    events = tmp_path / "ev"
    jan, _feb, mar = three_months(events)
    out = tmp_path / "out"
    assert invoke("run", str(events), "--chain", "--out", str(out))[0] == 0
    assert (out / "2025-03").is_dir()
    mar.unlink()
    (out / "2025-01" / "stale.txt").write_text("from before", encoding="utf-8")
    assert invoke("run", str(events), "--chain", "--out", str(out))[0] == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "2025-01",
        "2025-02",
        "history.csv",
        "summary.json",
    ]
    assert not (out / "2025-01" / "stale.txt").exists()
    assert {r["period"] for r in read_rows(out / "history.csv")} == {"2025-01", "2025-02"}
    # a single period into the same folder: nothing of the chain is left
    assert invoke("run", str(jan), "--out", str(out))[0] == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "games.csv", "identities.csv", "norms.csv", "performance.csv", "ratings.csv", "report.xlsx",
        "summary.json",
    ]  # fmt: skip
    assert not list(tmp_path.glob(".out.*"))  # no staging folder left behind


def test_a_rerun_keeps_the_users_own_files(tmp_path: Path) -> None:
    events = tmp_path / "ev"
    three_months(events)
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    assert invoke("run", str(events), "--chain", "--out", str(out))[0] == 0
    assert invoke("run", str(events), "--period", "2025-02", "--out", str(out))[0] == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "games.csv", "identities.csv", "norms.csv", "notes.txt", "performance.csv", "ratings.csv",
        "report.xlsx", "summary.json",
    ]  # fmt: skip
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_the_pool_spans_at_most_26_periods() -> None:
    rows = pl.DataFrame(
        {"period": ["2022-12", "2023-01", "2023-02", "2025-02", "2025-03"], "score": [1.0] * 5}
    )
    # rating 2025-03: 2023-01 is 26 months back (out), 2023-02 is 25 (in); the period's
    # own rows (a rerun) are not pooled twice
    assert in_window(rows, "2025-03")["period"].to_list() == ["2023-02", "2025-02"]


def test_an_old_pool_drops_out_of_an_initial_rating(tmp_path: Path) -> None:
    registry = write_registry(tmp_path / "list.csv", REGISTRY)
    header = "list,fide_id,name,period,event,opponent_rating,score,first_event_zero\n"
    old = "".join(
        f'standard,1005,"Echo, Eva",{period},Old Open,1700,1,0\n'
        for period in ("2022-12", "2022-12", "2022-12")
    )
    (tmp_path / "old.csv").write_text(header + old, encoding="utf-8")
    (tmp_path / "recent.csv").write_text(
        header + old.replace("2022-12", "2023-01"), encoding="utf-8"
    )
    write_event(tmp_path / "ev", open_with_e("Feb Open", dt.date(2025, 2, 14), ["1", "1", "="]))
    statuses = []
    for pool in ("old.csv", "recent.csv"):
        out = tmp_path / pool.replace(".csv", "")
        code, _, err = invoke("run", str(tmp_path / "ev"), "--registry", str(registry),
                              "--pending", str(tmp_path / pool), "--out", str(out))  # fmt: skip
        assert code == 0, err
        e = next(r for r in read_rows(out / "ratings.csv") if r["fide_id"] == "1005")
        statuses.append((e["status"], e["games"]))
    # period 2025-02: 2022-12 is 26 months back, 2023-01 is 25
    assert statuses == [("unrated", "3"), ("initial", "6")]
