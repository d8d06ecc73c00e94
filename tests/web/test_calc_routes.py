"""`GET /calc` and `GET /api/calc`: the calculator of `elo calc` in a browser and as JSON,
its parameters named as the command's options."""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from pipeline.cli import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("params", "argv"),
    [
        ({"rating": "1500", "game": ["1600:1", "1650:½", "1700:0"]},
         ["1500", "1600:1", "1650:½", "1700:0"]),
        ({"rating": "1500", "game": "1600:1 1650:0,5\n1700:0", "date": "2024-06-01"},
         ["1500", "1600:1", "1650:0,5", "1700:0", "--date", "2024-06-01"]),
        ({"rating": "2380", "game": "2500:1", "list": "rapid", "k": "variable", "games": "12",
          "birth-year": "2008", "ever-2400": "1", "date": "2025-01-15"},
         ["2380", "2500:1", "--list", "rapid", "--k", "variable", "--games", "12",
          "--birth-year", "2008", "--ever-2400", "--date", "2025-01-15"]),
        ({"rating": "1800", "game": "1700:1 1900:0", "method": "continuous",
          "expectation": "logistic", "date": "2026-01-01"},
         ["1800", "1700:1", "1900:0", "--method", "continuous", "--expectation", "logistic",
          "--date", "2026-01-01"]),
        ({"rating": "unrated", "game": "1600:1 1650:1 1700:0 1750:½ 1800:1", "date": "2026-01-01"},
         ["unrated", "1600:1", "1650:1", "1700:0", "1750:½", "1800:1", "--date", "2026-01-01"]),
    ],
    ids=["three-games", "decimal-comma-and-lines", "every-option", "continuous", "initial"],
)  # fmt: skip
def test_api_calc_is_elo_calc_json(
    client: TestClient, params: dict[str, object], argv: list[str]
) -> None:
    answer = client.get("/api/calc", params=params)  # type: ignore[arg-type]
    cli = runner.invoke(app, ["calc", *argv, "--json"])
    assert cli.exit_code == 0, cli.output
    assert answer.status_code == 200
    assert answer.json() == json.loads(cli.output)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"game": "1600:1"}, "RATING: expected a rating 1..3500, 0 or 'unrated', got nothing"),
        ({"rating": "1500"}, "expected at least one OPP:SCORE, e.g. 1600:1"),
        ({"rating": "x", "game": "1600:1"}, "RATING: expected a rating 1..3500"),
        ({"rating": "1500", "game": "1600-1"}, "expected OPP:SCORE such as 1600:1"),
        ({"rating": "1500", "game": "1600:2"}, "game '1600:2': expected a score 1, 0.5"),
        ({"rating": "1500", "game": "1600:1", "k": "-3"}, "--k: expected a positive number"),
        ({"rating": "1500", "game": "1600:1", "list": "bullet"},
         "--list: expected one of standard, rapid, blitz, got 'bullet'"),
        ({"rating": "1500", "game": "1600:1", "method": "glicko"}, "--method: expected one of"),
        ({"rating": "1500", "game": "1600:1", "expectation": "x"}, "--expectation: expected"),
        ({"rating": "1500", "game": "1600:1", "date": "2026-13-01"}, "--date: expected a date"),
        ({"rating": "1500", "game": "1600:1", "games": "many"}, "--games: expected a whole"),
        ({"rating": "1500", "game": "1600:1", "birth-year": "1700"}, "--birth-year: expected"),
        ({"rating": "1500", "game": "1600:1", "ever-2400": "maybe"}, "--ever-2400: expected"),
    ],
    ids=["no-rating", "no-games", "bad-rating", "bad-game", "bad-score", "bad-k", "bad-list",
         "bad-method", "bad-expectation", "bad-date", "bad-games", "bad-birth-year",
         "bad-ever-2400"],
)  # fmt: skip
def test_api_calc_bad_value_is_a_400_problem(
    client: TestClient, params: dict[str, str], message: str
) -> None:
    answer = client.get("/api/calc", params=params)
    assert answer.status_code == 400
    body = answer.json()
    assert body["status"] == 400
    [problem] = body["problems"]
    assert problem["code"] == "bad-value"
    assert problem["message"].startswith(message)
    assert set(problem) == {"file", "line", "column", "code", "message", "severity"}


def test_calc_page_without_a_question_is_the_empty_form(client: TestClient) -> None:
    page = client.get("/calc")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert '<form id="calc" method="get" action="/calc">' in page.text
    assert 'id="answer"' in page.text
    assert '<table class="games"' not in page.text  # no answer yet (the rows editor is)
    assert 'src="/static/calc.js"' in page.text


def test_calc_page_answers_in_the_language_asked(client: TestClient) -> None:
    params = {"rating": "1500", "game": "1600:1 1650:½", "date": "2026-11-30", "lang": "it"}
    page = client.get("/calc", params=params)
    assert page.status_code == 200
    assert '<html lang="it">' in page.text
    assert "<p>Elo 1500, lista standard, 30 novembre 2026</p>" in page.text
    assert "<td>+12,80</td>" in page.text  # K·ΔR of the first game, with the decimal comma
    assert "<tr><th>Nuovo Elo</th><td>1517</td></tr>" in page.text
    assert "Punteggio atteso 0,66 (33,00%); Variazione +17; Nuovo Elo 1517" in page.text
    assert "Calcolatore Elo" in page.text  # the page's own texts from the catalog
    # the form keeps the question
    assert 'name="rating" value="1500"' in page.text
    assert ">1600:1 1650:½</textarea>" in page.text


