"""Where one bot's REST calls and gateway connection go: `discord.api_base` and
`discord.gateway_url` (Discord's by default; a Discord-compatible server or the tests' fake
Discord set others), given to that bot alone.

discord.py takes no base URL per client: every `Route` builds its URL from the class attribute
`Route.BASE`, and a socket opens `DiscordWebSocket.DEFAULT_GATEWAY` unless Discord named another.
Setting those would aim every client of the process, and every later test, at one server. So
the URLs are rewritten where the bot's own calls leave: its `HTTPClient` (`request` and
`ws_connect`, wrapped on that instance), and the webhook adapter that answers its interactions
(discord.py's seam for it, the `async_context` variable, set in the bot's task: every task the
bot makes inherits it). With Discord's own URLs nothing is wrapped."""

from __future__ import annotations

from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import HTTPClient, Route
from discord.webhook.async_ import AsyncWebhookAdapter, async_context


@dataclass(frozen=True, slots=True)
class Endpoints:
    """The REST base (no trailing slash) and the gateway a bot uses."""

    api_base: str
    gateway: yarl.URL

    @classmethod
    def of(cls, api_base: str, gateway_url: str) -> Endpoints:
        return cls(api_base.rstrip("/"), yarl.URL(gateway_url))

    @property
    def discords(self) -> bool:
        """Whether these are Discord's own URLs (discord.py's defaults: nothing to rewrite)."""
        return self.api_base == Route.BASE and self.gateway == DiscordWebSocket.DEFAULT_GATEWAY

    def rest(self, route: Route) -> Route:
        """The route aimed at this REST base (its URL was built on `Route.BASE`)."""
        if route.url.startswith(Route.BASE):
            route.url = self.api_base + route.url[len(Route.BASE):]
        return route

    def socket(self, url: str) -> str:
        """The gateway URL aimed at this gateway when it is discord.py's default one (the
        query, version and encoding, kept); a gateway Discord named (resume, `/gateway/bot`)
        as it is."""
        asked = yarl.URL(url)
        if asked.with_query(None) != DiscordWebSocket.DEFAULT_GATEWAY:
            return url
        return str(self.gateway.with_query(asked.query))


class AimedWebhookAdapter(AsyncWebhookAdapter):
    """discord.py's webhook adapter (interaction answers and follow-ups) with its routes aimed
    at one bot's REST base."""

    def __init__(self, endpoints: Endpoints) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # discord.py leaves it untyped
        self.endpoints = endpoints

    async def request(self, route: Route, *args: Any, **kwargs: Any) -> Any:
        return await super().request(self.endpoints.rest(route), *args, **kwargs)


def aim_http(http: HTTPClient, endpoints: Endpoints) -> None:
    """Aim a client's REST calls and gateway socket at `endpoints` (nothing for Discord's)."""
    if endpoints.discords:
        return
    request, ws_connect = http.request, http.ws_connect

    # a plain function handing back discord.py's own coroutine, not a coroutine of its own
    # awaiting it: every REST call passes here, and one frame fewer is made and resumed
    def aimed_request(route: Route, *args: Any, **kwargs: Any) -> Coroutine[Any, Any, Any]:
        return request(endpoints.rest(route), *args, **kwargs)

    async def aimed_ws_connect(url: str, *args: Any, **kwargs: Any) -> Any:
        return await ws_connect(endpoints.socket(url), *args, **kwargs)

    http.request = aimed_request  # type: ignore[method-assign]
    http.ws_connect = aimed_ws_connect  # type: ignore[method-assign]


def aim_webhooks(endpoints: Endpoints) -> None:
    """Aim the interaction answers made in the current task, and in every task it makes from
    now on, at `endpoints` (nothing for Discord's)."""
    if not endpoints.discords:
        async_context.set(AimedWebhookAdapter(endpoints))
