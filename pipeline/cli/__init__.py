"""The `elo` command line: the only code that prints or exits.

Each command parses its options, calls the library, prints, and exits with the contract's
code: 0 success, 1 input rejected, 2 usage error. Heavy modules are imported inside the
commands so that `elo calc` starts fast. The commands live in `calc_command`,
`profile_command`, `jobs`, `norms_command` and `serve_command`; importing them adds
them to `app`.
"""

from __future__ import annotations

from pipeline.cli import calc_command, jobs, norms_command, profile_command, serve_command
from pipeline.cli.common import EXIT_INPUT, EXIT_OK, EXIT_USAGE, app

__all__ = [
    "EXIT_INPUT",
    "EXIT_OK",
    "EXIT_USAGE",
    "app",
    "calc_command",
    "jobs",
    "main",
    "norms_command",
    "profile_command",
    "serve_command",
]


def main() -> None:
    app()
