"""The numbers of FIDE's "Certificate of Title Result" (form IT1) for each norm, pure.

`norm_certificates(result, games, players, events, options, selection)` reads the norm
checks (`pipeline.norms.checks.NormChecks`), the rate stage's games frame, the players
and the events frames, and returns one `Certificate` per norm row selected: by default
every norm ``met``; any rows of `result.norms` otherwise, so an arbiter can print a ``not
met`` or ``cannot tell`` one for review (`for_review`, with its `failing` and `missing`).

The fields (`pipeline.norms.certificate_model`) are those of the reference's §4 (the IT1
as two software replicas give it; FIDE's current form was not found, reference Q7): the
norm sought; the player; the event (name, dates, place, host federation, chief arbiter,
rate of play, rounds, games counted); the counts over the counted opponents; the
tournament-wide counts of 1.4.3d when that exemption is what held the federation rules;
special remarks (the checks' notes: 1.4.1c, 1.4.2b, 1.4.2c, 1.4.3a-d, the floor, an
event over 30 days); one row per round; the result block. The per-norm figures (Ra, Rp,
floor applied, score, score required, games) are the norms frame's, never computed
again. The rounds mark the games counted as the checks count them (over the board, less
1.4.2b's in a round-robin), the game the floor raised (the lowest, the earliest of
equals) and the unrated opponents valued 1400 (B.01 1.4.6), as the IT1's "rating used"
column does.

Anything the files do not give is None (a blank on the form), never guessed: the
opponents' title counts when the event's file carries no title at all; a federation
count when a counted opponent's federation (or the applicant's, or the host's) is
unknown; the chief arbiter's FIDE ID unless written in brackets or at the end of TRF 102.
The birth is the year only (the readers keep no more).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any, Final

import polars as pl

from pipeline.norms.certificate_model import (
    Certificate,
    CertificateEvent,
    CertificatePlayer,
    CertificateResult,
    CertificateRound,
    ForeignCounts,
    OpponentCounts,
)
from pipeline.norms.checks import NormChecks
from pipeline.norms.counts import zero_scorers
from pipeline.norms.event_facts import title_expr
from pipeline.norms.performance import OVER_THE_BOARD
from pipeline.norms.titles import NO_FEDERATION, ROUND_ROBINS, SUPPLY, TITLE_HOLDERS, NormOptions
from schemas.columns import E, G, P

COUNTED_TITLES: Final = ("GM", "IM", "WGM", "WIM", "FM", "WFM")  # the IT1's "Number of"
# the checks whose notes are the IT1's special remarks
REMARK_RULES: Final = (
    "games", "other-federations", "own-federation", "one-federation", "floor",
    "ratings-date",
)  # fmt: skip
EXEMPTION_143D: Final = "1.4.3d"
# a round without a game over the board, by TRF code (no opponent) or games.csv reason
BYES: Final[Mapping[str, str]] = {
    "U": "pairing-allocated bye",
    "F": "full-point bye",
    "H": "half-point bye",
    "Z": "zero-point bye",
}
UNPLAYED: Final[Mapping[str, str]] = {
    "forfeit": "forfeit",
    "under-one-move": "under one move",
    "unplayed": "not played",
}
PLAYED_SYMBOLS: Final[Mapping[int, str]] = {2: "1", 1: "½", 0: "0"}
UNPLAYED_SYMBOLS: Final[Mapping[int, str]] = {2: "+", 1: "=", 0: "−"}
_ARTICLE = re.compile(r"\b\d\.\d\.\d[a-z]?\b")
_ARBITER_ID = re.compile(r"\s*(?:\((\d{4,10})\)|\b(\d{5,10}))\s*$")


def _col(frame: pl.DataFrame, name: str, dtype: type[pl.DataType]) -> pl.Expr:
    return pl.col(name).cast(dtype) if name in frame.columns else pl.lit(None, dtype=dtype)


def _text(expr: pl.Expr) -> pl.Expr:
    t = expr.str.strip_chars()
    return pl.when(t != "").then(t)


def _people(players: pl.DataFrame) -> pl.DataFrame:
    """Per entry: the players frame's facts, null where it has no such column."""
    return players.select(
        pl.col(P.EVENT).alias(E.ID),
        pl.col(P.NO).alias(G.NO),
        _text(_col(players, P.NAME, pl.String)).alias("p_name"),
        _col(players, P.FIDE, pl.Int64).alias("p_fide"),
        _text(_col(players, P.FED, pl.String)).str.to_uppercase().alias("fed"),
        title_expr(P.TITLE).alias("title") if P.TITLE in players.columns
        else pl.lit(None, dtype=pl.String).alias("title"),
        _text(_col(players, P.SEX, pl.String)).str.to_lowercase().alias("sex"),
        _col(players, P.BIRTH, pl.Int64).alias("birth_year"),
    ).unique([E.ID, G.NO], keep="first", maintain_order=True)  # fmt: skip


