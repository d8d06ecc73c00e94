"""--lang en|es|it: the catalogs, the language chosen, numbers and dates, and the
calculator's pages in Spanish and Italian (exact output)."""

from __future__ import annotations

import datetime as dt
import io
import json
import re
from decimal import Decimal
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.i18n import LANGS, LOCALE_DIR, lang_from_env, parse_lang, translator

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
TRANSLATED = [lang for lang in LANGS if lang != "en"]
FIELD = re.compile(r"\{(\w*)\}")


def _code_ids() -> set[tuple[str | None, str]]:
    """(context, msgid) of every text the code and elo serve's templates mark: _(),
    ngettext(), pgettext(), N_() (Babel's default keywords), the singular msgid for a
    plural; where to look is babel.cfg's, as `make catalogs-update` reads it."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f, "babel.cfg")  # type: ignore[no-untyped-call]
    ids: set[tuple[str | None, str]] = set()
    for _file, _line, message, _comments, context in extract_from_dir(
        str(ROOT / "pipeline"), method_map=method_map, options_map=options_map
    ):
        msgid = message[0] if isinstance(message, tuple) else message
        ids.add((context, msgid))
    return ids


def _texts(value: object) -> list[str]:
    """A message's id or translation as its forms (one; or singular and plural)."""
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value] if isinstance(value, tuple | list) else []


def _catalog(lang: str) -> Catalog:
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / "elo.po", "rb") as f:
        return read_po(f, locale=lang)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_catalog_translates_every_text_of_the_code_and_no_other(lang: str) -> None:
    catalog = _catalog(lang)
    in_catalog = {(m.context, _texts(m.id)[0]) for m in catalog if m.id}
    code = _code_ids()
    assert sorted(code - in_catalog, key=str) == [], "missing from the catalog"
    assert sorted(in_catalog - code, key=str) == [], "stale in the catalog"
    for message in catalog:
        if not message.id:
            continue
        strings, ids = _texts(message.string), _texts(message.id)
        assert len(strings) == (catalog.num_plurals if message.pluralizable else 1)
        assert all(s.strip() for s in strings), f"empty translation of {message.id!r}"
        fields = {f for i in ids for f in FIELD.findall(i)}
        for s in strings:  # the same {fields}: str.format must fill every one
            assert set(FIELD.findall(s)) == fields, (message.id, s)
        assert "fuzzy" not in message.flags


@pytest.mark.parametrize("lang", TRANSLATED)
def test_shipped_mo_is_compiled_from_the_po(lang: str) -> None:
    """The .mo beside the .po is up to date (`make catalogs` compiles it)."""
    compiled = io.BytesIO()
    write_mo(compiled, _catalog(lang))
    shipped = (LOCALE_DIR / lang / "LC_MESSAGES" / "elo.mo").read_bytes()
    assert compiled.getvalue() == shipped, "run `make catalogs`"


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({"LANG": "it_IT.UTF-8"}, "it"),
        ({"LANG": "es_ES.UTF-8"}, "es"),
        ({"LANG": "es_AR"}, "es"),
        ({"LC_MESSAGES": "it_IT.UTF-8", "LANG": "en_GB.UTF-8"}, "it"),
        ({"LC_ALL": "es_ES.UTF-8", "LC_MESSAGES": "it_IT", "LANG": "it_IT"}, "es"),
        ({"LC_ALL": "fr_FR.UTF-8", "LANG": "it_IT.UTF-8"}, "en"),  # LC_ALL wins: not ours
        ({"LC_ALL": "", "LANG": "it"}, "it"),  # empty: not set
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({"LANG": "sr_RS@latin"}, "en"),
        ({}, "en"),
    ],
)
def test_language_from_the_environment(environ: dict[str, str], lang: str) -> None:
    assert lang_from_env(environ) == lang


def test_parse_lang() -> None:
    assert [parse_lang(x) for x in ("en", "ES", " it ")] == ["en", "es", "it"]
    with pytest.raises(ValueError, match="expected one of en, es, it, got 'fr'"):
        parse_lang("fr")


@pytest.mark.parametrize(
    ("lang", "texts"),
    [
        ("en", ["+12.8", "-0.64", "0.00", "1512.8", "2026", "35.99%", "2026-12-01"]),
        ("it", ["+12,8", "-0,64", "0,00", "1512,8", "2026", "35,99%", "1 dicembre 2026"]),
        (
            "es",
            ["+12,8", "-0,64", "0,00", "1512,8", "2026", "35,99\xa0%", "1 de diciembre de 2026"],
        ),
    ],
)
def test_numbers_percentages_and_dates(lang: str, texts: list[str]) -> None:
    tr = translator(lang)
    got = [
        tr.number(Decimal("12.8"), 1, sign=True),
        tr.number(Decimal("-0.64"), 2, sign=True),
        tr.number(Decimal("-0.00"), 2, sign=True),  # no sign for zero
        tr.number(Decimal("1512.8"), 1),  # no group separator in ratings
        tr.number(2026),
        tr.percent(Decimal("0.3599")),
        tr.date(dt.date(2026, 12, 1)),
    ]
    assert got == texts


def test_excel_date_formats() -> None:
    assert [translator(x).excel_date_format() for x in LANGS] == [
        "yyyy-mm-dd",
        "d/m/yyyy",
        "dd/mm/yyyy",
    ]


# --- elo calc --lang: the calculator's pages --------------------------------------------

