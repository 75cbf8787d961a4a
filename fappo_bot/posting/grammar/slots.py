"""The slots of each action: the verb's object (`attack TARGET`, `draw WEAPON`, `cast SPELL`) and
its prepositional clauses (`with WEAPON`, `against TARGET`, `at N ranges`, `going for SPECIAL`)
(spec/posting.md "Actions"; RULINGS F9, F12, F16, F25)."""

from __future__ import annotations

from collections.abc import Callable

from fappo_bot.posting.grammar.clauses import (
    RANGE_WORDS,
    Cursor,
    is_pronoun,
    name_in,
    phrase,
    text_until_clause,
    words_text,
)
from fappo_bot.posting.grammar.verbs import ANYONE, THROW_VERBS, Draft, Slot
from fappo_bot.posting.lexer import Tok, TokKind, number_of
from fappo_bot.posting.names import MatchTier, resolve
from fappo_bot.posting.scene import SPECIALS, TABLE_WEAPONS, Scene
from fappo_bot.rules import THROWING, ActionKind, ErrorCode

K = ActionKind
_WITH = frozenset({"with", "using"})
_ON = frozenset({"on", "at", "against", "vs"})
_TOWARD = frozenset({"toward", "towards", "to", "at"})
_AGAINST = frozenset({"against", "vs", "versus", "from"})
#: first words of `going for SPECIAL` (most clauses of an attack are not one)
_GOING = frozenset({"going", "go", "trying"})


def skill_name(cur: Cursor, scene: Scene, draft: Draft, words: list[Tok]) -> None:
    """The skill of a skill use, by the rulebook's or the actor's skill names (F2)."""
    name = name_in(cur, words, scene.skills, "action or skill")
    if name is not None:
        draft.fields["skill"] = name


