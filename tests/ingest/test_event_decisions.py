"""--events: the officer's decisions about events, read (every problem at its line and
column) and applied (each an adjustment; the list chosen again where it rested on what the
decision changed)."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from pipeline.errors import InputError, Problem
from pipeline.formats.model import EventData
from pipeline.formats.schedule import settle_list
from pipeline.formats.trf.read import read_trf
from pipeline.ingest.event_adjustments import adjustment_problems, apply_event_decisions
from pipeline.ingest.event_decisions import EventDecision, parse_event_decisions

PLAYERS = """\
001    1 m    Alpha, Anton                      2105 SWE    90000011 1990/03/02  1.5    1     2 w 1     3 b =
001    2 m    Beta, Bruno                       2050 NGR    90000022 1985/07/14  0.0    3     1 b 0  0000 - Z
001    3 m    Gamma, Gustav                     1987 GER    90000033 2001/11/30  0.5    2  0000 - Z     1 w =
"""  # noqa: E501


def trf(*records: str) -> str:
    return "\n".join(["012 Decided Open", *records]) + "\n" + PLAYERS


def event(text: str, file: str = "2025-11/open.trf") -> EventData:
    return settle_list(read_trf(text, file))


def row(ev: EventData) -> dict[str, object]:
    return ev.events.row(0, named=True)


def decisions(text: str) -> list[EventDecision]:
    return parse_event_decisions(text, "events.csv")


def lines(problems: list[Problem]) -> list[str]:
    return [str(p) for p in problems]


# --- reading --------------------------------------------------------------------------


def test_a_row_of_every_field_is_read() -> None:
    (found,) = decisions(
        "file;event;period;list;start_date;end_date;time_control;event_type\n"
        "open.trf;Decided Open;2025-12;Rapid;2025-11-07;09.11.2025;15 min + 10 s;Round robin\n"
    )
    assert found == EventDecision(
        line=2,
        file="open.trf",
        event="Decided Open",
        period="2025-12",
        list="rapid",
        start_date=dt.date(2025, 11, 7),
        end_date=dt.date(2025, 11, 9),
        time_control="15 min + 10 s",
        event_type="round-robin",
        headers=found.headers,
    )


@pytest.mark.parametrize(
    ("written", "event_type"),
    [
        ("swiss", "swiss"),
        ("Round robin", "round-robin"),
        ("double_round_robin", "double-round-robin"),
        ("DOUBLE-ROUND-ROBIN", "double-round-robin"),
        ("  National  team_Championship ", "national-team-championship"),
        ("World Cup", "world-cup"),
    ],
    ids=["as-named", "space", "underscores", "upper-case", "mixed", "two-words"],
)
def test_an_event_type_is_read_in_any_case_with_spaces_or_underscores(
    written: str, event_type: str
) -> None:
    (found,) = decisions(f"file,event_type\nopen.trf,{written}\n")
    assert found.event_type == event_type
    assert found.decided() == {"event_type": event_type}


def test_every_problem_of_the_file_is_reported_at_its_line_and_column() -> None:
    with pytest.raises(InputError) as caught:
        decisions(
            "file,period,list,start_date,end_date,time_control,event_type\n"
            "a.trf,2025-13,,,,,\n"
            "b.trf,,classic,,,,\n"
            "c.trf,,,05/06/2025,,,\n"
            "d.trf,,,2025-11-09,2025-11-07,,\n"
            "e.trf,,,,,lots of time,\n"
            "f.trf,,blitz,,,90 min + 30 s,\n"
            ",2025-12,,,,,\n"
            "g.trf,,,,,,\n"
            "h.trf,,,,,,open\n"
        )
    assert lines(caught.value.problems) == [
        "events.csv:2:period: expected a rating period YYYY-MM, got '2025-13' [bad-event-decision]",
        "events.csv:3:list: expected standard, rapid or blitz, got 'classic' [bad-event-decision]",
        "events.csv:4:start_date: expected a date that reads one way, got '05/06/2025' reads "
        "as 2025-06-05 (day first) or 2025-05-06 (month first) [bad-event-decision]",
        "events.csv:5:end_date: expected the end on or after the start 2025-11-09, got "
        "2025-11-07 [bad-event-decision]",
        "events.csv:6:time_control: expected a time control such as '90 min + 30 s' or "
        "'5400+30', got 'lots of time', which does not read [bad-event-decision]",
        "events.csv:7:list: expected a list that agrees with the time control, got blitz "
        f"while {read_describe('90 min + 30 s')} [event-decision-conflict]",
        "events.csv:8:file: expected the tournament file the row is about, got blanks "
        "[bad-event-decision]",
        "events.csv:9:file: expected a decision (period, list, start_date, end_date, "
        "time_control, event_type) for 'g.trf', got only blanks [bad-event-decision]",
        "events.csv:10:event_type: expected an event type (swiss, round-robin, "
        "double-round-robin, knockout, national-championship, national-team-championship, "
        "zonal, team-championship, world-cup), got 'open' [bad-event-decision]",
    ]


def read_describe(text: str) -> str:
    from pipeline.formats.timecontrol import read_time_control

    return read_time_control(text).describe()


def test_a_header_without_file_or_any_decision_is_refused() -> None:
    with pytest.raises(InputError) as caught:
        decisions("event,colour\nOpen,w\n")
    assert lines(caught.value.problems) == [
        "events.csv:1: expected a column file, got event, colour [missing-column]",
        "events.csv:1: expected at least one of the columns period, list, start_date, "
        "end_date, time_control, event_type, got event, colour [missing-column]",
        "events.csv:1:colour: expected the columns file, event, period, list, start_date, "
        "end_date, time_control, event_type, got 'colour' [unknown-column]",
    ]


# --- applying -------------------------------------------------------------------------

DATED = trf("042 2025/11/07", "052 2025/11/09", "122 90 min + 30 sec/move")


def test_a_late_report_moves_the_event_to_the_next_period() -> None:
    ev = event(DATED)
    applied = apply_event_decisions([ev], decisions("file,period\nopen.trf,2025-12\n"), "ev.csv")
    assert applied.problems == []
    assert row(applied.events[0])["period"] == "2025-12"
    assert lines(adjustment_problems(applied.adjustments)) == [
        "2025-11/open.trf: warning: period 2025-12 (the file's: 2025-11), as decided in "
        "ev.csv line 2 [event-decision]"
    ]
    # the file's own dates stay: Ro comes from the list in force at the start
    assert row(applied.events[0])["start_date"] == dt.date(2025, 11, 7)


def test_a_period_before_the_event_ended_is_a_conflict() -> None:
    applied = apply_event_decisions(
        [event(DATED)], decisions("file,period\nopen.trf,2025-10\n"), "ev.csv"
    )
    assert lines(applied.problems) == [
        "ev.csv:2: expected a period on or after 2025-11 for 2025-11/open.trf, which ends "
        "2025-11-09 (an event is rated in the period it ends or later, when its report is "
        "late), got 2025-10 [event-decision-conflict]"
    ]
    assert row(applied.events[0])["period"] is None  # not applied


def test_a_decided_list_replaces_the_schedule_and_its_warning() -> None:
    ev = event(trf("042 2025/11/07", "052 2025/11/09"))
    assert row(ev)["list_source"] == "schedule"
    assert [p.code for p in ev.problems] == ["list-inferred"]
    applied = apply_event_decisions([ev], decisions("file;list\nopen.trf;rapid\n"), "ev.csv")
    got = applied.events[0]
    assert (row(got)["list"], row(got)["list_source"], row(got)["list_reason"]) == (
        "rapid",
        "decision",
        "decided in ev.csv line 2",
    )
    assert got.problems == []
    assert lines(adjustment_problems(applied.adjustments)) == [
        "2025-11/open.trf: warning: list rapid (the file's: standard), as decided in ev.csv "
        "line 2 [event-decision]"
    ]


def test_a_decided_time_control_gives_the_list() -> None:
    ev = event(DATED)
    applied = apply_event_decisions(
        [ev], decisions("file,time_control\nopen.trf,G/10;+5\n"), "ev.csv"
    )
    got = row(applied.events[0])
    assert (got["list"], got["list_source"], got["time_control"]) == (
        "rapid",
        "decision",
        "G/10;+5",
    )
    assert got["list_reason"] == f"{read_describe('G/10;+5')}, as decided in ev.csv line 2"
    assert [a.field for a in applied.adjustments] == ["time_control", "list"]


def test_decided_dates_choose_the_schedule_list_again() -> None:
    # one day, five rounds: the file's dates say 3 days, the decision one day
    ev = event(trf("042 2025/11/07", "052 2025/11/09", "XXR 5"))
    assert row(ev)["list"] == "standard"
    applied = apply_event_decisions(
        [ev], decisions("file,end_date\nopen.trf,2025-11-07\n"), "ev.csv"
    )
    got = applied.events[0]
    assert (row(got)["end_date"], row(got)["list"], row(got)["list_source"]) == (
        dt.date(2025, 11, 7),
        "rapid",
        "assumed",
    )
    assert [p.code for p in got.problems] == ["list-assumed"]


def test_rows_match_by_trailing_path_and_event_name() -> None:
    a = event(DATED, "2025-11/a/open.trf")
    b = event(DATED, "2025-11/b/open.trf")
    applied = apply_event_decisions(
        [a, b],
        decisions("file,event,list\nb/open.trf,decided  OPEN,blitz\nopen.trf,Other,rapid\n"),
        "ev.csv",
    )
    assert [row(e)["list"] for e in applied.events] == ["standard", "blitz"]
    assert lines(applied.problems) == [
        "ev.csv:3: warning: expected the row to name an event of these files, got none: file "
        "'open.trf', event 'Other' [event-decision-unused]"
    ]


def test_two_rows_deciding_one_field_two_ways_are_a_conflict() -> None:
    applied = apply_event_decisions(
        [event(DATED)],
        decisions("file,period,list\nopen.trf,2025-12,\n2025-11/open.trf,2026-01,rapid\n"),
        "ev.csv",
    )
    assert lines(applied.problems) == [
        "ev.csv:3:period: expected one period for 2025-11/open.trf, got 2025-12 on line 2 "
        "and 2026-01 here [event-decision-conflict]"
    ]
    assert applied.adjustments == []


def test_both_dates_decided_settle_an_ambiguous_date() -> None:
    ev = event(trf("042 05/06/2025", "052 06/06/2025", "122 90 min + 30 sec/move"))
    ambiguous = [p.code for p in ev.problems]
    assert "ambiguous-date" in ambiguous
    applied = apply_event_decisions(
        [ev],
        decisions("file,start_date,end_date\nopen.trf,2025-06-05,2025-06-06\n"),
        "ev.csv",
    )
    got = applied.events[0]
    assert "ambiguous-date" not in [p.code for p in got.problems]
    assert (row(got)["start_date"], row(got)["end_date"]) == (
        dt.date(2025, 6, 5),
        dt.date(2025, 6, 6),
    )


def test_a_decided_event_type_fills_the_column_and_is_reported() -> None:
    ev = event(DATED)
    assert row(ev)["event_type"] is None  # no file format states it
    applied = apply_event_decisions(
        [ev], decisions("file,event_type\nopen.trf,Double round robin\n"), "ev.csv"
    )
    assert applied.problems == []
    got = applied.events[0]
    assert row(got)["event_type"] == "double-round-robin"
    assert got.events.schema["event_type"] == pl.String
    # nothing of the rating changes: the list and its reason, the dates, the period stay
    unchanged = [c for c in ev.events.columns if c != "event_type"]
    assert got.events.select(unchanged).equals(ev.events.select(unchanged))
    assert got.problems == ev.problems
    assert [a.as_dict() for a in applied.adjustments] == [
        {
            "file": "2025-11/open.trf",
            "event": "Decided Open",
            "field": "event_type",
            "value": "double-round-robin",
            "before": None,  # the file's: not stated
            "decisions_file": "ev.csv",
            "line": 2,
        }
    ]
    assert lines(adjustment_problems(applied.adjustments)) == [
        "2025-11/open.trf: warning: event_type double-round-robin, as decided in ev.csv "
        "line 2 [event-decision]"
    ]


def test_events_without_an_event_type_decision_keep_the_column_null() -> None:
    a = event(DATED, "2025-11/a/open.trf")
    b = event(DATED, "2025-11/b/open.trf")
    applied = apply_event_decisions(
        [a, b], decisions("file,list,event_type\na/open.trf,rapid,\nb/open.trf,,swiss\n"), "ev.csv"
    )
    assert [(row(e)["list"], row(e)["event_type"]) for e in applied.events] == [
        ("rapid", None),
        ("standard", "swiss"),
    ]
    assert [a.field for a in applied.adjustments] == ["list", "event_type"]


def test_two_event_types_for_one_event_are_a_conflict() -> None:
    applied = apply_event_decisions(
        [event(DATED)],
        decisions("file;event_type\nopen.trf;swiss\n2025-11/open.trf;round_robin\n"),
        "ev.csv",
    )
    assert lines(applied.problems) == [
        "ev.csv:3:event_type: expected one event_type for 2025-11/open.trf, got swiss on "
        "line 2 and round-robin here [event-decision-conflict]"
    ]
    assert row(applied.events[0])["event_type"] is None
    assert applied.adjustments == []


def test_an_events_frame_without_the_column_takes_the_decision() -> None:
    ev = event(DATED)
    bare = EventData(ev.events.drop("event_type"), ev.players, ev.games, ev.problems)
    applied = apply_event_decisions(
        [bare], decisions("file,event_type\nopen.trf,zonal\n"), "ev.csv"
    )
    assert row(applied.events[0])["event_type"] == "zonal"
