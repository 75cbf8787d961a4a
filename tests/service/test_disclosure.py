"""What a resolution discloses and to whom: the NPC reveal (F29), secret PvP results
(F29), hidden allocations (R2 `hide_all_allocations`)."""

from __future__ import annotations

import hashlib
import re

import pytest
from pydantic import TypeAdapter

from fappo_bot.posting.render import describe_action
from fappo_bot.render.notices import text as words
from fappo_bot.rules.orders import Order
from fappo_bot.service import notices
from tests.service.conftest import ALICE, GM
from tests.service.helpers import resolved, stored

LONG_INTENT = "crush them " * 300  # 3,300 characters: the canonical JSON takes several parts
NPCS = ("**Skarg**\n2 AP attack Kael with Broadsword (he leans in, @everyone <@123>)\n"
        f"Intent: {LONG_INTENT}\n**Goblins**\n1 AP attack Kael")


async def _outbox(uow_factory, game, kind=None):
    async with uow_factory() as uow:
        messages = list(await uow.outbox.for_game(game))
    return [m for m in messages if kind is None or m.kind == kind]


def _code_blocks_of(texts):
    """What a reader copies: the content of each ```json block, joined with nothing between."""
    found = [re.search(r"```json\n(.*)\n```", text, re.S) for text in texts]
    return "".join(f.group(1) for f in found if f)


async def test_the_npc_reveal_shows_canonical_orders_and_the_hash_recomputes_from_it(
    services, table, uow_factory
):
    """A SHA-256 commitment of the canonical NPC orders, "published when sealed and verifiable
    after resolution"; the orders read as a post reply shows them."""
    game = table["game"]
    reply = await services.turns.post(game, GM, channel_key="c1", message_key="g1", text=NPCS)
    assert reply.ok, reply.reply
    seal = await services.turns.seal(game, GM)
    await services.turns.post(game, ALICE, channel_key="c1", message_key="m1",
                              text="3 AP defend")
    await services.resolution.resolve(game, GM, 1)
    reveal = await _outbox(uow_factory, game, "revealed")
    # no JSON for every seat, the JSON stays with the turn; the long intent is split
    assert all(len(m.content) <= 2000 and "```" not in m.content for m in reveal)
    first = "\n".join(m.content for m in reveal)
    # the orders as a reply shows them, not as raw JSON
    assert "Skarg: 2/3 AP committed" in first and "Goblins: 1/2 AP committed" in first
    assert '"actions"' not in first
    assert "SP left" not in first  # the NPCs' pools are the GM's, no part of what was sealed
    skarg_sheet = await stored(uow_factory, game, "Skarg")
    revealed = await services.turns.reveal(game, 1)
    orders = list(TypeAdapter(tuple[Order, ...]).validate_json(revealed.canonical))
    skarg = next(o for o in orders if o.actor == "Skarg")
    assert describe_action(skarg.actions[0], skarg_sheet.state) in first
    assert "@everyone" not in first and "@\u200beveryone" in first
    # the commitment, the salt and how to check, all in the published text
    digest = re.search(r"Commitment \(SHA-256\): ([0-9a-f]{64})", first).group(1)
    salt = re.search(r"Salt: (\S+)", first).group(1)
    assert digest == seal.commitment and revealed.verified
    assert 'sha256(salt + "\\n" + canonical JSON)' in first and "reveal the canonical JSON of turn 1" in first
    # a reader recomputes the hash from the JSON the reveal use case gives
    canonical = revealed.canonical
    assert hashlib.sha256(f"{salt}\n{canonical}".encode()).hexdigest() == seal.commitment
    assert LONG_INTENT.strip() == skarg.intent
    # and the canonical JSON, asked for, comes in code blocks that fit a message
    blocks = notices.canonical_blocks(1, canonical)
    assert len(blocks) >= 2 and all(len(b) <= 2000 for b in blocks)
    assert _code_blocks_of(blocks) == canonical


# ---- secret PvP and hidden allocations (F29, R2) -------------------------------------------------


