"""Discord's limits on what a bot sends, checked the way Discord checks them: a body over a limit
is refused with 400 and code 50035 "Invalid Form Body", its `errors` object nesting the path of
each bad value down to `_errors` (what discord.py flattens to "In embeds.0.fields.3.value: ...").

The fake Discord runs every message, edit, interaction callback, followup, modal, autocomplete
answer and published command through these checks, so a test whose bot oversteps a limit fails.
The limits are Discord's documented ones (API v10): content 2,000 characters; at most 10 embeds,
each with a title of 256, a description of 4,096, 25 fields of 256 (name) and 1,024 (value), a
footer of 2,048 and an author of 256 (each required when its object is given), fields' `inline`
a boolean, a colour of 24 bits, and 6,000 characters across all the embeds of a message (an
embed that shows nothing is dropped, so a message of empty embeds alone is empty, 50006);
5 action rows of 5 buttons (labels of 80) or one select (25 options; labels, values and
descriptions of 100; a placeholder of 150); custom ids of 100; a modal's title of 45 and its
text inputs' labels of 45, placeholders of 100 and values of 4,000; 25 autocomplete choices of
100; 10 files a message; a nonce of 25; 100 users in `allowed_mentions`.

It also notes, apart from what Discord refuses, every message that could ping someone the bot
did not mean to: a new message whose `allowed_mentions` is missing, parses anything, or lists a
user its content does not mention (`mention_problems`).
"""

from __future__ import annotations

import re
from typing import Any

CONTENT = 2000
EMBEDS = 10
EMBED_TOTAL = 6000
EMBED_LIMITS = {"title": 256, "description": 4096}
FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
#: the largest colour (24-bit RGB)
COLOUR = 0xFFFFFF
ROWS = 5
BUTTONS = 5
BUTTON_LABEL = 80
CUSTOM_ID = 100
OPTIONS = 25
OPTION_TEXT = 100
PLACEHOLDER = 150
MODAL_TITLE = 45
INPUT_LABEL = 45
INPUT_PLACEHOLDER = 100
INPUT_VALUE = 4000
CHOICES = 25
CHOICE_TEXT = 100
FILES = 10
NONCE = 25
MENTIONED_USERS = 100
COMMAND_NAME = re.compile(r"^[-_a-z0-9]{1,32}$")
COMMAND_DESCRIPTION = 100
COMMAND_OPTIONS = 25
COMMAND_TOTAL = 4000

Errors = dict[str, Any]


def invalid_form_body(errors: Errors) -> dict[str, Any]:
    """Discord's answer to a body that breaks a limit."""
    return {"message": "Invalid Form Body", "code": 50035, "errors": errors}


def _error(errors: Errors, path: tuple[str | int, ...], code: str, message: str) -> None:
    node = errors
    for key in path:
        node = node.setdefault(str(key), {})
    node.setdefault("_errors", []).append({"code": code, "message": message})


def _length(errors: Errors, path: tuple[str | int, ...], value: Any, most: int,
            least: int = 0) -> None:
    if value is None:
        if least:
            _error(errors, path, "BASE_TYPE_REQUIRED", "This field is required")
        return
    if not isinstance(value, str):
        _error(errors, path, "BASE_TYPE_STRING", "Must be a string.")
        return
    if len(value) > most:
        _error(errors, path, "BASE_TYPE_MAX_LENGTH", f"Must be {most} or fewer in length.")
    elif len(value) < least:
        _error(errors, path, "BASE_TYPE_BAD_LENGTH",
               f"Must be between {least} and {most} in length.")


def _count(errors: Errors, path: tuple[str | int, ...], items: Any, most: int,
           least: int = 0) -> list[Any]:
    items = list(items or [])
    if not least <= len(items) <= most:
        _error(errors, path, "BASE_TYPE_BAD_LENGTH",
               f"Must be between {least} and {most} in length.")
    return items


# ---- messages -----------------------------------------------------------------------------------
def check_message(body: dict[str, Any], *, create: bool, files: int = 0) -> Errors:
    """The errors of a message body (a new message, an edit, an interaction's message)."""
    errors: Errors = {}
    _length(errors, ("content",), body.get("content"), CONTENT)
    nonce = body.get("nonce")
    if isinstance(nonce, str):
        _length(errors, ("nonce",), nonce, NONCE)
    check_embeds(errors, body.get("embeds"))
    check_components(errors, body.get("components"))
    mentions = body.get("allowed_mentions") or {}
    if len(mentions.get("users") or []) > MENTIONED_USERS:
        _error(errors, ("allowed_mentions", "users"), "BASE_TYPE_MAX_LENGTH",
               f"Must be {MENTIONED_USERS} or fewer in length.")
    if "users" in (mentions.get("parse") or []) and mentions.get("users"):
        _error(errors, ("allowed_mentions",), "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
               'parse:["users"] and users: [ids...] are mutually exclusive.')
    attachments = len(body.get("attachments") or []) + files
    if attachments > FILES:
        _error(errors, ("attachments",), "BASE_TYPE_MAX_LENGTH",
               f"Must be {FILES} or fewer in length.")
    return errors


