"""The console summary of `elo run`, rendered to text (the CLI prints it)."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pipeline.run import RunOutcome


def render_run(outcome: RunOutcome, width: int = 100) -> str:
    from rich.console import Console
    from rich.table import Table

    buf = io.StringIO()
    console = Console(file=buf, width=width, force_terminal=False, color_system=None)
    loaded = outcome.loaded
    summary = outcome.summary
    for reg in loaded.ignored_registries:
        console.print(
            f"Rating list {reg} found among the inputs: ignored (pass it with --registry)"
        )
    if outcome.result is None:
        n_err = len(loaded.errors)
        console.print(
            f"Input rejected: {n_err} error{'s' * (n_err != 1)} in "
            f"{len(loaded.invalid_files)} file{'s' * (len(loaded.invalid_files) != 1)}; "
            "nothing was rated."
        )
        for path in outcome.written:
            console.print(f"Wrote {path}")
        return buf.getvalue()

    counts: dict[str, Any] = summary.get("counts", {})  # type: ignore[assignment]
    per_list: dict[str, dict[str, int]] = counts.get("per_list", {})
    table = Table(title=f"{counts.get('events', 0)} events rated", title_justify="left")
    for col in ("list", "players", "rated", "initial", "unrated", "no rated games", "games"):
        table.add_column(col, justify="left" if col == "list" else "right")
    for lst, c in per_list.items():
        table.add_row(
            lst,
            str(c["players"]),
            str(c["rated"]),
            str(c["initial"]),
            str(c["unrated"]),
            str(c["no-rated-games"]),
            str(c["rated_games"]),
        )
    console.print(table)

    import polars as pl

    ratings = outcome.result.ratings.filter(pl.col("change").is_not_null())
    movers = Table(title="Largest changes", title_justify="left")
    for col in ("list", "FIDE ID", "name", "Ro", "change", "new"):
        movers.add_column(col, justify="left" if col in ("list", "name") else "right")
    top = ratings.sort("change", descending=True).head(5)
    bottom = ratings.filter(pl.col("change") < 0).sort("change").head(5)
    for row in pl.concat([top, bottom]).unique(maintain_order=True).iter_rows(named=True):
        movers.add_row(
            row["list"],
            str(row["fide_id"] or ""),
            str(row["name"]),
            str(row["rating_before"]),
            f"{row['change']:+d}",
            str(row["rating_after"]),
        )
    if movers.row_count:
        console.print(movers)
    warnings = summary.get("warnings", [])
    n_warn = len(warnings) if isinstance(warnings, list) else 0
    if n_warn:
        console.print(f"{n_warn} warning{'s' * (n_warn != 1)}: see the Checks sheet")
    if loaded.errors:
        console.print(
            f"Skipped {len(loaded.invalid_files)} invalid file(s): "
            + ", ".join(loaded.invalid_files)
        )
    for path in outcome.written:
        console.print(f"Wrote {path}")
    return buf.getvalue()
