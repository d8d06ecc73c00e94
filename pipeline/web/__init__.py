"""`elo serve`: the calculator and the rating of files in a browser, and a JSON API with
the command line's contracts. Routes, templates and static assets only: every answer comes
from the functions the CLI calls (`pipeline.calc`, `pipeline.run`, `pipeline.validate`,
`pipeline.convert`, `pipeline.report`). Nothing below `pipeline.cli` imports this package.

    create_app(ServeConfig(registry=None, lang="en", max_upload_mb=200)) -> Starlette
"""

from pipeline.web.app import create_app
from pipeline.web.common import ServeConfig

__all__ = ["ServeConfig", "create_app"]
