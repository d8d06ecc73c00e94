"""The words of time controls in the project's languages (`vocabulary.LANGUAGES`), one table
a kind: units, roles (increment, delay, sudden death, the US ``G``/``SD`` and the ``KO``/
``QPF`` finishes), the words that name a rating list, number words, the words of move
numbers (``from move 1``, ``ab dem 40. Zug``, ``dalla prima mossa``) and the colours.
`pipeline.formats.timecontrol.tokens` reads with them; `pipeline.formats.timecontrol` takes
`LIST_WORDS`.
"""

from __future__ import annotations

UNITS: dict[str, dict[str, tuple[str, ...]]] = {
    "hours": {
        "en": ("hours", "hour", "hrs", "hr", "h"), "de": ("stunden", "stunde", "std"),
        "es": ("horas", "hora"), "fr": ("heures", "heure"), "it": ("ore", "ora"),
        "pt": ("horas", "hora"), "nl": ("uren", "uur"), "ru": ("часов", "часа", "час", "ч"),
    },
    "minutes": {
        "en": ("minutes", "minute", "mins", "min", "mn", "m"), "de": ("minuten",),
        "es": ("minutos", "minuto"), "fr": ("minutes",), "it": ("minuti", "minuto"),
        "pt": ("minutos", "minuto"), "nl": ("minuten", "minuut"),
        "ru": ("минуты", "минут", "минута", "мин"),
    },
    "seconds": {
        "en": ("seconds", "second", "secs", "sec", "s"), "de": ("sekunden", "sekunde", "sek"),
        "es": ("segundos", "segundo", "seg"), "fr": ("secondes", "seconde"),
        "it": ("secondi", "secondo"), "pt": ("segundos", "segundo"),
        "nl": ("seconden", "seconde"), "ru": ("секунды", "секунд", "секунда", "сек", "с"),
    },
    "moves": {
        "en": ("moves", "move", "mvs", "mv", "mm"), "de": ("züge", "zügen", "zuege", "zug", "z"),
        "es": ("jugadas", "jugada", "movimientos", "movimiento", "movs", "mov"),
        "fr": ("coups", "coup"), "it": ("mosse", "mossa"),
        "pt": ("lances", "lance", "jogadas", "jogada", "movimentos", "movimento"),
        "nl": ("zetten", "zet"), "ru": ("ходов", "хода", "ход"),
    },
}  # fmt: skip

# Word roles: "game" = the next number is the game's (last) time (US G/90, SD/30, Game in
# 60); "inc" / "delay" = the next number is seconds a move; "plus" / "then" end a period's
# words; "after" = `after 40 moves` ends the period before; "for" = `90 min for 40 moves`;
# "label" = the next number counts something else (Round 1).
ROLES: dict[str, dict[str, tuple[str, ...]]] = {
    "game": {
        "en": ("g", "game", "sd", "sudden", "qpf", "quickplay"), "de": ("ko",),
        "es": ("ko",), "fr": ("ko", "mat"), "it": ("ko",), "pt": ("ko", "nocaute"),
        "nl": ("ko",), "ru": (),
    },
    "inc": {
        "en": ("inc", "incr", "increment", "increments", "addition", "additional", "added"),
        "de": ("inkr", "inkrement", "gutschrift", "zeitgutschrift", "zuschlag"),
        "es": ("incremento", "incrementos", "adición", "adicion", "bonificación"),
        "fr": ("incrément", "increment", "incrémentation", "incrementation"),
        "it": ("incremento", "incrementi"), "pt": ("acréscimo", "acrescimo", "incremento"),
        "nl": ("increment", "toevoeging", "toegevoegde"), "ru": ("добавлением", "добавление"),
    },
    "delay": {
        "en": ("delay", "bronstein", "td"), "de": ("verzögerung", "verzoegerung"),
        "es": ("retardo", "retraso", "demora"), "fr": ("délai", "delai"),
        "it": ("ritardo",), "pt": ("atraso",), "nl": ("vertraging",), "ru": ("задержка",),
    },
    "plus": {
        "en": ("plus", "with", "and"), "de": ("mit", "und"), "es": ("más", "mas", "con", "y"),
        "fr": ("avec", "et"), "it": ("più", "piu", "con", "e"), "pt": ("mais", "com", "e"),
        "nl": ("plus", "met", "en"), "ru": ("плюс", "и", "с"),
    },
    "then": {
        "en": ("then", "followed", "thereafter"), "de": ("dann", "danach", "anschließend",
        "gefolgt"), "es": ("luego", "después", "despues", "seguidos", "seguido"),
        "fr": ("puis", "ensuite", "suivi", "suivis"), "it": ("poi", "quindi", "seguiti"),
        "pt": ("depois", "seguidos", "seguido"), "nl": ("daarna", "vervolgens", "gevolgd"),
        "ru": ("затем", "потом"),
    },
    "after": {
        "en": ("after",), "de": ("nach",), "es": ("tras",), "fr": ("après", "apres"),
        "it": ("dopo",), "pt": ("após", "apos"), "nl": ("na",), "ru": ("после",),
    },
    "for": {
        "en": ("for", "in"), "de": ("für", "fuer", "in"), "es": ("para", "por", "en"),
        "fr": ("pour", "en"), "it": ("per", "in"), "pt": ("para", "por", "em"),
        "nl": ("voor", "in"), "ru": ("за", "на"),
    },
    "filler": {
        "en": ("the", "first", "next", "following", "a", "an", "of", "each", "every", "all",
               "further"),
        "de": ("die", "der", "den", "dem", "ersten", "nächsten", "folgenden", "jeden", "alle",
               "von", "eine"),
        "es": ("los", "las", "la", "el", "primeros", "primeras", "siguientes", "cada", "de",
               "una", "un"),
        "fr": ("les", "la", "le", "premiers", "suivants", "chaque", "de", "d", "un", "une"),
        "it": ("i", "le", "la", "il", "primi", "prime", "successive", "ogni", "di", "un"),
        "pt": ("os", "as", "o", "a", "primeiros", "seguintes", "cada", "de", "um", "uma"),
        "nl": ("de", "het", "eerste", "volgende", "elke", "van", "een"), "ru": (),
    },
    "label": {
        "en": ("round", "rounds", "rd", "rnd", "board", "group", "no", "nr", "players",
               "games", "section"),
        "de": ("runde", "runden", "brett", "gruppe", "spieler"),
        "es": ("ronda", "rondas", "tablero", "grupo", "jugadores"),
        "fr": ("ronde", "rondes", "table", "groupe", "joueurs"),
        "it": ("turno", "turni", "gruppo", "giocatori"),
        "pt": ("rodada", "rodadas", "grupo", "jogadores"),
        "nl": ("ronde", "ronden", "rondes", "bord", "groep", "spelers"), "ru": ("тур", "тура"),
    },
}  # fmt: skip

