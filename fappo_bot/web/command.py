"""`fappo-bot web`: the campaign page alone, on the bot's database (no Discord)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fappo_bot.settings import Settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, default=None,
                        help="settings file (TOML); default: config.toml")
    parser.add_argument("--port", type=int, default=None, help="port (default: web.port)")
    parser.add_argument("--host", default=None, help="address (default: web.host)")


def run(args: argparse.Namespace) -> int:
    """Serve until SIGTERM or SIGINT (0). No port (neither `--port` nor `web.port`) is a
    `CannotStart`: one sentence, exit status 2."""
    import asyncio
    import logging

    from fappo_bot.settings import CannotStart, load_settings

    settings = load_settings(args.config)
    web = settings.web.model_copy(update={
        k: v for k, v in (("port", args.port), ("host", args.host)) if v is not None})
    if web.port is None:
        raise CannotStart("The campaign page has no port: set web.port in the config file "
                          "(or FAPPO_WEB__PORT), or pass --port.")
    logging.basicConfig(level=settings.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    asyncio.run(_serve(settings.model_copy(update={"web": web})))
    return 0


async def _serve(settings: Settings) -> None:
    from fappo_bot.service.facade import Services
    from fappo_bot.storage.opening import open_storage
    from fappo_bot.web.server import listening, server

    async with open_storage(settings) as storage:
        assert storage.links is not None
        instance = server(Services(storage.uow_factory), storage.links, settings.web,
                          embedded=False)
        bound = listening(settings.web)
        print(f"The campaign page listens on {settings.web.host}:{settings.web.port}; "
              f"links start {settings.web.base_url()}/c/", flush=True)
        try:
            await instance.serve(sockets=[bound])
        finally:
            bound.close()
