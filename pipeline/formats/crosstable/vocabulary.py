"""The words of the files, per language, in one table: crosstable headers, section titles,
preamble labels, trailer lines, bye words and month names.

Every reader takes its words from here (`crosstable.cells`, `crosstable.preamble`,
`crosstable.layout`, `detect`, `dates`); no second copy lives beside a layout.

Where the words come from (facts, looked up, not guessed):
- English, German, Spanish, Portuguese, Russian: chess-results.com pages and Excel/CSV
  exports in those page languages (``lan=1``, ``0``, ``2``, ``10``, ``11``), as saved in
  public repositories that parse them, and the real files in tests/fixtures/real.
- French (``lan=20``), Italian (``lan=16``), Dutch (``lan=17``): chess-results keeps the
  English abbreviations in most columns of its exports (``Rk.``, ``SNo``, ``Rtg``,
  ``FED``, ``1.Rd``, ``Pts.``); the words below are the chess terms of those languages
  for the columns that are translated (``Nom`` / ``Nome`` / ``Naam``, points, rounds).
  They are marked ``unconfirmed``: no export in those languages was at hand to check
  them against. A header in an unknown language is still found by its shape (a name
  column and round columns), see `crosstable.layout.find_header`.

Header keys are compared folded: case, spaces and a trailing dot do not matter
(``'Pts. '`` = ``'pts'``), see `header_key`.
"""

from __future__ import annotations

import re
import unicodedata

LANGUAGES = ("en", "de", "es", "fr", "it", "pt", "nl", "ru")

# --- crosstable column headers: field -> language -> words --------------------------------

