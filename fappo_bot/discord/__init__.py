"""The Discord adapter: a `commands.Bot` whose cogs are thin shells over the service.

`startup.py` is the composition root (storage -> `Services` -> `FappoBot` -> `bot.start`),
`command.py` the `fappo-bot run` subcommand. Cogs hold no rules and no SQL: every decision and
every permission check is the service's, and its sentences are shown as they are (one error
boundary, `errors.py`). Nothing the bot sends can ping anyone it does not mean to
(`AllowedMentions.none()` by default).
"""
