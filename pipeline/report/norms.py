"""The title norms in the outputs (pipeline.norms.stage's `NormsStage`): norms.csv's rows,
the Norms sheet of report.xlsx, `elo norms`' table and its JSON.

- `norms_csv_frame`: one row per player, event and norm sought (`schemas.output.NORMS_COLUMNS`).
- `norms_sheet`: the rows an arbiter looks at (met, a title performance without the
  conditions, or Rp within 50 of the norm's), each with why not and what is missing.
- `render_norms`: the same rows as a console table, the facts missing with how to supply
  them, and the counts.
- `norm_records`: one object per player and event with a map from norm to verdict,
  figures and checks (`elo norms --json`).

Verdicts and headers are in the translator's language; rule names, articles and the codes
of the CSV stay as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Final

import polars as pl
from rich.console import Group, RenderableType
from rich.text import Text

from pipeline.i18n import N_, Translator, translator
from pipeline.norms.performance import NORM_FLOORS
from pipeline.norms.stage import ON_STANDARD, NormsStage, norm_counts
from pipeline.norms.titles import SUPPLY
from pipeline.report.workbook_sheets import Col, TableSheet
from schemas.columns import E, G

VERDICTS: Final[Mapping[str, str]] = {
    "met": N_("met"),
    "not met": N_("not met"),
    "cannot tell": N_("cannot tell"),
}
KEY: Final = (E.ID, G.NO, "title")  # a norm row: player entry and norm sought
_RANK: Final = {"met": 0, "cannot tell": 1, "not met": 2}
CHECK_KEYS: Final = (
    "rule",
    "article",
    "counted",
    "required",
    "comparison",
    "ok",
    "missing",
    "note",
)


def norms_csv_frame(stage: NormsStage) -> pl.DataFrame:
    """norms.csv's rows: the norms frame with `norm` for the title sought and the lists
    joined with "; "."""
    return stage.norms.norms.rename({"title": "norm"}).with_columns(
        pl.col("failing").list.join("; "), pl.col("missing").list.join("; ")
    )


def shown_rows(stage: NormsStage, *, every: bool = False) -> pl.DataFrame:
    """The rows an arbiter looks at (`every`: all the norm rows), with `why`:
    by event (their order), then met, cannot tell, not met, then the highest Rp first."""
    shown = (stage.norms.norms if every else stage.shown()).with_row_index("_i")
    first = pl.col("_i").min().over(E.ID)
    return (
        shown.with_columns(
            pl.when(pl.col("floor_applied"))
            .then(pl.col("title").replace_strict(dict(NORM_FLOORS), default=None))
            .alias("floor"),
        )
        .sort(
            first,
            pl.col("verdict").replace_strict(_RANK),
            pl.col("rp"),
            G.NO,
            descending=[False, False, True, False],
        )
        .drop("_i")
    )


def _supplied(keys: pl.Expr, tr: Translator) -> pl.Expr:
    """The facts missing (keys of `SUPPLY`) as what each is and how to supply it, in
    `tr`'s language."""
    said = {key: tr._(text) for key, text in SUPPLY.items()}
    return keys.list.eval(pl.element().replace_strict(said, default=pl.element()))


def norms_sheet(stage: NormsStage, tr: Translator | None = None) -> TableSheet:
    """The Norms sheet: `shown_rows` with their figures, why not and what is missing."""
    tr = tr or translator()
    _ = tr._
    rows = shown_rows(stage)
    words = {key: _(word) for key, word in VERDICTS.items()}
    cols = [
        Col(_("Event"), pl.col("event")),
        Col(_("Name"), pl.col("name")),
        Col(_("FIDE ID"), pl.col("fide_id"), "int"),
        Col(_("Norm"), pl.col("title"), "center"),
        Col(_("Verdict"), pl.col("verdict").replace_strict(words, default=pl.col("verdict"))),
        Col(_("Games"), pl.col("games"), "int"),
        Col(_("Score"), pl.col("score"), "score"),
        Col(_("Score required"), pl.col("score_required"), "score"),
        Col("Ra", pl.col("ra"), "int"),
        Col("Rp", pl.col("rp"), "int"),
        Col(_("Norm's Rp"), pl.col("min_rp"), "int"),
        Col(_("Floor applied"), pl.col("floor"), "int"),
        Col(_("Why not"), pl.col("why")),
        Col(_("Missing"), _supplied(pl.col("missing"), tr).list.join("; ")),
    ]
    return TableSheet(_("Norms"), rows, cols)


# --- console ----------------------------------------------------------------------------


