"""A game's settings and rules flags as people write them: listed with their values, and changed
one at a time from a word an adapter passes on as typed (`/game set` on Discord).

The values are the game's own (`GameSettings`, `RulesConfig` of R2); this module only reads and
writes them as text: `on`/`off` for yes-no, an option's name, a number, a duration such as `48h`,
`90m` or `1h30m` (read by `service/timetext.py`, the project's one duration parser), a list (`12h, 1h`), `none`. Counters the bot keeps itself (the scene and
adventure numbers, the players' rest declarations) are not offered: the use cases that move
them do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from datetime import timedelta
from enum import Enum
from types import NoneType, UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints

from pydantic import BaseModel, ConfigDict

from fappo_bot.posting.safety import safe, safe_prose
from fappo_bot.rules import RulesConfig
from fappo_bot.service.errors import InvalidInput
from fappo_bot.service.records import GameSettings
from fappo_bot.service.timetext import duration_text, parse_duration, zone_name
from fappo_bot.service.xp_flags import XP_FLAGS, XpFlags

#: the table settings a GM changes by name, with what each one does
TABLE_SETTINGS: dict[str, str] = {
    "calltime": "Time players get to post once a turn opens (none: the GM calls time)",
    "reminders": "Reminders this long before a deadline (e.g. 12h, 1h; none for no reminder)",
    "remind_by": "How players who chose nothing are reminded: dm, ping or none; a player's own choice wins",
    "absence": "What an away player's character does: pass, defend or gm",
    "results_visibility": ("Results of player-against-player orders: public (outcomes only), "
                           "or only the parties concerned"),
    "results_layout": ("How the room shows a turn's results on Discord: embeds (a section "
                       "each) or text (plain, for screen readers); a player's own choice wins "
                       "in their DMs"),
    "tournament": "Tournament advancement: +1 CC per completed adventure (F28)",
    "in_combat": "Whether the scene is a fight (defense in or out of combat, F5)",
    "auto_open_next": "Open the next turn as soon as a turn is resolved",
    "proxy_posts": "Tupperbox and PluralKit posts named after a character count for its player",
    "timezone": "The game's time zone, an IANA name (e.g. Europe/Berlin): the local times "
                "a deadline is set at, and shown in",
    "grace": "Automatic extensions of a deadline each player has in the game (0: none)",
    "grace_period": "How far one grace extension moves the deadline (e.g. 12h)",
    "outage_extends": "A deadline that fell while the bot was down moves by the outage's length",
    "npc_seal_first": ("A turn is resolved only once the next turn's NPC orders are sealed, "
                       "before its results go out (F30)"),
}
#: the R2 rules flags a GM may change in a FAPPO game (every one of `RulesConfig`)
RULES_FLAGS: tuple[str, ...] = tuple(f.name for f in fields(RulesConfig))
#: the type of each (the rules' flags are a plain dataclass)
_RULES_TYPES: dict[str, Any] = get_type_hints(RulesConfig)
#: every R2 flag this module reads and writes: FAPPO's, then an Xp game's `xp_*`
#: (`service/xp_flags.py`); which of them a game takes is its ruleset's (`Ruleset.flags`)
ALL_FLAGS: tuple[str, ...] = (*RULES_FLAGS, *XP_FLAGS)

_NONE_WORDS = frozenset({"none", "off", "no", "never", "-"})
_BOOL_WORDS = {"on": True, "yes": True, "true": True, "1": True,
               "off": False, "no": False, "false": False, "0": False}


class SettingView(BaseModel):
    """One setting or rules flag of a game: its name, its value as text, what it does."""

    model_config = ConfigDict(frozen=True)

    name: str
    value: str
    about: str
    #: "settings" (the table's) or "rules" (an R2 flag, FAPPO's or an Xp game's `xp_*`)
    kind: str


def setting_names(flags: Sequence[str] | None = None) -> list[str]:
    """Every name `/game set` takes: the table settings first, then the R2 `flags` of a game's
    ruleset (`GameView.flags`; None: every flag, `ALL_FLAGS`)."""
    return [*TABLE_SETTINGS, *(ALL_FLAGS if flags is None else flags)]


def kind_of(name: str) -> str:
    """"settings" or "rules" for a known name; InvalidInput naming the known ones otherwise."""
    key = name.strip().casefold()
    if key in TABLE_SETTINGS:
        return "settings"
    if key in ALL_FLAGS:
        return "rules"
    raise InvalidInput(f'There is no setting called "{safe(name.strip()[:60])}". Settings: '
                       f"{', '.join(TABLE_SETTINGS)}; rules flags (R2) of a FAPPO game: "
                       f"{', '.join(RULES_FLAGS)}; of an Xp game: {', '.join(XP_FLAGS)}.")


def _annotation(name: str) -> Any:
    if name not in TABLE_SETTINGS and name not in XP_FLAGS:
        return _RULES_TYPES[name]
    model: type[BaseModel] = GameSettings if name in TABLE_SETTINGS else XpFlags
    return model.model_fields[name].annotation


def describe(name: str, value: Any) -> SettingView:
    """A setting's value as text, with what it does."""
    kind = kind_of(name)
    if kind == "settings":
        about = TABLE_SETTINGS[name]
    elif name in XP_FLAGS:
        about = f"R2 Xp flag ({_hint(name)})"
    else:
        about = f"R2 rules flag ({_hint(name)})"
    return SettingView(name=name, value=value_text(value), about=about, kind=kind)