async def _duel(services, **game):
    """Kael (alice), Mira (bob), Bran (carol) and the GM's Skarg; turn 1 open."""
    from fappo_bot.service.records import Role
    from tests.service.conftest import BOB, CAROL, sheet

    view = await services.games.create(channel_key="c1", name="Duel", creator=GM, **game)
    for player in (ALICE, BOB, CAROL):
        await services.games.add_member(view.id, GM, player, Role.PLAYER)
    for player, name in ((ALICE, "Kael"), (BOB, "Mira"), (CAROL, "Bran")):
        assert (await services.characters.create(view.id, player, sheet(name))).ok
    assert (await services.characters.add_enemy(view.id, GM, sheet("Skarg"))).ok
    await services.turns.open(view.id, GM)
    return view.id


async def _orders(services, game, *, bran_secret):
    from tests.service.conftest import BOB, CAROL

    async def post(user, text, secret):
        reply = await services.turns.post(game, user, channel_key=f"dm-{user}" if secret
                                          else "c1", message_key=user, text=text, secret=secret)
        assert reply.ok, reply.reply

    await post(BOB, "3 AP attack Kael with Dagger, 2 SP Clever", True)
    await post(ALICE, "1 AP defend against Mira\nGuard: 1 SP Nimble against Mira\n"
                      "2 AP attack Skarg with Broadsword, 1 SP Nimble", True)
    await post(CAROL, "2 AP attack Skarg with Long Bow, 1 SP Highborn", bran_secret)
    await post(GM, "**Skarg**\n2 AP attack Kael with Broadsword, 1 SP Brawny\n1 AP defend", False)
    return await resolved(services, game, GM, 1)


def _numbers(action):
    return f"{action.total} vs {action.difficulty}"


async def test_f29_secret_pvp_results_go_to_the_parties_and_the_gm_only(services, uow_factory):
    """F29: "keep AP/SP allocations secret ... the GM can divulge the results of these actions
    ... by email/PM to the interested parties"; results "parties-only" by default."""
    from tests.service.conftest import BOB, CAROL

    game = await _duel(services)
    view = await _orders(services, game, bran_secret=False)
    by = {(a.actor, a.target): a for a in view.result.actions}
    mira, kael, bran = by[("Mira", "Kael")], by[("Kael", "Skarg")], by[("Bran", "Skarg")]
    assert mira.total is not None and mira.damage and mira.pledged  # a hit, lowered by Guard
    messages = await _outbox(uow_factory, game)
    public = "\n".join(m.content for m in messages if m.kind == "results")
    dms = {m.dest_key: m.content for m in messages if m.kind == "results_private"}
    # the channel: nothing of the secret orders, their numbers or their hits; their parties
    # are in "Where things stand" without their health
    assert "Dagger" not in public and "Guard" not in public
    assert [line for line in public.splitlines() if "Mira" in line] == [
        "- Mira: this turn's results went to the parties only"]
    assert "Kael attacks" not in public and _numbers(mira) not in public
    assert _numbers(bran) in public  # a public order keeps its numbers
    # the parties and the GM: the secret result in full; nobody else
    assert set(dms) == {ALICE, BOB, GM} and CAROL not in dms
    for user in (ALICE, BOB, GM):
        assert f"Mira attacks Kael with Dagger: {_numbers(mira)}" in dms[user]
        assert f"-{mira.pledged} level{'s' if mira.pledged != 1 else ''} from a Guard" in dms[user]
    # each party only what concerns its characters: Bob is no party to Kael's attack on Skarg
    assert _numbers(kael) in dms[ALICE] and _numbers(kael) in dms[GM]
    assert "Kael attacks Skarg" not in dms[BOB] and "Kael's Broadsword" not in dms[BOB]


async def test_f29_secret_pvp_results_made_public_show_outcomes_only(services, uow_factory):
    """F29: results "per GM choice: public | parties-only"; public still keeps the secret
    allocations (the AP/SP behind totals, difficulties and Guard) hidden."""
    game = await _duel(services, settings={"results_visibility": "public"})
    view = await _orders(services, game, bran_secret=False)
    mira = next(a for a in view.result.actions if a.actor == "Mira")
    public = "\n".join(m.content for m in await _outbox(uow_factory, game, "results"))
    assert f"Mira attacks Kael with Dagger: {mira.level.title}" in public
    assert _numbers(mira) not in public and "by Guard" not in public
    # no line of an action by or against a secret party shows its numbers
    secret_lines = [line for line in public.splitlines()
                    if line.startswith(("- Mira ", "- Kael ")) or " Mira" in line
                    or "attacks Kael" in line]
    assert len(secret_lines) >= 3
    assert not [line for line in secret_lines if " vs " in line or "Guard" in line]


