"""Checking records on a Dask cluster: the same per-record function, more machines.

Nothing here judges a record: every verdict comes from :func:`bulk.check_source`,
the function a local run uses, so a cluster run answers exactly what a local
run answers.  Dask is optional (``pip install 'skitgubbe-adjudicator[dask]'``) and is
imported only when one of these functions runs.

Two ways in:

* :func:`check_on` / :func:`check_paths_on` stream :class:`~bulk.Source` records
  to a ``distributed.Client`` and yield :class:`~bulk.Checked` verdicts in input
  order; ``adjudicator check --dask ADDRESS`` uses them through :func:`check_at`.
* :func:`check_bag` maps a ``dask.bag`` of JSON Lines text (or of Sources, see
  :func:`sources_bag`) to a bag of ``check --json`` objects.

How the streaming keeps order and memory flat: the driver reads records
lazily (as a local run does), cuts them into batches of ``batch`` records,
and keeps at most ``window`` batches submitted at once.  It always waits for
the *oldest* batch, yields its verdicts, and only then submits the next, so
verdicts leave in input order without a reordering buffer, and the driver
holds at most ``window * batch`` records whatever the corpus size.  Waiting
for the oldest batch while younger ones are still running costs little: with
two batches per worker thread (one running, one waiting on the worker) the
workers stay busy while the driver waits.

Whole-file records are read here, in the driver, and shipped as text: the
driver is the one process sure to see the paths it was given, so workers need
no shared filesystem.  A file the driver cannot read is checked here too, so
its error line is word for word the local one.
"""

from __future__ import annotations

import itertools
import logging
import os
import signal
import threading
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, Any

from adjudicator import bulk
from adjudicator.bulk import Checked, Source
from adjudicator.exceptions import AdjudicatorError
from adjudicator.exits import EXIT_INVALID
from adjudicator.limits import MAX_RECORD_SIZE
from adjudicator.record import RecordError
from adjudicator.record.build import read_text

if TYPE_CHECKING:
    import dask.bag
    import distributed

LOCAL = "local"
"""The address that starts a cluster on this machine: ``local`` or ``local:N`` workers."""
LOCAL_WORKERS = 2
BATCH = 128
"""Records per task: about 0.1 s of checking, so the per-task overhead stays small."""
LOG_LENGTH = "distributed.admin.low-level-log-length"
KEEP_MESSAGES = 8
"""Every connection keeps its last messages under 1 MB for debugging, 1,000 by default:
with records in the messages, that is hundreds of MB of corpus held for nothing.  The
client (and a LocalCluster's scheduler and workers) made here keep 8."""
INSTALL_HINT = "install skitgubbe-adjudicator[dask]: pip install 'skitgubbe-adjudicator[dask]'"
BAG_FILE = "<bag>"
LOCAL_LOG_LEVEL = "DASK_LOGGING__DISTRIBUTED"
"""The environment variable that sets the log level of distributed, read by every process."""


class ClusterError(AdjudicatorError):
    """No cluster to check on (dask missing, a bad address, nobody answering), or a
    batch of records the cluster lost.

    The library never depends on click: the command line turns this into one line
    and exit status 2 wherever it is raised, even halfway through a run.
    """

    exit_code = EXIT_INVALID

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def format_message(self) -> str:
        """The one line to show."""
        return self.message


def _distributed() -> Any:
    """The ``distributed`` module, or ClusterError saying what to install."""
    try:
        import distributed
    except ImportError:
        raise ClusterError(f"--dask needs dask and distributed: {INSTALL_HINT}") from None
    return distributed


def _local_workers(address: str) -> int | None:
    """N for ``local`` (2) or ``local:N``; None for the address of a running scheduler."""
    if address == LOCAL:
        return LOCAL_WORKERS
    name, _, count = address.partition(":")
    if name != LOCAL:
        return None
    if not count.isdigit() or int(count) < 1:
        raise ClusterError(f"--dask {address}: say 'local' or 'local:N' with N workers, N >= 1")
    return int(count)


def connect(address: str) -> distributed.Client:
    """A client for ``address``: a scheduler (``tcp://host:8786``), or ``local[:N]``.

    ``local`` starts a ``LocalCluster`` of 2 worker processes with one thread
    each (``local:N`` for N), which the client closes when it is closed.
    Raises :class:`ClusterError` when dask is missing or nobody answers.  Closing
    the client shuts down a cluster it started.
    """
    workers = _local_workers(address)
    settings: dict[str, Any] = {LOG_LENGTH: KEEP_MESSAGES}
    if workers is not None:
        # Its processes log to this terminal: warnings as a run is stopped (batches
        # cancelled, a worker killed) are noise there, errors are not.
        os.environ.setdefault(LOCAL_LOG_LEVEL, "error")
        settings[START_METHOD] = "forkserver"
    distributed = _distributed()
    import dask

    try:
        with dask.config.set(settings):
            if workers is not None:
                _start_quiet_forkserver(distributed)
            with _ctrl_c_deferred() as interrupted:
                client = _client(distributed, address, workers)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(f"--dask {address}: no Dask scheduler there ({exc})") from None
    if interrupted:
        client.close()
        raise KeyboardInterrupt
    return client


