"""A turn board's refresh below Discord: what `discord/board.py` `Boards.show` reads of the
service and the text it makes of it (`board_text`), on a SQLite file, in a game of 6 and one of
60 combatants whose every combatant has posted (half PCs, half GM characters), each PC's orders
written over a few times more.

`--calls N` refreshes each board N times after one refresh not counted. For instruction counts,
run it under callgrind with one game (`--size`) at N = 11 and N = 1: the difference divided by
10 is a refresh (docs/benchmarks.md, the bot's section). `--before` reads what the board read
before its own use case (`games.show`, then `turns.status`: two transactions).

    .venv/bin/python benchmarks/bench_board.py [--calls 11] [--size 6|60] [--before] [--smoke]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_storage import turn_ready
from fappo_bot.discord.board import board_text
from fappo_bot.service.board_views import BoardView
from fappo_bot.service.facade import Services
from fappo_bot.storage.driver import compile_all
from fappo_bot.storage.engine import create_engine_for_url
from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory
from tests.conftest import create_sqlite_schema

#: the sizes of the games whose boards are refreshed (combatants)
SIZES = (6, 60)
#: how many times each PC writes its orders over again after its first post
REWRITES = 3


async def refresh(services: Services, game_id: str, before: bool) -> str:
    """The board's text, read as `Boards.show` reads it (`before`: as it read it before)."""
    if before:
        game = await services.games.show(game_id)
        status = await services.turns.status(game_id)
        return board_text(BoardView.of(game, status))
    board = await services.turns.board(game_id)
    assert board is not None
    return board_text(board)


async def run(calls: int, before: bool, sizes: Sequence[int] = SIZES) -> dict[int, float]:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'fappo.sqlite3'}"
        await create_sqlite_schema(url)
        engine = create_engine_for_url(url)
        compile_all(engine.dialect)  # as `open_storage` does at the bot's start
        try:
            services = Services(SqlUnitOfWorkFactory(engine))
            games = {size: await turn_ready(services, size, f"room-{size}") for size in sizes}
            for size, game_id in games.items():
                players = [m for m in (await services.games.show(game_id)).players]
                for n in range(REWRITES):
                    for i, player in enumerate(players):
                        verb = "defend" if (i + n) % 3 else "pass"
                        text = "pass" if verb == "pass" else "3 AP defend"
                        reply = await services.turns.post(
                            game_id, player, channel_key=f"room-{size}",
                            message_key=f"{game_id}-re{n}-{i}", text=text)
                        assert reply.ok, reply.reply
            took: dict[int, float] = {}
            for size, game_id in games.items():
                await refresh(services, game_id, before)  # the first, not counted
                started = time.thread_time()
                for _ in range(calls):
                    await refresh(services, game_id, before)
                took[size] = (time.thread_time() - started) * 1000 / max(1, calls)
            return took
        finally:
            await engine.dispose()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=11)
    parser.add_argument("--before", action="store_true",
                        help="read the board as before: games.show, then turns.status")
    parser.add_argument("--size", type=int, action="append", choices=SIZES,
                        help="only the game of this many combatants (again: and that one)")
    parser.add_argument("--smoke", action="store_true", help="one call: checks that it runs")
    args = parser.parse_args(argv)
    if args.smoke:
        args.calls = 1
    took = asyncio.run(run(args.calls, args.before, args.size or SIZES))
    for size, ms in took.items():
        print(f"{size} combatants: CPU a refresh {ms:.2f} ms ({args.calls} calls)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