HEADERS: dict[str, dict[str, tuple[str, ...]]] = {
    # the final ranking's first column
    "rank": {
        "en": ("Rk.", "Rank", "Pos."),
        "de": ("Rg.", "Rang", "Platz", "Pl."),
        "es": ("Rk.", "Pos.", "Puesto"),
        "fr": ("Rg.", "Pl.", "Place", "Clt"),  # unconfirmed
        "it": ("Pos.", "Cl."),  # unconfirmed
        "pt": ("Rk.", "Cl.", "Pos."),
        "nl": ("Pl.", "Plaats", "Rk."),  # unconfirmed
        "ru": ("Место",),
    },
    # the starting rank's first column, and the start number column of a final ranking
    "sno": {
        "en": ("No.", "SNo", "SNo.", "No.st"),
        "de": ("Nr.", "Snr", "SNr", "Startnr", "Startnr."),
        "es": ("No.", "No.Ini.", "Nº", "Nº.", "N°"),
        "fr": ("N°", "No.", "Dos."),  # unconfirmed
        "it": ("N.", "Num.", "No."),  # unconfirmed
        "pt": ("Nº.", "Nº", "No.", "N.º", "Nº.Inic."),
        "nl": ("Nr.", "No.", "Stnr"),  # unconfirmed
        "ru": ("Ном.", "Ст.ном."),
    },
    "name": {
        "en": ("Name", "Player"),
        "de": ("Name", "Spieler"),
        "es": ("Nombre", "Jugador"),
        "fr": ("Nom", "Joueur"),  # unconfirmed
        "it": ("Nome", "Giocatore"),  # unconfirmed
        "pt": ("Nome", "Jogador"),
        "nl": ("Naam", "Speler"),  # unconfirmed
        "ru": ("Имя", "Участник"),
    },
    "title": {
        "en": ("Tit", "Tit.", "Title"),
        "de": ("Titel",),
        "es": ("Tít", "Tít.", "Título"),
        "fr": ("Titre",),  # unconfirmed
        "it": ("Titolo",),  # unconfirmed
        "pt": ("Título",),
        "nl": ("Titel",),  # unconfirmed
        "ru": ("Титул", "Зв."),
    },
    "federation": {
        "en": ("FED", "Fed.", "Federation"),
        "de": ("Land", "Föd.", "Verband"),
        "es": ("FED", "País"),
        "fr": ("FED", "Féd.", "Pays"),  # unconfirmed
        "it": ("FED", "Fed.", "Naz."),  # unconfirmed
        "pt": ("FED", "País"),
        "nl": ("FED", "Land"),  # unconfirmed
        "ru": ("ФЕД.", "Фед."),
    },
    # the FIDE rating; a national rating column (`national_rating`) is not this
    "rating": {
        "en": ("Rtg", "RtgI", "FIDE", "Rating", "FRtg", "Elo FIDE", "FIDE Elo"),
        "de": ("Elo", "EloI", "Elo FIDE", "FIDE-Elo"),
        "es": ("Elo", "EloI", "Elo FIDE", "FIDE"),
        "fr": ("Elo", "EloI"),  # unconfirmed
        "it": ("Elo", "EloI", "Elo FIDE"),  # unconfirmed
        "pt": ("Elo", "EloI", "Rtg", "RtgI"),
        "nl": ("Elo", "Rtg", "RtgI"),  # unconfirmed
        "ru": ("Рейт.", "Рейт", "Межд."),
    },
    "national_rating": {
        "en": ("RtgN", "Nat."),
        "de": ("EloN", "DWZ", "Elo nat."),
        "es": ("EloN", "FEDA"),
        "fr": ("EloN",),  # unconfirmed
        "it": ("EloN", "Elo Italia"),  # unconfirmed
        "pt": ("EloN",),
        "nl": ("KNSB", "EloN"),  # unconfirmed
        "ru": ("Нац.",),
    },
    "points": {
        "en": ("Pts.", "Pts", "Points"),
        "de": ("Pkt.", "Pkt", "Punkte"),
        "es": ("Ptos.", "Ptos", "Pts.", "Puntos"),
        "fr": ("Pts.", "Pts", "Points"),  # unconfirmed
        "it": ("Punti", "Pti.", "Pt."),  # unconfirmed
        "pt": ("Pts.", "Pontos"),
        "nl": ("Ptn.", "Pnt.", "Punten"),  # unconfirmed
        "ru": ("Очки",),
    },
    "fide_id": {
        "en": ("FideID", "FIDE-ID", "Fide-ID", "FIDE ID", "Fide-No.", "FIDE No."),
        "de": ("FIDE-ID", "Fide-Nr", "Fide-Nr."),
        "es": ("FIDE-ID", "ID FIDE", "FideID"),
        "fr": ("FIDE-ID", "ID FIDE", "Code FIDE"),  # unconfirmed
        "it": ("FIDE-ID", "ID FIDE"),  # unconfirmed
        "pt": ("ID FIDE", "FIDE-ID"),
        "nl": ("FIDE-ID", "FIDE-nr"),  # unconfirmed
        "ru": ("ФИДЕ ID",),
    },
    # a national identity number: not a FIDE ID, never used as one
    "national_id": {
        "en": ("ID", "Ident-Number"),
        "de": ("ID", "PKZ", "ZPS"),
        "es": ("ID",),
        "fr": ("ID", "NrFFE"),  # unconfirmed
        "it": ("ID",),  # unconfirmed
        "pt": ("ID",),
        "nl": ("ID", "KNSB-nr"),  # unconfirmed
        "ru": ("ИН",),
    },
    "k": dict.fromkeys(LANGUAGES, ("K",)),
    "change": {
        "en": ("rtg+/-", "Rtg +/-", "FIDE rtg +/-"),
        "de": ("Elo+/-", "Elo +/-"),
        "es": ("Elo+/-", "Elo +/-", "rtg+/-"),
        "fr": ("Elo+/-", "rtg+/-"),  # unconfirmed
        "it": ("Elo+/-", "Var."),  # unconfirmed
        "pt": ("Elo+/-", "rtg+/-"),
        "nl": ("Elo+/-", "rtg+/-"),  # unconfirmed
        "ru": ("Рейт.+/-",),
    },
    "sex": {
        "en": ("sex", "Sex"),
        "de": ("Geschl.", "sex"),
        "es": ("Sexo", "sex"),
        "fr": ("Sexe",),  # unconfirmed
        "it": ("Sesso",),  # unconfirmed
        "pt": ("Sexo",),
        "nl": ("Geslacht",),  # unconfirmed
        "ru": ("пол",),
    },
    "club": {
        "en": ("Club/City", "Club"),
        "de": ("Verein/Ort", "Verein"),
        "es": ("Club/Ciudad", "Club"),
        "fr": ("Club/Ville", "Club"),  # unconfirmed
        "it": ("Club/Città", "Società"),  # unconfirmed
        "pt": ("Clube/Cidade", "Clube"),
        "nl": ("Club/Plaats", "Vereniging"),  # unconfirmed
        "ru": ("Клуб/Город",),
    },
}

# Round columns of a Swiss crosstable: '1.Rd', 'Rd.1', '1. Runde', 'Ronda 1', 'R1'.
ROUND_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("Rd", "Rnd", "R", "Round"),
    "de": ("Rd", "Runde", "Rde"),
    "es": ("Rd", "Ronda", "Rda"),
    "fr": ("Rd", "Ronde", "R"),  # unconfirmed
    "it": ("Rd", "Turno"),  # unconfirmed
    "pt": ("Rd", "Rodada", "Ronda"),
    "nl": ("Rd", "Ronde", "R"),  # unconfirmed
    "ru": ("Тур",),
}

