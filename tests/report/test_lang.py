"""--lang es|it for the reports: the console summary of a run, and report.xlsx written by
`elo run --lang` (sheet names, headers, texts; numbers stay numbers; CSV and JSON as in
English)."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.report.console import summary_text
from tests.conftest import SAMPLES
from tests.report.sample import sample_ratings
from tests.report.test_console import _summary

REGISTRY = SAMPLES / "registry" / "players_list_foa.txt"
WARNING = {
    "file": "a.trf",
    "line": 3,
    "column": None,
    "code": "date-read",
    "message": "read 'May 10, 2020' as 2020-05-10 (month name)",
}
IDENTITIES = {"file-id": 4, "registry-name": 1, "ambiguous": 1, "unmatched": 2}

# --- the console summary ------------------------------------------------------------------

CONSOLE = {
    "it": [
        "OK (uscita 0): 2 tornei valutati, 6 giocatori",
        "Giocatori per lista Elo",
        "senza partite",
        "lista giocatori valutati iniziali senza Elo valutate partite valutate",
        "standard 4 3 0 1 0 3",
        "rapid 2 2 0 0 0 1",
        "Maggiori guadagni e perdite (primi 5)",
        "lista ID FIDE nome Ro variazione nuovo",
        "standard 4100039 Fink, Eva 1720 +9 1729",
        "rapid 4100011 Berg, Anna 2050 +4 2054",
        "rapid 4100039 Fink, Eva 1800 -8 1792",
        "standard 4100020 Dorn, Carl 1980 -3 1977",
        "standard 4100011 Berg, Anna 2105 -2 2103",
        "Identità: 4 dall'ID FIDE del file, 1 per nome nella lista Elo, 1 ambiguo, 2 assenti "
        "dalla lista Elo",
        "1 avviso:",
        "a.trf:3: read 'May 10, 2020' as 2020-05-10 (month name) [date-read]",
        "File scritti: reports/report.xlsx",
    ],
    "es": [
        "OK (salida 0): 2 torneos valorados, 6 jugadores",
        "Jugadores por lista de Elo",
        "sin partidas",
        "lista jugadores con Elo iniciales sin Elo valoradas partidas valoradas",
        "estándar 4 3 0 1 0 3",
        "rápido 2 2 0 0 0 1",
        "Mayores subidas y bajadas (los 5 primeros)",
        "lista ID FIDE nombre Ro variación nuevo",
        "estándar 4100039 Fink, Eva 1720 +9 1729",
        "rápido 4100011 Berg, Anna 2050 +4 2054",
        "rápido 4100039 Fink, Eva 1800 -8 1792",
        "estándar 4100020 Dorn, Carl 1980 -3 1977",
        "estándar 4100011 Berg, Anna 2105 -2 2103",
        "Identidades: 4 por el ID FIDE del archivo, 1 por nombre en la lista de Elo, 1 ambiguo, "
        "2 no están en",
        "la lista de Elo",
        "1 aviso:",
        "a.trf:3: read 'May 10, 2020' as 2020-05-10 (month name) [date-read]",
        "Archivos escritos: reports/report.xlsx",
    ],
}


def _words(text: str) -> list[str]:
    """The lines of a rich rendering (100 columns) without borders and padding."""
    out = []
    for line in text.splitlines():
        plain = " ".join(line.translate(str.maketrans("", "", "┏┳┓┃┡╇┩│└┴┘├┼┤━─")).split())
        if plain:
            out.append(plain)
    return out


@pytest.mark.parametrize("lang", ["it", "es"])
def test_console_summary(lang: str) -> None:
    summary = _summary(identities=IDENTITIES, warnings=[WARNING])
    text = summary_text(summary, sample_ratings(), written=[Path("reports/report.xlsx")], lang=lang)
    assert _words(text) == CONSOLE[lang]


def test_console_rejected_and_partial_runs() -> None:
    error = {"file": "a.trf", "line": 4, "column": "92-95", "code": "bad-opponent",
             "message": "expected 1..9, got 12", "severity": "error"}  # fmt: skip
    text = summary_text({"status": "rejected", "exit_code": 1, "errors": [error]}, lang="it")
    assert text.splitlines() == [
        "RIFIUTATO (uscita 1): dati rifiutati, 1 errore; non è stato valutato nulla",
        "1 errore:",
        "  a.trf:4:92-95: expected 1..9, got 12 [bad-opponent]",  # messages stay English
    ]
    partial = _summary(status="partial", exit_code=1, invalid_files=["bad.trf"], errors=[{}, {}])
    assert summary_text(partial, lang="es").splitlines()[0] == (
        "PARCIAL (salida 1): 2 torneos valorados, 6 jugadores; 1 archivo omitido (2 errores)"
    )


def test_console_many_warnings_name_the_translated_sheet() -> None:
    warnings = [{**WARNING, "line": i} for i in range(1, 13)]
    text = summary_text(_summary(warnings=warnings), lang="it")
    assert "12 avvisi:" in text
    assert "... e altri 2 (foglio Controlli di report.xlsx)" in text


def test_console_chain_periods_in_spanish() -> None:
    period = {"period": "2025-01", "list_date": "2025-02-01", "events": 1, "players": 2,
              "warnings": 0, "counts": {"per_list": {"standard": {"rated": 2}}}}  # fmt: skip
    summary = {"status": "ok", "exit_code": 0, "periods": [period, {**period, "period": "2025-02"}]}
    lines = summary_text(summary, lang="es").splitlines()
    assert (
        lines[0] == "OK (salida 0): 2 periodos valorados en orden (de 2025-01 a 2025-02), 2 torneos"
    )
    assert lines[2].split() == ["periodo", "lista", "del", "torneos", "jugadores", "con", "Elo",
                                "iniciales", "sin", "Elo", "avisos"]  # fmt: skip


# --- report.xlsx ----------------------------------------------------------------------------

SHEETS = {
    "it": ["Riepilogo", "Variazioni maggiori", "Partite", "Tornei", "Performance", "Norme",
           "Identità", "Controlli", "Schede"],
    "es": ["Resumen", "Mayores cambios", "Partidas", "Torneos", "Rendimiento", "Normas",
           "Identidades", "Comprobaciones", "Fichas"],
}  # fmt: skip
PERFORMANCE = ["Ra", "%", "dp", "Rp", "ARO", "TPR"]
RATED_ONLY = ["Rc", "Rc %", "Rc dp", "Rc + dp"]
HEADERS = {
    "it": {
        "Riepilogo": ["ID FIDE", "Nome", "Fed", "Titolo", "Lista", "Ro", "K", "Partite", "Punti",
                      "Atteso (ΣPD)", "ΣΔR", "K·ΣΔR non arrotondato", "Variazione", "Nuovo Elo",
                      "Stato"],
        "Variazioni maggiori": ["Giocatore", "ID FIDE", "Lista", "Ro", "Guadagno", "Perdita",
                                "Nuovo Elo"],
        "Partite": ["Torneo", "Lista", "Turno", "ID FIDE", "Giocatore", "Elo", "Col.",
                    "ID FIDE avv.", "Avversario", "Elo avv.", "Risultato", "Punti", "D",
                    "D usata", "PD", "ΔR", "K", "K·ΔR", "Valutata / motivo"],
        "Tornei": ["Torneo", "File", "Lista", "Inizio", "Fine", "Turni", "Giocatori",
                   "Partite valutate", "Regolamento", "Origine", "Lista secondo",
                   "Perché questa lista"],
        "Identità": ["Stato", "Torneo", "File", "Riga", "N.", "Nome", "Fed", "Elo", "ID FIDE",
                     "Metodo", "Candidati", "Riscontri"],
        "Controlli": ["Tipo", "File", "Riga", "Colonna", "Codice", "Messaggio"],
        "Performance": ["Torneo", "Nome", "ID FIDE", "Lista", "Partite", "Punti", *PERFORMANCE,
                        "Partite valutate", "Punti contro avversari con Elo", *RATED_ONLY],
    },
    "es": {
        "Resumen": ["ID FIDE", "Nombre", "Fed", "Título", "Lista", "Ro", "K", "Partidas",
                    "Puntos", "Esperado (ΣPD)", "ΣΔR", "K·ΣΔR sin redondear", "Variación",
                    "Nuevo Elo", "Estado"],
        "Mayores cambios": ["Jugador", "ID FIDE", "Lista", "Ro", "Subida", "Bajada",
                            "Nuevo Elo"],
        "Partidas": ["Torneo", "Lista", "Ronda", "ID FIDE", "Jugador", "Elo", "Col.",
                     "ID FIDE rival", "Rival", "Elo rival", "Resultado", "Puntos", "D",
                     "D usada", "PD", "ΔR", "K", "K·ΔR", "Valorada / motivo"],
        "Torneos": ["Torneo", "Archivo", "Lista", "Inicio", "Fin", "Rondas", "Jugadores",
                    "Partidas valoradas", "Reglamento", "Origen", "Lista según",
                    "Por qué esta lista"],
        "Identidades": ["Estado", "Torneo", "Archivo", "Línea", "N.º", "Nombre", "Fed", "Elo",
                        "ID FIDE", "Método", "Candidatos", "Pruebas"],
        "Comprobaciones": ["Tipo", "Archivo", "Línea", "Columna", "Código", "Mensaje"],
        "Rendimiento": ["Torneo", "Nombre", "ID FIDE", "Lista", "Partidas", "Puntos",
                        *PERFORMANCE, "Partidas valoradas", "Puntos ante rivales con Elo",
                        *RATED_ONLY],
    },
}  # fmt: skip
CARDS = {
    "it": ("Calcoli individuali", ["Turno", "Avversario", "ID FIDE avv.", "Elo avv.",
           "Risultato", "D", "D usata", "PD", "ΔR", "K·ΔR"], "Nuovo Elo", "Periodo",
           "Rapporto Elo", "Pagina &P di &N", "dd/mm/yyyy", "avviso", " · 6 novembre 2026"),
    "es": ("Cálculos individuales", ["Ronda", "Rival", "ID FIDE rival", "Elo rival",
           "Resultado", "D", "D usada", "PD", "ΔR", "K·ΔR"], "Nuevo Elo", "Periodo",
           "Informe de Elo", "Página &P de &N", "d/m/yyyy", "aviso", " · 6 de noviembre de 2026"),
}  # fmt: skip


HEADLINE = {
    "it": "OK (uscita 0): 4 tornei valutati, 193 giocatori",
    "es": "OK (salida 0): 4 torneos valorados, 193 jugadores",
}


@pytest.fixture(scope="module")
def english_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("lang") / "en"
    result = CliRunner().invoke(
        app, ["run", str(SAMPLES), "--registry", str(REGISTRY), "--out", str(out), "-q"]
    )
    assert result.exit_code == 0, result.output
    return out


@pytest.mark.parametrize("lang", ["it", "es"])
def test_workbook_in_italian_and_spanish(lang: str, english_run: Path, tmp_path: Path) -> None:
    out = tmp_path / lang
    result = CliRunner().invoke(
        app,
        ["run", str(SAMPLES), "--registry", str(REGISTRY), "--out", str(out), "--lang", lang],
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == HEADLINE[lang]
    wb = load_workbook(out / "report.xlsx")
    assert wb.sheetnames == SHEETS[lang]
    for name, headers in HEADERS[lang].items():
        assert [c.value for c in next(wb[name].iter_rows(max_row=1))] == headers, name
    title, card_headers, new_rating, period, page, footer, date_format, kind, event = CARDS[lang]
    cards = [[v for v in row if v is not None] for row in wb[SHEETS[lang][-1]].values]
    assert cards[0] == [title]
    assert card_headers in cards
    assert any(row[:1] == [period] for row in cards)
    assert any(row[:1] == [new_rating] for row in cards)
    assert any(str(row[0]).endswith(event) for row in cards if row)
    summary = wb[SHEETS[lang][0]]
    header, footer_item = summary.oddHeader, summary.oddFooter
    assert header is not None
    assert footer_item is not None
    assert header.left.text == page
    assert footer_item.right.text == footer
    assert wb.properties.title == page
    # numbers stay numbers, with the same formats as in English; dates take the language's
    events = next(wb[SHEETS[lang][3]].iter_rows(min_row=2, max_row=2))
    assert events[3].number_format == date_format
    assert isinstance(events[5].value, int)
    english = load_workbook(english_run / "report.xlsx")
    for mine, theirs in zip(wb.worksheets, english.worksheets, strict=True):
        for row_a, row_b in zip(
            mine.iter_rows(min_row=2), theirs.iter_rows(min_row=2), strict=True
        ):
            for a, b in zip(row_a, row_b, strict=True):
                if isinstance(b.value, int | float) and not isinstance(b.value, bool):
                    assert (a.value, a.number_format) == (b.value, b.number_format)
    checks = [row[0].value for row in wb[SHEETS[lang][7]].iter_rows(min_row=2)]
    assert set(checks) == {kind}  # the sample period has warnings only
    # the CSV and JSON outputs are the same in every language
    for name in ("ratings.csv", "games.csv", "identities.csv", "performance.csv", "norms.csv"):
        assert (out / name).read_bytes() == (english_run / name).read_bytes(), name
