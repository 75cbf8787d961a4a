"""Each bot's REST base and gateway are its own (`fappo_bot/discord/endpoints.py`): a bot
aimed at the fake Discord answers a command (the webhook adapter), replies to a post (the HTTP
client) and opened its gateway there, while discord.py's process-wide defaults stay Discord's;
with Discord's own URLs nothing is wrapped."""

from __future__ import annotations

from typing import Any

import pytest
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from fappo_bot.discord.endpoints import Endpoints, aim_http
from tests.bot.table import set_up_game
from tests.bot.test_posts import replies_to

DISCORD_REST = "https://discord.com/api/v10"
DISCORD_GATEWAY = yarl.URL("wss://gateway.discord.gg/")


@pytest.mark.e2e
async def test_a_bot_on_the_fake_leaves_discord_pys_defaults_alone(fake, running) -> None:
    await set_up_game(fake)  # slash commands: answered through the webhook adapter
    post = await fake.post(fake.room["id"], fake.alice, "3 AP defend")
    await fake.wait_for(lambda: replies_to(fake, post))  # a REST call of the HTTP client
    assert (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY) == (DISCORD_REST, DISCORD_GATEWAY)
    assert running.bot.endpoints.api_base == fake.api_base.rstrip("/")


@pytest.mark.unit
def test_a_route_built_on_discords_base_is_aimed_at_the_configured_one() -> None:
    aimed = Endpoints.of("http://127.0.0.1:9/api/v10/", "ws://127.0.0.1:9/gateway")
    route = aimed.rest(Route("GET", "/channels/{channel_id}", channel_id=42))
    assert route.url == "http://127.0.0.1:9/api/v10/channels/42"
    assert route.key == "GET /channels/{channel_id}" and route.channel_id == 42
    assert aimed.rest(route).url == "http://127.0.0.1:9/api/v10/channels/42"  # once


@pytest.mark.unit
def test_the_default_gateway_is_aimed_and_a_gateway_discord_named_is_kept() -> None:
    aimed = Endpoints.of("http://127.0.0.1:9/api/v10", "ws://127.0.0.1:9/gateway")
    default = str(DISCORD_GATEWAY.with_query(v=10, encoding="json"))
    assert aimed.socket(default) == "ws://127.0.0.1:9/gateway?v=10&encoding=json"
    resume = "wss://gateway-us-east1-b.discord.gg/?v=10&encoding=json"
    assert aimed.socket(resume) == resume


class _Http:
    """What `aim_http` wraps of an `HTTPClient`: the calls it was given."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any, dict[str, Any]]] = []

    async def request(self, route: Route, **kwargs: Any) -> str:
        self.calls.append(("request", route.url, kwargs))
        return "answer"

    async def ws_connect(self, url: str, **kwargs: Any) -> str:
        self.calls.append(("ws_connect", url, kwargs))
        return "socket"


@pytest.mark.unit
async def test_a_client_is_wrapped_only_off_discord() -> None:
    own = _Http()
    originals = (own.request, own.ws_connect)
    aim_http(own, Endpoints.of(DISCORD_REST, str(DISCORD_GATEWAY)))  # type: ignore[arg-type]
    assert (own.request, own.ws_connect) == originals

    http = _Http()
    aim_http(http, Endpoints.of("http://h/api", "ws://h/g"))  # type: ignore[arg-type]
    assert await http.request(Route("GET", "/gateway/bot"), form=None) == "answer"
    assert await http.ws_connect(str(DISCORD_GATEWAY.with_query(v=10)), compress=0) == "socket"
    assert http.calls == [("request", "http://h/api/gateway/bot", {"form": None}),
                          ("ws_connect", "ws://h/g?v=10", {"compress": 0})]
