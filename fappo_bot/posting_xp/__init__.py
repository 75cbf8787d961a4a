"""The Xp post language (docs/players.md, "Playing Xp"; docs/posting.md): a post's story and
mechanics lines read into `XpAction`s for the characters' Xp sheets, every problem as the post
language's `Problem` (line, words, what was expected, a hint), and the plain-text reply saying
which roll each line will be and its pool. Pure: the dice-pool rules are `rules_xp`'s; nothing of
FAPPO's rules is read (only the shared `Problem` and its codes)."""

from fappo_bot.posting_xp.models import Route, XpAction, XpKind, XpParsedPost, XpPostContext
from fappo_bot.posting_xp.parser import is_table_talk, parse_xp_post
from fappo_bot.posting_xp.pools import GmRows, pool_of
from fappo_bot.posting_xp.render import XP_POST_FORMS, describe, render_xp_reply

__all__ = [
    "XP_POST_FORMS",
    "GmRows",
    "Route",
    "XpAction",
    "XpKind",
    "XpParsedPost",
    "XpPostContext",
    "describe",
    "is_table_talk",
    "parse_xp_post",
    "pool_of",
    "render_xp_reply",
]