def _zero_scorers(games: pl.DataFrame, otb: pl.Expr) -> pl.DataFrame:
    """The entries whose games 1.4.2b drops in a round-robin (`counts.zero_scorers`), as
    opponents (`_zero`)."""
    halves = (pl.col("score").cast(pl.Float64) * 2).round(0).cast(pl.Int64)
    zero = zero_scorers(games.lazy(), [E.ID, G.NO], otb, halves).filter("_zero")
    return zero.select(E.ID, pl.col(G.NO).alias(G.OPP), "_zero").collect()


def _round_rows(
    games: pl.DataFrame, people: pl.DataFrame, facts: pl.DataFrame, keys: pl.DataFrame
) -> dict[tuple[str, int], list[dict[str, Any]]]:
    """The selected entries' rounds with their opponents, by (event id, start number)."""
    otb = pl.col("reason").fill_null("").is_in(OVER_THE_BOARD)
    names = games.group_by(E.ID, G.NO).agg(
        pl.col("name").drop_nulls().first().alias("g_name"),
        pl.col("fide_id").drop_nulls().first().alias("g_fide"),
    )
    opponents = people.join(names, on=[E.ID, G.NO], how="full", coalesce=True).select(
        E.ID,
        pl.col(G.NO).alias(G.OPP),
        pl.coalesce("g_name", "p_name").alias("o_name"),
        pl.coalesce("g_fide", "p_fide").alias("o_fide"),
        pl.col("fed").alias("o_fed"),
        pl.col("title").alias("o_title"),
    )
    given = [c for c in ("opponent_name", "opponent_fide_id") if c in games.columns]
    rows = (
        games.join(keys, on=[E.ID, G.NO], how="semi")
        .select(E.ID, G.NO, G.OPP, G.ROUND, G.CODE, "score", "opponent_rating", "reason",
                *given, otb.alias("_otb"))
        .join(opponents, on=[E.ID, G.OPP], how="left")
        .join(_zero_scorers(games, otb), on=[E.ID, G.OPP], how="left")
        .join(facts.select(E.ID, "event_type"), on=E.ID, how="left")
        .with_columns(
            (pl.col("_otb") & pl.col("event_type").is_in(list(ROUND_ROBINS)).fill_null(False)
             & pl.col("_zero").fill_null(False)).alias("_excluded"),
            pl.coalesce(*(["opponent_name"] if given else []), "o_name").alias("o_name"),
            pl.coalesce(*(["opponent_fide_id"] if given else []), "o_fide").alias("o_fide"),
        )
        .sort(E.ID, G.NO, G.ROUND)
    )  # fmt: skip
    found: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for row in rows.iter_rows(named=True):
        found[(row[E.ID], row[G.NO])].append(row)
    return found


def _symbol(row: Mapping[str, Any]) -> str:
    if row[G.CODE] == "*":
        return "*"
    halves = round(2 * float(row["score"] or 0))
    return (PLAYED_SYMBOLS if row["_otb"] else UNPLAYED_SYMBOLS).get(halves, str(row[G.CODE]))


def _note(row: Mapping[str, Any]) -> str | None:
    if row["_excluded"]:
        return "not counted (1.4.2b)"
    if row["_otb"]:
        return None
    if row[G.OPP] is None or row["reason"] == "bye":
        return BYES.get(row[G.CODE], "not paired")
    return UNPLAYED.get(row["reason"], "not counted")