async def test_r2_hide_all_allocations_shows_only_outcomes(services, uow_factory):
    """R2 `hide_all_allocations` (F29 Amb-4 "Secrecy of non-PvP allocations"): with it on, the
    public results show no player's AP/SP allocations, only outcomes."""
    game = await _duel(services, rules={"hide_all_allocations": True})
    view = await _orders(services, game, bran_secret=True)
    public = "\n".join(m.content for m in await _outbox(uow_factory, game, "results"))
    bran = next(a for a in view.result.actions if a.actor == "Bran")
    skarg = next(a for a in view.result.actions if a.actor == "Skarg" and a.target == "Kael")
    # outcomes of non-PvP orders are public ...
    assert f"Bran attacks Skarg with Long Bow: {bran.level.title}" in public
    assert f"Skarg attacks Kael with Broadsword: {skarg.level.title}" in public
    # ... but no total, difficulty, margin or Guard that tells a player's AP or SP
    for action in view.result.actions:
        if action.total is not None and action.difficulty is not None:
            assert f"{action.total} vs {action.difficulty}" not in public, action
    assert " vs " not in public and "by Guard" not in public and " SP" not in public
    # the PvP duel still goes to its parties only
    assert [line for line in public.splitlines() if "Mira" in line] == [
        "- Mira: this turn's results went to the parties only"]


@pytest.mark.unit
def test_a_reveal_that_cannot_be_read_back_still_says_how_to_check():
    """Orders sealed by an older version of the orders model: the resolution must not fail, and
    the reveal still gives the commitment, the salt and where the JSON that checks is."""
    from fappo_bot.rules.results import TurnState
    from fappo_bot.service.disclosure import reveal_messages
    from fappo_bot.service.scene import commitment

    canonical = '[{"actor":"Skarg","retired_field":' + '"x",' * 900 + '"end"}]'
    digest = commitment("salt", canonical)
    messages = [words(reveal_messages(3, digest, "salt", canonical,
                                      TurnState(turn=3, characters=())))]
    assert len(messages) == 1 and len(messages[0]) <= 2000
    assert "cannot be shown as a reply" in messages[0] and digest in messages[0]
    assert "Salt: salt" in messages[0] and "reveal the canonical JSON of turn 3" in messages[0]
    assert "retired_field" not in messages[0]


async def test_a_resolve_that_seals_reveals_the_orders_as_read_back_from_what_it_sealed(
    services, table, uow_factory
):
    """/resolve on a turn nobody sealed seals it in the same transaction and reveals the NPC
    orders it has in hand, without reading back the JSON it just made of them: the reveal is
    the one that JSON gives."""
    from fappo_bot.service.disclosure import reveal_messages

    game = table["game"]
    reply = await services.turns.post(game, GM, channel_key="c1", message_key="g1", text=NPCS)
    assert reply.ok, reply.reply
    await services.turns.post(game, ALICE, channel_key="c1", message_key="m1",
                              text="3 AP defend")
    await services.resolution.resolve(game, GM, 1)
    reveal = [m.content for m in await _outbox(uow_factory, game, "revealed")]
    async with uow_factory() as uow:
        resolution = await uow.resolutions.latest(game)
        turn = await uow.turns.by_number(game, 1)
    assert resolution is not None and turn is not None and turn.npc_canonical is not None
    assert turn.npc_commitment is not None and turn.npc_salt is not None
    read_back = reveal_messages(1, turn.npc_commitment, turn.npc_salt, turn.npc_canonical,
                                resolution.state_before)
    assert "Skarg: 2/3 AP committed" in "\n".join(reveal)
    assert "\n".join(reveal) == "\n".join(base_messages([words(read_back)]))


def base_messages(texts):
    """The texts as the outbox stores them (rendered inert, split to fit a message)."""
    from fappo_bot.posting.safety import split_message

    return [part for text in texts for part in split_message(text)]