# Words that name a rating list (checked longest first, so `semilampo` is not `lampo`).
LIST_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "standard": {
        "en": ("standard", "classical", "classic"), "de": ("klassisch", "langpartie"),
        "es": ("estándar", "estandar", "clásic", "clasic", "lentas"),
        "fr": ("cadence lente", "classique"), "it": ("classica", "classico"),
        "pt": ("clássic", "padrão"), "nl": ("klassiek", "standaard"),
        "ru": ("классические", "классика"),
    },
    "rapid": {
        "en": ("rapid", "semi-rapid"), "de": ("schnellschach", "schnell"),
        "es": ("rápid", "semirrápid"), "fr": ("rapide", "semi-rapide"),
        "it": ("semilampo", "rapido"), "pt": ("rápid", "semirrápid"),
        "nl": ("rapidschaak",), "ru": ("рапид", "быстрые"),
    },
    "blitz": {
        "en": ("blitz", "lightning", "bullet"), "de": ("blitz",), "es": ("relámpago",
        "relampago"), "fr": ("blitz",), "it": ("lampo",), "pt": ("relâmpago", "relampago"),
        "nl": ("snelschaak", "snelschaken"), "ru": ("блиц",),
    },
}  # fmt: skip

# Number words before a unit (`zwei Stunden`, `tres minutos`, `tien seconden`).
NUMBER_WORDS: dict[str, int] = {
    # en
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "ten": 10, "fifteen": 15,
    "twenty": 20, "thirty": 30, "forty": 40, "sixty": 60, "ninety": 90,
    # de
    "ein": 1, "eine": 1, "zwei": 2, "drei": 3, "fünf": 5, "zehn": 10, "fünfzehn": 15,
    "zwanzig": 20, "dreissig": 30, "vierzig": 40, "sechzig": 60, "neunzig": 90,
    # es, it, pt, fr
    "un": 1, "una": 1, "uno": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "diez": 10,
    "quince": 15, "veinte": 20, "treinta": 30, "cuarenta": 40, "sesenta": 60, "noventa": 90,
    "due": 2, "tre": 3, "quattro": 4, "cinque": 5, "dieci": 10, "quindici": 15, "venti": 20,
    "trenta": 30, "quaranta": 40, "sessanta": 60, "novanta": 90,
    "um": 1, "uma": 1, "dois": 2, "duas": 2, "três": 3, "dez": 10, "vinte": 20, "trinta": 30,
    "une": 1, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "dix": 10, "quinze": 15,
    "vingt": 20, "trente": 30, "quarante": 40, "soixante": 60,
    # nl
    "een": 1, "één": 1, "twee": 2, "drie": 3, "vier": 4, "vijf": 5, "tien": 10,
    "vijftien": 15, "twintig": 20, "dertig": 30, "veertig": 40, "zestig": 60, "negentig": 90,
}  # fmt: skip

# Move numbers: `from move 1`, `after move 40`, `ab dem 40. Zug`, `dalla prima mossa`.
MOVE_ONE = (
    "move", "zug", "jugada", "movimiento", "coup", "mossa", "lance", "jogada",
    "movimento", "zet", "ход",
)  # fmt: skip
FIRST = (
    "one", "first", "initial", "erste", "ersten", "erstem", "primera", "primer", "primero",
    "inicial", "prima", "primo", "premier", "première", "premiere", "primeiro", "primeira",
    "eerste", "één", "uno", "start",
)  # fmt: skip
FROM = (
    "starting from", "starting with", "starting at", "beginning with", "beginning at", "from",
    "since", "beginnend mit", "beginnend bei", "ab", "a partir de", "a partir del",
    "a partir da", "a partir do", "desde", "dalla", "dal", "da", "dès", "des", "à partir du",
    "a partir du", "vanaf", "começando no", "começando do", "começando com", "comenzando en",
    "comenzando desde", "mit",
)  # fmt: skip
AFTER = ("after", "nach", "na", "dopo", "après", "apres", "después de", "tras", "após", "после")
ARTICLE = r"(?:the|dem|der|den|la|el|le|il|l'|lo|del|de|do|no|het)\s+"

WHITE = (
    "white", "weiss", "weiß", "blancas", "blanco", "blancos", "blancs", "blanc", "bianco",
    "bianchi", "brancas", "branco", "brancos", "wit", "белые", "белых",
)  # fmt: skip
BLACK = (
    "black", "schwarz", "negras", "negro", "negros", "noirs", "noir", "nero", "neri",
    "pretas", "preto", "pretos", "zwart", "черные", "чёрные", "черных",
)  # fmt: skip
