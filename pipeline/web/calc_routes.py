"""The calculator: `GET /calc` (the page; with `partial=1` only its answer, for the page's
script) and `GET /api/calc` (the object of `elo calc --json`). The query parameters are
named as `elo calc`'s options: `rating`, `game` (repeatable, or several games in one
value: `1600:1 1650:½`), `list`, `method`, `expectation`, `k`, `games`, `birth-year`,
`ever-2400`, `date`, and `lang` for the page."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from pipeline.calc import (
    ALL_METHODS,
    CalcInputError,
    CalcRequest,
    calculate,
    parse_request,
)
from pipeline.report.calc_chart import expectation_chart
from pipeline.report.calc_table import METHOD_TITLES, calc_json, calc_sections
from pipeline.rules.methods import EXPECTATIONS
from pipeline.rules.ruleset import LISTS
from pipeline.web.common import page_lang, problem_response, render

_TRUE = ("1", "true", "on", "yes")
_FALSE = ("", "0", "false", "off", "no")
FIELDS = ("rating", "game", "list", "method", "expectation", "k", "games", "birth-year",
          "ever-2400", "date")  # fmt: skip


def _flag(value: str | None) -> bool:
    t = (value or "").strip().lower()
    if t in _TRUE:
        return True
    if t in _FALSE:
        return False
    raise CalcInputError(f"--ever-2400: expected 1 or 0 (true or false), got {value!r}")


def request_of(request: Request) -> CalcRequest:
    """The calculator's request from the query string (CalcInputError names a bad value)."""
    q = request.query_params
    return parse_request(
        q.get("rating"),
        q.getlist("game"),
        list_=q.get("list"),
        method=q.get("method"),
        expectation=q.get("expectation"),
        k=q.get("k"),
        career_games=q.get("games"),
        birth_year=q.get("birth-year"),
        ever_2400=_flag(q.get("ever-2400")),
        on=q.get("date"),
    )


def _problem(exc: CalcInputError) -> list[dict[str, object]]:
    return [{"file": None, "line": None, "column": None, "code": "bad-value",
             "message": str(exc), "severity": "error"}]  # fmt: skip


async def api_calc(request: Request) -> Response:
    try:
        result = calculate(request_of(request))
    except CalcInputError as exc:
        return problem_response(request, 400, "bad-value", str(exc), _problem(exc))
    return JSONResponse(calc_json(result))


async def calc_page(request: Request) -> Response:
    q = request.query_params
    asked = any(q.get(name) for name in ("rating", "game"))
    sections, chart, error = None, None, None
    if asked:
        try:
            result = calculate(request_of(request))
        except CalcInputError as exc:
            error = str(exc)
        else:
            sections = calc_sections(result, page_lang(request))
            chart = expectation_chart(result)
    form = {name: q.get(name, "") for name in FIELDS}
    form["game"] = "\n".join(q.getlist("game"))
    template = "calc_answer.html" if q.get("partial") == "1" else "calc.html"
    return render(
        request,
        template,
        400 if error is not None else 200,
        form=form,
        sections=sections,
        chart=chart,
        error=error,
        lists=LISTS,
        methods=ALL_METHODS,
        method_titles=METHOD_TITLES,
        expectations=EXPECTATIONS,
    )


ROUTES = [Route("/calc", calc_page), Route("/api/calc", api_calc)]
