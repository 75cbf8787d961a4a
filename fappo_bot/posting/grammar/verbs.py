"""The verbs of the post language and where one action ends (spec/posting.md "Actions";
RULINGS F8: the AP costs of common actions)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fappo_bot.posting.grammar.clauses import SP_WORDS, Cursor, ap_at
from fappo_bot.posting.lexer import TokKind, number_of
from fappo_bot.posting.names import one_typo
from fappo_bot.posting.scene import Scene
from fappo_bot.rules import AP_COSTS, ActionKind

K = ActionKind
#: `throw WEAPON at TARGET`: an attack with the weapon, using Throwing (posting.md, F19)
THROW_VERBS = ("throw", "throws", "hurl", "hurls")
#: verbs and their synonyms, longest first within each kind (posting.md's table, plus extensions)
VERBS: tuple[tuple[tuple[str, ...], ActionKind], ...] = (
    (("put", "away"), K.STOW), (("put", "out"), K.EXTINGUISH), (("pick", "up"), K.PICKUP),
    (("stand", "up"), K.STAND), (("get", "up"), K.STAND), (("rip", "out"), K.RIPOUT),
    (("tear", "out"), K.RIPOUT), (("pull", "out"), K.REMOVE), (("switch", "to"), K.SWITCH),
    (("swap", "to"), K.SWITCH), (("be", "watchful"), K.WATCH), (("keep", "watch"), K.WATCH),
    (("use",), K.SKILL), (("uses",), K.SKILL),
    *(((w,), K.ATTACK) for w in ("attack", "attacks", "hit", "hits", "strike", "strikes",
                                   "shoot", "shoots", "stab", "stabs", "slash", "slashes",
                                   *THROW_VERBS)),
    *(((w,), K.DEFEND) for w in ("defend", "defends", "defense", "defence", "parry", "dodge",
                                   "block")),
    *(((w,), K.MOVE) for w in ("move", "moves", "run", "runs", "walk", "sprint")),
    (("draw",), K.READY), (("ready",), K.READY), (("unsling",), K.READY),
    (("stow",), K.STOW), (("sheathe",), K.STOW), (("sheath",), K.STOW), (("holster",), K.STOW),
    (("drop",), K.DROP), (("drops",), K.DROP), (("switch",), K.SWITCH), (("swap",), K.SWITCH),
    (("pickup",), K.PICKUP), (("grab",), K.PICKUP), (("stand",), K.STAND),
    (("remove",), K.REMOVE), (("ripout",), K.RIPOUT), (("cast",), K.CAST), (("casts",), K.CAST),
    (("tend",), K.TEND), (("attend",), K.TEND), (("bind",), K.TEND), (("stabilize",), K.TEND),
    (("stabilise",), K.TEND), (("watch",), K.WATCH), (("extinguish",), K.EXTINGUISH),
    (("aim",), K.AIM), (("steady",), K.AIM),
)
ANYONE = frozenset({"all", "any", "anyone", "everyone", "anybody", "everybody", "everything",
                     "attacks", "attackers", "all attacks"})
#: fixed AP costs (F8 table), for the hint of a missing AP count
_FIXED_COST = {K.READY: AP_COSTS["ready"], K.STOW: AP_COSTS["stow"], K.SWITCH: AP_COSTS["switch"],
               K.PICKUP: AP_COSTS["pickup"], K.STAND: AP_COSTS["stand"],
               K.RIPOUT: AP_COSTS["ripout"]}


_BY_FIRST: dict[str, list[tuple[tuple[str, ...], ActionKind]]] = {}
for _words, _kind in VERBS:  # longest forms first, as listed
    _BY_FIRST.setdefault(_words[0], []).append((_words, _kind))


def verb_at(cur: Cursor, k: int = 0) -> tuple[ActionKind, int] | None:
    """The action verb starting `k` tokens ahead and how many words it takes."""
    for words, kind in _BY_FIRST.get(cur.key(k), ()):
        if len(words) == 1 or all(cur.key(k + j) == w for j, w in enumerate(words[1:], 1)):
            return kind, len(words)
    return None


def typo_verb(word: str) -> ActionKind | None:
    """The verb one typo away from `word` (`atack`), when there is exactly one."""
    kinds = {kind for words, kind in VERBS
             if len(words) == 1 and len(word) > 3 and one_typo(word, words[0])}
    return kinds.pop() if len(kinds) == 1 else None


@dataclass(slots=True)
class Draft:
    """An action being read: its kind and fields (Action's names), and where its SP were."""

    kind: ActionKind
    fields: dict[str, Any] = field(default_factory=dict)
    sp_spans: list[tuple[int, int]] = field(default_factory=list)
    attack_stage: bool = False


Slot = Callable[[Cursor, Scene, Draft], bool]



_JOINERS = frozenset({"and", "then"})


def next_action_at(cur: Cursor) -> int:
    """How many tokens (a separator, `and`, `then`) stand before another action of the same
    statement (`[2 AP attack Goblin 1, 1 AP defend]`, an extension); 0 when none starts here.

    Another action starts with an AP count followed by more words, or with a free action."""
    first = cur.peek()
    if first is None or (first.kind is TokKind.WORD and first.key not in _JOINERS
                         and number_of(first) is None):
        return 0  # a plain word: the same action goes on
    k = 0
    while True:
        tok = cur.peek(k)
        if tok is None:
            return 0
        if (tok.kind is TokKind.SEP and tok.text != "+") or tok.key in _JOINERS:
            k += 1
            continue
        break
    if _ap_then_words(cur, k) or (k and free_action_start(cur, k)):
        return k or -1
    return 0


def _ap_then_words(cur: Cursor, k: int) -> bool:
    n, width = ap_at(cur, k)
    if n is None:
        return False
    after = cur.peek(k + width)
    if after is not None and after.kind in (TokKind.COLON, TokKind.DASH):
        after = cur.peek(k + width + 1)
    return after is not None and after.kind is TokKind.WORD and after.key not in SP_WORDS



def starts_action(cur: Cursor, k: int = 0) -> bool:
    """Whether an action verb starts `k` tokens ahead."""
    return verb_at(cur, k) is not None


def free_action_start(cur: Cursor, k: int = 0) -> bool:
    """A statement without an AP count that is still an action: `move N`, `run N`, `drop X`."""
    first = cur.key(k)
    if first in ("move", "run", "moves", "runs", "walk", "sprint"):
        return number_of(cur.peek(k + 1), words=False) is not None
    return first in ("drop", "drops") and cur.peek(k + 1) is not None


def fixed_cost(kind: ActionKind) -> int | None:
    """The F8 AP cost of an action with a fixed price, for hints."""
    return _FIXED_COST.get(kind)
