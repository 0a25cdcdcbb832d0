"""Running the server: the socket bound before anything is announced, connections that
time out and are capped below the descriptor limit, the access log.

``adjudicator serve`` calls :func:`run`; the web stack is imported here, never by
``check`` or ``replay``.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import resource
import shlex
import signal
import socket
import sys
from dataclasses import dataclass, field, fields

import h11
from uvicorn import Config, Server
from uvicorn.protocols.http.h11_impl import H11Protocol

from adjudicator.exceptions import AdjudicatorError
from adjudicator.exits import EXIT_INTERRUPTED, EXIT_INVALID, EXIT_TERMINATED
from adjudicator.web.worker import give_back_large_blocks

ADDRESS_IN_USE = EXIT_INVALID
"""Exit status of ``serve`` when the address is taken (docs/limits.md): a command-line
mistake, said before any address is announced."""

SPARE_DESCRIPTORS = 64
"""Descriptors kept free of connections: the workers' pipes, the log, the static files."""
BACKLOG = 64
"""Connections waiting to be accepted (uvicorn's default, 2,048, let one burst of
accepts take every descriptor the cap left free)."""


@dataclass(frozen=True)
class Options:
    """Every ``serve`` option, each also an ``ADJUDICATOR_*`` variable."""

    host: str = "127.0.0.1"
    port: int = 8000
    max_body: int = 16 * 1024 * 1024
    workers: int = field(default_factory=lambda: min(8, os.cpu_count() or 1))
    queue: int = 64
    time_limit: float = 5.0
    worker_memory: int = 2048
    max_connections: int = 1000
    header_timeout: float = 10.0
    body_timeout: float = 30.0
    keep_alive: float = 5.0
    access_log: bool = True

    def environment(self) -> dict[str, str]:
        """The ``ADJUDICATOR_*`` variables the app reads (and the systemd unit sets)."""
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool):
                value = "1" if value else "0"
            out[f"ADJUDICATOR_{f.name.upper()}"] = str(value)
        return out


class AddressInUse(AdjudicatorError):
    """The port is taken (or the address not this machine's): one line, exit 2."""


def bind(host: str, port: int) -> socket.socket:
    """The listening socket, bound before the address is announced."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP said, or asyncio leaves Nagle's algorithm on for the connections
    # (each answer on a kept-alive connection waited 40 ms for the client's delayed ack)
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise AddressInUse(
                f"--port {port}: {host}:{port} is already in use (another server?); "
                "pick another --port"
            ) from None
        raise AddressInUse(f"--host {host}: cannot listen there ({exc.strerror})") from None
    sock.set_inheritable(True)
    return sock


def descriptors() -> int:
    """The open-file limit, raised to the hard limit where the system allows."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return soft


WRITE_TIMEOUT = 10.0
"""Seconds an answer may sit unread in a connection's send buffer (above its high-water
mark, so at most about 64 KB) before the connection is cut and the answer dropped: a
client that posted a record and never read its 25 MB answer held it for ever."""


def protocol(header_timeout: float, max_connections: int) -> type[H11Protocol]:
    """uvicorn's HTTP/1.1 protocol with what it lacks:

    - every request's headers must arrive within ``header_timeout`` seconds, the first
      of a connection and each later one on it (uvicorn times out only idle keep-alive
      connections: 1,100 silent sockets held every descriptor, 999 trickling their
      second request's headers stayed 40 s);
    - past ``max_connections`` the quietest connection that holds nothing being checked
      (idle, or sending its body) is cut to let the newcomer in, never the newcomer
      (1,001 bodies held one byte short locked every new client out for 20-30 s);
    - an answer the client does not read for :data:`WRITE_TIMEOUT` seconds is dropped
      with its connection (uvicorn's flow control waits for ever)."""

    class Guarded(H11Protocol):
        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.heard = self.loop.time()  # when it last sent a byte or got an answer
            self.header_timer = self.loop.call_later(header_timeout, self.headers_late)
            self.write_timer: asyncio.TimerHandle | None = None
            if len(self.connections) > max_connections:
                self.make_room()

        def data_received(self, data: bytes) -> None:
            self.heard = self.loop.time()
            super().data_received(data)

        def waiting(self) -> bool:
            """No request being read or answered on this connection."""
            return self.conn.their_state is h11.IDLE and (
                self.cycle is None or self.cycle.response_complete
            )

        def sending_body(self) -> bool:
            """Its request's body is still arriving and no answer has begun."""
            return (
                self.conn.their_state is h11.SEND_BODY
                and self.cycle is not None
                and not self.cycle.response_started
            )

        def headers_late(self) -> None:
            if self.waiting() and not self.transport.is_closing():
                self.transport.close()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self.heard = self.loop.time()
            self.header_timer.cancel()  # the next request's headers: as long as the first's
            if not self.transport.is_closing():
                self.header_timer = self.loop.call_later(header_timeout, self.headers_late)

        def pause_writing(self) -> None:
            super().pause_writing()
            if self.write_timer is None:
                self.write_timer = self.loop.call_later(WRITE_TIMEOUT, self.unread)

        def resume_writing(self) -> None:
            super().resume_writing()
            if self.write_timer is not None:
                self.write_timer.cancel()
                self.write_timer = None

        def unread(self) -> None:
            """The client read nothing for :data:`WRITE_TIMEOUT` s: drop what is buffered
            (``close()`` would keep it until sent) and the connection."""
            self.write_timer = None
            self.transport.abort()

        def connection_lost(self, exc: Exception | None) -> None:
            self.header_timer.cancel()
            if self.write_timer is not None:
                self.write_timer.cancel()
                self.write_timer = None
            super().connection_lost(exc)

        def make_room(self) -> None:
            """Cut the quietest idle or body-sending connections, the newcomer spared;
            with none to cut, the newcomer is turned away (the server is busy checking)."""
            others = [
                c
                for c in self.connections
                if isinstance(c, Guarded) and c is not self and (c.waiting() or c.sending_body())
            ]
            others.sort(key=lambda c: c.heard)
            excess = len(self.connections) - max_connections
            for other in others[:excess]:
                other.transport.abort()  # a body's half is dropped, nothing is owed
                self.connections.discard(other)
            if len(self.connections) > max_connections:
                self.transport.abort()
                self.connections.discard(self)

    return Guarded


