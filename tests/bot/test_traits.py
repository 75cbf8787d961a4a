"""A game's own Traits on Discord, through the fake: `/game trait add` (a GM only; a clash with
a rulebook Trait one private sentence), `/game trait list`, a sheet of the game buying it with
`/char edit`, a post spending its SP under an alternate name (a name it does not answer to gets
"Did you mean"), the review asking no veto of SP on the skill it suggests, the results naming
it, and `/game trait remove` refused while the sheet uses it."""

from __future__ import annotations

import pytest

from tests.bot.table import call_time, review_panel, run_command, set_up_game, text_of
from tests.bot.test_posts import replies_to
from tests.bot.test_results import resolve_through_the_panel
from tests.bot.test_sheet_edit import KAEL, edit

pytestmark = pytest.mark.e2e

KEEN = KAEL.replace("traits: {Nimble: 5, Tireless: 3}", "traits: {Nimble: 5, Keen-eyed: 3}") \
    .replace("Searching: 1", "Lookout: 1")


def trait(name: str, aliases: str | None = None, skills: str | None = None) -> list[dict]:
    options = [{"type": 3, "name": "name", "value": name}]
    if aliases is not None:
        options.append({"type": 3, "name": "aliases", "value": aliases})
    if skills is not None:
        options.append({"type": 3, "name": "skills", "value": skills})
    return options


async def test_a_gms_trait_from_command_to_results(running, fake) -> None:
    await set_up_game(fake)
    room = fake.room["id"]
    [refused] = await run_command(fake, fake.alice, "game trait add", trait("Keen-eyed"))
    assert refused["callback"]["data"]["flags"] & 64
    assert 'Only a GM of "Goblin Road"' in text_of([refused])
    [clash] = await run_command(fake, fake.gm, "game trait add", trait("Strong"))
    assert clash["callback"]["data"]["flags"] & 64
    assert text_of([clash]) == ('The Trait was not added: "Strong" is already a name of the '
                                "Trait Brawny.")

    [added] = await run_command(fake, fake.gm, "game trait add",
                                trait("Keen-eyed", "Sharp, Hawk-eyed", "Lookout"))
    assert text_of([added]).startswith("**Keen-eyed** (also Sharp, Hawk-eyed), suggests "
                                       "Lookout is a Trait of this game")
    [listed] = await run_command(fake, fake.alice, "game trait list")
    assert listed["callback"]["data"]["flags"] & 64
    assert "- **Keen-eyed** (also Sharp, Hawk-eyed), suggests Lookout" in text_of([listed])
    assert "Brawny, Vigilant, Tireless" in text_of([listed])

    data = await edit(fake, fake.gm, "Kael", KEEN)
    assert data["content"].splitlines()[0] == "Kael's sheet is edited (its state is kept):"
    assert "- Trait Keen-eyed: new, 3 SP" in data["content"].splitlines()

    typo = await fake.post(room, fake.alice, "2 AP Lookout: scan the ridge, 1 SP Keenly")
    [problem] = await fake.wait_for(lambda: replies_to(fake, typo))
    assert 'no Trait called "Keenly"' in problem["content"]
    assert "Keen-eyed" in problem["content"]  # "Did you mean"

    post = await fake.post(room, fake.alice, "2 AP Lookout: scan the ridge, 1 SP Sharp")
    [reply] = await fake.wait_for(lambda: replies_to(fake, post))
    assert "1 SP Keen-eyed" in reply["content"], reply["content"]
    assert "Keen-eyed 2" in reply["content"]  # what the pool keeps

    await call_time(fake)
    panel = await review_panel(fake)
    panel_text = text_of([panel])
    assert "scan the ridge: difficulty?" in panel_text  # the review question of the action
    assert "veto" not in panel_text.casefold()  # Keen-eyed is Lookout's Suggested Trait
    await resolve_through_the_panel(fake)
    [results] = await fake.wait_for(lambda: [m for m in fake.bot_messages(room)
                                             if "Turn 1 results" in m["content"]], timeout=15)
    assert "+2 levels from 1 SP Keen-eyed" in results["content"], results["content"]

    [kept] = await run_command(fake, fake.gm, "game trait remove", trait("Keen-eyed"))
    assert kept["callback"]["data"]["flags"] & 64
    assert text_of([kept]) == ("Keen-eyed is not removed: the sheet of Kael uses it; edit it "
                               "first.")
    assert (await edit(fake, fake.gm, "Kael", KAEL))["content"].startswith("Kael's sheet")
    [removed] = await run_command(fake, fake.gm, "game trait remove", trait("keen-eyed"))
    assert text_of([removed]) == "Keen-eyed is no longer a Trait of this game."