def render_norms(stage: NormsStage, *, lang: str = "en", every: bool = False) -> RenderableType:
    """`elo norms`' list of `shown_rows` by event: per norm a line with the verdict, the
    score against the score required, Ra and Rp against the norm's, and beneath it what
    fails or what is missing; then the missing facts with how to supply them, and the
    counts of the verdicts."""
    tr = translator(lang)
    _ = tr._
    rows = shown_rows(stage, every=every)
    norms = stage.norms.norms
    parts: list[RenderableType] = []
    style = {"met": "bold green", "cannot tell": "bold yellow", "not met": "bold"}
    fails, lacks = _("fails: {rules}"), _("needs: {facts}")
    event = None
    for r in rows.iter_rows(named=True):
        if r["event"] != event:
            event = r["event"]
            parts.append(Text(f"\n{event}", style="bold underline"))
        who = r["name"] + ("" if r["fide_id"] is None else f" ({r['fide_id']})")
        line = Text(f"  {who}  {r['title']}  ")
        line.append(_(VERDICTS[r["verdict"]]), style=style[r["verdict"]])
        figures = _("{score}/{games}, Ra {ra}, Rp {rp} (needs {min_rp})").format(
            score=_score(tr, r["score"]), games=r["games"], ra=_int(r["ra"]),
            rp=_int(r["rp"]), min_rp=r["min_rp"],
        )  # fmt: skip
        if r["score_required"] is not None and r["score"] < r["score_required"]:
            figures += "; " + _("score required {required}").format(
                required=_score(tr, r["score_required"])
            )
        line.append(f"  {figures}")
        parts.append(line)
        if r["verdict"] == "not met" and r["why"]:
            parts.append(Text("      " + fails.format(rules=r["why"]), style="dim"))
        elif r["verdict"] == "cannot tell":
            parts.append(Text("      " + lacks.format(facts=", ".join(r["missing"])), style="dim"))
    if not rows.height:
        parts.append(Text(_("No player met a norm or came within 50 points of its Rp.")))
    needs = sorted(
        {k for v, keys in zip(rows["verdict"], rows["missing"], strict=True) for k in keys
         if v == "cannot tell"}
    )  # fmt: skip
    if needs:
        parts.append(Text("\n" + _("Facts missing, and how to supply them:"), style="bold"))
        parts += [Text(f"  {key}: {_(SUPPLY[key])}") for key in needs if key in SUPPLY]
    others = stage.norms.events.filter(pl.col("list") != "standard").height
    if others:
        parts.append(
            Text(
                "\n"
                + tr.ngettext(
                    "{n} event is not on the standard list: norms are in standard chess "
                    "only (B.01 0.5).",
                    "{n} events are not on the standard list: norms are in standard chess "
                    "only (B.01 0.5).",
                    others,
                ).format(n=others)
            )
        )
    norms = norms.filter(ON_STANDARD)
    counts = norm_counts(norms)
    counted = _(
        "{players} players checked for {norms} norms: {met} met, {unknown} cannot tell, "
        "{not_met} not met; {performances} made a norm's performance but not its "
        "conditions."
    ).format(
        players=norms.select(E.ID, G.NO).n_unique(),
        norms=norms.height,
        met=counts["met"],
        unknown=counts["cannot_tell"],
        not_met=counts["not_met"],
        performances=counts["title_performances"],
    )
    parts.append(Text(("" if others else "\n") + counted))
    return Group(*parts)


def _score(tr: Translator, value: float) -> str:
    """A score in the page's language: 6.5 -> 6.5 / 6,5; whole points without decimals."""
    if float(value).is_integer():
        return str(int(value))
    return tr.number(Decimal(str(value)), 1)


def _int(value: object) -> str:
    return "" if value is None else str(value)


# --- JSON -------------------------------------------------------------------------------


def _plain(value: object) -> object:
    """A whole float as an int (counts, scores of whole points)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def norm_records(stage: NormsStage) -> list[dict[str, Any]]:
    """One object per player and event (every player entry of the games, in their
    order): event, name, fide_id, title held, games and score counted for norms, and
    `norms`: norm -> verdict, ra, rp, min_rp, floor_applied, score_required,
    title_performance, in_reach, failing, missing and the checks held by the stage."""
    norms = stage.norms.norms
    checks = stage.norms.checks.group_by(*KEY, maintain_order=True).agg(
        pl.struct(*CHECK_KEYS).alias("checks")
    )
    fields = ["verdict", "ra", "rp", "min_rp", "floor_applied", "score_required",
              "games_credited", "title_performance", "in_reach", "failing",
              "missing"]  # fmt: skip
    per_entry = (
        norms.join(checks, on=list(KEY), how="left", maintain_order="left")
        .group_by(E.ID, G.NO, maintain_order=True)
        .agg(
            pl.col("games", "score").first().name.prefix("_n_"),
            pl.struct("title", *fields, "checks").alias("norms"),
        )
    )
    entries = (
        stage.performance.select(E.ID, G.NO, "event", "name", "fide_id", "games", "score")
        .join(stage.held_titles(), on=[E.ID, G.NO], how="left", maintain_order="left")
        .join(per_entry, on=[E.ID, G.NO], how="left", maintain_order="left")
    )
    records: list[dict[str, Any]] = []
    for e in entries.iter_rows(named=True):
        norm_map: dict[str, Any] = {}
        for n in e["norms"] or []:
            item = {k: _plain(n[k]) for k in fields}
            item["missing"] = [{"fact": k, "supply": SUPPLY.get(k, k)} for k in n["missing"]]
            item["checks"] = [
                {k: _plain(v) for k, v in check.items() if k != "missing" or v is not None}
                for check in n["checks"] or []
            ]
            norm_map[n["title"]] = item
        counted = e["_n_games"] is not None
        records.append(
            {
                "event": e["event"],
                "start_no": e[G.NO],
                "name": e["name"],
                "fide_id": e["fide_id"],
                "title": e["held_title"],
                "games": e["_n_games"] if counted else e["games"],
                "score": _plain(e["_n_score"] if counted else e["score"]),
                "norms": norm_map,
            }
        )
    return records


__all__ = [
    "VERDICTS",
    "norm_records",
    "norms_csv_frame",
    "norms_sheet",
    "render_norms",
    "shown_rows",
]