def is_empty(body: dict[str, Any], files: int = 0) -> bool:
    """A new message with nothing to show (Discord's 50006, "Cannot send an empty message")."""
    embeds = body.get("embeds") or []
    return not ((body.get("content") or "").strip() or any(map(_shows, embeds)) or files
                or body.get("attachments") or body.get("components") or body.get("sticker_ids")
                or body.get("poll"))


def _shows(embed: dict[str, Any]) -> bool:
    """Whether an embed shows anything: Discord drops an empty one (and a message of nothing
    else is empty)."""
    return any(embed.get(k) for k in ("title", "description", "fields", "footer", "author",
                                      "image", "thumbnail", "video"))


def check_embeds(errors: Errors, embeds: Any) -> None:
    embeds = _count(errors, ("embeds",), embeds, EMBEDS)
    total = 0
    for e, embed in enumerate(embeds):
        for key, most in EMBED_LIMITS.items():
            _length(errors, ("embeds", e, key), embed.get(key), most)
            total += len(embed.get(key) or "")
        fields = _count(errors, ("embeds", e, "fields"), embed.get("fields"), FIELDS)
        for f, item in enumerate(fields):
            _length(errors, ("embeds", e, "fields", f, "name"), item.get("name"), FIELD_NAME, 1)
            _length(errors, ("embeds", e, "fields", f, "value"), item.get("value"),
                    FIELD_VALUE, 1)
            total += len(item.get("name") or "") + len(item.get("value") or "")
            if not isinstance(item.get("inline", False), bool):
                _error(errors, ("embeds", e, "fields", f, "inline"), "BASE_TYPE_BOOLEAN",
                       "Must be either true or false.")
        # a footer or an author given must have its text (Discord requires it)
        footer = (embed.get("footer") or {}).get("text")
        _length(errors, ("embeds", e, "footer", "text"), footer, FOOTER,
                1 if "footer" in embed else 0)
        author = (embed.get("author") or {}).get("name")
        _length(errors, ("embeds", e, "author", "name"), author, AUTHOR,
                1 if "author" in embed else 0)
        total += len(footer or "") + len(author or "")
        colour = embed.get("color")
        if colour is not None and not (isinstance(colour, int) and 0 <= colour <= COLOUR):
            _error(errors, ("embeds", e, "color"), "NUMBER_TYPE_MAX",
                   f"int value should be less than or equal to {COLOUR}.")
    if total > EMBED_TOTAL:
        _error(errors, ("embeds",), "MAX_EMBED_SIZE_EXCEEDED",
               f"Embed size exceeds maximum size of {EMBED_TOTAL}")


