"""Kill -9 at random points of a resolution and its delivery, 20 times, on each database.

Each round builds the same game afresh, starts the worker in a real subprocess that parks itself
at a step drawn from a seeded RNG (FAPPO_CRASH_SEED reproduces a run), and SIGKILLs it there.
Then: the turn is either untouched or resolved with its messages queued, never half; no stored
post is lost; after a restart every message of the game is delivered exactly once.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
from collections import Counter
from pathlib import Path

import pytest

from fappo_bot.service import Services
from fappo_bot.service.records import TurnStatus
from fappo_bot.storage.engine import create_engine_for_url
from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory
from tests.conftest import create_sqlite_schema, empty_postgres

from . import crash_worker
from .scenario import build_table, stored

pytestmark = [pytest.mark.slow, pytest.mark.e2e]

ROUNDS = 20
SEED = int(os.environ.get("FAPPO_CRASH_SEED", "20261129"))
WORKER = Path(crash_worker.__file__).resolve()


async def _fresh_game(database_kind: str, url: str) -> str:
    if database_kind == "postgres":
        await empty_postgres(url)
    else:
        path = url.split("///", 1)[1]
        for suffix in ("", "-wal", "-shm"):
            Path(path + suffix).unlink(missing_ok=True)
        await create_sqlite_schema(url)
    engine = create_engine_for_url(url)
    try:
        return await build_table(Services(SqlUnitOfWorkFactory(engine)))
    finally:
        await engine.dispose()


async def _stored(url: str, game_id: str) -> dict:
    engine = create_engine_for_url(url)
    try:
        return await stored(SqlUnitOfWorkFactory(engine), game_id)
    finally:
        await engine.dispose()


async def _crash(url: str, game_id: str, sink: Path, step: int) -> str:
    process = await asyncio.create_subprocess_exec(
        sys.executable, str(WORKER), url, game_id, str(sink),
        env={**os.environ, "FAPPO_CRASH_AT": str(step)},
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    said: list[str] = []
    try:
        while True:  # the worker may say RESOLVED before it reaches a delivery step
            line = (await asyncio.wait_for(process.stdout.readline(), 60)).decode()
            said.append(line)
            if line.startswith("PAUSED") or not line:
                break
        if not line.startswith("PAUSED"):
            process.kill()
            error = (await asyncio.wait_for(process.stderr.read(), 60)).decode()
            pytest.fail(f"the worker did not reach step {step}: {said!r}\n{error}")
        process.send_signal(signal.SIGKILL)
    finally:
        if process.returncode is None:
            process.kill()
        await process.wait()
    rest = (await process.stdout.read() + await process.stderr.read()).decode()
    # Killed where it was parked: it went no further (a worker that went on would say DONE, or
    # that nobody killed it, and exit 0 or 1). Python 3.11's threaded child watcher now and then
    # finds the killed child already reaped and reports 255 instead of -9 ("Unknown child
    # process"): the same death, told worse.
    assert process.returncode in (-signal.SIGKILL, 255), (process.returncode, rest)
    assert "DONE" not in rest and "did not kill" not in rest, rest
    return line.split(maxsplit=2)[2].strip()


def _unsealed(turn):
    sealed = ("npc_commitment", "npc_sealed_at", "npc_salt", "npc_canonical", "version")
    return turn.model_dump(exclude=set(sealed))


def _assert_whole(before: dict, after: dict) -> bool:
    """Either nothing of the resolution is stored, or all of it. Returns whether it resolved."""
    assert after["posts"] == before["posts"], "a stored post changed or was lost"
    resolution = after["resolutions"][0]
    if resolution is None:
        # resolve seals the NPC orders first, in a transaction of its own (F29): a crash after
        # it leaves a sealed, unresolved turn, a whole state of its own
        assert [_unsealed(t) for t in after["turns"]] == [_unsealed(t) for t in before["turns"]]
        assert after["characters"] == before["characters"]
        keys = [m.dedupe_key for m in before["outbox"]]
        extra = [m for m in after["outbox"] if m.dedupe_key not in keys]
        assert [m.dedupe_key for m in after["outbox"] if m.dedupe_key in keys] == keys
        assert {m.kind for m in extra} <= {"sealed"}, extra
        assert bool(extra) == (after["turns"][0].npc_commitment is not None)
        return False
    first, *rest = after["turns"]
    assert first.status is TurnStatus.RESOLVED and rest and rest[0].number == 2
    assert resolution.state_after.characters == tuple(c.state for c in after["characters"])
    kinds = [m.kind for m in after["outbox"]]
    assert "results" in kinds and "revealed" in kinds
    return True


async def test_kill_9_at_random_points_leaves_no_half_resolved_turn(
    database_kind, database_url, tmp_path
):
    rng = random.Random(SEED)
    game_id = await _fresh_game(database_kind, database_url)
    total = await crash_worker.run(database_url, game_id, tmp_path / "dry-run.txt")
    steps = sorted(rng.sample(range(1, total + 1), min(ROUNDS, total)))
    outcomes = []
    for round_, step in enumerate(steps):
        context = f"seed {SEED}, round {round_}, step {step} of {total}"
        game_id = await _fresh_game(database_kind, database_url)
        before = await _stored(database_url, game_id)
        sink = tmp_path / f"sink-{round_}.txt"
        where = await _crash(database_url, game_id, sink, step)
        crashed = await _stored(database_url, game_id)
        resolved = _assert_whole(before, crashed)
        outcomes.append((step, where, resolved))

        await crash_worker.run(database_url, game_id, sink)  # the restart
        after = await _stored(database_url, game_id)
        assert _assert_whole(before, after), context
        assert sum(r is not None for r in after["resolutions"]) == 1, context
        keys = [m.dedupe_key for m in after["outbox"]]
        assert all(m.sent_at is not None for m in after["outbox"]), context
        assert Counter(crash_worker.delivered(sink)) == Counter(keys), context
        assert len(set(keys)) == len(keys), context
    print(f"crash points (step, where, resolved): {outcomes}")
    # the drawn points reach both sides of the commit and the delivery
    assert {resolved for _, _, resolved in outcomes} == {False, True}, outcomes
    assert {"send", "mark_sent"} & {where for _, where, _ in outcomes}, outcomes