def game_settings(settings: GameSettings, rules: RulesConfig,
                  flags: tuple[str, ...] = RULES_FLAGS) -> list[SettingView]:
    """Every setting and flag a GM may change in a game whose ruleset has the R2 `flags`, with
    its value there: the table settings, then those flags (FAPPO's, or an Xp game's `xp_*`)."""
    return [describe(n, getattr(settings, n)) for n in TABLE_SETTINGS] + [
        describe(n, getattr(settings.xp, n) if n in XP_FLAGS else getattr(rules, n))
        for n in flags]


def value_text(value: Any) -> str:
    """A value as `parse_value` reads it back."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, timedelta):
        return duration_text(value)
    if isinstance(value, tuple | list):
        return ", ".join(value_text(v) for v in value) if value else "none"
    if isinstance(value, dict):
        return ", ".join(f"{k}={value_text(v)}" for k, v in value.items()) if value else "none"
    return str(value)


def parse_value(name: str, text: str) -> Any:
    """The value a GM typed for setting `name`, read by the setting's type; InvalidInput with
    one sentence saying what it takes when it cannot be read."""
    key = name.strip().casefold()
    kind_of(key)
    try:
        if key == "timezone":
            return zone_name(text)
        value = _parse(_annotation(key), text.strip())
        if key == "grace" and value < 0:
            raise ValueError("write a whole number, 0 or more (0: no grace)")
        return value
    except ValueError as exc:
        said = safe_prose(str(exc))
        raise InvalidInput(f"{key}: {said}" + ("" if said.endswith((".", "?")) else ".")
                           ) from None


def _parse(annotation: Any, text: str) -> Any:
    word = text.casefold()
    origin, args = get_origin(annotation), get_args(annotation)
    if origin in (Union, UnionType):  # X | None
        if NoneType in args and word in _NONE_WORDS:
            return None
        inner = [a for a in args if a is not NoneType]
        return _parse(inner[0], text)
    if annotation is bool:
        if word not in _BOOL_WORDS:
            raise ValueError("write on or off")
        return _BOOL_WORDS[word]
    if annotation is int:
        try:
            return int(word)
        except ValueError:
            raise ValueError("write a whole number") from None
    if annotation is timedelta:
        return parse_duration(text)
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        for member in annotation:
            if str(member.value).casefold() == word:
                return member
        raise ValueError("write one of " + ", ".join(str(m.value) for m in annotation))
    if origin is tuple:
        if word in _NONE_WORDS or not word:
            return ()
        return tuple(_parse(args[0], part.strip()) for part in text.split(",") if part.strip())
    if origin is dict:
        if word in _NONE_WORDS or not word:
            return {}
        pairs = {}
        for part in text.split(","):
            left, eq, right = part.partition("=")
            if not eq or not left.strip() or not right.strip():
                raise ValueError("write name=value pairs separated by commas")
            pairs[left.strip()] = right.strip()
        return pairs
    if annotation is str:
        return text
    raise ValueError("this setting cannot be written as text")  # pragma: no cover


def suggested_values(name: str) -> list[str]:
    """The values to offer for a setting as a GM types one: on and off, an option's names;
    none for the others (any number, duration or list), or for a name that is no setting."""
    key = name.strip().casefold()
    if key not in TABLE_SETTINGS and key not in ALL_FLAGS:
        return []
    if key == "xp_ones_cancel_successes":
        return ["off"]  # on is refused (`xp_flags.ONES_CANCEL_REFUSED`)
    annotation = _annotation(key)
    args = [a for a in get_args(annotation) if a is not NoneType] or [annotation]
    first = args[0]
    values: list[str] = []
    if first is bool:
        values = ["on", "off"]
    elif isinstance(first, type) and issubclass(first, Enum):
        values = [str(m.value) for m in first]
    if values and NoneType in get_args(annotation):
        values.append("none")
    return values


def _hint(name: str) -> str:
    annotation = _annotation(name)
    args = [a for a in get_args(annotation) if a is not NoneType] or [annotation]
    first = args[0]
    if first is bool:
        return "on or off"
    if isinstance(first, type) and issubclass(first, Enum):
        return " or ".join(str(m.value) for m in first)
    if first is int:
        return "a number" + (" or none" if NoneType in get_args(annotation) else "")
    if get_origin(first) is dict:
        return "name=value, ..."
    return "a list, comma-separated"
