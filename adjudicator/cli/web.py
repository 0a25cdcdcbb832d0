"""``adjudicator serve``: the table's page and the HTTP API.

The web stack (FastAPI, uvicorn) is imported only when the command runs, so ``check``
and ``replay`` never pay for it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click
from rich.console import Console


def register(main: click.Group) -> None:
    """Add ``serve`` and ``site`` to the command group."""
    main.add_command(serve)
    main.add_command(site)


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


@click.command()
@click.argument("out", type=click.Path(file_okay=False, path_type=Path))
def site(out: Path) -> None:
    """Write the table's page as a static site to the folder OUT: it judges in the phone.

    \b
    Any static host serves OUT (GitHub Pages, a web server, or
    'python -m http.server' from a USB stick); the engine runs in the
    browser (Pyodide), with no server behind it.  After one visit the page
    installs to a phone's home screen and works with the network off (a
    service worker: it needs HTTPS or localhost).  Pyodide comes from npm and
    the wheels from the package index, once: later runs use the cache
    (~/.cache/adjudicator/site).
    """
    from adjudicator.web import site as builder

    err = Console(stderr=True, highlight=False, emoji=False, soft_wrap=True)
    try:
        built = builder.build(
            out, say=lambda what: err.print(f"adjudicator site: {what}", markup=False)
        )
    except builder.SiteError as exc:
        click.echo(f"adjudicator site: {exc}", err=True)
        sys.exit(2)
    except OSError as exc:
        click.echo(f"adjudicator site: {out}: {exc.strerror or exc}", err=True)
        sys.exit(2)
    err.print(
        f"adjudicator site: {len(built.files)} files, {built.size / 1e6:.1f} MB in {out}; "
        f"try: python -m http.server -d {out} -b 127.0.0.1",
        markup=False,
    )