def _rounds(
    rows: Sequence[Mapping[str, Any]], floor_applied: bool, floor: int, unrated: int
) -> tuple[tuple[CertificateRound, ...], int | None]:
    """The rounds and the rating the floor replaced (None: not applied)."""
    counted = [not r["_excluded"] and bool(r["_otb"]) for r in rows]
    valued = [r["opponent_rating"] if r["opponent_rating"] is not None else unrated for r in rows]
    raised, raised_from = None, None
    if floor_applied:
        # the lowest counted game (the earliest of equals), as 1.4.6b-c raise one
        raised = min((i for i, c in enumerate(counted) if c), key=lambda i: valued[i])
        raised_from = valued[raised]
    out = []
    for i, r in enumerate(rows):
        used = None
        if i == raised:
            used = floor
        elif counted[i] and r["opponent_rating"] is None:
            used = unrated
        out.append(
            CertificateRound(
                round=r[G.ROUND], opponent_name=r["o_name"], opponent_fide_id=r["o_fide"],
                opponent_federation=r["o_fed"], opponent_title=r["o_title"],
                opponent_rating=r["opponent_rating"], rating_used=used, result=_symbol(r),
                code=r[G.CODE], counted=counted[i], note=_note(r),
            )
        )  # fmt: skip
    return tuple(out), raised_from


def _counts(
    rounds: Sequence[CertificateRound],
    own: str | None,
    host: str | None,
    titles_known: bool,
    options: NormOptions,
) -> OpponentCounts:
    played = [r for r in rounds if r.counted]
    feds = [r.opponent_federation for r in played]
    known = all(f is not None for f in feds)
    real = {f for f in feds if f is not None and (options.fid_is_federation or f != NO_FEDERATION)}
    titles = [r.opponent_title for r in played]

    def titled(wanted: Sequence[str] | frozenset[str]) -> int | None:
        return sum(t in wanted for t in titles) if titles_known else None

    return OpponentCounts(
        federations=len(real) if known else None,
        not_own_federation=sum(f != own for f in feds) if known and own else None,
        rated=sum(r.opponent_rating is not None for r in played),
        host_federation=sum(f == host for f in feds) if known and host else None,
        titled=titled(TITLE_HOLDERS),
        **{t.lower(): titled((t,)) for t in COUNTED_TITLES},
    )


def _remarks(checks: pl.DataFrame) -> tuple[str, ...]:
    """The checks' notes an IT1 shows as special remarks, each once, with its article."""
    found: list[str] = []
    for rule in REMARK_RULES:
        for row in checks.filter(pl.col("rule") == rule).iter_rows(named=True):
            text = (row["note"] or "").strip()
            if text and not _ARTICLE.search(text):
                text = f"{row['article']}: {text}"
            if text and text not in found:
                found.append(text)
    return tuple(found)


def chief_arbiter(text: str | None) -> tuple[str | None, int | None]:
    """TRF 102 as written ("IA Surname, Name (12345678)") -> its name and FIDE ID (the
    ID only when bracketed or last on the line)."""
    if text is None or not text.strip():
        return None, None
    found = _ARBITER_ID.search(text)
    if found is None:
        return text.strip(), None
    name = text[: found.start()].strip() or None
    return name, int(found.group(1) or found.group(2))


def _events(events: pl.DataFrame) -> dict[str, dict[str, Any]]:
    frame = events.select(
        pl.col(E.ID),
        _text(_col(events, E.NAME, pl.String)).alias("name"),
        _col(events, E.START, pl.Date).alias("start"),
        _col(events, E.END, pl.Date).alias("end"),
        _text(_col(events, "city", pl.String)).alias("city"),
        _text(_col(events, "chief_arbiter", pl.String)).alias("arbiter"),
        _text(_col(events, E.TIME, pl.String)).alias("time"),
        _col(events, E.ROUNDS, pl.Int64).alias("rounds"),
    )
    return {row[E.ID]: row for row in frame.iter_rows(named=True)}


