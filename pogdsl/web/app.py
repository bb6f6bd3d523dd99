"""The JSON API and the page, on Starlette (docs/web.rst lists the routes).

Every route answers JSON; an error is `{"error": "...", "rules": [...]}`
with a status that says what went wrong: 400 a malformed request, 403 no
token or a wrong one, 404 no such route, 409 a stale or out-of-turn
request, 413 a body too large, 415 a POST that is not JSON, 422 an option
the rules refuse.  Nothing a request sends names a file: a new game names a
scenario from the listed set, and a save is downloaded, never written here.

With a token (`pogdsl serve --host`), every request must carry it: in the
URL (`?token=...`, as printed at start), in the header `X-Pogdsl-Token`,
or in the cookie the page's first request sets.
"""

from __future__ import annotations

import hmac
import json
from importlib import resources

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .table import TableError

BODY_LIMIT = 64 * 1024  # no request of the page comes near it
TOKEN_COOKIE = "pogdsl_token"
LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "::1", "[::1]"]


def _error(status: int, message: str, rules=None) -> JSONResponse:
    body = {"error": message}
    if rules:
        body["rules"] = list(rules)
    return JSONResponse(body, status_code=status)


class LoopbackHostMiddleware:
    """Refuses a request whose Host header is not a loopback name: a page of
    another site that makes a name of its own resolve to 127.0.0.1 (DNS
    rebinding) still cannot read or play the game."""

    def __init__(self, app, hosts=LOOPBACK_HOSTS):
        self.app, self.hosts = app, set(hosts)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        host = Request(scope).headers.get("host", "")
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        if name.lower() not in self.hosts:
            response = _error(400, "this server answers only to 127.0.0.1 or localhost (start it with --host to "
                                   "serve other machines)")
            return await response(scope, receive, send)
        return await self.app(scope, receive, send)


class TokenMiddleware:
    """Refuses any request without the table's token (pure ASGI, so the
    static files are guarded as the API is)."""

    def __init__(self, app, token: str):
        self.app, self.token = app, token

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        request = Request(scope)
        given = (request.query_params.get("token") or request.headers.get("x-pogdsl-token")
                 or request.cookies.get(TOKEN_COOKIE) or "")
        if not hmac.compare_digest(given.encode(), self.token.encode()):
            response = _error(403, "this server needs its token: open the address `pogdsl serve` printed "
                                   "(it ends in ?token=...)")
            return await response(scope, receive, send)

        async def send_with_cookie(message):
            if message["type"] == "http.response.start" and request.query_params.get("token"):
                cookie = f"{TOKEN_COOKIE}={self.token}; Path=/; HttpOnly; SameSite=Strict"
                message.setdefault("headers", []).append((b"set-cookie", cookie.encode()))
            await send(message)

        return await self.app(scope, receive, send_with_cookie)


