"""The studio's web app (Starlette): the page, and the JSON API it uses (docs/studio.md).

The server only checks requests and passes the work to worker processes
(:mod:`polyfit.studio.jobs`), so a long search never blocks it. Every answer the page gets is
JSON, ``{"error": "..."}`` with a 4xx status for bad input; no traceback ever reaches it.

Safety, for a server on the designer's own machine: a request whose ``Host`` is not the
server's own address (DNS rebinding) and a write from another origin are refused with 403;
files are read and written only inside the studio's folder; bodies are limited in size.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

import polyfit
from polyfit import PolyfitError
from polyfit.files import write_output_text
from polyfit.limits import limit
from polyfit.studio import tasks
from polyfit.studio.jobs import Full, Jobs

STATIC = Path(__file__).resolve().parent / "static"
CHECK_SECONDS = 30.0  # a check (or a lint) longer than this is stopped
SOLUTIONS_SECONDS = 60.0
EXPORT_SECONDS = 60.0
FILE_SUFFIXES = (".txt", ".vox", ".pieces")  # the files the studio saves
PUZZLE_SUFFIXES = (".xmpuzzle",)  # and the puzzle files (their pieces with them) it also opens
FILES_LISTED = 2000  # the file list names at most this many files,
FILES_LOOKED_AT = 20_000  # after looking at at most this many folder entries,
FILES_DEPTH = 4  # at most this many names deep (3 folders, then the file)
MEDIA = {"png": "image/png", "glb": "model/gltf-binary", "stl": "application/zip"}
DOWNLOADS = {"png": "solution.png", "glb": "solution.glb", "stl": "kit.zip"}  # file names offered
WRITES = ("POST", "PUT", "DELETE", "PATCH")


class BadRequest(Exception):
    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def allowed_hosts(port: int, extra=()) -> set[str]:
    return {f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", *extra}


class Guard:
    """ASGI middleware: the Host header and the Origin of writes must be the server's own."""

    def __init__(self, app, hosts: set[str]):
        self.app = app
        self.hosts = {h.lower() for h in hosts}
        self.origins = {f"http://{h}" for h in self.hosts}

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
            refused = None
            if headers.get("host", "").lower() not in self.hosts:
                refused = "this server answers only to its own address (the Host header is not its own)"
            elif scope["method"] in WRITES:
                origin = headers.get("origin")
                if origin is not None and origin.lower() not in self.origins:
                    refused = "a write from another origin is refused"
                elif headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
                    refused = "a write from another site is refused"
            if refused is not None:
                await error(refused, 403)(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def read_json(request: Request) -> dict:
    """The body as a JSON object, at most the ``request-bytes`` limit."""
    most = limit("request-bytes")
    too_big = BadRequest(
        f"the request is over the studio's limit of {most:,} bytes (a board that large is beyond "
        "the studio; raise it with POLYFIT_MAX_REQUEST_BYTES=N if you mean it)", 413)
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > most:
        raise too_big
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > most:
            raise too_big
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BadRequest("the request body must be a JSON object") from None
    if not isinstance(data, dict):
        raise BadRequest("the request body must be a JSON object")
    return data


def puzzle_body(data: dict) -> dict:
    """The fields every puzzle request has, checked; the rest of ``data`` is left as it is."""
    board = data.get("board")
    if not isinstance(board, str) or not board.strip():
        raise BadRequest("'board' must be the board's text (rows of '#', '.' and '+')")
    pieces = data.get("pieces")
    if pieces is not None and not isinstance(pieces, str):
        raise BadRequest("'pieces' must be a piece spec such as 'pentominoes', as --pieces takes it")
    for name in ("mirror", "disassemble"):
        if not isinstance(data.get(name, False), bool):
            raise BadRequest(f"'{name}' must be true or false")
    for name in ("custom", "folder", "file"):
        if data.get(name) is not None and not isinstance(data[name], str):
            raise BadRequest(f"'{name}' must be text")
    problem = data.get("problem")
    if problem is not None and (type(problem) is not int or not 1 <= problem <= 100_000):
        raise BadRequest("'problem' must be the number of one of the file's boards, from 1")
    if data.get("dim") not in (None, 2, 3):
        raise BadRequest("'dim' must be 2 or 3")
    for name, low, high in (("limit", 1, tasks.SOLUTION_LIMIT), ("forced_limit", 0, 100_000)):
        value = data.get(name)
        if value is not None and (type(value) is not int or not low <= value <= high):
            raise BadRequest(f"'{name}' must be a whole number from {low} to {high}")
    return data


def kit_sizes(data: dict) -> dict:
    """The STL kit's sizes in millimetres, those the body gives checked to be numbers (a
    missing or null size is the kit's own)."""
    for name in tasks.KIT_SIZES:
        value = data.get(name)
        if value is not None and (type(value) not in (int, float) or not 0 <= value <= 1000):
            raise BadRequest(f"'{name}' must be a number of millimetres from 0 to 1000")
    return data


def job_answer(job) -> Response:
    if job.state == "done":
        if isinstance(job.result, bytes):
            return Response(job.result, media_type=MEDIA[job.kind], headers={
                "Content-Disposition": f'attachment; filename="{DOWNLOADS[job.kind]}"'})
        return JSONResponse(job.result)
    return error(job.error or "stopped", 500 if job.failed else 400)


def list_files(folder: Path) -> dict:
    """The board and pieces files in ``folder`` and its folders, hidden ones (``.git``...)
    left out and never looked into; the walk stops after ``FILES_LOOKED_AT`` entries or
    ``FILES_LISTED`` files, and ``complete`` then says the list is not the whole folder."""
    found: list[str] = []
    looked = 0
    pending = [(folder, "", 1)]  # a folder, its relative name, the depth of its entries
    while pending:
        path, prefix, depth = pending.pop(0)
        folders = []
        try:
            with os.scandir(path) as entries:
                for entry in entries:
                    looked += 1
                    if looked > FILES_LOOKED_AT or len(found) >= FILES_LISTED:
                        return {"folder": str(folder), "files": sorted(found), "complete": False}
                    name = entry.name
                    if name.startswith("."):
                        continue
                    if entry.is_dir(follow_symlinks=False):
                        if depth < FILES_DEPTH:
                            folders.append(name)
                    elif os.path.splitext(name)[1].lower() in FILE_SUFFIXES + PUZZLE_SUFFIXES and entry.is_file():
                        found.append(prefix + name)
        except OSError:  # unreadable, or gone meanwhile: left out
            continue
        pending.extend((Path(path) / name, f"{prefix}{name}/", depth + 1) for name in sorted(folders))
    return {"folder": str(folder), "files": sorted(found), "complete": True}


def create_app(folder: str | Path = ".", port: int = 8765, hosts=()) -> Starlette:
    """The studio for the files in ``folder``, answering at 127.0.0.1:``port`` (and the
    ``hosts`` given, as ``name:port``)."""
    folder = Path(folder).resolve()
    if not folder.is_dir():
        raise PolyfitError(f"{folder} is not a folder")
    jobs = Jobs(str(folder))
    pieces_cache: dict = {}

    async def index(request):
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    async def pieces(request):
        if not pieces_cache:
            for name, summary in polyfit.piece_sets().items():
                members = polyfit.pieces(name)
                turned = {p.mirror for p in members}
                pieces_cache[name] = {
                    "summary": summary,
                    "dim": len(members[0].cells[0]),
                    "mirror": turned.pop() if len(turned) == 1 else None,  # may they be turned over?
                    "pieces": {p.name: [list(c) for c in p.cells] for p in members},
                }
        return JSONResponse({"sets": pieces_cache})

    async def check(request):
        job = await jobs.run("check", puzzle_body(await read_json(request)), CHECK_SECONDS, request.is_disconnected)
        return job_answer(job)

    async def estimate(request):
        job = await jobs.run("estimate", puzzle_body(await read_json(request)), CHECK_SECONDS, request.is_disconnected)
        return job_answer(job)

    async def count(request):
        return JSONResponse({"job": jobs.start("count", puzzle_body(await read_json(request)))})

    no_job = (f"no such job (a job nobody has asked about for {jobs.idle / 60:g} minutes is dropped, "
              "and its result with it)")

    async def job(request):
        job_id = request.path_params["id"]
        if jobs.get(job_id) is None:
            return error(no_job, 404)
        return JSONResponse(jobs.answer(job_id))

    async def cancel(request):
        found = jobs.cancel(request.path_params["id"])
        if found is None:
            return error(no_job, 404)
        return JSONResponse(found.to_json())

    async def solutions(request):
        job = await jobs.run("solutions", puzzle_body(await read_json(request)), SOLUTIONS_SECONDS, request.is_disconnected)
        return job_answer(job)

    async def disassembly(request):
        body = puzzle_body(await read_json(request))
        if not isinstance(body.get("solution"), dict):
            raise BadRequest("'solution' must be the solution to take apart, {piece: cells}, as /api/solutions gives it")
        return job_answer(await jobs.run("disassembly", body, SOLUTIONS_SECONDS, request.is_disconnected))

    async def meshes(request):
        body = puzzle_body(await read_json(request))
        if body.get("solution") is not None and not isinstance(body["solution"], dict):
            raise BadRequest("'solution' must be the solution to show, {piece: cells}, as /api/solutions gives it")
        return job_answer(await jobs.run("meshes", body, SOLUTIONS_SECONDS, request.is_disconnected))

    async def export(request):
        kind = request.path_params["kind"]
        if kind not in MEDIA:
            return error(f"no export {kind!r}; the studio exports: {', '.join(MEDIA)}", 404)
        body = puzzle_body(await read_json(request))
        if kind == "stl":
            kit_sizes(body)
        return job_answer(await jobs.run(kind, body, EXPORT_SECONDS))

    def files(request):  # not async: Starlette runs it in a thread, off the server's loop
        return JSONResponse(list_files(folder))

    async def open_file(request):
        name = request.path_params["path"]
        tasks.safe_path(folder, name)
        problem = request.query_params.get("problem")
        if problem is not None and not (problem.isdigit() and 1 <= int(problem) <= 100_000):
            raise BadRequest("'problem' must be the number of one of the file's boards, from 1")
        body = {"path": name, "problem": int(problem) if problem else None}
        return job_answer(await jobs.run("open", body, CHECK_SECONDS))

    async def save_file(request):
        name = request.path_params["path"]
        path = tasks.safe_path(folder, name)
        data = await read_json(request)
        text = data.get("text")
        if not isinstance(text, str):
            raise BadRequest("'text' must be the file's text")
        source = data.get("file")
        if source is not None:  # the board drawn, with the pieces of a puzzle file opened
            puzzle_body({**data, "board": text})
            if path.suffix.lower() not in PUZZLE_SUFFIXES:
                raise BadRequest(f"{name}: the pieces of {source} (with their weights and groups) are saved in a "
                                 f"{' or '.join(PUZZLE_SUFFIXES)} file; name it so")
            body = {**data, "board": text, "path": name, "overwrite": data.get("overwrite") is True}
            return job_answer(await jobs.run("save-puzzle", body, CHECK_SECONDS))
        if path.suffix.lower() not in FILE_SUFFIXES:
            raise BadRequest(f"{name}: save boards and pieces as {', '.join(FILE_SUFFIXES)} files"
                             + (" (a .xmpuzzle is saved with the pieces of a BurrTools file opened)"
                                if path.suffix.lower() in PUZZLE_SUFFIXES else ""))
        try:
            if not path.parent.is_dir():
                raise BadRequest(f"{name}: no folder {path.parent.relative_to(folder)} in the studio's folder")
            write_output_text(path, text if text.endswith("\n") else text + "\n", force=data.get("overwrite") is True)
        except OSError as exc:
            raise BadRequest(f"{name}: cannot save it: {exc.strerror or exc}") from None
        return JSONResponse({"path": name, "saved": True})

    async def bad_request(request, exc):
        return error(str(exc), getattr(exc, "status", 400))

    async def not_found(request, exc):
        return error("not found", getattr(exc, "status_code", 404))

    async def internal(request, exc):
        return error(f"internal error: {type(exc).__name__}", 500)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        watcher = asyncio.create_task(jobs.watch())  # reaps, starts the jobs in line, expires
        try:
            yield
        finally:
            watcher.cancel()
            jobs.close()

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/api/pieces", pieces),
            Route("/api/check", check, methods=["POST"]),
            Route("/api/estimate", estimate, methods=["POST"]),
            Route("/api/count", count, methods=["POST"]),
            Route("/api/jobs/{id}", job, methods=["GET"]),
            Route("/api/jobs/{id}", cancel, methods=["DELETE"]),
            Route("/api/solutions", solutions, methods=["POST"]),
            Route("/api/disassembly", disassembly, methods=["POST"]),
            Route("/api/meshes", meshes, methods=["POST"]),
            Route("/api/export/{kind}", export, methods=["POST"]),
            Route("/api/files", files),
            Route("/api/files/{path:path}", open_file, methods=["GET"]),
            Route("/api/files/{path:path}", save_file, methods=["PUT"]),
            Mount("/static", StaticFiles(directory=STATIC)),
        ],
        exception_handlers={BadRequest: bad_request, PolyfitError: bad_request, Full: bad_request, 404: not_found,
                            405: not_found, Exception: internal},
        lifespan=lifespan,
    )
    app.state.jobs = jobs
    app.add_middleware(Guard, hosts=allowed_hosts(port, hosts))
    return app