def norm_certificates(
    result: NormChecks,
    games: pl.DataFrame,
    players: pl.DataFrame,
    events: pl.DataFrame,
    options: NormOptions | None = None,
    selection: pl.DataFrame | None = None,
) -> list[Certificate]:
    """One certificate per row of `selection` (rows of `result.norms`; default: every
    norm met), in its order. `games`, `players`, `events` and `options` are those the
    checks were made from. The special remarks are the notes of `result.checks`: a norm
    whose check rows were left out (`norm_checks`' `checks`) has none."""
    o = options or NormOptions()
    chosen = result.norms.filter(pl.col("verdict") == "met") if selection is None else selection
    if chosen.is_empty():
        return []
    people = _people(players)
    facts = {row[E.ID]: row for row in result.events.iter_rows(named=True)}
    given = _events(events)
    keys = chosen.select(E.ID, G.NO).unique()
    rows = _round_rows(games, people, result.events, keys)
    entries = {(r[E.ID], r[G.NO]): r for r in people.iter_rows(named=True)}
    titled_events = set(people.filter(pl.col("title").is_not_null())[E.ID].to_list())
    wanted = result.checks.join(chosen.select(E.ID, G.NO, "title"), on=[E.ID, G.NO, "title"],
                                how="semi")  # fmt: skip
    checks = wanted.partition_by(E.ID, G.NO, "title", as_dict=True)
    no_checks = result.checks.clear()
    out = []
    for norm in chosen.iter_rows(named=True):
        key = (norm[E.ID], norm[G.NO])
        me = entries.get(key, {})
        fact = facts.get(norm[E.ID], {})
        event = given.get(norm[E.ID], {})
        host, own = fact.get("host"), me.get("fed")
        floor = o.floors[norm["title"]]
        rounds, raised_from = _rounds(rows.get(key, []), bool(norm["floor_applied"]), floor,
                                      o.unrated_norm)  # fmt: skip
        remarks = _remarks(checks.get((*key, norm["title"]), no_checks))
        foreign_143d = None
        if any(EXEMPTION_143D in r for r in remarks):
            foreign_143d = ForeignCounts(
                fact.get("d_federations"), fact.get("d_foreign_rated"), fact.get("d_titled")
            )
        arbiter, arbiter_id = chief_arbiter(event.get("arbiter"))
        required = norm["score_required"]
        out.append(
            Certificate(
                norm=norm["title"], verdict=norm["verdict"],
                for_review=norm["verdict"] != "met",
                failing=tuple(norm["failing"] or ()),
                missing=tuple(SUPPLY.get(k, k) for k in norm["missing"] or ()),
                player=CertificatePlayer(
                    name=norm["name"] or me.get("p_name"),
                    fide_id=norm["fide_id"] or me.get("p_fide"),
                    federation=own, title=me.get("title"), sex=me.get("sex"),
                    birth_year=me.get("birth_year"), start_no=key[1],
                ),
                event=CertificateEvent(
                    event_id=key[0], name=event.get("name") or norm["event"],
                    start_date=event.get("start"), end_date=event.get("end"),
                    city=event.get("city"), host_federation=host, chief_arbiter=arbiter,
                    chief_arbiter_fide_id=arbiter_id, rate_of_play=event.get("time"),
                    rounds=event.get("rounds") or fact.get("rounds"),
                    games_counted=norm["games"], event_type=fact.get("event_type"),
                ),
                counts=_counts(rounds, own, host, key[0] in titled_events, o),
                foreign_143d=foreign_143d, remarks=remarks, rounds=rounds,
                result=CertificateResult(
                    ra=norm["ra"], floor=floor, floor_applied=bool(norm["floor_applied"]),
                    floor_raised_from=raised_from, rp=norm["rp"], min_rp=norm["min_rp"],
                    score_required=required, score=norm["score"],
                    exceeding_by=None if required is None else norm["score"] - required,
                    games_credited=norm.get("games_credited"),
                ),
            )
        )  # fmt: skip
    return out


__all__ = ["chief_arbiter", "norm_certificates"]
