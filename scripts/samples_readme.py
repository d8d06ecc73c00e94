"""Checks of the period's special cases and the generated samples/README.md."""

from __future__ import annotations

from dataclasses import dataclass

from samples_events import (
    CANDIDATE_LEAGUE_FROM,
    CANDIDATE_OPEN_ROUNDS,
    RULE_600,
    Period,
    SwissEvent,
)
from samples_people import Person
from samples_swiss import HALVES, PLAYED


@dataclass(frozen=True)
class RatedGame:
    event: str
    round: int
    opponent: Person
    opponent_rating: int
    halves: int  # the candidate's result in halves


def candidate_games(period: Period) -> list[RatedGame]:
    """The candidate's games against opponents rated in standard (fide-rules.md 6)."""
    cand = period.candidate
    games: list[RatedGame] = []
    event = period.open
    no = event.field.index(cand) + 1
    for round_no, e in enumerate(event.entrants[no].entries, start=1):
        if e.opponent is not None and e.code in PLAYED and event.ratings[e.opponent - 1] > 0:
            games.append(
                RatedGame(
                    "open",
                    round_no,
                    event.field[e.opponent - 1],
                    event.ratings[e.opponent - 1],
                    HALVES[e.code],
                )
            )
    cid = period.league_field.index(cand) + 1
    for g in period.league_games:
        if cid not in (g.white, g.black) or g.code not in PLAYED:
            continue
        other = period.league_field[(g.black if g.white == cid else g.white) - 1]
        white_halves = HALVES[g.code]
        halves = white_halves if g.white == cid else 2 - white_halves
        rating = other.rating("standard")
        if rating is not None:
            games.append(RatedGame("league", g.round, other, rating, halves))
    return games


def check_candidate(period: Period) -> None:
    """Pooled over both events the candidate has >= 5 rated opponents and scores at least
    50 %, so p >= .50, dp >= 0 and Ru >= Ra >= 1400 (every rating is >= 1400): a
    published initial rating. Neither event alone has 5 such games."""
    games = candidate_games(period)
    n = len(games)
    won = sum(g.halves for g in games)
    assert n >= 5, n
    assert won >= n, (won, n)  # W >= n / 2, in halves
    for event in ("open", "league"):
        assert 0 < sum(1 for g in games if g.event == event) < 5, event
    assert sum(g.halves for g in games if g.event == "open") > 0  # first event not a zero


def rapid_rating(event: SwissEvent, no: int) -> int:
    """The rating the rapid list uses: rapid, else the standard rating (fide-rules.md 1)."""
    return event.ratings[no - 1] or event.field[no - 1].rating("standard") or 0


def rule600_games(period: Period) -> list[tuple[int, int, int, str]]:
    """Rapid games not rated under the 600-point rule: (round, no, opponent no, code)."""
    event = period.rapid
    found = []
    for no, entrant in event.entrants.items():
        for round_no, e in enumerate(entrant.entries, start=1):
            if e.opponent is None or e.code not in PLAYED or e.opponent < no:
                continue
            a, b = rapid_rating(event, no), rapid_rating(event, e.opponent)
            if a and b and max(a, b) > 2600 and abs(a - b) >= RULE_600:
                found.append((round_no, no, e.opponent, e.code))
    return sorted(found)


def _who(p: Person) -> str:
    fide_id = "no FIDE ID" if p.fide_id is None else f"FIDE ID {p.fide_id}"
    return f"{p.name} ({fide_id})"


def _ratings(p: Person) -> str:
    parts = []
    for list_name in ("standard", "rapid", "blitz"):
        entry = p.lists[list_name]
        parts.append(
            f"{list_name} {entry.rating} K {entry.k}" if entry.rating else f"{list_name} -"
        )
    return ", ".join(parts)


