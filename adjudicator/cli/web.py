"""``adjudicator serve``: the table's page and the HTTP API.

The web stack (FastAPI, uvicorn) is imported only when the command runs, so ``check``
and ``replay`` never pay for it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from click.decorators import FC
from rich.console import Console

from adjudicator.cli.group import Helped
from adjudicator.cli.numbers import Whole, seconds
from adjudicator.exits import EXIT_INVALID


def register(main: click.Group) -> None:
    """Add ``serve`` and ``site`` to the command group."""
    main.add_command(serve)
    main.add_command(site)


def _option(
    flag: str, kind: Any, default: Any, help: str, metavar: str | None = None
) -> Callable[[FC], FC]:
    """A ``serve`` option that ``ADJUDICATOR_<NAME>`` sets too (for a process manager)."""
    name = flag.split("/")[0].removeprefix("--").replace("-", "_")
    return click.option(
        flag,
        type=kind,
        default=default,
        metavar=metavar,
        envvar=f"ADJUDICATOR_{name.upper()}",
        show_envvar=True,
        help=help,
    )


SECONDS = seconds(0.1)


@click.command(cls=Helped, context_settings={"show_default": True})
@_option(
    "--host",
    str,
    "127.0.0.1",
    help="Address to listen on; 0.0.0.0 opens it to the phones of the local network.",
)
@_option("--port", Whole(1, 65535), 8000, help="Port to listen on.")
@_option(
    "--max-body",
    Whole(1, 2**32),
    16 * 1024 * 1024,
    help="Largest request body; a bigger one is answered 413.",
    metavar="BYTES",
)
@_option(
    "--workers",
    Whole(1, 256),
    min(8, os.cpu_count() or 1),
    help="Processes that check records (one heavy record holds one of them); "
    "default: the cores, at most 8.",
)
@_option(
    "--queue",
    Whole(0, 100_000),
    64,
    help="Requests that may wait for a worker; past them 429 with Retry-After.",
)
@_option(
    "--time-limit",
    SECONDS,
    5.0,
    help="Longest one request may check; past it 503 and the worker is replaced.",
    metavar="SECONDS",
)
@_option(
    "--worker-memory",
    Whole(0, 2**20),
    2048,
    help="Address space of one worker (0: no limit); past it 503.",
    metavar="MB",
)
@_option(
    "--max-connections",
    Whole(1, 1_000_000),
    1000,
    help="Open connections (kept below the open-file limit too); past it the longest-idle "
    "one is closed.",
)
@_option(
    "--header-timeout",
    SECONDS,
    10.0,
    help="A new connection must send its request's headers within this.",
    metavar="SECONDS",
)
@_option(
    "--body-timeout",
    SECONDS,
    30.0,
    help="A request's body must arrive within this; else 408.",
    metavar="SECONDS",
)
@_option(
    "--keep-alive",
    seconds(1),
    5.0,
    help="An idle keep-alive connection is closed after this.",
    metavar="SECONDS",
)
@_option(
    "--access-log/--no-access-log",
    bool,
    True,
    help="One line per request on stderr: JSON when stderr is not a terminal.",
)
@click.option(
    "--print-systemd",
    is_flag=True,
    help="Print a systemd unit running this server with these options, and exit.",
)
def serve(print_systemd: bool, **given: Any) -> None:
    """Serve the table's page and the HTTP API (JSON; endpoints listed at /docs).

    \b
    The page settles a dispute by taps, replays a record and shares it as a
    link.  Nothing is fetched from the internet.  It listens on 127.0.0.1
    (this machine only) unless --host says otherwise.  Running it as a
    service (systemd, a reverse proxy with HTTPS): docs/deploy.md.
    """
    from adjudicator.web import running

    options = running.Options(**given)
    if print_systemd:
        click.echo(running.systemd_unit(options, running.executable()), nl=False)
        return
    console = Console(stderr=True, highlight=False, emoji=False, soft_wrap=True)
    try:
        sock = running.bind(options.host, options.port)
    except running.AddressInUse as exc:
        console.print(f"adjudicator: {exc}", markup=False)
        sys.exit(running.ADDRESS_IN_USE)
    console.print(f"adjudicator: the table's page at {running.announce(options)}", markup=False)
    try:
        running.run(options, sock)
    finally:
        sock.close()


@click.command(cls=Helped)
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
        sys.exit(EXIT_INVALID)
    except OSError as exc:
        click.echo(f"adjudicator site: {out}: {exc.strerror or exc}", err=True)
        sys.exit(EXIT_INVALID)
    err.print(
        f"adjudicator site: {len(built.files)} files, {built.size / 1e6:.1f} MB in {out}; "
        f"try: python -m http.server -d {out} -b 127.0.0.1",
        markup=False,
    )