CALC_IT = """\
Elo 1500, lista standard, 30 novembre 2026
Metodo: continuo (non FIDE), aspettativa: logistica
Regolamento: standard 2025-10-01 (limite 400 sotto 2650, K 40/20/10, junior 40, \
regola dei 700, Elo minimo 1400)

#  Avversario  Punti     D  D usata       E       ΔR    K·ΔR  Nota
1        1600      1  -100     -100  0,3599  +0,6401  +12,80

Partite conteggiate         1
Punti                       1
ΣE                          0,3599
Σ(W-E)                      +0,6401
K                           20
Variazione non arrotondata  +12,8013
Variazione                  +12,8
Nuovo Elo                   1512,8

Punteggio atteso 0,36 (35,99%); Variazione +12,8; Nuovo Elo 1512,8

Note:
  - metodo continuo: non è la regola FIDE; decimali mantenuti
  - K 20 indicato
  - aspettativa logistica: non è la tabella 8.1.2 della FIDE
"""

CALC_ES = """\
Elo 1830, lista estándar, 30 de noviembre de 2026
Método: rival medio, Elo clásico (no FIDE), expectativa: tabla
Reglamento: standard 2025-10-01 (tope 400 por debajo de 2650, K 40/20/10, juvenil 40, \
regla de los 700, Elo mínimo 1400)

#  Rival  Puntos     D  D usada  E  ΔR  K·ΔR  Nota
1   1980       ½  -150        -  -   -     -

Partidas computadas      1
Puntos                   ½
Rival medio              1980,00
D usada                  -150,00
ΣE                       0,30
Σ(W-E)                   +0,20
K                        24,6
Variación sin redondear  +4,92
Variación                +4,9
Nuevo Elo                1834,9

Puntuación esperada 0,30 (30,00\xa0%); Variación +4,9; Nuevo Elo 1834,9

Notas:
  - método del rival medio: no es la regla de la FIDE; se conservan los decimales
  - K 24,6 indicado
"""

IT_ARGS = ["calc", "1500", "1600:1", "--k", "20", "--method", "continuous"]
ES_ARGS = ["calc", "1830", "1980:0.5", "--k", "24.6", "--method", "average"]
DAY = ["--date", "2026-11-30"]


@pytest.mark.parametrize(
    ("args", "expected"),
    [([*IT_ARGS, "--lang", "it", *DAY], CALC_IT), ([*ES_ARGS, "--lang", "es", *DAY], CALC_ES)],
    ids=["it-continuous", "es-average"],
)
def test_calc_pages_in_italian_and_spanish(args: list[str], expected: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.stdout == expected


def test_calc_language_from_the_locale_and_english_unchanged() -> None:
    italian = runner.invoke(app, [*IT_ARGS, *DAY], env={"LANG": "it_IT.UTF-8"})
    assert italian.stdout == CALC_IT
    english = runner.invoke(app, [*IT_ARGS, *DAY, "--lang", "en"], env={"LANG": "it_IT.UTF-8"})
    lines = english.stdout.splitlines()
    assert lines[0] == "Rating 1500, standard list, 2026-11-30"
    assert lines[-8:-3] == [
        "Change unrounded  +12.8013",
        "Change            +12.8",
        "New rating        1512.8",
        "",
        "Notes:",  # the English page has no answer line
    ]


def test_calc_json_is_the_same_in_every_language() -> None:
    outputs = {runner.invoke(app, [*ES_ARGS, *DAY, "--json", "--lang", x]).stdout for x in LANGS}
    assert len(outputs) == 1
    assert json.loads(outputs.pop())["notes"] == [
        "average method: not FIDE's rule; decimals kept",
        "K 24.6 given",
    ]


def test_calc_initial_rating_notes_in_italian() -> None:
    args = ["calc", "0", "1800:1", "1900:0.5", "1700:1", "2000:0", "1750:0.5", *DAY]
    text = runner.invoke(app, [*args, "--lang", "it"]).stdout
    assert text.splitlines()[0] == "Elo non classificato, lista standard, 30 novembre 2026"
    assert re.search(r"^Elo iniziale +1871$", text, re.MULTILINE)
    assert (
        "  - Elo iniziale (metodo 2024): Ra = (9150 + 2 x 1800) / 7 = 1821,43, p = 0,57, "
        "dp = +50, Ru = 1871"
    ) in text
    assert "Punteggio atteso" not in text  # no expected score for an initial rating


def test_calc_ascii_page_has_plain_letters() -> None:
    from pipeline.calc import CalcRequest, GameInput, calculate
    from pipeline.report.calc_table import render_calc

    result = calculate(
        CalcRequest(1830, (GameInput(1980, 50),), dt.date(2026, 11, 30), method="average", k=24)
    )
    plain = render_calc(result, ascii_only=True, lang="es")
    assert plain.isascii()
    assert "Variacion +4,8; Nuevo Elo 1834,8" in plain


@pytest.mark.parametrize("option", ["--lang=fr", "--lang=EN_us"])
def test_unknown_lang_is_a_usage_error(option: str) -> None:
    for command in (["calc", "1500", "1600:1"], ["run", "samples"]):
        result = runner.invoke(app, [*command, option])
        assert result.exit_code == 2
        value = option.split("=")[1]
        assert result.stderr == f"elo: error: --lang: expected one of en, es, it, got {value!r}\n"


def test_lang_without_a_value() -> None:
    result = runner.invoke(app, ["calc", "1500", "1600:1", "--lang"])
    assert result.exit_code == 2
    assert result.stderr == "elo: error: --lang: expected a value after the option\n"


def test_the_texts_of_elo_serves_templates_are_extracted() -> None:
    """babel.cfg's jinja2 section finds the templates' _() (the catalog test above would
    pass vacuously without it)."""
    assert {(None, "Rating calculator"), (None, "Rate a tournament")} <= _code_ids()
