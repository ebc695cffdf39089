"""Serving the studio: uvicorn, with what a server open to every program on the machine needs.

- **Connections** are capped below the open-files limit (:func:`most_connections`): when the
  studio is full, the connection that has waited longest for a request is closed to make room,
  so a pile of idle or dribbling connections cannot lock the page out.
- **Timeouts**: a request's headers must have arrived ``header_seconds`` after the connection
  was opened (or after the previous answer), and the whole request with its answer within
  ``request_seconds``; a connection past its time is closed.
- **The log** says each kind of message at most ``LOG_BURST`` times in ``LOG_SECONDS``
  seconds, then how many it left out: a flood of connections cannot fill the disk.
- **Ctrl-C** stops the jobs first, so that answers waiting for a worker end at once; then the
  server stops. The workers never see the Ctrl-C (:mod:`polyfit.studio.jobs`).
"""

from __future__ import annotations

import logging
import resource
import socket
import time
from pathlib import Path

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from polyfit.studio.app import create_app
from polyfit.studio.jobs import WORKERS

HEADER_SECONDS = 10.0
REQUEST_SECONDS = 120.0  # beyond the longest request the studio waits for (solutions: 60 s)
KEEP_ALIVE_SECONDS = 5.0
STOP_SECONDS = 3.0  # at Ctrl-C, the longest wait for answers under way
BACKLOG = 32  # connections waiting to be accepted; also the most accepted at one go
LOG_BURST = 5
LOG_SECONDS = 10.0


def most_connections(files: int | None = None) -> int:
    """The connections the studio keeps open at once: what the open-files limit leaves after
    the server's own files, a burst of accepted connections and the workers' pipes."""
    if files is None:
        files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        if files == resource.RLIM_INFINITY:
            files = 1 << 20
    spare = files - 32 - BACKLOG - 3 * WORKERS
    return max(4, min(512, spare))


class Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 connection, with a deadline and a place among the few allowed."""

    header_seconds = HEADER_SECONDS
    request_seconds = REQUEST_SECONDS
    most = 256

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._timer = None
        self._timed = None  # the request the timer is for
        self._idle_since = self.loop.time()
        self._arm(self.header_seconds, "sent no complete request")
        if len(self.connections) > self.most:
            self._make_room()

    def _waiting(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def _make_room(self) -> None:
        waiting = [c for c in self.connections if isinstance(c, Protocol) and c is not self and c._waiting()]
        if waiting:
            oldest = min(waiting, key=lambda c: c._idle_since)
            oldest._close(f"waited longest for a request when the studio had {self.most} connections open, its most")
            return
        # every other connection is in the middle of a request: this one is turned away
        body = b'{"error": "the studio is busy: too many connections at once; try again soon"}'
        self.transport.write(b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
                             b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(body), body))
        self.transport.close()

    def handle_events(self) -> None:
        super().handle_events()
        if self.cycle is not None and self.cycle is not self._timed and not self.cycle.response_complete:
            self._timed = self.cycle
            self._arm(self.request_seconds, "did not finish its request and take its answer")

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._idle_since = self.loop.time()
        self._arm(self.header_seconds, "sent no complete request")

    def connection_lost(self, exc) -> None:
        if self._timer is not None:
            self._timer.cancel()
        super().connection_lost(exc)

    def _arm(self, seconds: float, failing: str) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        if not self.transport.is_closing():
            self._timer = self.loop.call_later(seconds, self._close, f"{failing} in {seconds:g} s")

    def _close(self, why: str) -> None:
        if not self.transport.is_closing():
            self.logger.warning("polyfit studio: closed a connection: it %s", why)
            self.transport.abort()  # not close(): an answer nobody reads would keep it open


class LogLimit(logging.Filter):
    """Lets each kind of message (its logger and text before the arguments) through at most
    ``burst`` times in ``seconds`` seconds: the last of them says that more are left out, and
    the first one after says how many were."""

    def __init__(self, burst: int = LOG_BURST, seconds: float = LOG_SECONDS):
        super().__init__()
        self.burst, self.seconds = burst, seconds
        self.kinds: dict[tuple, list] = {}  # kind: [start of its window, said, left out]

    def filter(self, record: logging.LogRecord) -> bool:
        kind = (record.name, str(record.msg))
        now = time.monotonic()
        window = self.kinds.get(kind)
        if window is None or now - window[0] > self.seconds:
            left_out = window[2] if window else 0
            if len(self.kinds) > 1000:
                self.kinds.clear()
            window = self.kinds[kind] = [now, 0, 0]
            if left_out:
                record.msg = f"{record.getMessage()} (and {left_out} more like it in {self.seconds:g} s, left out)"
                record.args = ()
        window[1] += 1
        if window[1] > self.burst:
            window[2] += 1
            return False
        if window[1] == self.burst:
            record.msg = f"{record.getMessage()} (more like it in the next {self.seconds:g} s are left out)"
            record.args = ()
        return True


def limit_the_log(names=("asyncio", "uvicorn", "uvicorn.error", "uvicorn.access")) -> LogLimit:
    limit = LogLimit()
    for name in names:
        logger = logging.getLogger(name)
        for old in [f for f in logger.filters if isinstance(f, LogLimit)]:
            logger.removeFilter(old)
        logger.addFilter(limit)
    return limit


class Server(uvicorn.Server):
    """uvicorn's server that stops the studio's jobs as soon as it is asked to stop."""

    def __init__(self, config, jobs):
        super().__init__(config)
        self.jobs = jobs

    async def shutdown(self, sockets=None) -> None:
        self.jobs.close()
        await super().shutdown(sockets)


def serve(folder: str | Path, sock: socket.socket, *, header_seconds: float = HEADER_SECONDS,
          request_seconds: float = REQUEST_SECONDS, connections: int | None = None) -> None:
    """Serve the studio for ``folder`` on the listening socket ``sock`` until Ctrl-C."""
    app = create_app(folder, sock.getsockname()[1])
    protocol = type("StudioProtocol", (Protocol,), {
        "header_seconds": header_seconds, "request_seconds": request_seconds,
        "most": connections or most_connections()})
    config = uvicorn.Config(app, http=protocol, log_level="warning", lifespan="on", backlog=BACKLOG,
                            timeout_keep_alive=KEEP_ALIVE_SECONDS, timeout_graceful_shutdown=STOP_SECONDS)
    limit_the_log()  # after the config, which sets uvicorn's loggers up
    Server(config, app.state.jobs).run(sockets=[sock])