def access_log(on: bool) -> None:
    """One line per request on stderr: JSON when it is not a terminal, words when it is."""
    from adjudicator.web.server import ACCESS, AccessFormat

    ACCESS.handlers.clear()
    ACCESS.propagate = False
    if not on:
        ACCESS.setLevel(logging.WARNING)
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(AccessFormat(as_json=not sys.stderr.isatty()))
    ACCESS.addHandler(handler)
    ACCESS.setLevel(logging.INFO)


def config(options: Options) -> Config:
    """uvicorn's configuration for ``options``, connections capped below the descriptors."""
    from adjudicator.web import app

    # asyncio accepts up to a backlog of sockets at once, before any is counted
    room = max(16, descriptors() - SPARE_DESCRIPTORS - BACKLOG - 4 * options.workers)
    cap = min(options.max_connections, room)
    return Config(
        app,
        http=protocol(options.header_timeout, cap),
        log_level="warning",
        access_log=False,
        timeout_keep_alive=int(max(1, options.keep_alive)),
        # no uvicorn cap beside ours: its count of requests still held the tasks of
        # connections just cut to make room, and answered the newcomer 503
        limit_concurrency=None,
        backlog=BACKLOG,
        timeout_graceful_shutdown=max(1, int(options.time_limit) + 1),
    )


def _stopped(signum: int, frame: object) -> None:
    """uvicorn raises the signal again once it has stopped: one line, 130 or 143."""
    name = "Ctrl-C" if signum == signal.SIGINT else signal.Signals(signum).name
    os.write(2, f"adjudicator: the server stopped ({name})\n".encode())
    os._exit(EXIT_INTERRUPTED if signum == signal.SIGINT else EXIT_TERMINATED)


def run(options: Options, sock: socket.socket) -> None:
    """Serve on ``sock`` until SIGINT/SIGTERM, which end the process with 130/143 once
    the requests in flight are answered and the workers ended."""
    give_back_large_blocks()
    os.environ.update(options.environment())
    access_log(options.access_log)
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _stopped)
    # the socket itself, not its descriptor: uvicorn takes a descriptor for a Unix socket
    Server(config(options)).run(sockets=[sock])


def systemd_unit(options: Options, command: list[str]) -> str:
    """A systemd service running ``adjudicator serve`` with ``options``, sandboxed."""
    env = "\n".join(
        f"Environment={k}={shlex.quote(v)}" for k, v in sorted(options.environment().items())
    )
    memory = options.workers * options.worker_memory + 512
    return f"""[Unit]
Description=adjudicator: the table's page and the HTTP API
After=network-online.target
Wants=network-online.target

[Service]
Type=exec
ExecStart={shlex.join(command)} serve
{env}
Restart=on-failure
RestartSec=2
# stopped by SIGTERM once the requests in flight are answered: 143, as documented
SuccessExitStatus=143
# exit {ADDRESS_IN_USE}: the address is taken; restarting would not free it
RestartPreventExitStatus={ADDRESS_IN_USE}
DynamicUser=yes
NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=read-only
PrivateTmp=yes
PrivateDevices=yes
ProtectKernelTunables=yes
ProtectControlGroups=yes
RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX
LimitNOFILE=8192
MemoryMax={memory}M
TimeoutStopSec={max(5, int(options.time_limit) + 5)}

[Install]
WantedBy=multi-user.target
"""


def executable() -> list[str]:
    """How this ``adjudicator`` was started, as an absolute command for a unit file."""
    script = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if script.endswith("adjudicator") and os.access(script, os.X_OK):
        return [script]
    return [sys.executable, "-m", "adjudicator"]


def announce(options: Options) -> str:
    """The address a person opens, once the socket is bound."""
    host = "127.0.0.1" if options.host in ("0.0.0.0", "::") else options.host
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{options.port}/"