def test_calc_page_language_from_the_browser(client: TestClient) -> None:
    params = {"rating": "1500", "game": "1600:1"}
    headers = {"accept-language": "fr-FR, es;q=0.8, it;q=0.5"}
    page = client.get("/calc", params=params, headers=headers)
    assert '<html lang="es">' in page.text
    assert "Calculadora de Elo" in page.text


def test_calc_page_partial_is_the_answer_alone(client: TestClient) -> None:
    params = {"rating": "1500", "game": "1600:1", "partial": "1"}
    page = client.get("/calc", params=params)
    assert page.status_code == 200
    assert "<html" not in page.text
    assert '<table class="games">' in page.text


def test_calc_page_bad_value_is_a_message_on_the_page(client: TestClient) -> None:
    page = client.get("/calc", params={"rating": "1500", "game": "1600:3"})
    assert page.status_code == 400
    assert '<p class="error" role="alert">game &#39;1600:3&#39;: expected a score' in page.text
    assert "Traceback" not in page.text
    assert ">1600:3</textarea>" in page.text  # the form keeps what was typed


def test_html_in_a_value_is_escaped(client: TestClient) -> None:
    page = client.get("/calc", params={"rating": "<script>x</script>", "game": "1600:1"})
    assert "<script>x</script>" not in page.text
    assert "&lt;script&gt;" in page.text


def test_health(client: TestClient) -> None:
    answer = client.get("/api/health")
    assert answer.status_code == 200
    body = answer.json()
    assert body["status"] == "ok"
    assert body["langs"] == ["en", "es", "it"]
    assert body["registry"] is False
    assert body["max_upload_mb"] == 2


def test_static_assets_are_served(client: TestClient) -> None:
    assert client.get("/static/style.css").status_code == 200
    assert "fetch(" in client.get("/static/calc.js").text


@pytest.mark.parametrize("path", ["/nowhere", "/api/nowhere"])
def test_unknown_address_is_a_404(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 404
    if path.startswith("/api/"):
        assert answer.json()["problems"][0]["code"] == "not-found"
    else:
        assert "<h1>Not found</h1>" in answer.text


@pytest.mark.parametrize(
    ("lang", "query", "texts"),
    [
        ("en", "rating=1500&game=1600:1&k=20&method=continuous",
         ["Expected score 0.36 (35.99%); Change +12.8; New rating 1512.8",
          "1 point of 1 (expected 0.36)"]),
        ("it", "rating=1500&game=1600:1&k=20&method=continuous",
         ["Punteggio atteso 0,36 (35,99%)", "1 punto su 1 (atteso 0,36)"]),
        ("es", "rating=1830&game=1980:½&k=24.6&method=average",
         ["Variación +4,9; Nuevo Elo 1834,9", "½ punto de 1 (esperado 0,30)"]),
        ("es", "rating=1500&game=1600:1+1650:½+1700:0",
         ["1½ puntos de 3 (esperados 0,90)"]),
    ],
    ids=["en-italian-example", "it-italian-example", "es-history-example", "es-three-games"],
)  # fmt: skip
def test_the_answer_line_and_the_points_of_the_games(
    client: TestClient, lang: str, query: str, texts: list[str]
) -> None:
    page = client.get(f"/calc?{query}&lang={lang}&partial=1")
    assert page.status_code == 200
    for text in texts:
        assert text in page.text


# The rules met, with the dates they are in force from (B.02 8.3.1 as amended 2025-10-01
# for 2650+; the 600-point rule of the rapid and blitz lists from 2024-12-01).
@pytest.mark.parametrize(
    ("query", "lines"),
    [
        ("rating=2000&game=1500:1+2100:½&k=40",
         ["400-point cap: applied to 1 game (from 2025-10-01)",
          "2650+: the cap applies below 2650 (from 2025-10-01)",
          "700 rule: K times the games within 700, K unchanged (from 2014-07-01)"]),
        ("rating=2700&game=2200:1",
         ["2650+: rated 2700, no cap (from 2025-10-01)"]),
        ("rating=2650&game=2000:1+2600:0&list=rapid&date=2025-01-10",
         ["600-point rule: 1 game not rated (from 2024-12-01)",
          "400-point cap: no difference over 400 (from 2024-12-01)"]),
        ("rating=1500&" + "&".join(["game=1500:1"] * 20) + "&k=40",
         ["700 rule: K 40 lowered to 35 for 20 games (from 2014-07-01)"]),
    ],
    ids=["cap-below-2650", "2650-exempt", "rule-600-rapid", "rule-700"],
)  # fmt: skip
def test_the_rules_applied_with_their_dates(
    client: TestClient, query: str, lines: list[str]
) -> None:
    page = client.get(f"/calc?{query}&date=2026-01-10&lang=en&partial=1".replace(
        "&date=2025-01-10&date=2026-01-10", "&date=2025-01-10"))  # fmt: skip
    assert page.status_code == 200
    for line in lines:
        assert f"<li>{line}</li>" in page.text


def test_the_chart_marks_each_game_against_a_rated_opponent(client: TestClient) -> None:
    page = client.get("/calc?rating=1500&game=1600:1+unrated:1+1700:0&partial=1")
    assert page.text.count('class="game"><title>') == 2
    assert '<path d="M' in page.text  # the table's steps and the logistic curve
    assert "<title>1600: 1</title>" in page.text
