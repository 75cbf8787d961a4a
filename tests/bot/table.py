"""Setting a game up through the fake Discord as a GM would: slash commands with options and
attached sheet files, answered by the real bot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.bot.fake_discord import FakeDiscord

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "adventure"

KAEL_ORDERS = ("Kael presses the lieutenant.\n"
               "2 AP attack Skarg with Broadsword\n"
               "1 AP defend")


async def run_command(fake: FakeDiscord, user: dict[str, Any], name: str,
                      options: list[dict[str, Any]] | None = None,
                      resolved: dict[str, Any] | None = None, *, channel: str | None = None,
                      responses: int = 1) -> list[dict[str, Any]]:
    """Run a slash command in the room and wait for the bot's answer(s)."""
    interaction = await fake.command(user, channel or fake.room["id"], name, options,  # type: ignore[attr-defined]
                                     resolved)
    return await fake.answered(interaction, responses)


def text_of(responses: list[dict[str, Any]]) -> str:
    """Every text the bot answered with (callback, edits and followups)."""
    texts = []
    for response in responses:
        body = response.get("callback", {}).get("data") or response.get("followup") or \
            response.get("edit") or {}
        texts.append(body.get("content") or "")
        texts.extend(str(e) for e in body.get("embeds") or [])
    return "\n".join(texts)


async def add_sheet(fake: FakeDiscord, user: dict[str, Any], command: str, file: str,
                    player: dict[str, Any] | None = None, *, channel: str | None = None,
                    folder: Path = EXAMPLES) -> str:
    """`command` (`char add`, `char enemy`...) with the sheet `file` of `folder` attached."""
    attachment = fake.attachment(file, (folder / file).read_bytes())
    options: list[dict[str, Any]] = [{"type": 11, "name": "sheet", "value": attachment["id"]}]
    resolved: dict[str, Any] = {"attachments": {attachment["id"]: attachment}}
    if player is not None:
        options.append({"type": 6, "name": "player", "value": player["id"]})
        resolved["users"] = {player["id"]: player}
    return text_of(await run_command(fake, user, command, options, resolved, channel=channel))


async def set_up_game(fake: FakeDiscord) -> None:
    """Goblin Road in the room: gwen is its GM, alice plays Kael, Skarg opposes; turn 1 open."""
    gm, alice = fake.gm, fake.alice  # type: ignore[attr-defined]
    created = text_of(await run_command(fake, gm, "game create",
                                        [{"type": 3, "name": "name", "value": "Goblin Road"}]))
    assert "Goblin Road" in created, created
    assert "joins the game" in await add_sheet(fake, gm, "char add", "kael.yaml", alice)
    assert "Skarg" in await add_sheet(fake, gm, "char enemy", "skarg.yaml")
    assert "turn 1 is open" in text_of(await run_command(fake, gm, "turn open"))
    room = fake.room["id"]  # type: ignore[attr-defined]
    await fake.wait_for(lambda: any(m["content"].startswith("Turn 1 is open")
                                    for m in fake.bot_messages(room)))


def components(body: dict[str, Any]) -> list[dict[str, Any]]:
    """Every component (buttons, selects, text inputs) in a message or modal body."""
    found: list[dict[str, Any]] = []
    for row in body.get("components") or []:
        found.extend(row.get("components") or [row])
    return found


async def use_component(fake: FakeDiscord, user: dict[str, Any], message: dict[str, Any],
                        component: dict[str, Any], values: list[str] | None = None, *,
                        responses: int = 1) -> list[dict[str, Any]]:
    """Click a button or pick in a select of a message the bot sent in answer to a command."""
    data: dict[str, Any] = {"custom_id": component["custom_id"],
                            "component_type": component["type"]}
    if values is not None:
        data["values"] = values
    interaction = await fake.interact(user, fake.room["id"], 3, data,  # type: ignore[attr-defined]
                                      message=message)
    return await fake.answered(interaction, responses)


async def submit_modal(fake: FakeDiscord, user: dict[str, Any], modal: dict[str, Any],
                       *values: str, message: dict[str, Any] | None = None,
                       responses: int = 1) -> list[dict[str, Any]]:
    """Fill the text inputs of a modal the bot opened, in order, and submit it (`message`: the
    message whose button opened it, which Discord sends along)."""
    inputs = [c for c in components(modal) if c["type"] == 4]
    rows = [{"type": 1, "components": [{"type": 4, "custom_id": c["custom_id"],
                                        "value": value}]}
            for c, value in zip(inputs, values, strict=True)]
    interaction = await fake.interact(user, fake.room["id"], 5,  # type: ignore[attr-defined]
                                      {"custom_id": modal["custom_id"], "components": rows},
                                      message=message)
    return await fake.answered(interaction, responses)


async def sealed_as_written(fake: FakeDiscord, user: dict[str, Any],
                            answered: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """When the bot answered with the question about NPCs without orders (`npc_seal.py`), the
    GM's "Seal as written": the answers that follow it (the question's update, its edit and
    what was asked: call time, or the review). None when nothing was asked."""
    last = answered[-1]
    body = last.get("followup") or last.get("callback", {}).get("data") or {}
    seal = next((c for c in components(body) if c.get("label") == "Seal as written"), None)
    if seal is None:
        return None
    return await use_component(fake, user, {**last["message"], **body}, seal, responses=3)


async def call_time(fake: FakeDiscord, user: dict[str, Any] | None = None) -> str:
    """`/turn calltime` now, the NPCs without orders sealed as written when the GM is asked
    (what call time did before it asked): the text of the answers."""
    user = user or fake.gm  # type: ignore[attr-defined]
    answered = await run_command(fake, user, "turn calltime")
    then = await sealed_as_written(fake, user, answered)
    return text_of(answered if then is None else then[1:])


async def review_panel(fake: FakeDiscord, user: dict[str, Any] | None = None
                       ) -> dict[str, Any]:
    """`/gm resolve`'s review panel (the NPCs without orders sealed as written when asked): the
    followup that carries it, with its `message`."""
    user = user or fake.gm  # type: ignore[attr-defined]
    answered = await run_command(fake, user, "gm resolve", responses=2)
    then = await sealed_as_written(fake, user, answered)
    return answered[1] if then is None else then[2]