# --- the rows around the table -----------------------------------------------------------

# Section titles above the header row ("Final Ranking crosstable after 7 Rounds").
TITLES: dict[str, tuple[str, ...]] = {
    "en": (
        "Final Ranking crosstable", "Ranking crosstable", "Starting rank crosstable",
        "Final Ranking", "Rank after Round", "Starting rank", "crosstable", "standings",
    ),
    "de": (
        "Endtabelle", "Endstand", "Kreuztabelle", "Rangliste", "Startrangliste",
        "Stand nach", "Zwischenstand",
    ),
    "es": (
        "Cuadro cruzado", "Clasificación final", "Clasificación después",
        "Ranking inicial", "Clasificación",
    ),
    "fr": ("Grille américaine", "Classement final", "Classement", "Tableau croisé"),
    "it": ("Classifica finale", "Classifica", "Tabellone", "Griglia"),
    "pt": ("Classificação final", "Classificação", "Ranking inicial", "Tabela cruzada"),
    "nl": ("Eindstand", "Kruistabel", "Ranglijst", "Stand na"),
    "ru": ("Итоговое положение", "Стартовая таблица", "Место после", "Стартовый список"),
}  # fmt: skip

# "after N rounds" / "after round N" in a title: the number of rounds played.
AFTER_ROUNDS: dict[str, tuple[str, ...]] = {
    "en": (r"after\s+(\d{1,3})\.?\s+rounds?", r"after\s+round\s+(\d{1,3})"),
    "de": (r"nach\s+(\d{1,3})\.?\s+runden?", r"nach\s+der\s+(\d{1,3})\.?\s+runde"),
    "es": (r"despu[ée]s\s+de\s+(\d{1,3})\s+rondas?", r"despu[ée]s\s+de\s+la\s+ronda\s+(\d{1,3})",
           r"tras\s+(?:la\s+)?(?:ronda\s+)?(\d{1,3})"),
    "fr": (r"apr[èe]s\s+(\d{1,3})\s+rondes?", r"apr[èe]s\s+la\s+ronde\s+(\d{1,3})"),
    "it": (r"dopo\s+(\d{1,3})\s+turni", r"dopo\s+il\s+turno\s+(\d{1,3})"),
    "pt": (r"ap[óo]s\s+(\d{1,3})\s+(?:rodadas?|rondas?)", r"depois\s+de\s+(\d{1,3})\s+rondas?"),
    "nl": (r"na\s+(\d{1,3})\s+ronden?", r"na\s+ronde\s+(\d{1,3})"),
    "ru": (r"после\s+(\d{1,3})\s+тур", ),
}  # fmt: skip

