"""A studio worker: ``python -m polyfit.studio.worker KIND FOLDER PARENT``.

Reads the request's JSON body on standard input, does the task (:mod:`polyfit.studio.tasks`)
and writes its messages as JSON lines on standard output: ``progress``, then ``done`` (binary
answers base64-encoded in ``bytes``), ``error`` (the input's fault) or ``failed`` (a bug). It
dies with the server that started it (``PARENT``), even when the server is killed.
"""

from __future__ import annotations

import base64
import json
import os
import sys


def main(argv) -> None:
    kind, folder, parent = argv
    from polyfit.longsearch.workers import die_with

    die_with(int(parent))
    channel = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    sys.stdout = sys.stderr  # whatever else prints must not mix with the messages

    def send(message) -> None:
        name, value = message
        line = {"message": name, "value": value}
        if isinstance(value, bytes):
            line = {"message": name, "value": None, "bytes": base64.b64encode(value).decode("ascii")}
        channel.write(json.dumps(line) + "\n")
        channel.flush()

    from polyfit.studio.tasks import work

    body = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    work(kind, body, folder, send)
    channel.close()


if __name__ == "__main__":
    main(sys.argv[1:])
