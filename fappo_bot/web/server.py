"""Serving the campaign page: inside the bot's event loop (`campaign_page`, beside the Discord
client), or alone (`fappo-bot web`, `serve`). uvicorn's access log is off (a page's address
holds its reader's token) and it installs no signal handler inside the bot: the bot owns them."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import AsyncIterator, Generator
from dataclasses import dataclass

import uvicorn

from fappo_bot.service.facade import Services
from fappo_bot.service.web_links import LinkService, LinkStore
from fappo_bot.service.web_pages import PageService
from fappo_bot.settings import CannotStart, WebSettings
from fappo_bot.web.app import create_app

log = logging.getLogger(__name__)


class WebUnavailable(CannotStart):
    """The campaign page cannot listen where it is set to."""


@dataclass(frozen=True)
class CampaignSite:
    """What the adapters need of the campaign page: its links' use cases and where links point."""

    links: LinkService
    base_url: str

    def url(self, token: str) -> str:
        return f"{self.base_url}/c/{token}/"


def site(services: Services, store: LinkStore, settings: WebSettings) -> CampaignSite:
    return CampaignSite(LinkService(services.deps, store), settings.base_url())


class _Embedded(uvicorn.Server):
    """uvicorn in someone else's loop: the signals are the host's."""

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        yield


def server(services: Services, store: LinkStore, settings: WebSettings, *,
           embedded: bool = True) -> uvicorn.Server:
    """A uvicorn server of the campaign page over `services` (not started)."""
    app = create_app(LinkService(services.deps, store), PageService(services.deps))
    config = uvicorn.Config(app, host=settings.host, port=settings.port or 0, access_log=False,
                            log_config=None, lifespan="off", server_header=False,
                            date_header=False, log_level="warning")
    return _Embedded(config) if embedded else uvicorn.Server(config)


def listening(settings: WebSettings) -> socket.socket:
    """The socket the page listens on, bound here (uvicorn would end the whole process when
    it cannot bind); `WebUnavailable` when the address cannot be had."""
    where = f"{settings.host}:{settings.port}"
    try:
        return socket.create_server((settings.host, settings.port or 0), backlog=2048)
    except OSError as exc:
        raise WebUnavailable(f"The campaign page cannot listen on {where} "
                             f"({exc.strerror or exc}): set web.port to a free port, or leave "
                             "it unset.") from None


@contextlib.asynccontextmanager
async def campaign_page(services: Services, store: LinkStore | None, settings: WebSettings
                        ) -> AsyncIterator[CampaignSite | None]:
    """The campaign page served in this loop while the block runs (None when it is off)."""
    if settings.port is None or store is None:
        yield None
        return
    instance = server(services, store, settings)
    where = f"{settings.host}:{settings.port}"
    bound = listening(settings)
    task = asyncio.create_task(instance.serve(sockets=[bound]))
    log.info("the campaign page listens on %s (links start %s)", where, settings.base_url())
    try:
        yield site(services, store, settings)
    finally:
        instance.should_exit = True
        await task
        bound.close()