def check_components(errors: Errors, rows: Any) -> None:
    rows = _count(errors, ("components",), rows, ROWS)
    for r, row in enumerate(rows):
        if row.get("type") != 1:
            _error(errors, ("components", r, "type"), "UNION_TYPE_CHOICES",
                   "Value of field \"type\" must be one of (1,).")
            continue
        items = _count(errors, ("components", r, "components"), row.get("components"),
                       BUTTONS, 1)
        if any(i.get("type") != 2 for i in items) and len(items) > 1:
            _error(errors, ("components", r, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                   "The specified component exceeds the maximum width")
        for c, item in enumerate(items):
            path = ("components", r, "components", c)
            _length(errors, (*path, "custom_id"), item.get("custom_id"), CUSTOM_ID)
            if item.get("type") == 2:
                _length(errors, (*path, "label"), item.get("label"), BUTTON_LABEL)
            elif item.get("type") == 3:
                _check_select(errors, path, item)


def _check_select(errors: Errors, path: tuple[str | int, ...], select: dict[str, Any]) -> None:
    _length(errors, (*path, "placeholder"), select.get("placeholder"), PLACEHOLDER)
    options = _count(errors, (*path, "options"), select.get("options"), OPTIONS, 1)
    for o, option in enumerate(options):
        _length(errors, (*path, "options", o, "label"), option.get("label"), OPTION_TEXT, 1)
        _length(errors, (*path, "options", o, "value"), option.get("value"), OPTION_TEXT, 1)
        _length(errors, (*path, "options", o, "description"), option.get("description"),
                OPTION_TEXT)
    values = [o.get("value") for o in options]
    if len(values) != len(set(values)):
        _error(errors, (*path, "options"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
               "The specified option value is already used")
    for key in ("min_values", "max_values"):
        if key in select and not 0 <= int(select[key]) <= min(OPTIONS, len(options)):
            _error(errors, (*path, key), "BASE_TYPE_BAD_INT",
                   f"int value should be <= {min(OPTIONS, len(options))} and >= 0.")


# ---- interactions -------------------------------------------------------------------------------
def check_modal(data: dict[str, Any]) -> Errors:
    errors: Errors = {}
    _length(errors, ("title",), data.get("title"), MODAL_TITLE, 1)
    _length(errors, ("custom_id",), data.get("custom_id"), CUSTOM_ID, 1)
    rows = _count(errors, ("components",), data.get("components"), ROWS, 1)
    for r, row in enumerate(rows):
        items = _count(errors, ("components", r, "components"), row.get("components"), 1, 1)
        for c, item in enumerate(items):
            path = ("components", r, "components", c)
            _length(errors, (*path, "custom_id"), item.get("custom_id"), CUSTOM_ID, 1)
            _length(errors, (*path, "label"), item.get("label"), INPUT_LABEL, 1)
            _length(errors, (*path, "placeholder"), item.get("placeholder"), INPUT_PLACEHOLDER)
            _length(errors, (*path, "value"), item.get("value"), INPUT_VALUE)
            for key, least in (("min_length", 0), ("max_length", 1)):
                if key in item and not least <= int(item[key]) <= INPUT_VALUE:
                    _error(errors, (*path, key), "BASE_TYPE_BAD_INT",
                           f"int value should be <= {INPUT_VALUE} and >= {least}.")
    return errors


def check_choices(data: dict[str, Any]) -> Errors:
    errors: Errors = {}
    choices = _count(errors, ("choices",), data.get("choices"), CHOICES)
    for c, choice in enumerate(choices):
        _length(errors, ("choices", c, "name"), choice.get("name"), CHOICE_TEXT, 1)
        if isinstance(choice.get("value"), str):
            _length(errors, ("choices", c, "value"), choice["value"], CHOICE_TEXT)
    return errors


def check_callback(body: dict[str, Any], files: int = 0) -> Errors:
    """An interaction's answer: a message (4, 7), a modal (9) or autocomplete choices (8)."""
    data = body.get("data") or {}
    kind = body.get("type")
    if kind == 9:
        found = check_modal(data)
    elif kind == 8:
        found = check_choices(data)
    else:
        found = check_message(data, create=kind == 4, files=files)
    return {"data": found} if found else {}


# ---- commands -----------------------------------------------------------------------------------
def check_commands(commands: list[dict[str, Any]]) -> Errors:
    errors: Errors = {}
    for i, command in enumerate(commands):
        if _check_command(errors, (i,), command) > COMMAND_TOTAL:
            _error(errors, (i,), "APPLICATION_COMMAND_TOO_LARGE",
                   f"Command exceeds maximum size ({COMMAND_TOTAL})")
    return errors


def _check_command(errors: Errors, path: tuple[str | int, ...], command: dict[str, Any]) -> int:
    name, description = command.get("name") or "", command.get("description") or ""
    if not COMMAND_NAME.match(name):
        _error(errors, (*path, "name"), "APPLICATION_COMMAND_INVALID_NAME",
               "Command name is invalid")
    _length(errors, (*path, "description"), description, COMMAND_DESCRIPTION, 1)
    size = len(name) + len(description)
    options = _count(errors, (*path, "options"), command.get("options"), COMMAND_OPTIONS)
    for o, option in enumerate(options):
        size += _check_command(errors, (*path, "options", o), option)
        choices = _count(errors, (*path, "options", o, "choices"), option.get("choices"),
                         CHOICES)
        for c, choice in enumerate(choices):
            _length(errors, (*path, "options", o, "choices", c, "name"), choice.get("name"),
                    CHOICE_TEXT, 1)
            size += len(choice.get("name") or "") + len(str(choice.get("value") or ""))
    return size


# ---- mentions -----------------------------------------------------------------------------------
_USER_MENTION = re.compile(r"<@!?(\d+)>")


def mention_problem(body: dict[str, Any]) -> str | None:
    """Why a new message could ping someone the bot did not mean to, or None: it must carry
    `allowed_mentions` that parse nothing, allow no role and no replied user, and allow only
    users its content mentions."""
    mentions = body.get("allowed_mentions")
    if not isinstance(mentions, dict):
        return "no allowed_mentions"
    if mentions.get("parse") != []:
        return f"allowed_mentions parses {mentions.get('parse')}"
    if mentions.get("roles"):
        return "allowed_mentions allows roles"
    if mentions.get("replied_user"):
        return "allowed_mentions pings the replied-to user"
    named = set(_USER_MENTION.findall(body.get("content") or ""))
    stray = {str(u) for u in mentions.get("users") or []} - named
    if stray:
        return f"allowed_mentions allows users the content does not mention: {sorted(stray)}"
    return None
