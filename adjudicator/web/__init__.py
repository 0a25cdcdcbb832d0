"""The table's page and the HTTP API: ``adjudicator.web:app`` is the ASGI application.

Imported only by ``adjudicator serve`` (and any ASGI server), never by ``check``
or ``replay``: the command line does not pay for the web stack.
"""

from adjudicator.web.app import app

__all__ = ["app"]
