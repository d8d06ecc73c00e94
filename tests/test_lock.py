"""requirements.lock and pyproject.toml agree, and the running environment is the lock's.

pyproject.toml keeps ranges for people installing the package; requirements.lock pins the
exact versions that make install, make test and CI install (`make lock` refreshes it). These
tests fail when one changes without the other: a dependency added, dropped or re-ranged in
pyproject.toml without `make lock`, a lock edited by hand, or a .venv not installed from it.
"""

import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import NormalizedName, canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements.lock"

# Locked beside the project's dependencies because the install itself uses them (Makefile):
# pip installs the lock, setuptools builds the project without build isolation.
INSTALL_TOOLS = ("pip", "setuptools")

PIN = re.compile(r"(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>\S+) \\$")
HASH = re.compile(r"--hash=sha256:[0-9a-f]{64}")


def read_lock(text: str) -> dict[NormalizedName, Version]:
    """The pins of a lock made by `make lock`; raises on an entry not pinned with hashes."""
    pins: dict[NormalizedName, Version] = {}
    hashes: dict[NormalizedName, int] = {}
    current: NormalizedName | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line.startswith(" "):
            if current is None or not HASH.search(line):
                raise ValueError(f"requirements.lock line {number}: expected a hash, got {line!r}")
            hashes[current] += 1
            continue
        match = PIN.fullmatch(line)
        if match is None:
            raise ValueError(
                f"requirements.lock line {number}: expected 'name==version \\' followed by "
                f"its hashes, got {line!r} (run make lock)"
            )
        current = canonicalize_name(match["name"])
        pins[current] = Version(match["version"])
        hashes[current] = 0
    unhashed = sorted(name for name, count in hashes.items() if count == 0)
    if unhashed:
        raise ValueError(f"requirements.lock: no hash for {', '.join(unhashed)} (run make lock)")
    return pins


def pyproject_requirements() -> list[Requirement]:
    """The runtime and dev requirements, the build requirements, and pip."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    texts = [
        *config["project"]["dependencies"],
        *config["project"]["optional-dependencies"]["dev"],
        *config["build-system"]["requires"],
        "pip",
    ]
    return [Requirement(text) for text in texts]


def installed_closure(requirements: list[Requirement]) -> set[NormalizedName]:
    """Every distribution the requirements need here, from the installed packages' metadata."""
    needed: set[NormalizedName] = set()
    queue = [(req.name, frozenset(req.extras)) for req in requirements]
    seen: set[tuple[NormalizedName, frozenset[str]]] = set()
    while queue:
        name, extras = queue.pop()
        key = (canonicalize_name(name), extras)
        if key in seen:
            continue
        seen.add(key)
        needed.add(key[0])
        try:
            requires = metadata.distribution(name).requires or []
        except metadata.PackageNotFoundError:
            continue  # not installed: the other tests name it
        for text in requires:
            req = Requirement(text)
            if req.marker is None or any(
                req.marker.evaluate({"extra": extra}) for extra in extras or {""}
            ):
                queue.append((req.name, frozenset(req.extras)))
    return needed


def test_every_pyproject_requirement_is_pinned_within_its_range() -> None:
    pins = read_lock(LOCK.read_text(encoding="utf-8"))
    problems = []
    for req in pyproject_requirements():
        name = canonicalize_name(req.name)
        if name not in pins:
            problems.append(f"{req}: not in requirements.lock")
        elif not req.specifier.contains(pins[name], prereleases=True):
            problems.append(f"{req}: requirements.lock pins {name}=={pins[name]}")
    assert not problems, "pyproject.toml and requirements.lock differ (run make lock):\n" + (
        "\n".join(problems)
    )


def test_lock_holds_exactly_what_pyproject_needs() -> None:
    pins = read_lock(LOCK.read_text(encoding="utf-8"))
    needed = installed_closure(pyproject_requirements())
    missing = ", ".join(sorted(needed - pins.keys()))
    extra = ", ".join(sorted(pins.keys() - needed))
    assert not missing, f"needed but not in requirements.lock (run make lock): {missing}"
    assert not extra, f"in requirements.lock but no longer needed (run make lock): {extra}"


def test_installed_versions_are_the_locked_ones() -> None:
    # strict: make install reinstalls whenever the lock changes, and CI installs from it
    pins = read_lock(LOCK.read_text(encoding="utf-8"))
    differ: list[str] = []
    for name, version in pins.items():
        if name in INSTALL_TOOLS:
            continue
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            installed = "not installed"
        if installed == "not installed" or Version(installed) != version:
            differ.append(f"{name}: locked {version}, installed {installed}")
    assert not differ, "the environment is not the lock's (run make install):\n" + (
        "\n".join(differ)
    )


def test_read_lock_refuses_a_pin_without_hashes() -> None:
    text = "polars==2.1.0 \\\n    --hash=sha256:" + "0" * 64 + "\nnumpy==2.4.6\n"
    with pytest.raises(ValueError, match="line 3") as raised:
        read_lock(text)
    assert str(raised.value) == (
        "requirements.lock line 3: expected 'name==version \\' followed by its hashes, "
        "got 'numpy==2.4.6' (run make lock)"
    )
