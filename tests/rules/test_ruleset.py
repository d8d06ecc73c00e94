"""Rule-set eras by date and list (fide-rules.md §3, §5, §6; FIDE Handbook B.02)."""

from __future__ import annotations

import datetime as dt

import pytest

from pipeline.rules.ruleset import CAP_MODES, LISTS, RuleSet, ruleset_for

D = dt.date

OPE = "once-per-event"

# (date, list, cap, cap_mode, k_new, k_junior, k_default, k_flat, rule_700, rule_600,
#  floor, initial_method); dates on both sides of each boundary.
ERAS = [
    (D(2009, 6, 30), "standard", 350, "every-game", 25, None, 15, None, False, False, 1000, "2022"),
    (D(2009, 7, 1), "standard", 400, "every-game", 25, None, 15, None, False, False, 1000, "2022"),
    (D(2011, 6, 30), "standard", 400, "every-game", 25, None, 15, None, False, False, 1000, "2022"),
    (D(2011, 7, 1), "standard", 400, "every-game", 30, None, 15, None, False, False, 1000, "2022"),
    (D(2014, 6, 30), "standard", 400, "every-game", 30, None, 15, None, False, False, 1000, "2022"),
    (D(2014, 7, 1), "standard", 400, "every-game", 40, 40, 20, None, True, False, 1000, "2022"),
    (D(2021, 12, 31), "standard", 400, "every-game", 40, 40, 20, None, True, False, 1000, "2022"),
    (D(2022, 1, 1), "standard", 400, OPE, 40, 40, 20, None, True, False, 1000, "2022"),
    (D(2024, 2, 29), "standard", 400, OPE, 40, 40, 20, None, True, False, 1000, "2022"),
    (D(2024, 3, 1), "standard", 400, "every-game", 40, 40, 20, None, True, False, 1400, "2024"),
    (D(2025, 9, 30), "standard", 400, "every-game", 40, 40, 20, None, True, False, 1400, "2024"),
    (D(2025, 10, 1), "standard", 400, "below-2650", 40, 40, 20, None, True, False, 1400, "2024"),
    (D(2009, 6, 30), "rapid", 350, "every-game", 25, None, 15, 20, True, False, 1000, "2022"),
    (D(2021, 12, 31), "rapid", 400, "every-game", 25, None, 15, 20, True, False, 1000, "2022"),
    (D(2022, 1, 1), "rapid", 400, OPE, 40, 40, 20, 20, True, False, 1000, "2022"),
    (D(2022, 9, 30), "blitz", 400, OPE, 40, 40, 20, 20, True, False, 1000, "2022"),
    (D(2022, 10, 1), "blitz", 400, OPE, 40, 40, 20, None, True, False, 1000, "2022"),
    (D(2024, 2, 29), "rapid", 400, OPE, 40, 40, 20, None, True, False, 1000, "2022"),
    (D(2024, 3, 1), "rapid", 400, "every-game", 40, 40, 20, None, True, False, 1400, "2024"),
    (D(2024, 11, 30), "blitz", 400, "every-game", 40, 40, 20, None, True, False, 1400, "2024"),
    (D(2024, 12, 1), "blitz", 400, "every-game", 40, 40, 20, None, True, True, 1400, "2024"),
    (D(2025, 10, 1), "rapid", 400, "every-game", 40, 40, 20, None, True, True, 1400, "2024"),
]  # fmt: skip


@pytest.mark.parametrize("era", ERAS, ids=[f"B.02 {e[1]} {e[0].isoformat()}" for e in ERAS])
def test_era_fields(era: tuple[object, ...]) -> None:
    on, list_, cap, mode, k_new, k_junior, k_default, k_flat, r700, r600, floor, init = era
    assert isinstance(on, dt.date)
    assert isinstance(list_, str)
    rs = ruleset_for(on, list_)
    got = (rs.cap, rs.cap_mode, rs.k_new, rs.k_junior, rs.k_default, rs.k_flat)
    assert got == (cap, mode, k_new, k_junior, k_default, k_flat)
    assert (rs.rule_700, rs.rule_600, rs.floor, rs.initial_method) == (r700, r600, floor, init)
    assert rs.k_top == 10
    assert rs.initial_min_games == 5
    assert rs.initial_max == 2200
    assert rs.list == list_
    assert rs.cap_exempt_from == (2650 if mode == "below-2650" else None)


def test_name_validity_and_neighbours() -> None:
    rs = ruleset_for(D(2026, 11, 30), "standard")
    assert rs.name == "standard 2025-10-01"
    assert rs.valid_from == D(2025, 10, 1)
    assert rs.valid_to is None
    before = ruleset_for(D(2025, 9, 30), "standard")
    assert before.name == "standard 2024-03-01"
    assert before.valid_to == D(2025, 9, 30)


@pytest.mark.parametrize("list_", LISTS)
def test_eras_tile_the_calendar(list_: str) -> None:
    """Each era ends the day before the next begins; every date maps to its own era."""
    day = D(1970, 1, 1)
    seen: list[RuleSet] = []
    while True:
        rs = ruleset_for(day, list_)
        assert rs.valid_from == day
        assert rs.cap_mode in CAP_MODES
        seen.append(rs)
        if rs.valid_to is None:
            break
        assert ruleset_for(rs.valid_to, list_) == rs
        day = rs.valid_to + dt.timedelta(days=1)
    assert len({rs.name for rs in seen}) == len(seen)


@pytest.mark.parametrize(
    ("on", "list_", "match"),
    [(D(2020, 1, 1), "bullet", "rating list"), (D(1969, 12, 31), "standard", "from 1970")],
)
def test_bad_arguments(on: dt.date, list_: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        ruleset_for(on, list_)


def test_describe_mentions_the_rules() -> None:
    text = ruleset_for(D(2025, 10, 1), "standard").describe()
    assert text.startswith("standard 2025-10-01 (cap 400 below 2650")
    assert "700 rule" in text
    assert "600 rule" in ruleset_for(D(2025, 1, 1), "blitz").describe()
    assert "K 20 for all" in ruleset_for(D(2020, 1, 1), "rapid").describe()
    assert "once per event" in ruleset_for(D(2023, 1, 1), "standard").describe()
