"""docs/players.md stays true: every example post in it (the ```post NAME blocks) parses with no
problem in the example adventure's scene, as the character it names (or the GM's NPCs)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from fappo_bot.posting import PostContext, parse_post
from fappo_bot.rules.orders import PendingHit
from fappo_bot.rules.results import TurnState
from fappo_bot.service.characters import NewCharacter

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[1]
GUIDE = (ROOT / "docs" / "players.md").read_text(encoding="utf-8")
EXAMPLES = re.findall(r"^```post (\w+)\n(.*?)^```", GUIDE, flags=re.MULTILINE | re.DOTALL)


def scene(with_hit: bool) -> TurnState:
    """Kael, Mira, Bran, the Goblins, the Rats and Skarg; `with_hit`: a hit of Skarg's on Kael
    from the last turn, to reduce."""
    characters = []
    for name in ("kael", "mira", "bran", "goblins", "rats", "skarg"):
        data = yaml.safe_load((ROOT / "examples" / "adventure" / f"{name}.yaml").read_text())
        built = NewCharacter.from_dict(data).build()
        assert not isinstance(built, tuple), built
        characters.append(built)
    hit = PendingHit(id="t1-skarg-0", target="Kael", attacker="Skarg", weapon="Broadsword",
                     levels=2)
    return TurnState(characters=tuple(characters), pending=(hit,) if with_hit else ())


def test_the_guide_has_examples() -> None:
    assert len(EXAMPLES) >= 7


@pytest.mark.parametrize(("poster", "text"), EXAMPLES, ids=[f"{p}-{i}" for i, (p, _) in
                                                              enumerate(EXAMPLES)])
def test_every_example_post_of_the_players_guide_parses(poster: str, text: str) -> None:
    post = parse_post(text, PostContext.for_poster(scene("Reduce:" in text), poster))
    assert post.ok, [str(p) for p in post.problems]
    assert post.orders


def test_the_reply_the_guide_shows_is_the_bots() -> None:
    from fappo_bot.posting.render import render_reply

    poster, text = EXAMPLES[0]
    state = scene(False)
    shown = GUIDE.split("The bot replies:\n\n```text\n", 1)[1].split("```", 1)[0]
    assert render_reply(parse_post(text, PostContext.for_poster(state, poster)), state) + "\n" \
        == shown


def test_the_problems_the_guide_shows_are_the_bots() -> None:
    """The guide's post with problems gets exactly the reply shown after it: every problem at
    once, and nothing recorded."""
    from fappo_bot.posting.render import render_reply

    [(poster, text)] = re.findall(r"^```post-with-problems (\w+)\n(.*?)^```", GUIDE,
                                  flags=re.MULTILINE | re.DOTALL)
    shown = GUIDE.split(f"```post-with-problems {poster}\n{text}```\n\n```text\n", 1)[1]
    state = scene(False)
    post = parse_post(text, PostContext.for_poster(state, poster))
    assert not post.ok and not post.orders
    assert render_reply(post, state) + "\n" == shown.split("```", 1)[0]


GUIDE_FAPPO = GUIDE.split("## Playing Xp", 1)[0]
#: every order the FAPPO part's tables show in backticks (a line starting with an AP count or a
#: free action), and the orders it shows alone in text blocks (the cast)
TABLE_ORDERS = [order for row in re.findall(r"^\|.*\|$", GUIDE_FAPPO, flags=re.MULTILINE)
                for order in re.findall(r"`((?:\d+ AP|move|run|drop) [^`]+)`", row)] + [
    order for block in re.findall(r"^```text\n(.*?)^```", GUIDE_FAPPO, flags=re.MULTILINE | re.DOTALL)
    for order in re.findall(r"^\d+ AP .*$", block, flags=re.MULTILINE)]


def equipped_scene() -> TurnState:
    """The example scene with what the table's rarer orders need: a Spear and a Long Bow's
    arrow stuck in each hero, a Spear carried by Kael (the orders that name its skill or throw
    it), and a learned Fireball with Spellcasting and Uncanny for Bran."""
    from fappo_bot.rules.character import Spell, Status, StatusKind, Weapon
    from fappo_bot.rules.data import Trait

    stuck = (Status(kind=StatusKind.IMPALED, item="Spear"),
             Status(kind=StatusKind.BARBED, item="Long Bow"))
    state = scene(False)
    heroes = []
    for character in state.characters:
        if character.name in ("Kael", "Mira", "Bran"):
            update: dict[str, object] = {"statuses": stuck}
            if character.name == "Kael":
                spear = Weapon.named("Spear")
                assert spear is not None
                update["weapons"] = (*character.weapons, spear)
            if character.name == "Bran":
                update["spells"] = (Spell(name="Fireball", effects={"damage": 4, "radius": 2}),)
                update["skills"] = {**character.skills, "Spellcasting": 3}
                update["traits"] = {**character.traits, Trait.UNCANNY: 3}
            character = replace(character, **update)
        heroes.append(character)
    return replace(state, characters=tuple(heroes))


def test_the_guides_tables_show_orders() -> None:
    assert len(TABLE_ORDERS) >= 25, TABLE_ORDERS


@pytest.mark.parametrize("order", TABLE_ORDERS)
def test_every_order_of_the_guides_tables_parses_for_one_of_the_heroes(order: str) -> None:
    state = equipped_scene()
    problems = {}
    for hero in ("Kael", "Mira", "Bran"):
        post = parse_post(order, PostContext.for_poster(state, hero))
        if post.ok and post.orders:
            return
        problems[hero] = [str(p) for p in post.problems]
    pytest.fail(f"{order!r} parses for none of the heroes: {problems}")
