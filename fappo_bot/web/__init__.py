"""The campaign page: a game's party, turns and story in a browser (Starlette, Jinja2, uvicorn).

An adapter like `discord/` and `console/`: it reads the service's views (`service/web_pages.py`)
and renders them; it computes no rule and holds no SQL. `app.py` builds the application,
`server.py` serves it (inside the bot's event loop, or alone: `fappo-bot web`)."""