# Labels of the detail lines ("Time control (Rapid) : 10 minutes + 3 secs per move").
PREAMBLE: dict[str, dict[str, tuple[str, ...]]] = {
    "last_update": {
        "en": ("Last update",),
        "de": ("Die Seite wurde zuletzt aktualisiert am", "Letzte Aktualisierung"),
        "es": ("Última actualización", "Actualizado"),
        "fr": ("Dernière mise à jour",),  # unconfirmed
        "it": ("Ultimo aggiornamento",),  # unconfirmed
        "pt": ("Última Atualização", "Última actualização"),
        "nl": ("Laatste update", "Laatst bijgewerkt"),  # unconfirmed
        "ru": ("Последнее обновление",),
    },
    "date": {
        "en": ("Date", "Dates", "Period"),
        "de": ("Datum", "Von", "Zeitraum"),
        "es": ("Fecha", "Fechas"),
        "fr": ("Date", "Dates"),  # unconfirmed
        "it": ("Data", "Date"),  # unconfirmed
        "pt": ("Data", "Datas"),
        "nl": ("Datum",),  # unconfirmed
        "ru": ("Дата(ы)", "Дата", "Даты"),
    },
    "time_control": {
        "en": ("Time control",),
        "de": ("Bedenkzeit",),
        "es": ("Control de tiempo", "Ritmo de juego", "Ritmo"),
        "fr": ("Cadence",),  # unconfirmed
        "it": ("Tempo di riflessione", "Cadenza"),  # unconfirmed
        "pt": ("Controlo de tempo", "Controle de tempo", "Ritmo"),
        "nl": ("Bedenktijd", "Speeltempo"),  # unconfirmed
        "ru": ("Контроль времени",),
    },
    "federation": {
        "en": ("Federation",),
        "de": ("Föderation", "Verband", "Land"),
        "es": ("Federación",),
        "fr": ("Fédération",),  # unconfirmed
        "it": ("Federazione",),  # unconfirmed
        "pt": ("Federação",),
        "nl": ("Federatie", "Bond"),  # unconfirmed
        "ru": ("Федерация",),
    },
    "location": {
        "en": ("Location", "Venue", "City"),
        "de": ("Ort", "Spielort"),
        "es": ("Lugar", "Ciudad"),
        "fr": ("Lieu",),  # unconfirmed
        "it": ("Luogo", "Sede"),  # unconfirmed
        "pt": ("Local", "Cidade"),
        "nl": ("Plaats", "Locatie"),  # unconfirmed
        "ru": ("Город", "Место проведения"),
    },
    "rounds": {
        "en": ("Number of rounds",),
        "de": ("Rundenanzahl", "Anzahl der Runden"),
        "es": ("Número de rondas",),
        "fr": ("Nombre de rondes",),  # unconfirmed
        "it": ("Numero di turni",),  # unconfirmed
        "pt": ("Número de rodadas", "Número de rondas"),
        "nl": ("Aantal ronden", "Aantal rondes"),  # unconfirmed
        "ru": ("Количество туров",),
    },
    # the arbiters a TRF names (102, 112); other arbiters are read past
    "chief_arbiter": {
        "en": ("Chief Arbiter",),
        "de": ("Hauptschiedsrichter",),
        "es": ("Árbitro principal",),
        "fr": ("Arbitre principal",),  # unconfirmed
        "it": ("Arbitro principale",),  # unconfirmed
        "pt": ("Árbitro principal",),
        "nl": ("Hoofdarbiter",),  # unconfirmed
        "ru": ("Главный арбитр",),
    },
    "deputy_arbiter": {
        "en": ("Deputy Chief Arbiter",),
        "de": ("Stellvertretender Hauptschiedsrichter",),  # unconfirmed
        "es": ("Árbitro principal adjunto",),  # unconfirmed
        "fr": ("Arbitre principal adjoint",),  # unconfirmed
        "it": ("Vice arbitro principale",),  # unconfirmed
        "pt": ("Árbitro principal adjunto",),  # unconfirmed
        "nl": ("Plaatsvervangend hoofdarbiter",),  # unconfirmed
        "ru": ("Заместитель главного судьи",),
    },
    # labels read past: organisers, other arbiters, the tournament's type and figures
    "other": {
        "en": (
            "Organizer(s)", "Organizer", "Organiser", "Tournament director", "Arbiter",
            "Tournament type", "Rating calculation", "FIDE-Event-ID", "Rating-Ø", "Average",
            "Pairing program", "Creator",
        ),
        "de": (
            "Veranstalter", "Turnierdirektor", "Schiedsrichter", "Turniermodus", "Turnierart",
            "Elorechnung", "Eloauswertung", "Eloschnitt", "Auslosungsprogramm",
        ),
        "es": (
            "Organizador", "Director del Torneo", "Árbitro", "Tipo de torneo",
            "Cálculo de elo", "Elo medio", "Media",
        ),
        "fr": (
            "Organisateur", "Directeur du tournoi", "Arbitre", "Type de tournoi",
            "Calcul Elo", "Moyenne Elo",
        ),  # unconfirmed
        "it": (
            "Organizzatore", "Direttore del torneo", "Arbitro", "Tipo di torneo",
            "Calcolo Elo", "Elo medio",
        ),  # unconfirmed
        "pt": (
            "Organizador", "Director do torneio", "Diretor do torneio", "Árbitro",
            "Tipo de torneio", "Cálculo de rating", "Elo médio",
        ),
        "nl": (
            "Organisator", "Toernooidirecteur", "Arbiter", "Toernooitype",
            "Ratingberekening", "Gemiddelde rating",
        ),  # unconfirmed
        "ru": (
            "Организатор(ы)", "Турнирный директор", "Арбитр(ы)", "Расчет рейтинга",
            "Рейт.-Ø",
        ),
    },
}  # fmt: skip

# The first line of an export names the database; these words find it in any language
# ("From the Tournament-Database of Chess-Results", "Aus der Turnierdatenbank von ...").
DATABASE = ("chess-results", "chessresults", "chess-tournament-results", "schach-turnier")

