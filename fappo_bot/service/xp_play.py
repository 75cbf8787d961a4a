"""Playing an Xp game: posts read by the Xp post language, the GM's review questions
and the resolution with every die shown, behind the same use cases as FAPPO's turn flow
(`turns.post/edit/delete`, `review.review/answer`, `resolution.resolve`), which reach it through
the Xp ruleset of the port (`rulesets/xp.py`). Nothing of FAPPO's rules runs for an Xp game.

- A post is read once, when it is posted: its actions are stored with its revision, as FAPPO's
  orders are, and the review, the resolution and `orders` read them back (the last valid
  revision counts; a character's actions are those of the newest post that has any, F29 Amb-3
  read for Xp). A revision stored before the actions were kept is read again from its text.
- Every review question is a `ReviewItem` keyed like FAPPO's (post, revision, actor, index,
  field), so the table's prompt and the bot's review panel ask them unchanged.
- Each roller's dice come from a generator seeded with a fresh CSPRNG seed (`xp_rolls.generator`
  over the injected salt factory); every seed and every die go to the audit log (`xp.turn`), so
  the turn can be replayed, and every die goes out in the results.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fappo_bot.posting.safety import safe
from fappo_bot.posting_xp import (
    Route,
    XpAction,
    XpKind,
    XpPostContext,
    parse_xp_post,
    pool_of,
    render_xp_reply,
)
from fappo_bot.posting_xp.parser import is_table_talk
from fappo_bot.rules_xp.config import DEFAULT_CONFIG
from fappo_bot.rules_xp.errors import XpError
from fappo_bot.rules_xp.tables import characteristic
from fappo_bot.service.base import gm_ids
from fappo_bot.service.errors import InvalidInput
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.records import (
    CharacterRecord,
    CharacterStatus,
    Game,
    Post,
    PostRevision,
    TurnRecord,
)
from fappo_bot.sheets.xp import XpSheet


# ---- reading posts ------------------------------------------------------------------------------
def context(controls: Sequence[CharacterRecord], records: Sequence[CharacterRecord],
            gm: bool, default: str | None = None) -> XpPostContext:
    """What the parser needs: the sheets of the characters the poster controls (in order), and
    everyone's name. A player's lines before any `Character:` line are `default`'s, else the
    first character's (as FAPPO reads a player's post); a GM names every character."""
    sheets = {r.name: r.xp for r in controls if r.xp is not None}
    names = tuple(r.name for r in records if r.status is CharacterStatus.ACTIVE)
    if default is None and not gm and controls:
        default = controls[0].name
    return XpPostContext(sheets=sheets, names=names, gm=gm, default=None if gm else default)


@dataclass(frozen=True)
class XpRead:
    """A post as the Xp language read it: its actions or its problems, and the reply."""

    actions: tuple[XpAction, ...]
    problems: tuple[Any, ...]
    reply: str
    mechanics: bool

    @property
    def ok(self) -> bool:
        return not self.problems


def read(text: str, ctx: XpPostContext) -> XpRead:
    parsed = parse_xp_post(text, ctx)
    return XpRead(parsed.actions, parsed.problems, render_xp_reply(parsed, ctx.sheets),
                  parsed.mechanics)


def table_talk(text: str) -> bool:
    return is_table_talk(text)


@dataclass(frozen=True)
class XpInForce:
    """One action in force, with the post and revision it comes from and its index there."""

    action: XpAction
    post: Post
    revision: PostRevision
    index: int


def in_force(pairs: Sequence[tuple[Post, PostRevision]], records: Sequence[CharacterRecord],
             gm_users: frozenset[str]) -> list[XpInForce]:
    """Every action in force: each valid post's actions as they were read when it was posted;
    per character, the newest post with actions for it wins. An action of a character no longer
    in play (retired) counts for nothing."""
    ordered = sorted(pairs, key=lambda pr: (pr[1].created_at, pr[0].updated_at, pr[0].id))
    active = {r.name.casefold() for r in records if r.status is CharacterStatus.ACTIVE}
    newest: dict[str, list[XpInForce]] = {}
    for post, revision in ordered:
        if not revision.ok or not revision.text:
            continue
        actions = revision.actions or _read_again(post, revision, records, gm_users)
        mine: dict[str, list[XpInForce]] = {}
        for index, action in enumerate(actions):
            if action.actor.casefold() in active:
                mine.setdefault(action.actor.casefold(), []).append(
                    XpInForce(action, post, revision, index))
        newest.update(mine)
    return [f for name in sorted(newest) for f in newest[name]]


def _read_again(post: Post, revision: PostRevision, records: Sequence[CharacterRecord],
                gm_users: frozenset[str]) -> tuple[XpAction, ...]:
    """The actions of a revision stored before they were kept (its text only), read against
    today's sheets for its author's first character, as they were read then; none if it no
    longer reads (a sheet changed since)."""
    gm = post.author in gm_users
    controls = [r for r in records if r.status is CharacterStatus.ACTIVE and (
        r.runner() == post.author or (gm and r.run_by_gm))]
    parsed = parse_xp_post(revision.text, context(controls, records, gm))
    return parsed.actions if parsed.ok else ()


async def load_in_force(uow: UnitOfWork, game: Game, turn: TurnRecord,
                        records: Sequence[CharacterRecord]) -> list[XpInForce]:
    """`in_force` of the turn's posts, read in the unit of work."""
    gms = frozenset(await gm_ids(uow, game))
    return in_force(await uow.posts.latest_revisions(turn.id), records, gms)


