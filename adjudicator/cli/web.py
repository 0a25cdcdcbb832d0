"""``adjudicator serve``: the table's page and the HTTP API.

The web stack (FastAPI, uvicorn) is imported only when the command runs, so ``check``
and ``replay`` never pay for it.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click
from rich.console import Console


def register(main: click.Group) -> None:
    """Add ``serve`` to the command group."""
    main.add_command(serve)


def _env(name: str) -> str:
    return f"ADJUDICATOR_{name.upper()}"


@click.command(context_settings={"show_default": True})
@click.option(
    "--host",
    default="127.0.0.1",
    envvar=_env("host"),
    show_envvar=True,
    help="Address to listen on; 0.0.0.0 opens it to the phones of the local network.",
)
@click.option(
    "--port", type=click.IntRange(1, 65535), default=8000, envvar=_env("port"), show_envvar=True
)
@click.option(
    "--max-body",
    type=click.IntRange(min=1),
    default=16 * 1024 * 1024,
    envvar=_env("max_body"),
    show_envvar=True,
    metavar="BYTES",
    help="Largest request body; a bigger one is answered 413.",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 256),
    default=lambda: min(8, os.cpu_count() or 1),
    show_default="the cores, at most 8",
    envvar=_env("workers"),
    show_envvar=True,
    help="Processes that check records (one heavy record holds one of them).",
)
@click.option(
    "--queue",
    type=click.IntRange(0, 100_000),
    default=64,
    envvar=_env("queue"),
    show_envvar=True,
    help="Requests that may wait for a worker; past them 429 with Retry-After.",
)
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0.1),
    default=5.0,
    envvar=_env("time_limit"),
    show_envvar=True,
    metavar="SECONDS",
    help="Longest one request may check; past it 503 and the worker is replaced.",
)
@click.option(
    "--worker-memory",
    type=click.IntRange(min=0),
    default=2048,
    envvar=_env("worker_memory"),
    show_envvar=True,
    metavar="MB",
    help="Address space of one worker (0: no limit); past it 503.",
)
@click.option(
    "--max-connections",
    type=click.IntRange(min=1),
    default=1000,
    envvar=_env("max_connections"),
    show_envvar=True,
    help="Open connections (also kept below the open-file limit); past it the "
    "longest-idle one is closed.",
)
@click.option(
    "--header-timeout",
    type=click.FloatRange(min=0.1),
    default=10.0,
    envvar=_env("header_timeout"),
    show_envvar=True,
    metavar="SECONDS",
    help="A new connection must send its request's headers within this.",
)
@click.option(
    "--body-timeout",
    type=click.FloatRange(min=0.1),
    default=30.0,
    envvar=_env("body_timeout"),
    show_envvar=True,
    metavar="SECONDS",
    help="A request's body must arrive within this; past it 408.",
)
@click.option(
    "--keep-alive",
    type=click.FloatRange(min=1),
    default=5.0,
    envvar=_env("keep_alive"),
    show_envvar=True,
    metavar="SECONDS",
    help="An idle keep-alive connection is closed after this.",
)
@click.option(
    "--access-log/--no-access-log",
    default=True,
    envvar=_env("access_log"),
    show_envvar=True,
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