# Lines below the table.
TRAILERS: dict[str, tuple[str, ...]] = {
    "en": ("Annotation", "Tie Break", "You find all details", "Chess-Tournament-Results-Server",
           "Legend", "Show tournament details"),
    "de": ("Anmerkung", "Feinwertung", "Wertung", "Alle Details zu diesem Turnier"),
    "es": ("Anotación", "Desempate", "Encontrará todos los detalles"),
    "fr": ("Annotation", "Départage", "Vous trouverez tous les détails"),  # unconfirmed
    "it": ("Annotazione", "Spareggio", "Tutti i dettagli"),  # unconfirmed
    "pt": ("Anotação", "Desempate", "Encontra todos os detalhes"),
    "nl": ("Annotatie", "Weerstandspunten", "Alle details"),  # unconfirmed
    "ru": ("Примечание", "Доп. показатель"),
}  # fmt: skip

# A round cell that is a bye worth a point (a word instead of '-1'), and one that says
# the player was not paired (no game, no point).
BYE_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("bye",),
    "de": ("spielfrei", "frei"),
    "es": ("libre", "exento", "descansa"),
    "fr": ("exempt",),  # unconfirmed
    "it": ("riposo",),  # unconfirmed
    "pt": ("folga",),
    "nl": ("vrij", "bye"),  # unconfirmed
    "ru": ("bye",),
}
NOT_PAIRED: dict[str, tuple[str, ...]] = {
    "en": ("not paired",),
    "de": ("nicht gepaart", "nicht ausgelost"),
    "es": ("no emparejado", "sin emparejar"),
    "fr": ("non apparié",),  # unconfirmed
    "it": ("non abbinato",),  # unconfirmed
    "pt": ("não emparceirado",),
    "nl": ("niet ingedeeld",),  # unconfirmed
    "ru": ("без пары",),
}

# Colour letters of a Swiss round cell (white, black): English w/b, German w/s ("schwarz"),
# Spanish b/n ("blancas"/"negras"), as fide-rules.md §8 gives them.
COLOURS: dict[str, tuple[str, str]] = {"en": ("w", "b"), "de": ("w", "s"), "es": ("b", "n")}

# --- lookups -----------------------------------------------------------------------------


def fold(text: str) -> str:
    """Case and diacritics folded, spaces collapsed: ``'Última  Atualização'`` ->
    ``'ultima atualizacao'``."""
    collapsed = " ".join(text.split()).casefold()
    if collapsed.isascii():  # nothing to decompose (most cells): the same, faster
        return collapsed
    decomposed = unicodedata.normalize("NFKD", collapsed)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def header_key(text: str) -> str:
    """A header cell as compared: folded, without spaces and a trailing dot."""
    return fold(text).replace(" ", "").rstrip(".")


def _all(words: dict[str, tuple[str, ...]]) -> list[str]:
    return [word for lang in LANGUAGES for word in words.get(lang, ())]


def _field_of_header() -> dict[str, str]:
    found: dict[str, str] = {}
    for field, words in HEADERS.items():
        for word in _all(words):
            key = header_key(word)
            # the first field that claims a word keeps it ('No.' is a start number)
            found.setdefault(key, field)
    return found


def _alternation(words: list[str]) -> str:
    """A regex alternation of the folded words, longest first."""
    return "|".join(sorted({re.escape(fold(w)) for w in words}, key=len, reverse=True))


def _label_pattern(words: list[str]) -> re.Pattern[str]:
    """Any of `words` at the start of a folded line, as a whole word."""
    return re.compile(rf"(?:{_alternation(words)})(?![a-z0-9])")


FIELD_OF_HEADER: dict[str, str] = _field_of_header()
_ROUND_WORD = _alternation(_all(ROUND_WORDS))
ROUND_HEADER = re.compile(
    rf"(?:(?P<n1>\d{{1,3}})\s*\.?\s*(?:{_ROUND_WORD})\.?|(?:{_ROUND_WORD})\.?\s*(?P<n2>\d{{1,3}})\.?)"
)
TITLE_WORDS = re.compile(_alternation(_all(TITLES)))
AFTER_ROUNDS_PATTERNS = [re.compile(p) for p in _all(AFTER_ROUNDS)]
PREAMBLE_LABELS = {concept: _label_pattern(_all(words)) for concept, words in PREAMBLE.items()}
# Date labels of the languages that write the day before the month (all but English):
# a date under one of them that reads two ways is read day first.
DAY_FIRST_DATE_LABELS = _label_pattern(
    [w for lang, words in PREAMBLE["date"].items() if lang != "en" for w in words
     if fold(w) not in {fold(e) for e in PREAMBLE["date"]["en"]}]
)  # fmt: skip
DATABASE_WORDS = re.compile(_alternation(list(DATABASE)))
TRAILER_WORDS = _label_pattern(_all(TRAILERS))
BYE_WORD_SET = frozenset(fold(w) for w in _all(BYE_WORDS))
NOT_PAIRED_SET = frozenset(fold(w) for w in _all(NOT_PAIRED))
