"""The table's page and the HTTP API: ``adjudicator.web:app`` is the ASGI application.

The app (and with it FastAPI) is imported on first use of ``app``, so that
``replay --html``, which uses :mod:`adjudicator.service.page` and the static
files, does not load the web stack; ``check`` and ``replay`` never import it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["app"]


def __getattr__(name: str) -> Any:
    if name == "app":
        from adjudicator.web.server import app

        return app
    raise AttributeError(f"module 'adjudicator.web' has no attribute {name!r}")