async def _body(request: Request) -> dict:
    """A POST's JSON object; TableError for anything else."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise TableError(415, "send the request's body as JSON (Content-Type: application/json)")
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > BODY_LIMIT:
            raise TableError(413, f"the request's body is larger than {BODY_LIMIT // 1024} KiB")
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise TableError(400, "the request's body is not valid JSON") from None
    if not isinstance(data, dict):
        raise TableError(400, "the request's body must be a JSON object")
    return data


def _only(data: dict, allowed: tuple[str, ...]) -> None:
    extra = sorted(set(data) - set(allowed))
    if extra:
        raise TableError(400, f"unknown field{'s' * (len(extra) > 1)} {', '.join(repr(e[:40]) for e in extra[:5])}: "
                              f"this request takes {', '.join(allowed) or 'none'}")


def _guarded(handler):
    async def run(request: Request):
        try:
            return await handler(request)
        except TableError as err:
            return JSONResponse(err.to_json(), status_code=err.status)
    return run


def static_text(name: str) -> str:
    return resources.files("pogdsl.web").joinpath("static", name).read_text(encoding="utf-8")


def make_app(table, *, token: str | None = None, loopback: bool = True) -> Starlette:
    """The web app over TABLE (a Table: a game played; a Replay: a record
    stepped through, `pogdsl view`).  `token`: required of every request
    when given.  `loopback`: served on 127.0.0.1 only, so the Host header
    must name it (a page of another site cannot reach the game through a
    name that resolves here)."""
    from starlette.concurrency import run_in_threadpool

    from .replay import Replay

    mode = "view" if isinstance(table, Replay) else "play"
    page = static_text("index.html").replace("{{MODE}}", mode)

    async def index(request: Request):
        return HTMLResponse(page, headers={"Cache-Control": "no-store"})

    async def game(request: Request):
        q = request.query_params
        unknown = sorted(set(q) - {"seat", "log_from", "board", "token"})
        if unknown:
            raise TableError(400, f"unknown parameter {unknown[0][:40]!r}: /api/game takes seat, log_from, board")
        data = await run_in_threadpool(table.view, q.get("seat"), q.get("log_from"), q.get("board"))
        return JSONResponse(data)

    async def decide(request: Request):
        data = await _body(request)
        _only(data, ("decision", "option", "seat", "log_from", "board"))
        if "decision" not in data or "option" not in data:
            raise TableError(400, "send {\"decision\": ID, \"option\": INDEX} (the decision's id and the option's "
                                  "index, or its text)")
        result = await run_in_threadpool(table.decide, data["decision"], data["option"], data.get("seat"),
                                         data.get("log_from"), data.get("board"))
        return JSONResponse(result)

    async def undo(request: Request):
        data = await _body(request)
        _only(data, ("seat", "log_from", "board"))
        return JSONResponse(await run_in_threadpool(table.undo, data.get("seat"), data.get("log_from"),
                                                    data.get("board")))

    async def new(request: Request):
        data = await _body(request)
        _only(data, ("scenario", "seed"))
        return JSONResponse(await run_in_threadpool(table.new_game, data.get("scenario"), data.get("seed")))

    async def save(request: Request):
        name, text = await run_in_threadpool(table.save)
        return Response(text, media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"',
                                 "Cache-Control": "no-store"})

    async def why(request: Request):
        q = request.query_params
        unknown = sorted(set(q) - {"seat", "option", "token"})
        if unknown or "option" not in q:
            raise TableError(400, "/api/why takes option (an index or a text) and seat")
        option = q["option"]
        option = int(option) if option.isdigit() and len(option) < 6 else option
        return JSONResponse(await run_in_threadpool(table.why, option, q.get("seat")))

    async def scenarios(request: Request):
        return JSONResponse({"scenarios": table.scenario_list()})

    async def view(request: Request):
        q = request.query_params
        unknown = sorted(set(q) - {"step", "seat", "log_from", "board", "token"})
        if unknown:
            raise TableError(400, f"unknown parameter {unknown[0][:40]!r}: /api/view takes step, seat, log_from, "
                                  "board")
        data = await run_in_threadpool(table.view, q.get("step"), q.get("seat"), q.get("log_from"), q.get("board"))
        return JSONResponse(data)

    async def not_found(request: Request, exc):
        return _error(404, f"no such page or route: {request.url.path[:80]}")

    async def not_allowed(request: Request, exc):
        return _error(getattr(exc, "status_code", 405), getattr(exc, "detail", None) or "method not allowed")

    async def failed(request: Request, exc):  # a bug: said in one line, never a traceback
        return _error(500, f"the server failed on this request ({type(exc).__name__}); the game is as it was")

    routes = [Route("/", index)]
    if mode == "play":
        routes += [
            Route("/api/game", _guarded(game)),
            Route("/api/decide", _guarded(decide), methods=["POST"]),
            Route("/api/undo", _guarded(undo), methods=["POST"]),
            Route("/api/new", _guarded(new), methods=["POST"]),
            Route("/api/save", _guarded(save)),
            Route("/api/why", _guarded(why)),
            Route("/api/scenarios", _guarded(scenarios)),
        ]
    else:
        routes.append(Route("/api/view", _guarded(view)))
    routes.append(Mount("/static", StaticFiles(packages=[("pogdsl.web", "static")]), name="static"))
    middleware = []
    if loopback:
        middleware.append(Middleware(LoopbackHostMiddleware, hosts=LOOPBACK_HOSTS + ["testserver"]))
    if token:
        middleware.append(Middleware(TokenMiddleware, token=token))
    return Starlette(routes=routes, middleware=middleware,
                     exception_handlers={404: not_found, 405: not_allowed, 500: failed, Exception: failed})