def _special_rounds(event: SwissEvent) -> list[str]:
    lines = []
    for no, entrant in sorted(event.entrants.items()):
        for round_no, e in enumerate(entrant.entries, start=1):
            if e.code in "+-HUZ":
                what = {
                    "+": "forfeit win",
                    "-": "forfeit loss",
                    "H": "half-point bye",
                    "U": "pairing-allocated bye",
                    "Z": "zero-point absence",
                }[e.code]
                opp = f" against no. {e.opponent}" if e.opponent else ""
                lines.append(f"round {round_no}: no. {no} {what}{opp}")
    return sorted(lines, key=lambda s: int(s.split()[1].rstrip(":")))


def render_readme(period: Period, files: dict[str, str], dates: dict[str, str]) -> str:
    sgm, cand = period.sgm, period.candidate
    games = candidate_games(period)
    n = len(games)
    won = sum(g.halves for g in games) / 2
    opp_sum = sum(g.opponent_rating for g in games)
    rapid = period.rapid
    std_only_rapid = [
        p for p in rapid.field if p.rating("rapid") is None and p.rating("standard") is not None
    ]
    unrated_open = [p for p, r in zip(period.open.field, period.open.ratings, strict=True) if not r]
    notes = period.notes
    out: list[str] = []
    add = out.append
    add("# Sample rating period: November 2026\n")
    add(
        "Synthetic inputs forming ONE valid FIDE rating period (2026-11, rules of 2026: 400\n"
        "cap below 2650, 600-point rule in rapid and blitz, floor 1400, K 40/20/10 with the\n"
        "junior K 40, 700 rule). Every person is invented. Every player with a FIDE ID is in\n"
        "the registry with exactly the rating the event file shows (0 / empty = unrated).\n"
    )
    add(
        "This file is written by `scripts/make_samples.py` with the samples: edit the "
        "script, not the files.\n"
    )
    add("Regenerate (deterministic, seeded; byte-identical on every run):\n")
    add("    .venv/bin/python scripts/make_samples.py            # rewrites samples/")
    add("    .venv/bin/python scripts/make_samples.py --out DIR  # writes elsewhere\n")
    add(
        "Run the period: `make demo` (`elo run samples/ --registry "
        f"samples/{files['registry']} --out reports/demo`).\n"
    )
    add("## Files\n")
    add("| file | what |\n|---|---|")
    add(
        f"| `{files['registry']}` | FIDE combined rating list TXT (fixed width, 162 "
        f"characters, header copied from FIDE's download): the {len(period.pool())} sample "
        f"players with a FIDE ID plus {len(period.extras)} other list players |"
    )
    add(
        f"| `{files['open']}` | TRF26, {files['open_name']}: {len(period.open.field)} players, "
        f"9-round standard Swiss, {dates['open']} (`222 5400+30`), CR LF line ends |"
    )
    add(
        f'| `{files["rapid"]}` | chess-results "Final Ranking crosstable" XLSX, '
        f"{files['rapid_name']}: {len(rapid.field)} players, 7-round rapid Swiss, "
        f"{dates['rapid']}; opponents by start number (SNo); Rtg = rapid rating, 0 if none |"
    )
    add(
        f"| `{files['blitz']}` | chess-results CSV export (`;`, decimal comma), "
        f"{files['blitz_name']}: {len(period.blitz_field)}-player single round robin, "
        f"{dates['blitz']}; columns 1..N are ranks; Rtg = blitz rating, 0 if none |"
    )
    add(
        f"| `{files['league']}` | games CSV, {files['league_name']}: 6 rounds (the first six "
        f"of a 12-player round robin), {dates['league']}, standard list |"
    )
    add(
        f"| `{files['league_players']}` | players CSV of the league (`white`/`black` = `id`; "
        "empty rating = unrated) |\n"
    )
    add("## Who is who\n")
    add(
        f"- **The 2650+ player**: {_who(sgm)}, GM, {_ratings(sgm)}. Standard: uses the real "
        "difference beyond 400 (no cap at 2650+)."
    )
    add(
        f"- **Initial-rating candidate**: {_who(cand)}, unrated on every list. Plays rounds "
        f"1-{CANDIDATE_OPEN_ROUNDS} of the open (then withdraws: `0000 - Z`) and rounds "
        f"{CANDIDATE_LEAGUE_FROM}-6 of the league. Neither event alone has 5 games against "
        f"rated opponents; pooled: n = {n} rated opponents (sum {opp_sum}), score {won:g}. "
        f"Ra = ({opp_sum} + 2 x 1800) / {n + 2} = {(opp_sum + 3600) / (n + 2):.2f}, "
        f"p = ({won:g} + 1) / {n + 2} = {(won + 1) / (n + 2):.2f} >= .50, so Ru >= Ra >= 1400: "
        "published (status `initial`)."
    )
    for g in games:
        add(
            f"  - {g.event} round {g.round}: {g.opponent.name} ({g.opponent_rating}), "
            f"score {g.halves / 2:g}"
        )
    add("- **600-point rule (rapid)**: games not rated for either player:")
    for round_no, a, b, code in rule600_games(period):
        pa, pb = rapid.field[a - 1], rapid.field[b - 1]
        add(
            f"  - round {round_no}: SNo {a} {pa.name} ({rapid_rating(rapid, a)}) vs SNo {b} "
            f"{pb.name} ({rapid_rating(rapid, b)}), result `{code}` for SNo {a}"
        )
    add(
        "- **Rapid players with only a standard rating** (Rtg 0 in the crosstable; rated "
        "with their standard rating):"
    )
    for p in std_only_rapid:
        add(f"  - SNo {rapid.field.index(p) + 1}: {_who(p)}, standard {p.rating('standard')}")
    add(
        f"- **Rapid, unrated on every list**: {_who(notes['fully_unrated'])}; **rapid-only "
        f"rating**: {_who(notes['rapid_only'])} (rapid {notes['rapid_only'].rating('rapid')}, "
        "unrated in standard: plays the open as unrated)."
    )
    add(
        "- **Blitz**: the round-robin export has no FideID column; names are exactly the "
        "list's (`Surname, Given`) and every player is rated in blitz."
    )
    add("- **K edge cases** (K printed in the list, derivation in fide-rules.md 5):")
    add(
        f"  - junior at 2300+: {_who(notes['junior_k20'])}, born {notes['junior_k20'].birth.year}, "
        f"{_ratings(notes['junior_k20'])} (K 20, not 40: rated 2300+)"
    )
    add(
        f"  - once 2400, now below: {_who(notes['veteran_k10'])}, "
        f"{_ratings(notes['veteran_k10'])} (K 10 stays)"
    )
    add(
        f"  - fewer than 30 career games: {_who(notes['few_games_k40'])}, "
        f"{_ratings(notes['few_games_k40'])}"
    )
    add(f"- **Unrated in the open** (rating 0; blank FIDE ID = new player): {len(unrated_open)}:")
    for p in unrated_open:
        add(f"  - no. {period.open.field.index(p) + 1}: {_who(p)}")
    add("\n## Byes, absences and forfeits\n")
    add(f"Open ({files['open']}):\n")
    out.extend(f"- {line}" for line in _special_rounds(period.open))
    add(f"\nRapid ({files['rapid']}; crosstable cells `-½`, `-0`, `-1`, `+`, `-`):\n")
    out.extend(f"- {line}" for line in _special_rounds(rapid))
    forfeit = next(g for g in period.league_games if g.code == "+")
    add(
        f"\nLeague: round {forfeit.round}, id {forfeit.white} wins by forfeit against id "
        f"{forfeit.black} (`1F-0F`). The games of the candidate's opponents in rounds 1-"
        f"{CANDIDATE_LEAGUE_FROM - 1} were not held (no rows)."
    )
    add(
        "\nNo two players meet twice in a Swiss; colours alternate where possible; points "
        "and ranks in the TRF equal the sum of the round results (standard scoring, "
        "`U` = 1) and the final standings (points, Buchholz Cut 1, Buchholz, "
        "Sonneborn-Berger)."
    )
    return "\n".join(out) + "\n"