def _client(distributed: Any, address: str, workers: int | None) -> distributed.Client:
    if workers is not None:
        # A client given cluster arguments starts the LocalCluster itself and
        # shuts it down when it is closed.
        return distributed.Client(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,  # no dashboard, and its HTTP server on any free port:
            scheduler_kwargs={"dashboard_address": ":0"},
        )
    return distributed.Client(address, timeout="10s")


START_METHOD = "distributed.worker.multiprocessing-method"


def _start_quiet_forkserver(distributed: Any) -> None:
    """Start the fork server that forks a local cluster's workers, ignoring Ctrl-C.

    Ctrl-C at a terminal reaches every process of the group, and a worker
    interrupted halfway prints tracebacks.  An ignored signal stays ignored
    through ``exec`` and Python keeps it so; the fork server hands that on to
    every worker it forks.  This process ignores Ctrl-C only for the moment the
    server is started; afterwards Ctrl-C is its own, and it closes the cluster.
    """
    import multiprocessing.forkserver

    distributed.utils.get_mp_context()  # sets the server's preloaded modules
    if threading.current_thread() is not threading.main_thread():
        multiprocessing.forkserver.ensure_running()
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        multiprocessing.forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, previous)


@contextmanager
def _ctrl_c_deferred() -> Iterator[list[int]]:
    """Note a Ctrl-C instead of raising it at once, so that a cluster being started is
    not left half made; the caller closes what it made, then raises it."""
    caught: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield caught
        return
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:  # a background job: ignored as ever
        yield caught
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield caught
    finally:
        signal.signal(signal.SIGINT, previous)


QUIET_LOGGERS = frozenset(("distributed", "tornado", "asyncio"))
"""The loggers (and those under them) a ``--dask`` run switches off: the run says why it
ended in one line of its own."""


@contextmanager
def distributed_quiet(dask: bool = True) -> Iterator[None]:
    """distributed's loggers in this process off (for a ``dask`` run), as they were after;
    so are those of tornado and asyncio, which it runs on (Ctrl-C halfway through a call
    made tornado log a traceback from distributed's own code).

    Each of its loggers has a level and a handler of its own, so each is switched
    off; distributed is imported first, so that they all exist.
    """
    changed: list[logging.Logger] = []
    if dask:
        with suppress(ImportError):
            import distributed  # noqa: F401  (its loggers are made as it is imported)
        for name, logger in list(logging.Logger.manager.loggerDict.items()):
            ours = name.split(".")[0] in QUIET_LOGGERS
            if ours and isinstance(logger, logging.Logger) and not logger.disabled:
                logger.disabled = True
                changed.append(logger)
    try:
        yield
    finally:
        for logger in changed:
            logger.disabled = False


def check_batch(
    batch: list[Source], keep_text: bool = False, go_on: str | None = None
) -> list[Checked]:
    """What a worker runs: :func:`bulk.check_source` on each record of a batch."""
    return [bulk.check_source(source, keep_text, go_on=go_on) for source in batch]


def shippable(source: Source, max_size: int = MAX_RECORD_SIZE) -> Source | Checked:
    """``source`` with its text read, ready for any worker; or its verdict, if unreadable.

    A whole-file record is read here exactly as a local run reads it
    (:func:`record.build.read_text`: bytes as they are, no newline translation, the same
    size limit), so a JSON error names the same line and column; when reading
    fails, the verdict is the one a local run gives.
    """
    if source.text is not None or source.error is not None:
        return source
    try:
        text = read_text(source.file, max_size)
    except RecordError as exc:
        return Checked(source.file, source.line, None, str(exc))
    return Source(source.file, source.line, text)


def check_on(
    client: distributed.Client,
    items: Iterable[Source],
    batch: int = BATCH,
    window: int | None = None,
    keep_text: bool = False,
    max_size: int = MAX_RECORD_SIZE,
    go_on: str | None = None,
) -> Iterator[Checked]:
    """Verdicts on ``items`` in input order, checked on ``client``'s workers.

    At most ``window`` batches of ``batch`` records are out at once (default:
    two per worker thread, one running and one waiting on the worker, which is
    what distributed's scheduler hands a worker at a time), so the corpus
    streams through the driver.  When the iterator is closed early, the
    batches still out are cancelled.
    """
    if window is None:
        window = max(2, 2 * sum(client.nthreads().values()))
    pending: deque[Any] = deque()  # futures of batches, or verdicts already known here
    lost = _lost_batch_errors()

    def drain(future: Any) -> Iterator[Checked]:
        if isinstance(future, Checked):
            yield future
            return
        try:
            verdicts = future.result()
        except lost as exc:
            first, last = future.records
            raise ClusterError(
                f"--dask: the cluster lost the batch of records {first} to {last}: "
                f"{type(exc).__name__}: {exc}".splitlines()[0]
            ) from None
        yield from verdicts

    try:
        shipped = (shippable(source, max_size) for source in items)
        for chunk in _chunks(shipped, batch):
            pending.extend(_submit(client, chunk, keep_text, go_on))
            while len(pending) > window:
                yield from drain(pending.popleft())
        while pending:
            yield from drain(pending.popleft())
    finally:
        for future in pending:
            if not isinstance(future, Checked):
                with suppress(Exception):
                    future.cancel()


