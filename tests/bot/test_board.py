"""The turn board: one message per game room, pinned where the bot may pin (Discord's pins in
the fake: 403 50013 without the permission, 400 30003 at 50 pins), edited in place as the turn
goes, posted and pinned again when someone deleted it; `/turn status` shows the same text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot.table import KAEL_ORDERS, run_command, set_up_game, text_of

pytestmark = pytest.mark.e2e

OPEN_BOARD = ("**Goblin Road: turn 1** (open)\n"
              "Deadline: none (the GM calls time).\n"
              "Posted: nobody.\n"
              "Passed: nobody.\n"
              "Missing: Kael.\n"
              "NPC orders: not sealed yet.")


def boards(fake, room: str) -> list[dict[str, Any]]:
    return [m for m in fake.bot_messages(room) if m["content"].startswith("**Goblin Road: turn")]


async def a_board(fake) -> dict[str, Any]:
    room = fake.room["id"]
    await set_up_game(fake)
    [board] = await fake.wait_for(lambda: boards(fake, room))
    return board


async def test_the_board_is_pinned_and_edited_in_place_as_the_turn_goes(with_board, fake) -> None:
    room = fake.room["id"]
    board = await a_board(fake)
    assert board["content"] == OPEN_BOARD
    await fake.wait_for(lambda: fake.pins.get(room) == [board["id"]])
    await fake.post(room, fake.alice, KAEL_ORDERS)
    await fake.wait_for(lambda: "Posted: Kael." in boards(fake, room)[0]["content"])
    [edited] = boards(fake, room)
    assert edited["id"] == board["id"]  # the same message, edited: the room does not fill up
    assert edited["content"] == OPEN_BOARD.replace("Posted: nobody.", "Posted: Kael.").replace(
        "Missing: Kael.", "Missing: nobody.")
    assert text_of(await run_command(fake, fake.gm, "turn status")) == edited["content"]
    await run_command(fake, fake.gm, "turn calltime", [{"type": 3, "name": "in",
                                                        "value": "90m"}])
    await fake.wait_for(lambda: "Deadline: <t:" in boards(fake, room)[0]["content"])
    deadline = boards(fake, room)[0]["content"].split("\n")[1]
    assert deadline.startswith("Deadline: <t:") and deadline.endswith(":R>).")
    assert len(boards(fake, room)) == 1


async def test_a_board_deleted_by_someone_is_posted_and_pinned_again(with_board, fake) -> None:
    room = fake.room["id"]
    board = await a_board(fake)
    await fake.wait_for(lambda: fake.pins.get(room) == [board["id"]])
    del fake.messages[room][board["id"]]  # a moderator deleted it (Discord unpins it)
    fake.pins[room].remove(board["id"])
    await fake.post(room, fake.alice, KAEL_ORDERS)
    await fake.wait_for(lambda: boards(fake, room) and "Posted: Kael." in boards(fake, room)[0][
        "content"])
    [again] = boards(fake, room)
    assert again["id"] != board["id"]
    await fake.wait_for(lambda: fake.pins.get(room) == [again["id"]])
    edits = [r for r in fake.sent("PATCH", f"/messages/{board['id']}")]
    assert edits  # the edit was tried first: 10008 Unknown Message


@pytest.mark.parametrize("why", ["no permission", "50 pins"])
async def test_a_board_the_bot_may_not_pin_works_unpinned(with_board, fake, why) -> None:
    room = fake.room["id"]
    fake.expect_rejections = True
    if why == "no permission":
        fake.no_pins.add(room)
    else:
        fake.pins[room] = [str(n) for n in range(50)]
    await a_board(fake)
    await fake.wait_for(lambda: fake.sent("PUT", "/pins/"))
    assert room in fake.no_pins or fake.pins[room] == [str(n) for n in range(50)]
    await fake.post(room, fake.alice, KAEL_ORDERS)
    await fake.wait_for(lambda: "Posted: Kael." in boards(fake, room)[0]["content"])
    assert len(boards(fake, room)) == 1


async def test_a_board_is_brought_up_to_date_once_a_period(with_board, fake) -> None:
    """A room's posts come several a second: its board is read and edited at most once a
    period (`discord.turn_board_period_seconds`), the first change after a quiet period at
    once, what came meanwhile when the period is over (on the boards' own clock)."""
    room = fake.room["id"]
    boards_ = with_board.bot.boards
    now = [1000.0]
    boards_.now = lambda: now[0]
    board = await a_board(fake)  # the game set up, its board shown at every change
    assert board["content"] == OPEN_BOARD
    with_board.settings.discord.turn_board_period_seconds = 60.0
    post = await fake.post(room, fake.alice, KAEL_ORDERS)
    await fake.wait_for(lambda: [m for m in fake.bot_messages(room) if (
        m.get("message_reference") or {}).get("message_id") == post["id"]])
    assert boards_.due_in() == 60.0  # stale since the post, due a period after the last
    assert boards(fake, room)[0]["content"] == OPEN_BOARD
    assert not fake.sent("PATCH", f"/messages/{board['id']}")
    now[0] += 59.0
    assert boards_.due_in() == 1.0
    now[0] += 1.0
    with_board.bot.delivery.wake_boards()
    await fake.wait_for(lambda: "Posted: Kael." in boards(fake, room)[0]["content"])
    assert len(fake.sent("PATCH", f"/messages/{board['id']}")) == 1
    assert boards_.due_in() is None
