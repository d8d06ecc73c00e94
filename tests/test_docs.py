"""The documentation keeps its promises (README.md and docs/*.md).

- Every transcript is what the commands print today. A transcript is a fenced block whose
  lines start with ``$ command``, each followed by what it prints (stderr, then stdout, as
  a terminal shows them). `elo` runs through typer's CliRunner from the repository root,
  with no line wrapped; ``make demo`` runs its Makefile recipe; ``cat``, ``ls``, ``head``,
  ``grep``, ``cmp`` and ``echo $?`` do what the shell does. A file the transcript shows with
  ``cat`` that the repository does not hold (``late.csv``) is written, and every ``--out``
  folder goes, into a temporary folder named as the transcript names it. An output line
  ``...`` stands for any lines, ``...`` inside a line for any text. A transcript reading
  ``../shared`` skips when that folder is not beside the clone. The transcripts another
  test checks (`CHECKED_ELSEWHERE`) are not run twice.
- docs/cli.md names every command, subcommand and option of `elo`, each option in its
  command's section.
- The output files' columns in docs/cli.md and docs/formats.md are those of
  schemas/output.py, in order.
- Every relative link points at a file that exists (and a heading there, for ``#anchor``).
"""

from __future__ import annotations

import difflib
import filecmp
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from pipeline.cli import app
from schemas.output import (
    GAMES_COLUMNS,
    HISTORY_COLUMNS,
    IDENTITY_COLUMNS,
    PENDING_COLUMNS,
    PENDING_EXTRA_COLUMNS,
    PERFORMANCE_COLUMNS,
    RATINGS_COLUMNS,
)
from tests.conftest import ROOT, SHARED

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CLI_DOC = ROOT / "docs" / "cli.md"
WIDTH = "1000"  # the tests write into long temporary paths: no wrapping anywhere

# The transcripts an older test checks, by their first command: the test named reads the
# block from that document (test_the_transcripts_checked_elsewhere_are_read_there).
CHECKED_ELSEWHERE = {
    "elo validate tests/fixtures/invalid/": (
        "docs/cli.md",
        "tests/test_cli_validate.py",
        "test_readme_transcript_of_invalid_fixtures",
    ),
    "cat events.csv": ("docs/cli.md", "tests/test_cli_events.py", "test_the_readme_transcript"),
    "elo convert samples/": (
        "docs/cli.md",
        "tests/test_convert_cli.py",
        "test_the_readme_transcript",
    ),
}


# ----------------------------------------------------------------- transcripts, read


@dataclass(frozen=True)
class Step:
    command: str
    output: tuple[str, ...]


@dataclass(frozen=True)
class Transcript:
    doc: Path
    line: int
    steps: tuple[Step, ...]

    @property
    def name(self) -> str:
        return f"{self.doc.relative_to(ROOT)}:{self.line}"


def fenced_blocks(text: str) -> list[tuple[int, list[str]]]:
    """(line of the opening fence, the lines inside) of every ``` block."""
    blocks: list[tuple[int, list[str]]] = []
    inside: list[str] | None = None
    start = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("```"):
            if inside is None:
                inside, start = [], number
            else:
                blocks.append((start, inside))
                inside = None
        elif inside is not None:
            inside.append(line)
    return blocks


def read_transcript(doc: Path, line: int, lines: list[str]) -> Transcript:
    indent = len(lines[0]) - len(lines[0].lstrip())
    lines = [ln[indent:] for ln in lines]
    steps: list[Step] = []
    command: str | None = None
    output: list[str] = []
    for ln in lines:
        if ln.startswith("$ "):
            if command is not None:
                steps.append(Step(command, tuple(output)))
            command, output = ln[2:], []
        elif command is not None and command.endswith("\\"):
            command = command[:-1].rstrip() + " " + ln.strip()
        else:
            output.append(ln)
    assert command is not None
    steps.append(Step(command, tuple(output)))
    trimmed = []
    for step in steps:
        out = list(step.output)
        while out and not out[-1].strip():
            out.pop()
        trimmed.append(Step(step.command, tuple(out)))
    return Transcript(doc, line, tuple(trimmed))


def all_transcripts() -> list[Transcript]:
    found = []
    for doc in DOCS:
        for line, lines in fenced_blocks(doc.read_text(encoding="utf-8")):
            if any(ln.lstrip().startswith("$ ") for ln in lines):
                found.append(read_transcript(doc, line, lines))
    return found


def checked_elsewhere(transcript: Transcript) -> bool:
    first = transcript.steps[0].command
    return any(first.startswith(prefix) for prefix in CHECKED_ELSEWHERE)


TRANSCRIPTS = all_transcripts()
RUN_HERE = [t for t in TRANSCRIPTS if not checked_elsewhere(t)]


# ----------------------------------------------------------------- output, compared


def line_pattern(expected: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in expected.split("...")) + r"\Z")


