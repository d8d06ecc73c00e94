"""The norm checks on what `elo run` rates: the sample period and every real file give a
verdict (or `cannot tell` with the missing facts) for every player entry with a game,
and each verdict agrees with its checks (B.01, Title Regulations from 1 January 2024)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from pipeline.load import RunOptions, stack_frames
from pipeline.norms.checks import NormChecks
from pipeline.run import run_job
from tests.conftest import SAMPLES
from tests.norms.test_check_modes import agree
from tests.test_real_files import real_files

REGISTRY = SAMPLES / "registry" / "players_list_foa.txt"


def checked(paths: list[Path], registry: Path | None = None) -> NormChecks:
    outcome = run_job(RunOptions(paths=paths, registry=registry))
    assert outcome.result is not None
    loaded = outcome.loaded
    players = loaded.identity.players if loaded.identity else stack_frames(loaded, "players")
    # what `elo run` asks ("reach") and "none" agree with every check row ("all")
    result, _ = agree(outcome.result.games, players, outcome.result.events)
    # every player entry of the games has its norms, but a GM (no norm left to seek)
    entries = outcome.result.games.select("event_id", "start_no").unique()
    gm = players.filter(pl.col("title").str.strip_chars().str.to_uppercase() == "GM")
    seeking = entries.join(gm.select("event_id", "start_no"), on=["event_id", "start_no"],
                           how="anti")  # fmt: skip
    assert (
        result.norms.select("event_id", "start_no")
        .unique()
        .sort(pl.all())
        .equals(seeking.sort(pl.all()))
    )
    return result


def consistent(result: NormChecks) -> None:
    norms, checks = result.norms, result.checks
    assert norms.height > 0
    assert set(norms["verdict"]) <= {"met", "not met", "cannot tell"}
    judged = checks.group_by("event_id", "start_no", "title").agg(
        (pl.col("ok") == False).any().alias("fails"),  # noqa: E712
        pl.col("ok").is_null().any().alias("unknown"),
    )
    both = norms.join(judged, on=["event_id", "start_no", "title"])
    assert both.height == norms.height
    for row in both.iter_rows(named=True):
        want = "not met" if row["fails"] else "cannot tell" if row["unknown"] else "met"
        assert row["verdict"] == want
        assert (row["verdict"] == "cannot tell") == bool(row["missing"]) or row["fails"]


def test_the_sample_period() -> None:
    result = checked([SAMPLES], REGISTRY)
    consistent(result)
    # rapid and blitz events are checked too, and fail 0.5 (standard chess only)
    other = result.norms.join(
        result.events.filter(pl.col("list") != "standard").select("event_id"), on="event_id"
    )
    assert other.height > 0
    assert all("standard" in failing for failing in other["failing"])


@pytest.mark.parametrize("path", real_files(), ids=lambda p: p.name)
def test_every_real_file(path: Path) -> None:
    result = checked([path])
    consistent(result)
