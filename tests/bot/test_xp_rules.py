"""The Xp rules that were only in the rules core, on the bot against the fake Discord: a player's
sheet without 2 Passions and 2 Flaws refused (X15), `xp_failure_takes_longer` set (X6), the GM's
`/xp event` (X17: a boundary, a Parley, a Cut! at its Luck price) and `/xp rank` (X16, the ranks
on the sheet's embed), and a Cut! asked in a post, granted and priced in the review panel."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.bot.table import add_sheet, components, run_command, submit_modal, text_of, use_component
from tests.bot.test_posts import replies_to

pytestmark = pytest.mark.e2e

XP = Path(__file__).resolve().parents[2] / "examples" / "xp-adventure"


def _opt(name, value, kind=3):
    return {"type": kind, "name": name, "value": value}


def _content(response) -> str:
    data = response.get("callback", {}).get("data") or response.get("followup") or {}
    return data.get("content", "")


async def _xp_game(fake) -> None:
    created = text_of(await run_command(fake, fake.gm, "game create", [
        _opt("name", "Tomb of Ankh"), _opt("ruleset", "xp")]))
    assert "Xp rules" in created, created


async def test_a_sheet_without_two_passions_and_two_flaws_is_refused(running, fake, tmp_path):
    await _xp_game(fake)
    data = yaml.safe_load((XP / "nefer.yaml").read_text(encoding="utf-8"))
    data["passions"] = ["Protect my brother Khai"]
    (tmp_path / "nefer.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    refused = await add_sheet(fake, fake.gm, "char add", "nefer.yaml", fake.alice,
                              folder=tmp_path)
    assert "passions: a player's character begins with 2 Passions (X15), not 1 Passion" in refused
    assert "joins the game" not in refused
    joined = await add_sheet(fake, fake.gm, "char add", "nefer.yaml", fake.alice, folder=XP)
    assert "joins the game" in joined
    assert "Ranks: Physical 5, Mental 5, Elemental 4, Spiritual 4" in joined  # X16 on the embed


async def test_the_gm_records_events_and_depletes_ranks(running, fake) -> None:
    await _xp_game(fake)
    await add_sheet(fake, fake.gm, "char add", "khai.yaml", fake.alice, folder=XP)
    [flag] = await run_command(fake, fake.gm, "game set", [
        _opt("name", "xp_failure_takes_longer"), _opt("value", "on")])
    assert _content(flag) == "`xp_failure_takes_longer` is now on."
    [parley] = await run_command(fake, fake.gm, "xp event", [_opt("kind", "parley")])
    assert _content(parley) == "Parley (X17): time and actions stop for the two sides to talk."
    assert not parley["callback"]["data"].get("flags", 0) & 64  # in the room
    [cut] = await run_command(fake, fake.gm, "xp event", [
        _opt("kind", "cut"), _opt("character", "Khai"), _opt("luck", 1, 4),
        _opt("note", "@everyone he reads the curse")])
    text = _content(cut)
    assert text.startswith("Cut! (X17): Khai takes control of the scene, for 1 Luck (the GM's "
                           "price): Luck 2 -> 1.")
    assert "@everyone" not in text and cut["callback"]["data"]["allowed_mentions"] == {
        "parse": []}
    [refused] = await run_command(fake, fake.alice, "xp event", [_opt("kind", "session")])
    assert _content(refused) == 'Only a GM of "Tomb of Ankh" can do that.'
    [rank] = await run_command(fake, fake.gm, "xp rank", [
        _opt("character", "Khai"), _opt("rank", "mental"), _opt("change", -2, 4)])
    assert _content(rank) == "Khai loses 2 Mental rank: 6 -> 4 of 6 (X16)."
    shown = text_of(await run_command(fake, fake.gm, "char sheet", [_opt("name", "Khai")]))
    assert "Mental 4 of 6" in shown


async def test_a_cut_in_a_post_is_granted_and_priced_in_the_review(running, fake) -> None:
    room, gm, alice = fake.room["id"], fake.gm, fake.alice
    await _xp_game(fake)
    await add_sheet(fake, gm, "char add", "khai.yaml", alice, folder=XP)
    assert "turn 1 is open" in text_of(await run_command(fake, gm, "turn open"))
    post = await fake.post(room, alice, "Cut!: I read the curse aloud and the door opens")
    [reply] = await fake.wait_for(lambda: replies_to(fake, post))
    assert 'Khai: asks for a Cut! "I read the curse aloud and the door opens" (Luck 2)' in \
        reply["content"]
    [_, panel] = await run_command(fake, gm, "gm resolve", responses=2)
    message = panel["message"]
    asked = []
    for _ in range(10):
        found = {c.get("label") or c.get("placeholder"): c for c in components(message)}
        asked.append(message.get("content", ""))
        if "Resolve the turn" in found:
            await use_component(fake, gm, message, found["Resolve the turn"])
            break
        select = next((c for c in components(message) if c["type"] == 3), None)
        if select is not None:  # grant it: yes
            answered = await use_component(fake, gm, message, select,
                                           [select["options"][0]["value"]], responses=2)
        else:  # its price: 2 Luck
            [modal] = await use_component(fake, gm, message, found["Answer"])
            answered = await submit_modal(fake, gm, modal["callback"]["data"], "2",
                                          message=message, responses=2)
        last = answered[-1]
        message = {**message, **(last.get("edit") or last["callback"]["data"])}
    else:
        raise AssertionError("the review never offered to resolve")
    assert any("grant Khai the Cut!" in text for text in asked), asked
    assert any("the Cut!'s price in Luck?" in text for text in asked), asked
    [results] = await fake.wait_for(lambda: [m for m in fake.bot_messages(room)
                                             if m["content"].startswith("Turn 1 results (Xp)")],
                                    timeout=15)
    assert ('Khai takes the Cut! "I read the curse aloud and the door opens": Luck 2 -> 0, '
            "the GM's price") in results["content"]


async def test_the_gm_rolls_over_time_and_augments_on_the_bot(running, fake) -> None:
    await _xp_game(fake)
    [rerolled] = await run_command(fake, fake.gm, "xp reroll", [
        _opt("name", "Aster"), _opt("dice", "5d"), _opt("unit", "1m"), _opt("units", 5, 4),
        _opt("need", 4, 4)])
    text = _content(rerolled)
    assert text.startswith("Aster: 5d over time (1m a unit, at most 5), need 4: "), text
    assert "\n  unit 1: 5d [" in text and "-# roll " in text
    [bad] = await run_command(fake, fake.gm, "xp reroll", [
        _opt("name", "Aster"), _opt("dice", "5d"), _opt("unit", "soon"), _opt("units", 5, 4)])
    assert _content(bad).startswith('The time unit: "soon" is no duration')
    assert bad["callback"]["data"]["flags"] & 64
    [augmented] = await run_command(fake, fake.gm, "xp augment", [
        _opt("name", "Trap removal"), _opt("dice", "5d"),
        _opt("augments", "Perception 5d, Lore 3d superior")])
    lines = _content(augmented).splitlines()
    assert lines[0].startswith("Perception augments: 5d at Normal (5-6): [")
    assert lines[2].startswith("Trap removal, augmented (+")


async def test_a_post_rolls_over_time_and_augmented(running, fake) -> None:
    room, gm, alice = fake.room["id"], fake.gm, fake.alice
    await _xp_game(fake)
    await add_sheet(fake, gm, "char add", "nefer.yaml", alice, folder=XP)
    assert "turn 1 is open" in text_of(await run_command(fake, gm, "turn open"))
    post = await fake.post(room, alice, "roll Lockpicking over time: the tomb door\n"
                                        "roll Stealth augmented by Acrobatics: past the guard")
    [reply] = await fake.wait_for(lambda: replies_to(fake, post))
    assert "over time: each unit rerolls the dice that did not succeed" in reply["content"]
    assert "augmented by Acrobatics: rolled first" in reply["content"]
    [_, panel] = await run_command(fake, gm, "gm resolve", responses=2)
    message = panel["message"]
    answers = {"time unit": "10m", "how many units": "3"}
    asked = []
    for _ in range(12):
        found = {c.get("label") or c.get("placeholder"): c for c in components(message)}
        content = message.get("content", "")
        asked.append(content)
        if "Resolve the turn" in found:
            await use_component(fake, gm, message, found["Resolve the turn"])
            break
        select = next((c for c in components(message) if c["type"] == 3), None)
        if select is not None:  # routine (the second difficulty), and yes to the augment
            values = [o["value"] for o in select["options"]]
            pick = values[1] if len(values) > 2 else values[0]
            answered = await use_component(fake, gm, message, select, [pick], responses=2)
        else:
            typed = next(v for k, v in answers.items() if k in content)
            [modal] = await use_component(fake, gm, message, found["Answer"])
            answered = await submit_modal(fake, gm, modal["callback"]["data"], typed,
                                          message=message, responses=2)
        last = answered[-1]
        message = {**message, **(last.get("edit") or last["callback"]["data"])}
    else:
        raise AssertionError(f"the review never offered to resolve: {asked}")
    [results] = await fake.wait_for(lambda: [m for m in fake.bot_messages(room)
                                             if m["content"].startswith("Turn 1 results (Xp)")],
                                    timeout=15)
    text = results["content"]
    assert ('Nefer, Lockpicking ("the tomb door"), routine, over time (10m a unit, at most 3), '
            "need 1: ") in text
    assert "  unit 1: 5d [" in text
    assert "  Nefer augments with Acrobatics: 7d at Normal (5-6): [" in text


async def test_a_failed_test_took_longer_where_the_game_plays_it(running, fake) -> None:
    """X6, `xp_failure_takes_longer`: Khai's 4d Stealth from the seed `seed0039` rolls
    [3 2 4 3], a failure; time being freely available (the review's default), it took longer."""
    import dataclasses

    room, gm, alice = fake.room["id"], fake.gm, fake.alice
    await _xp_game(fake)
    await add_sheet(fake, gm, "char add", "khai.yaml", alice, folder=XP)
    await run_command(fake, gm, "game set", [_opt("name", "xp_failure_takes_longer"),
                                             _opt("value", "on")])
    resolution = running.services.resolution
    resolution.deps = dataclasses.replace(resolution.deps, salts=lambda: "seed0039")
    assert "turn 1 is open" in text_of(await run_command(fake, gm, "turn open"))
    post = await fake.post(room, alice, "roll Stealth: slip past the priests")
    await fake.wait_for(lambda: replies_to(fake, post))
    [_, panel] = await run_command(fake, gm, "gm resolve", responses=2)
    message = panel["message"]
    for _ in range(5):
        found = {c.get("label") or c.get("placeholder"): c for c in components(message)}
        if "Resolve the turn" in found:
            await use_component(fake, gm, message, found["Resolve the turn"])
            break
        select = next(c for c in components(message) if c["type"] == 3)
        answered = await use_component(fake, gm, message, select,
                                       [select["options"][1]["value"]], responses=2)  # routine
        last = answered[-1]
        message = {**message, **(last.get("edit") or last["callback"]["data"])}
    [results] = await fake.wait_for(lambda: [m for m in fake.bot_messages(room)
                                             if m["content"].startswith("Turn 1 results (Xp)")],
                                    timeout=15)
    assert ('Khai, Stealth ("slip past the priests"), routine: 4d at Normal (5-6): [3 2 4 3] -> '
            "0 successes, 0 ones: failure; it took longer than thought: time was freely "
            "available, so the task succeeds after more time") in results["content"]