def matches(expected: list[str], actual: list[str]) -> bool:
    """`expected` with its ``...`` lines (any lines) and ``...`` in lines (any text)."""
    patterns = [None if e.strip() == "..." else line_pattern(e) for e in expected]
    # reachable[j]: the patterns so far can cover the first j actual lines
    reachable = [True] + [False] * len(actual)
    for pattern in patterns:
        if pattern is None:
            for j in range(1, len(actual) + 1):
                reachable[j] = reachable[j] or reachable[j - 1]
        else:
            reachable = [False] + [
                reachable[j - 1] and pattern.match(actual[j - 1]) is not None
                for j in range(1, len(actual) + 1)
            ]
    return reachable[len(actual)]


# ----------------------------------------------------------------- commands, run


def makefile_recipe(target: str) -> list[str]:
    lines = (ROOT / "Makefile").read_text(encoding="utf-8").splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith(f"{target}:"))
    recipe = []
    for ln in lines[start + 1 :]:
        if not ln.startswith("\t"):
            break
        recipe.append(ln[1:].replace("$(BIN)", ".venv/bin").replace("$(VENV)", ".venv"))
    return recipe


PYTEST_SUMMARY = re.compile(
    r"\d+ passed(, \d+ skipped)?, \d+ deselected in [\d.]+s( \(\d+:\d\d:\d\d\))?"
)


class Session:
    """One transcript's shell: files it writes and folders it makes live in `tmp`."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.made: set[str] = set()
        self.code = 0

    def local(self, word: str) -> str:
        for name in self.made:
            if word == name or word.startswith(name.rstrip("/") + "/"):
                return str(self.tmp / word)
        return word

    def shown(self, text: str) -> list[str]:
        return [ln.rstrip() for ln in text.replace(f"{self.tmp}/", "").splitlines()]

    def run(self, step: Step) -> list[str]:
        words = shlex.split(step.command)
        if any(w.startswith("../shared") for w in words) and not SHARED.is_dir():
            pytest.skip("the shared reference folder is not beside this clone")
        name, args = words[0], words[1:]
        if name == "elo":
            return self.elo(args)
        if name == "make":
            return self.make(args, step)
        if name == "cat":
            return self.cat(args, step)
        if name == "ls":
            return sorted(p.name for p in Path(self.local(args[0])).iterdir())
        if name == "head":
            count = int(args[0].lstrip("-n") or args[1])
            path = Path(self.local(args[-1]))
            return path.read_text(encoding="utf-8").splitlines()[:count]
        if name == "grep":
            pattern, file = args
            lines = Path(self.local(file)).read_text(encoding="utf-8").splitlines()
            return [ln for ln in lines if pattern in ln]
        if name == "cmp":
            a, b = (self.local(w) for w in args)
            return [] if filecmp.cmp(a, b, shallow=False) else [f"{args[0]} {args[1]} differ"]
        if words == ["echo", "$?"]:
            return [str(self.code)]
        raise AssertionError(f"no way to run {step.command!r} in a transcript")

    def elo(self, args: list[str]) -> list[str]:
        if "--out" in args:
            self.made.add(args[args.index("--out") + 1])
        result = CliRunner().invoke(app, [self.local(a) for a in args], env={"COLUMNS": WIDTH})
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        self.code = result.exit_code
        return self.shown(result.stderr + result.stdout)

    def make(self, args: list[str], step: Step) -> list[str]:
        (target,) = args
        recipe = makefile_recipe(target)
        if target == "test":
            # the suite cannot run inside itself: the recipe, then pytest's last line, its
            # counts and time given or left out (``...``)
            assert list(step.output[: len(recipe)]) == recipe
            assert PYTEST_SUMMARY.fullmatch(step.output[-1].replace("...", "1")), step.output
            return list(step.output)
        shown = []
        for line in recipe:
            shown.append(line)
            elo, *rest = shlex.split(line)
            assert elo == ".venv/bin/elo", f"make {target}: {line}"
            shown += self.elo(rest)
        return shown

    def cat(self, args: list[str], step: Step) -> list[str]:
        (name,) = args
        if (ROOT / name).is_file() and name not in self.made:
            return (ROOT / name).read_text(encoding="utf-8").splitlines()
        self.made.add(name)
        path = self.tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(f"{ln}\n" for ln in step.output), encoding="utf-8")
        return list(step.output)


def test_the_docs_hold_transcripts() -> None:
    names = {t.doc.name for t in TRANSCRIPTS}
    assert {"README.md", "cli.md", "formats.md"} <= names
    for transcript in TRANSCRIPTS:
        assert transcript.steps[0].command, transcript.name


@pytest.mark.parametrize("transcript", RUN_HERE, ids=[t.name for t in RUN_HERE])
def test_transcript(
    transcript: Transcript, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    session = Session(tmp_path)
    for step in transcript.steps:
        actual = session.run(step)
        if not matches(list(step.output), actual):
            diff = "\n".join(
                difflib.unified_diff(
                    list(step.output), actual, "documented", "printed", lineterm=""
                )
            )
            pytest.fail(f"{transcript.name}: $ {step.command}\n{diff}")


def test_the_transcripts_checked_elsewhere_are_read_there() -> None:
    """Each is one transcript of the document named, and the test named reads that
    document and finds the transcript by its first command."""
    for prefix, (doc, test_file, test_name) in CHECKED_ELSEWHERE.items():
        found = [t.name for t in TRANSCRIPTS if t.steps[0].command.startswith(prefix)]
        assert len(found) == 1, (prefix, found)
        assert found[0].startswith(f"{doc}:"), (prefix, found)
        source = (ROOT / test_file).read_text(encoding="utf-8")
        body = source.split(f"def {test_name}(", 1)[1].split("\ndef ", 1)[0]
        folder, name = doc.rsplit("/", 1)
        assert f'"{folder}" / "{name}"' in body, (test_file, test_name)
        assert f"$ {prefix}" in body, (test_file, test_name)


@pytest.mark.parametrize(
    ("expected", "actual", "result"),
    [
        (["a", "...", "d"], ["a", "b", "c", "d"], True),
        (["a", "...", "d"], ["a", "d"], True),
        (["a", "...", "d"], ["a", "b"], False),
        (["Wrote .../x.csv"], ["Wrote reports/x.csv"], True),
        (["a", "b"], ["a", "b", "c"], False),
        (["..."], [], True),
    ],
    ids=["gap", "empty-gap", "no-end", "in-line", "extra-line", "only-gap"],
)
def test_ellipsis(expected: list[str], actual: list[str], result: bool) -> None:
    assert matches(expected, actual) is result


# ----------------------------------------------------------------- the CLI reference


def commands(command: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    found = [(path, command)]
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        found += commands(sub, (*path, name))
    return found


def section(text: str, heading_code: str) -> str:
    """The text under the heading that names `heading_code` in backticks, up to the next
    heading of the same or a higher level."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        level = len(line) - len(line.lstrip("#"))
        if level and f"`{heading_code}`" in line:
            end = next(
                (
                    j
                    for j in range(i + 1, len(lines))
                    if 0 < len(lines[j]) - len(lines[j].lstrip("#")) <= level
                ),
                len(lines),
            )
            return "\n".join(lines[i:end])
    raise AssertionError(f"docs/cli.md has no heading naming `{heading_code}`")


