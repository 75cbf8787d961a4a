"""Serving the campaign page: inside the running event loop (as the bot does), with no access
log and no token in any log line; a port already taken is one sentence; off without a port; and
`fappo-bot web` without a port says how to set one (exit status 2)."""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import subprocess
import sys

import pytest

from tests.web.conftest import Played

pytestmark = pytest.mark.integration


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def fetch(port: int, path: str) -> str:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    answer = (await reader.read()).decode()
    writer.close()
    return answer


async def test_the_page_is_served_in_the_loop_and_logs_no_token(played: Played, caplog):
    from fappo_bot.service.facade import Services
    from fappo_bot.settings import WebSettings
    from fappo_bot.storage.engine import create_engine_for_url
    from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory
    from fappo_bot.storage.web_links import SqlWebLinks
    from fappo_bot.web.server import campaign_page

    caplog.set_level(logging.DEBUG)
    engine = create_engine_for_url(played.url)
    port = free_port()
    token = played.tokens["warren", "bob"]
    try:
        settings = WebSettings(port=port, public_url="https://pages.example/")
        async with campaign_page(Services(SqlUnitOfWorkFactory(engine)), SqlWebLinks(engine),
                                 settings) as site:
            assert site is not None
            assert site.url("t.s") == "https://pages.example/c/t.s/"
            answer = await fetch(port, f"/c/{token}/turn/1")
            assert answer.startswith("HTTP/1.1 200")
            assert "referrer-policy: no-referrer" in answer.lower()
            assert "set-cookie" not in answer.lower()
            refused = await fetch(port, f"/c/{token}x/")
            assert refused.startswith("HTTP/1.1 404")
    finally:
        await engine.dispose()
    secret = token.split(".")[1]
    assert not [r for r in caplog.records if secret in r.getMessage()]


async def test_off_without_a_port_and_one_sentence_when_the_port_is_taken(played: Played):
    from fappo_bot.service.facade import Services
    from fappo_bot.settings import WebSettings
    from fappo_bot.storage.engine import create_engine_for_url
    from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory
    from fappo_bot.storage.web_links import SqlWebLinks
    from fappo_bot.web.server import WebUnavailable, campaign_page

    engine = create_engine_for_url(played.url)
    services, store = Services(SqlUnitOfWorkFactory(engine)), SqlWebLinks(engine)
    try:
        async with campaign_page(services, store, WebSettings()) as site:
            assert site is None
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen(1)
            port = taken.getsockname()[1]
            with pytest.raises(WebUnavailable, match=f"cannot listen on 127.0.0.1:{port}"):
                async with campaign_page(services, store, WebSettings(port=port)):
                    pass
    finally:
        await engine.dispose()


def test_fappo_bot_web_without_a_port_says_how_to_set_one(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("FAPPO_")}
    done = subprocess.run([sys.executable, "-m", "fappo_bot.cli", "web"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "set web.port" in done.stderr and "Traceback" not in done.stderr