# ---- what the review and the resolution share ---------------------------------------------------
def answer_key(found: XpInForce, field_name: str) -> str:
    return (f"{found.post.id}:{found.revision.number}:{found.action.actor}:{found.index}:"
            f"{field_name}")


def group_key(label: str, field_name: str) -> str:
    return f"xp-group:{label}:{field_name}"


def roll_label(action: XpAction) -> str:
    """What a roll is of: its skill, or `raw BODY`."""
    if action.route is Route.RAW and action.characteristic is not None:
        return f"raw {action.characteristic.value}"
    return action.skill or ""


def opponent_pool(sheets: Mapping[str, XpSheet], f: XpInForce, answer: str,
                  npc_heroic: bool = DEFAULT_CONFIG.heroic_npc) -> tuple[int | None, str, bool]:
    """A contest's other side from the GM's answer (`answer`): a skill of its sheet, a raw
    characteristic, or a number of dice; its pool, what it rolls and its heroic flag (its sheet's,
    X5 Amb-2; one with no sheet is heroic as the game's `xp_heroic_default` makes NPCs,
    `npc_heroic`). InvalidInput names the skills when the answer is none of them."""
    name = f.action.target or ""
    sheet = sheets.get(name.casefold())
    heroic = bool(sheet.heroic) if sheet is not None else npc_heroic
    if answer.isdigit():
        return int(answer), f"{answer}d", heroic
    if sheet is None:
        raise InvalidInput(f"{safe(name)} has no Xp sheet: give the number of dice it rolls.")
    skill = sheet.skill(answer)
    try:
        char = characteristic(answer) if skill is None else None
    except XpError:
        char = None
    if skill is None and char is None:
        raise InvalidInput(f'{safe(name)} has no skill "{safe(answer)}" (skills: '
                           f"{', '.join(safe(s.name) for s in sheet.skills) or 'none'}); give one, a "
                           "characteristic or a number of dice.")
    action = XpAction(actor=name, line=0, kind=XpKind.TEST, skill=skill.name if skill else None,
                      route=Route.SKILL if skill else Route.RAW, characteristic=char)
    pool = pool_of(sheet, action)
    return pool.pool, (skill.name if skill else f"raw {answer.upper()}"), heroic