def option_names(command: Any) -> list[str]:
    names = []
    for param in command.params:
        if param.param_type_name == "option":
            names += [*param.opts, *param.secondary_opts]
    return names


def test_the_cli_reference_names_every_command_and_option() -> None:
    text = CLI_DOC.read_text(encoding="utf-8")
    root = typer.main.get_command(app)
    assert "`--help`" in text
    missing = []
    for path, command in commands(root):
        where = section(text, " ".join(("elo", *path))) if path else text
        for option in option_names(command):
            if not re.search(rf"`{re.escape(option)}(?![\w-])", where):
                missing.append(f"elo {' '.join(path)} {option}".replace("  ", " "))
    assert missing == []
    assert len(commands(root)) == 12  # elo, eight commands, profile's three


# ----------------------------------------------------------------- the output columns


@pytest.mark.parametrize("doc", ["docs/cli.md", "docs/formats.md"])
@pytest.mark.parametrize(
    "columns",
    [
        RATINGS_COLUMNS,
        GAMES_COLUMNS,
        IDENTITY_COLUMNS,
        HISTORY_COLUMNS,
        [*PENDING_COLUMNS, *PENDING_EXTRA_COLUMNS],
        PERFORMANCE_COLUMNS,
    ],
    ids=["ratings", "games", "identities", "history", "pending", "performance"],
)
def test_the_output_columns_are_the_contract(doc: str, columns: list[str]) -> None:
    text = " ".join((ROOT / doc).read_text(encoding="utf-8").split())
    assert ", ".join(columns) in text.replace("`, then `", ", ")


# ----------------------------------------------------------------- links


LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def anchors(doc: Path) -> set[str]:
    found = set()
    for line in doc.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            found.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return found


def test_every_relative_link_points_at_a_file() -> None:
    broken = []
    for doc in DOCS:
        for target in LINK.findall(doc.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            file = (doc.parent / path).resolve() if path else doc
            if not file.exists():
                broken.append(f"{doc.name}: {target}")
            elif anchor and file.suffix == ".md" and anchor not in anchors(file):
                broken.append(f"{doc.name}: {target} (no such heading)")
    assert broken == []


def test_the_docs_name_no_machine_paths() -> None:
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        assert not re.search(r"(/home/|/tmp/|/work/|/Users/|[A-Z]:\\)", text), doc.name
