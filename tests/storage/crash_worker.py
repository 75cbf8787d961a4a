"""The process the crash test kills: resolve turn 1 of a game, then deliver the outbox like an
adapter does, into a sink file. Run by tests/storage/test_crash.py, and in-process as the restart.

    python tests/storage/crash_worker.py URL GAME_ID [SINK]    (env FAPPO_CRASH_AT=N, FAPPO_HOLD_AT=N)

With FAPPO_CRASH_AT=N the worker stops at its N-th step (before an SQL statement, before a
commit, before sending a message, before marking one sent), prints `PAUSED N <where>` and waits
on stdin for the `kill -9` that the test sends: no sleeping, no guessing when to kill.

The delivery side is the adapter's protocol for exactly-once results over an at-least-once
outbox: a message whose dedupe_key the destination already shows (here: a line of the sink) is
not sent again, only marked sent.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from fappo_bot.service import Conflict, Services
from fappo_bot.storage.engine import create_engine_for_url
from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory

GM = "gm-1"


class Steps:
    """Counts the worker's steps and parks the process at the chosen one: to be killed there
    (`crash_at`), or to go on when the test writes a line (`hold_at`, to start racers together)."""

    def __init__(self, crash_at: int | None, hold_at: int | None = None) -> None:
        self.count = 0
        self.crash_at = crash_at
        self.hold_at = hold_at

    def tick(self, where: str) -> None:
        self.count += 1
        if self.count in (self.crash_at, self.hold_at):
            sys.stdout.write(f"PAUSED {self.count} {where}\n")
            sys.stdout.flush()
            sys.stdin.readline()  # the crash test kills us here; a hold goes on
            if self.count == self.crash_at:
                raise SystemExit("the crash test did not kill the worker")


def delivered(sink: Path) -> list[str]:
    """The dedupe keys the destination shows, in delivery order."""
    if not sink.exists():
        return []
    return [line for line in sink.read_text(encoding="utf-8").splitlines() if line]


def send(sink: Path, key: str) -> None:
    with sink.open("a", encoding="utf-8") as out:
        out.write(key + "\n")
        out.flush()
        os.fsync(out.fileno())


async def deliver(services: Services, sink: Path, steps: Steps) -> None:
    seen = set(delivered(sink))
    while batch := await services.outbox.pending(50):
        for message in batch:
            if message.dedupe_key not in seen:
                steps.tick("send")
                send(sink, message.dedupe_key)
                seen.add(message.dedupe_key)
            steps.tick("mark_sent")
            await services.outbox.mark_sent(message.id)


async def run(
    url: str,
    game_id: str,
    sink: Path | None,
    crash_at: int | None = None,
    hold_at: int | None = None,
) -> int:
    """Resolve (unless already resolved) and deliver (unless `sink` is None); returns the number
    of steps taken."""
    engine = create_engine_for_url(url)
    steps = Steps(crash_at, hold_at)
    try:
        tap = lambda what, *_: steps.tick("commit" if what == "commit" else "sql")  # noqa: E731
        services = Services(SqlUnitOfWorkFactory(engine, tap=tap))
        try:
            await services.resolution.resolve(game_id, GM, 1)
        except Conflict as exc:  # resolved before the crash: only the delivery is left
            assert "already resolved" in str(exc), exc
            print("REFUSED", exc)
        else:
            print("RESOLVED")
        if sink is not None:
            await deliver(services, sink, steps)
    finally:
        await engine.dispose()
    return steps.count


if __name__ == "__main__":
    crash = os.environ.get("FAPPO_CRASH_AT")
    hold = os.environ.get("FAPPO_HOLD_AT")
    sink_arg = sys.argv[3] if len(sys.argv) > 3 else ""
    total = asyncio.run(
        run(
            sys.argv[1],
            sys.argv[2],
            Path(sink_arg) if sink_arg else None,
            int(crash) if crash else None,
            int(hold) if hold else None,
        )
    )
    print(f"DONE {total}")