def _chunks(items: Iterable[Source | Checked], size: int) -> Iterator[list[Source | Checked]]:
    iterator = iter(items)
    while chunk := list(itertools.islice(iterator, size)):
        yield chunk


def _submit(
    client: distributed.Client,
    chunk: list[Source | Checked],
    keep_text: bool = False,
    go_on: str | None = None,
) -> Iterator[Any]:
    """Futures for the runs of Sources in ``chunk``; verdicts found here pass through as-is."""
    run: list[Source] = []
    for item in [*chunk, None]:
        if isinstance(item, Source):
            run.append(item)
            continue
        if run:
            future: Any = client.submit(check_batch, run, keep_text, go_on, pure=False)
            future.records = (run[0].label, run[-1].label)  # to name them if the batch is lost
            yield future
            run = []
        if item is not None:
            yield item


def _lost_batch_errors() -> tuple[type[BaseException], ...]:
    """What a future raises when the cluster, not the check, failed: a worker killed
    again and again, a lost connection, a cancelled batch.  Anything else (an
    exception in the check itself) is raised as a local run would raise it."""
    import concurrent.futures

    import distributed

    return (distributed.KilledWorker, concurrent.futures.CancelledError, OSError, TimeoutError)


def check_paths_on(
    client: distributed.Client, paths: Iterable[str], **kw: Any
) -> Iterator[Checked]:
    """:func:`check_on` over the records named by ``paths`` (files, folders, ``*.jsonl``)."""
    return check_on(client, bulk.sources(paths), **kw)


def check_at(
    address: str,
    items: Iterable[Source],
    keep_text: bool = False,
    max_size: int = MAX_RECORD_SIZE,
    go_on: str | None = None,
) -> Iterator[Checked]:
    """Connect to ``address`` now, then check ``items`` there; the client closes at the end.

    The connection is made before this returns, so a wrong address or a missing
    dask is reported before any verdict is printed.
    """
    client = connect(address)

    def run() -> Iterator[Checked]:
        try:
            yield from check_on(client, items, keep_text=keep_text, max_size=max_size, go_on=go_on)
        finally:
            client.close()

    return run()


# --- dask.bag -----------------------------------------------------------------


def _as_source(item: Any, file: str) -> Source | None:
    """A bag element as a Source: a Source, JSON text, or ``(text, path)``; None if blank."""
    if isinstance(item, Source):
        return item
    if isinstance(item, tuple) and len(item) == 2:
        item, file = item
    if isinstance(item, bytes):
        try:
            item = item.decode("utf-8")
        except UnicodeDecodeError:
            return Source(file, error="not UTF-8 text")
    if not isinstance(item, str):
        return Source(file, error=f"a bag element must be JSON text, not {type(item).__name__}")
    return Source(file, text=item) if item.strip() else None


def _check_partition(items: Iterable[Any], file: str) -> list[dict[str, Any]]:
    out = []
    for item in items:
        source = _as_source(item, file)
        if source is not None:
            out.append(bulk.check_source(source).as_json())
    return out


def check_bag(bag: dask.bag.Bag, file: str = BAG_FILE) -> dask.bag.Bag:
    """A bag of ``check --json`` objects, one per record of ``bag``, in the bag's order.

    Elements may be JSON text (one record each, e.g. lines of ``dask.bag.read_text``;
    blank ones are skipped, as in a JSON Lines file), ``(text, path)`` pairs
    (``read_text(..., include_path=True)``), or :class:`~bulk.Source` records
    (:func:`sources_bag`).  Text has no line number, so its objects name
    ``file`` (or the path) without ``"line"``; Sources from :func:`sources_bag`
    give exactly the objects ``adjudicator check --json`` prints for the same paths.
    """
    return bag.map_partitions(_check_partition, file)


def _read_sources(paths: Iterable[str]) -> list[Source]:
    return list(bulk.sources(paths))


def sources_bag(paths: Iterable[str]) -> dask.bag.Bag:
    """A bag of the records named by ``paths``, one partition per path, read by the workers.

    Lines are numbered and undecodable lines named exactly as ``check`` does
    it, so ``check_bag(sources_bag(paths))`` equals ``check --json`` on ``paths``.
    The workers must see the paths (a shared filesystem).
    """
    import dask.bag

    listed = list(paths)
    return dask.bag.from_sequence(listed, npartitions=max(1, len(listed))).map_partitions(
        _read_sources
    )
