"""Work in worker processes: the server only starts, watches and stops them.

Each request's work (a check, a count, solutions, an export) runs in a process of its own,
``python -m polyfit.studio.worker``: the body goes in on its standard input, and its messages
come back one JSON line each on its standard output (progress, then the answer or an error).
A worker dies with the server, even when the server is killed; a count's own workers die with
it. Cancelling a job kills its process, whatever it was doing.
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import os
import secrets
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

PACKAGE_HOME = Path(__file__).resolve().parents[2]  # the folder that holds the polyfit package


def start_worker(kind: str, body: dict, folder: str) -> subprocess.Popen:
    # Started beside the polyfit package this server runs, so that ``-m`` finds that one and
    # not a folder named polyfit where the studio was started; the worker then moves to the
    # studio's folder.
    process = subprocess.Popen(
        [sys.executable, "-m", "polyfit.studio.worker", kind, folder, str(os.getpid())],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=PACKAGE_HOME,
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
    process: subprocess.Popen
    state: str = "running"  # running, done, cancelled, error
    progress: float = 0.0
    nodes: int = 0
    nodes_per_second: int = 0
    result: object = None
    error: str | None = None
    failed: bool = False  # an internal error, not the input's
    started: float = field(default_factory=time.monotonic)
    _pending: bytes = b""

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
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self.process.stdout.close()

    def cancel(self) -> None:
        if self.state == "running":
            self.state = "cancelled"
            self._reap()

    def to_json(self) -> dict:
        data = {"state": self.state, "progress": round(self.progress, 4), "result": None, "error": self.error,
                "nodes": self.nodes, "nodes_per_second": self.nodes_per_second,
                "seconds": round(time.monotonic() - self.started, 3)}
        if self.state == "done" and isinstance(self.result, dict):
            data["result"] = self.result
        return data


class Jobs:
    """The studio's jobs by id: started, polled, cancelled; every one stopped by :meth:`close`."""

    KEEP = 64  # finished jobs kept for their results; older ones are forgotten

    def __init__(self, folder: str):
        self.folder = folder
        self.jobs: dict[str, Job] = {}
        self._order = itertools.count()

    def start(self, kind: str, body: dict) -> str:
        job_id = f"{next(self._order)}-{secrets.token_hex(4)}"
        self.jobs[job_id] = Job(kind, start_worker(kind, body, self.folder))
        self._forget_old()
        return job_id

    def get(self, job_id: str) -> Job | None:
        job = self.jobs.get(job_id)
        if job is not None:
            job.poll()
        return job

    async def run(self, kind: str, body: dict, seconds: float, gone=None) -> Job:
        """Start a job and wait for it (without blocking the server), at most ``seconds``;
        ``gone()``, when given, says whether the asker has left (the job is then stopped)."""
        job_id = self.start(kind, body)
        job = self.jobs[job_id]
        deadline = time.monotonic() + seconds
        delay = 0.005
        asked = time.monotonic()
        while True:
            job.poll()
            if job.state != "running":
                break
            if gone is not None and time.monotonic() - asked > 0.25:
                asked = time.monotonic()
                if await gone():
                    job.cancel()
                    break
            if time.monotonic() > deadline:
                job.cancel()
                job.state, job.error = "error", (
                    f"{kind} took longer than {seconds:g} s and was stopped; a long search is a job for Count"
                )
                break
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.05)
        self.jobs.pop(job_id, None)
        return job

    def cancel(self, job_id: str) -> Job | None:
        job = self.get(job_id)
        if job is not None:
            job.cancel()
        return job

    def _forget_old(self) -> None:
        finished = [k for k, j in self.jobs.items() if j.state != "running"]
        for k in finished[: max(0, len(finished) - self.KEEP)]:
            del self.jobs[k]

    def close(self) -> None:
        for job in self.jobs.values():
            job.cancel()
