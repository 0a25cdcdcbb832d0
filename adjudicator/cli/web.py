"""``adjudicator serve``: the table's page and the HTTP API.

The web stack (FastAPI, uvicorn) is imported only when the command runs, so ``check``
and ``replay`` never pay for it.
"""

from __future__ import annotations

import os

import click
from rich.console import Console


def register(main: click.Group) -> None:
    """Add ``serve`` to the command group."""
    main.add_command(serve)


@click.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on; 0.0.0.0 opens it to the phones of the local network.",
)
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option(
    "--max-body",
    type=click.IntRange(min=1),
    default=16 * 1024 * 1024,
    show_default=True,
    metavar="BYTES",
    help="Largest request body; a bigger one is answered 413.",
)
def serve(host: str, port: int, max_body: int) -> None:
    """Serve the table's page and the HTTP API (JSON; endpoints listed at /docs).

    \b
    The page settles a dispute by taps, replays a record and shares it as a
    link.  Nothing is fetched from the internet.  It listens on 127.0.0.1
    (this machine only) unless --host says otherwise.
    """
    import uvicorn

    os.environ["ADJUDICATOR_MAX_BODY"] = str(max_body)
    from adjudicator.web import app

    where = f"http://{'127.0.0.1' if host == '0.0.0.0' else host}:{port}/"
    Console(stderr=True, highlight=False, emoji=False, soft_wrap=True).print(
        f"adjudicator: the table's page at {where}", markup=False
    )
    uvicorn.run(app, host=host, port=port, log_level="warning")
