"""The campaign page's application: its routes, each a reader's token resolved by the service
(`LinkService.reader`, compared in constant time), then one of the service's page views
rendered by a template. No cookie is set; every answer carries the security headers.

    /c/{token}/              the party (sheets, enemies as known) and the list of turns
    /c/{token}/turn/{n}      one turn: posts, revealed orders, results, the NPC commitment check
    /c/{token}/story         the whole campaign as one page
    /c/{token}/story.md      the same story as Markdown (a download)
    /c/{token}/story.json    the same story as JSON (a download)
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fappo_bot.service.errors import ServiceError
from fappo_bot.service.web_links import LinkService, Reader
from fappo_bot.service.web_pages import PageService
from fappo_bot.web.markdown import story_markdown

log = logging.getLogger(__name__)

HERE = Path(__file__).parent

#: the headers of every answer: no inline script may run (the page's one script is a static
#: file), nothing is sniffed, and no link (holding a token) is ever sent on as a referrer
HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy",
     b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
     b"connect-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),
)


class SecurityHeaders:
    """ASGI middleware: the `HEADERS` on every answer, and no `set-cookie` ever."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", [])
                        if k.lower() not in {h for h, _ in HEADERS} and k.lower() != b"set-cookie"]
                message = {**message, "headers": [*kept, *HEADERS]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def templates() -> Environment:
    environment = Environment(loader=FileSystemLoader(HERE / "templates"),
                              autoescape=select_autoescape(["html"]), trim_blocks=True,
                              lstrip_blocks=True, auto_reload=False)
    return environment


Handler = Callable[[Request, Reader], Awaitable[Response]]


def create_app(links: LinkService, pages: PageService) -> Starlette:
    """The application over the service's link and page use cases."""
    env = templates()

    def html(name: str, status: int = 200, **context: Any) -> HTMLResponse:
        return HTMLResponse(env.get_template(name).render(**context), status_code=status)

    def refused(message: str, status: int) -> HTMLResponse:
        return html("error.html", status, message=message)

    def reading(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            try:
                reader = await links.reader(request.path_params["token"])
                return await handler(request, reader)
            except ServiceError as exc:
                return refused(str(exc), 404)
            except Exception:
                log.exception("The campaign page failed on a %s request", request.method)
                return refused("Something went wrong on our side; try again in a moment.", 500)
        return endpoint

    async def party(request: Request, reader: Reader) -> Response:
        return html("campaign.html", page=await pages.campaign(reader))

    async def turn(request: Request, reader: Reader) -> Response:
        raw = request.path_params["number"]
        if not raw.isdigit() or len(raw) > 9:
            return refused(f'"{raw[:20]}" is not a turn number: a turn is a whole number, '
                           "like turn/3.", 404)
        shown = await pages.turn(reader, int(raw))
        return html("turn.html", page={"name": shown.game, "reader": shown.reader}, turn=shown)

    async def story(request: Request, reader: Reader) -> Response:
        return html("story.html", story=await pages.story(reader))

    async def story_md(request: Request, reader: Reader) -> Response:
        page = await pages.story(reader)
        return PlainTextResponse(story_markdown(page), media_type="text/markdown",
                                 headers=_download(page.campaign.name, "md"))

    async def story_json(request: Request, reader: Reader) -> Response:
        page = await pages.story(reader)
        return Response(page.model_dump_json(indent=2), media_type="application/json",
                        headers=_download(page.campaign.name, "json"))

    async def home(request: Request) -> Response:
        return refused("A campaign page opens from its link: ask your GM for it "
                       "(/game link), or for your own (/me link).", 404)

    async def not_found(request: Request, exc: Exception) -> Response:
        return refused("There is no such page.", 404)

    async def favicon(request: Request) -> Response:
        return Response(status_code=204)

    routes = [
        Route("/", home),
        Route("/favicon.ico", favicon),
        Route("/c/{token}/", reading(party)),
        Route("/c/{token}/turn/{number}", reading(turn)),
        Route("/c/{token}/story", reading(story)),
        Route("/c/{token}/story.md", reading(story_md)),
        Route("/c/{token}/story.json", reading(story_json)),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={404: not_found})
    app.add_middleware(SecurityHeaders)
    return app


def _download(name: str, suffix: str) -> dict[str, str]:
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in name).strip("-") or "campaign"
    return {"content-disposition": f'attachment; filename="{safe[:60]}.{suffix}"'}
