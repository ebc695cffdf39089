"""Work in worker processes: the server only starts, watches and stops them.

Each request's work (a check, a count, solutions, an export) runs in a process of its own,
``python -m polyfit.studio.worker``: the body goes in on its standard input, and its messages
come back one JSON line each on its standard output (progress, then the answer or an error).

The studio runs at most ``workers`` of them at once, and at most ``counts`` counts among them
(a count may use every core); a job beyond that waits in line, in the state ``queued``, and
says how many are ahead of it. :meth:`Jobs.watch` reaps every worker that has ended, starts
the jobs in line, and drops a job nobody has asked about for ``idle`` seconds (stopped if it
was still running). A worker runs in a session of its own, so the terminal's Ctrl-C reaches
the server alone, which stops its workers; a worker dies with the server even when the
server is killed, and a count's own workers die with it. Cancelling a job kills its
process, whatever it was doing.
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

PACKAGE_HOME = Path(__file__).resolve().parents[2]  # the folder that holds the polyfit package

WORKERS = 6  # worker processes at once
COUNTS = 2  # counts at once, among them
WAITING = 64  # jobs in line; one more is refused
IDLE_SECONDS = 300.0  # a job nobody asks about for this long is dropped
KEEP = 64  # finished jobs kept for their results; older ones are forgotten
WATCH_SECONDS = 0.25  # how often the watcher looks at the workers


class Full(Exception):
    """Too many jobs in line: the request is refused (503) rather than queued."""

    status = 503


def start_worker(kind: str, body: dict, folder: str) -> subprocess.Popen:
    # Started beside the polyfit package this server runs, so that ``-m`` finds that one and
    # not a folder named polyfit where the studio was started; the worker then moves to the
    # studio's folder. A session of its own: Ctrl-C in the terminal is the server's to handle.
    process = subprocess.Popen(
        [sys.executable, "-m", "polyfit.studio.worker", kind, folder, str(os.getpid())],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=PACKAGE_HOME, start_new_session=True,
    )
    data = json.dumps(body).encode("utf-8")

    def feed():  # in a thread: a large body fills the pipe before the worker reads it
        try:
            with process.stdin:
                process.stdin.write(data)
        except OSError:  # it died at once: poll() says so
            pass

    threading.Thread(target=feed, name="polyfit-studio-feed", daemon=True).start()
    os.set_blocking(process.stdout.fileno(), False)
    return process


@dataclass
class Job:
    kind: str
    body: dict | None  # until the worker starts
    process: subprocess.Popen | None = None
    state: str = "queued"  # queued, running, done, cancelled, error
    progress: float = 0.0
    nodes: int = 0
    nodes_per_second: int = 0
    result: object = None
    error: str | None = None
    failed: bool = False  # an internal error, not the input's
    started: float | None = None
    ended: float | None = None
    asked: float = field(default_factory=time.monotonic)  # when someone last asked about it
    _pending: bytes = b""

    def launch(self, folder: str) -> None:
        body, self.body = self.body, None
        self.started = time.monotonic()
        try:
            self.process = start_worker(self.kind, body, folder)
        except OSError as exc:  # out of processes or files: said, not raised
            self.state, self.failed, self.ended = "error", True, time.monotonic()
            self.error = f"could not start a worker: {exc.strerror or exc}"
            return
        self.state = "running"

    def poll(self) -> None:
        """Take in what the worker sent; notice a worker that ended without an answer."""
        if self.state != "running":
            return
        ended = self.process.poll() is not None
        try:
            while chunk := self.process.stdout.read(65536):
                self._pending += chunk
        except (BlockingIOError, TypeError):  # nothing more for now
            pass
        *lines, self._pending = self._pending.split(b"\n")
        for line in lines:
            self._hear(json.loads(line))
        if self.state == "running" and ended:
            code = self.process.returncode
            self.state, self.failed = "error", True
            self.error = f"the worker stopped unexpectedly (exit code {code}); the input may be too large"
        if self.state != "running":
            self._reap()

    def _hear(self, message: dict) -> None:
        kind = message["message"]
        if kind == "progress":
            value = message["value"]
            self.progress = max(self.progress, min(1.0, float(value.get("progress", 0.0))))
            self.nodes = value.get("nodes", self.nodes)
            self.nodes_per_second = value.get("nodes_per_second", self.nodes_per_second)
        elif kind == "done":
            self.state, self.progress = "done", 1.0
            self.result = message["value"]
            if "bytes" in message:
                self.result = base64.b64decode(message["bytes"])
        else:
            self.state, self.error, self.failed = "error", message["value"], kind == "failed"

    def _reap(self) -> None:
        """Kill the worker (with the processes of its session: a count's own workers) if it
        still runs, and collect it and its pipe."""
        self.ended = self.ended or time.monotonic()
        if self.process is None:
            return
        if self.process.poll() is None:  # not yet collected: its session id is still its own
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except OSError:
                self.process.kill()
        self.process.wait()
        self.process.stdout.close()

    def cancel(self) -> None:
        if self.state in ("queued", "running"):
            self.state = "cancelled"
            self._reap()

    def to_json(self, ahead: int | None = None) -> dict:
        if self.started is None:
            seconds = 0.0
        else:
            seconds = (self.ended or time.monotonic()) - self.started
        data = {"state": self.state, "progress": round(self.progress, 4), "result": None, "error": self.error,
                "nodes": self.nodes, "nodes_per_second": self.nodes_per_second, "seconds": round(seconds, 3)}
        if self.state == "done" and isinstance(self.result, dict):
            data["result"] = self.result
        if ahead is not None:
            data["ahead"] = ahead
        return data


class Jobs:
    """The studio's jobs by id: started (or put in line), polled, cancelled, reaped and
    expired by :meth:`watch`; every one stopped by :meth:`close`."""

    def __init__(self, folder: str, workers: int = WORKERS, counts: int = COUNTS, waiting: int = WAITING,
                 idle: float = IDLE_SECONDS):
        self.folder = folder
        self.workers, self.counts, self.waiting, self.idle = workers, counts, waiting, idle
        self.jobs: dict[str, Job] = {}
        self.line: deque[str] = deque()  # the ids of the jobs waiting for a worker, in order
        self._order = itertools.count()

    def start(self, kind: str, body: dict) -> str:
        """A new job's id: started at once when a worker is free, else put in line."""
        self.pump()
        if len(self.line) >= self.waiting:
            raise Full(f"the studio has {len(self.line)} jobs waiting for a worker already; "
                       "try again when some have finished, or cancel some")
        job_id = f"{next(self._order)}-{secrets.token_hex(4)}"
        self.jobs[job_id] = Job(kind, body)
        self.line.append(job_id)
        self.pump()
        self._forget_old()
        return job_id

    def get(self, job_id: str) -> Job | None:
        job = self.jobs.get(job_id)
        if job is not None:
            job.asked = time.monotonic()
            self.pump()
        return job

    def answer(self, job_id: str) -> dict:
        """What ``GET /api/jobs/ID`` answers for a job known to be here: a job in line says
        so, and how many jobs are ahead of it."""
        job = self.jobs[job_id]
        if job.state != "queued":
            return job.to_json()
        ahead = list(self.line).index(job_id)
        data = job.to_json(ahead=ahead)
        data["message"] = (
            f"waiting for a free worker (the studio runs at most {self.counts} counts and "
            f"{self.workers} workers at once)" + (f": {ahead} ahead of this one" if ahead else "")
        )
        return data

    def running(self) -> list[Job]:
        return [job for job in self.jobs.values() if job.state == "running"]

    def pump(self) -> None:
        """Take in every worker's news (collecting those that ended), then start the jobs in
        line that a free worker can take, oldest first."""
        for job in self.running():
            job.poll()
        running = self.running()
        busy = len(running)
        counting = sum(1 for job in running if job.kind == "count")
        for job_id in list(self.line):
            job = self.jobs.get(job_id)
            if job is None or job.state != "queued":
                self.line.remove(job_id)
                continue
            if busy >= self.workers:
                break
            if job.kind == "count" and counting >= self.counts:
                continue  # a short job behind it may still go
            self.line.remove(job_id)
            job.launch(self.folder)
            busy += 1
            counting += job.kind == "count"

    def expire(self) -> None:
        """Drop the jobs nobody has asked about for ``idle`` seconds, stopping those that run
        or wait."""
        now = time.monotonic()
        for job_id, job in list(self.jobs.items()):
            if now - job.asked > self.idle:
                job.cancel()
                del self.jobs[job_id]

    async def watch(self) -> None:
        """Runs beside the server for as long as it serves."""
        while True:
            self.pump()
            self.expire()
            await asyncio.sleep(WATCH_SECONDS)

    async def run(self, kind: str, body: dict, seconds: float, gone=None) -> Job:
        """Start a job and wait for it (without blocking the server), at most ``seconds``;
        ``gone()``, when given, says whether the asker has left (the job is then stopped)."""
        job_id = self.start(kind, body)
        job = self.jobs[job_id]
        deadline = time.monotonic() + seconds
        delay = 0.005
        asked = time.monotonic()
        while True:
            job.asked = time.monotonic()
            self.pump()
            if job.state not in ("queued", "running"):
                break
            if gone is not None and time.monotonic() - asked > 0.25:
                asked = time.monotonic()
                if await gone():
                    job.cancel()
                    break
            if time.monotonic() > deadline:
                waited = job.state == "queued"
                job.cancel()
                job.state, job.error = "error", (
                    f"{kind} waited {seconds:g} s for a free worker: the studio is busy; try again soon" if waited else
                    f"{kind} took longer than {seconds:g} s and was stopped; a long search is a job for Count"
                )
                break
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.05)
        self.jobs.pop(job_id, None)
        self.pump()  # its worker is free for the next in line
        return job

    def cancel(self, job_id: str) -> Job | None:
        job = self.get(job_id)
        if job is not None:
            job.cancel()
            self.pump()
        return job

    def _forget_old(self) -> None:
        finished = [k for k, j in self.jobs.items() if j.state not in ("queued", "running")]
        for k in finished[: max(0, len(finished) - KEEP)]:
            del self.jobs[k]

    def close(self) -> None:
        for job in self.jobs.values():
            job.cancel()
        self.line.clear()