def _head_use(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    words = phrase(cur, known=scene.skills)
    if not words:
        cur.issue(ErrorCode.SYNTAX, "use what?", verb.start, verb.end, expected="use SKILL")
        return
    skill_name(cur, scene, draft, words)



def _target(cur: Cursor, scene: Scene, draft: Draft, key: str, words: list[Tok]) -> None:
    if not words:
        return
    if is_pronoun(words):
        if "condition" not in draft.fields:
            cur.issue(ErrorCode.UNKNOWN_NAME, f'"{words[0].text}" names no one here',
                      words[0].start, words[0].end, expected="a character's name",
                      hint='"it"/"them" only stand for the thing in an "If ...:" condition')
        return
    if words_text(words).casefold() in ANYONE:
        return
    name = name_in(cur, words, scene.characters, "one")
    if name is not None:
        draft.fields[key] = name


def _head_attack(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    if verb.key in THROW_VERBS:
        _head_throw(cur, scene, draft, verb)
        return
    cur.accept("at") or cur.accept("on")
    words = phrase(cur, known=scene.characters)
    if not words and "condition" not in draft.fields:
        cur.issue(ErrorCode.SYNTAX, "attack whom?", verb.start, verb.end,
                  expected="attack TARGET [with WEAPON]", hint="name the target: attack Goblin 1")
    _target(cur, scene, draft, "target", words)


def _head_throw(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    """`throw WEAPON at TARGET`: the weapon's attack with Throwing (a Spear flies at Short range,
    RULINGS Amendments 2026-12-01); `using SKILL` after it still names another skill."""
    words = phrase(cur, known=scene.weapons)
    if not words:
        cur.issue(ErrorCode.SYNTAX, f"{verb.text} what?", verb.start, verb.end,
                  expected=f"{verb.text} WEAPON at TARGET", hint="throw Spear at Goblin 1")
        return
    if resolve(words_text(words), scene.weapons).ok or not _not_carried(cur, scene, words):
        name = name_in(cur, words, scene.weapons, "weapon you carry")
        if name is not None:
            draft.fields["weapon"] = name
    draft.fields["skill"] = THROWING
    if not (cur.accept("at") or cur.accept("on")):
        return
    words = phrase(cur, known=scene.characters)
    if not words and "condition" not in draft.fields:
        cur.issue(ErrorCode.SYNTAX, f"{verb.text} at whom?", verb.start, verb.end,
                  expected=f"{verb.text} WEAPON at TARGET")
    _target(cur, scene, draft, "target", words)


def _head_defend(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    return None


def _head_move(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    n = number_of(cur.peek(), words=False)
    if n is not None:
        cur.i += 1
        cur.accept("ranges") or cur.accept("range")
        draft.fields["ranges"] = n
    elif draft.fields.get("ap") is not None:
        draft.fields["ranges"] = int(draft.fields["ap"]) + 1  # F16: "a post may give either number"
    else:
        cur.issue(ErrorCode.SYNTAX, "move how far?", verb.start, verb.end,
                  expected="move N (the Ranges moved)", hint="write move 2, or 1 AP move")


def _weapon_head(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    words = phrase(cur, known=scene.weapons)
    if not words:
        cur.issue(ErrorCode.SYNTAX, f"{verb.text} what?", verb.start, verb.end,
                  expected=f"{verb.text} WEAPON")
        return
    mine = resolve(words_text(words), scene.weapons)
    if mine.ok or mine.ambiguous or not _not_carried(cur, scene, words):
        name = name_in(cur, words, scene.weapons, "weapon you carry")
        if name is not None:
            draft.fields["item"] = name


def _head_switch(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    cur.accept("weapons") or cur.accept("weapon")
    cur.accept("to")
    _weapon_head(cur, scene, draft, verb)


def _head_pickup(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    words = phrase(cur, known=scene.loose_weapons())
    if not words:
        cur.issue(ErrorCode.SYNTAX, "pick up what?", verb.start, verb.end, expected="pick up ITEM")
        return
    found = resolve(words_text(words), scene.loose_weapons())
    draft.fields["item"] = found.name if found.ok else words_text(words)


def _head_stand(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    cur.accept("up")


def _head_remove(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    words = phrase(cur, known=scene.loose_weapons())
    if words:
        name = name_in(cur, words, scene.loose_weapons(), "weapon")
        if name is not None:
            draft.fields["item"] = name


def _head_cast(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    words = phrase(cur, known=scene.spells)
    if not words:
        cur.issue(ErrorCode.SYNTAX, "cast what?", verb.start, verb.end,
                  expected="cast SPELL [at TARGET]")
        return
    name = name_in(cur, words, scene.spells, "spell you know")
    if name is not None:
        draft.fields["spell"] = name


def _head_tend(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    cur.accept("to")
    words = phrase(cur, known=scene.characters)
    if not words:
        cur.issue(ErrorCode.SYNTAX, "tend whom?", verb.start, verb.end, expected="tend TARGET")
    _target(cur, scene, draft, "target", words)


def _head_watch(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    cur.accept("for") or cur.accept("out", "for")
    text, _, _ = text_until_clause(cur)
    if text:
        draft.fields["task"] = text


def _head_extinguish(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    words = phrase(cur, known=scene.characters)
    if words and words_text(words).casefold() not in ("fire", "flames", "myself", "me", "it"):
        _target(cur, scene, draft, "target", words)


def _head_aim(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    cur.accept("at") or cur.accept("on")
    _target(cur, scene, draft, "target", phrase(cur, known=scene.characters))


HEADS: dict[ActionKind, Callable[[Cursor, Scene, Draft, Tok], None]] = {
    K.ATTACK: _head_attack, K.DEFEND: _head_defend, K.MOVE: _head_move,
    K.READY: _weapon_head, K.STOW: _weapon_head, K.DROP: _weapon_head,
    K.SWITCH: _head_switch, K.PICKUP: _head_pickup, K.STAND: _head_stand,
    K.REMOVE: _head_remove, K.RIPOUT: _head_remove, K.CAST: _head_cast, K.TEND: _head_tend,
    K.WATCH: _head_watch, K.EXTINGUISH: _head_extinguish, K.AIM: _head_aim,
    K.SKILL: _head_use,
}


# ---- slots after the object --------------------------------------------------------------------
def _with_slot(cur: Cursor, scene: Scene, draft: Draft) -> bool:
    if not cur.accept_any(_WITH):
        return False
    words = phrase(cur, known=scene.arms)
    if not words:
        _missing(cur, "with what?", "with WEAPON or SKILL")
        return True
    query = words_text(words)
    things = scene.arms
    found = resolve(query, things)
    if found.ok and found.found is not None:
        draft.fields["skill" if found.found.kind == "skill" else "weapon"] = found.name
    elif found.ambiguous or not _not_carried(cur, scene, words):
        name_in(cur, words, things, "weapon or skill")
    return True


def _not_carried(cur: Cursor, scene: Scene, words: list[Tok]) -> bool:
    """A weapon of the table the actor does not carry: say so, and list what it carries."""
    table = resolve(words_text(words), TABLE_WEAPONS)
    if scene.actor is None or not table.ok or table.tier not in (MatchTier.EXACT, MatchTier.ALIAS):
        return False
    carried = tuple(w.name for w in scene.weapons)
    cur.issue(ErrorCode.UNKNOWN_NAME, f"{scene.actor.name} carries no {table.name}",
              words[0].start, words[-1].end, expected="a weapon you carry",
              hint="you carry " + ", ".join(carried), candidates=carried)
    return True


def _special_slot(cur: Cursor, scene: Scene, draft: Draft) -> bool:
    if cur.key() not in _GOING or not (
            cur.accept("going", "for") or cur.accept("go", "for") or cur.accept("trying", "for")):
        return False
    words = phrase(cur, known=SPECIALS)
    if words:
        name = name_in(cur, words, SPECIALS, "Special")
        if name is not None:
            draft.fields["special"] = name
    return True


def _against_slot(cur: Cursor, scene: Scene, draft: Draft) -> bool:
    if not cur.accept_any(_AGAINST):
        return False
    words = phrase(cur, known=scene.characters)
    if not words:
        _missing(cur, "against whom?", "against NAME")
    _target(cur, scene, draft, "against", words)
    return True


def _missing(cur: Cursor, message: str, expected: str) -> None:
    """A preposition with nothing after it."""
    tok = cur.toks[cur.i - 1]
    cur.issue(ErrorCode.SYNTAX, message, tok.start, tok.end, expected=expected)


def target_slot(cur: Cursor, scene: Scene, draft: Draft) -> bool:
    """`on/at/against/vs TARGET`: the opposed party of a skill use (F5)."""
    if not cur.accept_any(_ON):
        return False
    _target(cur, scene, draft, "target", phrase(cur, known=scene.characters))
    return True


def task_slot(cur: Cursor, scene: Scene, draft: Draft) -> bool:
    """`: what you try`, kept for the GM who sets the difficulty (F4 Amb-10)."""
    if cur.accept_kind(TokKind.COLON) is None:
        return False
    text, _, _ = text_until_clause(cur)
    if text:
        draft.fields["task"] = text
    return True


def _direction_slot(cur: Cursor, scene: Scene, draft: Draft) -> bool:
    if cur.accept("away", "from") or cur.accept("away"):
        key = "away"
    elif cur.accept_any(_TOWARD):
        key = "toward"
    else:
        return False
    _target(cur, scene, draft, key, phrase(cur, known=scene.characters))
    return True


def _cast_at_slot(cur: Cursor, scene: Scene, draft: Draft) -> bool:
    if cur.key() not in ("at", "on", "against"):
        return False
    if number_of(cur.peek(1), words=False) is not None and cur.key(2) in RANGE_WORDS:
        draft.fields["ranges"] = number_of(cur.peek(1), words=False)
        cur.i += 3
        return True
    cur.i += 1
    targets: list[str] = []
    while True:
        words = phrase(cur, known=scene.characters)
        if words and not is_pronoun(words):
            name = name_in(cur, words, scene.characters, "one")
            if name is not None:
                targets.append(name)
        if not cur.accept("and"):
            break
    if len(targets) == 1:
        draft.fields["target"] = targets[0]
    elif targets:
        draft.fields["targets"] = tuple(targets)
    return True


def _ranges_slot(cur: Cursor, scene: Scene, draft: Draft) -> bool:
    n = number_of(cur.peek(), words=False)
    if n is None or cur.key(1) not in RANGE_WORDS:
        return False
    cur.i += 2
    cur.accept("away")
    draft.fields["ranges"] = n
    return True


SLOTS: dict[ActionKind, tuple[Slot, ...]] = {
    K.ATTACK: (_with_slot, _special_slot),
    K.DEFEND: (_against_slot,),
    K.MOVE: (_direction_slot,),
    K.CAST: (_cast_at_slot, _ranges_slot),
    K.SKILL: (target_slot, task_slot),
    K.AIM: (target_slot,),
}

