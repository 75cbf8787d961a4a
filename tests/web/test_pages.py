"""The campaign page through Starlette's TestClient: who may read what, the headers, the
downloads, and every refusal in one clear sentence (the two example adventures, played at the
table: tests/web/conftest.py)."""

from __future__ import annotations

import json
import re

import pytest

from tests.web.conftest import ADVENTURES, Played, _issue, _replay

pytestmark = pytest.mark.integration

SECRET_ORDER = "melts into the smoke behind the lieutenant"  # Mira's (bob's) DM, turn 1
BOBS_PRIVATE = "count the arrows left in his quiver"  # bob's PvP results, turn 1 (conftest)


def page(client, played: Played, game: str, who: str, path: str = ""):
    return client.get(f"/c/{played.tokens[game, who]}/{path}")


def test_the_party_page_draws_every_sheet_and_the_enemies_only_by_name(client, played):
    answer = page(client, played, "warren", "gm")
    assert answer.status_code == 200
    body = answer.text
    assert body.count('<article class="sheet"') == 3  # Kael, Mira, Bran; never an enemy's
    for name in ("Kael", "Mira", "Bran"):
        assert f">{name}</h3>" in body
    assert 'class="track"' in body and 'aria-current="true"' in body  # the health track drawn
    assert "Swordfighting 5" in body  # Kael's skills
    known = re.search(r'<ul class="known">(.*?)</ul>', body, re.S)
    assert known is not None and "Skarg" in known.group(1) and "Dead" in known.group(1)
    assert ">Skarg</h3>" not in body and ">Goblins</h3>" not in body  # no enemy sheet
    assert 'href="turn/1"' in body and 'href="turn/3"' in body


def test_every_answer_has_the_security_headers_and_no_cookie(client, played):
    for path in ("", "turn/1", "story", "story.md", "story.json", "turn/x", "../nope"):
        answer = page(client, played, "warren", "gm", path)
        policy = answer.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "no-referrer"
        assert "set-cookie" not in answer.headers
    assert "<script>" not in page(client, played, "warren", "gm", "turn/1").text


def test_a_turn_shows_the_posts_the_reveal_the_results_and_the_seal(client, played):
    body = page(client, played, "warren", "gm", "turn/1").text
    assert "Kael wades into the goblins" in body
    assert "The NPC orders, revealed" in body and "attack Kael · Broadsword" in body
    assert "Turn 1 results" in body and "Great Success" in body
    assert 'class="check" data-digest="' in body and 'class="canonical"' in body
    assert 'href="2" rel="next"' in body


def test_the_games_link_shows_no_secret_order_and_no_private_result(client, played):
    for path in ("turn/1", "story", "story.md", "story.json"):
        body = page(client, played, "warren", "gm", path).text
        assert SECRET_ORDER not in body and BOBS_PRIVATE not in body, path


def test_a_players_link_shows_their_own_private_results_and_nobody_elses(client, played):
    bob = page(client, played, "warren", "bob", "turn/1").text
    assert BOBS_PRIVATE in bob and "Your private results" in bob
    assert SECRET_ORDER in bob  # his own secret post
    for path in ("turn/1", "story", "story.json"):
        alice = page(client, played, "warren", "alice", path).text
        assert BOBS_PRIVATE not in alice and SECRET_ORDER not in alice, path


def test_a_link_opens_its_own_game_only(client, played):
    warren = page(client, played, "warren", "alice", "story").text
    tomb = page(client, played, "tomb", "alice", "story").text
    assert "The Goblin Warren" in warren and "Nefer" not in warren
    assert "The Tomb of Ankh" in tomb and "Kael" not in tomb
    # a link's id with another link's secret opens nothing
    warren_id = played.tokens["warren", "alice"].split(".")[0]
    tomb_secret = played.tokens["tomb", "alice"].split(".")[1]
    answer = client.get(f"/c/{warren_id}.{tomb_secret}/")
    assert answer.status_code == 404 and "does not open any campaign page" in answer.text


@pytest.mark.parametrize("token", ["nope", "", ".", "a.b", "x" * 300, "%00.%00"])
def test_a_wrong_token_is_refused_in_one_sentence(client, token):
    answer = client.get(f"/c/{token}/")
    assert answer.status_code == 404
    assert "Traceback" not in answer.text
    assert ("does not open any campaign page" in answer.text
            or "There is no such page" in answer.text)


def test_a_bad_turn_number_is_refused_with_a_hint(client, played):
    answer = page(client, played, "warren", "gm", "turn/abc")
    assert answer.status_code == 404 and "a turn is a whole number" in answer.text
    answer = page(client, played, "warren", "gm", "turn/999")
    assert answer.status_code == 404 and "has no turn 999" in answer.text


def test_the_xp_turn_shows_every_die_and_the_exact_odds(client, played):
    body = page(client, played, "tomb", "gm", "turn/1").text
    assert "Every roll" in body and "Turn 1 results" in body
    assert re.search(r'<td class="dice">[1-6]( [1-6])*', body)
    assert re.search(r"\d+\.\d\d% <span class=\"meta\">\(\d+/\d+\)</span>", body)


def test_the_story_downloads_as_markdown_and_json(client, played):
    markdown = page(client, played, "warren", "bob", "story.md")
    assert markdown.headers["content-type"].startswith("text/markdown")
    assert "attachment" in markdown.headers["content-disposition"]
    assert markdown.text.startswith("# The Goblin Warren") and "## Turn 3" in markdown.text
    assert BOBS_PRIVATE in markdown.text  # bob's own
    data = json.loads(page(client, played, "warren", "bob", "story.json").text)
    assert data["campaign"]["name"] == "The Goblin Warren"
    assert [t["number"] for t in data["turns"]][:3] == [1, 2, 3]


def test_the_home_and_unknown_pages_say_what_to_do(client):
    assert "ask your GM" in client.get("/").text
    assert client.get("/static/check.js").headers["content-type"].startswith(
        "text/javascript")
    assert client.get("/nothing").status_code == 404


def rotated(played: Played, name: str) -> str:
    """The game's link rotated (asked once more first: the same link comes back)."""
    import asyncio

    async def rotate() -> str:
        from fappo_bot.service.facade import Services
        from fappo_bot.service.web_links import LinkService
        from fappo_bot.storage.engine import create_engine_for_url
        from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory
        from fappo_bot.storage.web_links import SqlWebLinks

        engine = create_engine_for_url(played.url)
        try:
            links = LinkService(Services(SqlUnitOfWorkFactory(engine)).deps, SqlWebLinks(engine))
            game, same = await links.link(name, "gm")
            key = next(k for k, v in played.tokens.items() if v == same)
            assert key[1] == "gm"  # asked again: the same link
            return (await links.link(name, "gm", rotate=True))[1]
        finally:
            await engine.dispose()

    return asyncio.run(rotate())


def test_a_rotated_link_is_refused_and_the_new_one_works(played):
    from starlette.testclient import TestClient

    from tests.web.conftest import build_app

    old = played.tokens["tomb", "gm"]
    new = rotated(played, "The Tomb of Ankh")
    played.tokens["tomb", "gm"] = new
    app, engine = build_app(played.url)
    with TestClient(app) as client:
        assert client.get(f"/c/{old}/").status_code == 404
        assert client.get(f"/c/{new}/").status_code == 200
        client.portal.call(engine.dispose)


def test_before_time_is_called_the_seal_is_only_its_digest(tmp_path):
    """A turn still open: its commitment shows, its salt and orders do not, and a secret
    order stays with its author."""
    from starlette.testclient import TestClient

    from tests.web.conftest import build_app

    lines = ADVENTURES["warren"].read_text(encoding="utf-8").splitlines()
    stop = lines.index("?expect Mira: 3/3 AP committed")
    script = tmp_path / "open.txt"
    hostile = ["", "/as Bran", '<img src=x onerror=alert(1)> Bran @everyone aims </pre>.',
               "2 AP shoot Skarg with Long Bow", ""]
    script.write_text("\n".join([*lines[:stop + 1], *hostile]) + "\n", encoding="utf-8")
    for name in ("kael", "mira", "bran", "goblins", "rats", "skarg"):
        (tmp_path / f"{name}.yaml").write_text(
            (ADVENTURES["warren"].parent / f"{name}.yaml").read_text(encoding="utf-8"),
            encoding="utf-8")
    data = tmp_path / "data"
    _replay(data, script)
    url = f"sqlite+aiosqlite:///{(data / 'fappo.sqlite3').as_posix()}"
    import asyncio

    from tests.web import conftest

    names = conftest.NAMES
    conftest.NAMES = {"warren": names["warren"]}
    try:
        tokens, _ = asyncio.run(_issue(url))
    finally:
        conftest.NAMES = names
    app, engine = build_app(url)
    with TestClient(app) as client:
        body = client.get(f"/c/{tokens['warren', 'gm']}/turn/1").text
        assert "The sealed NPC orders" in body and 'class="digest"' in body
        assert 'class="canonical"' not in body and "Short sword" not in body
        assert SECRET_ORDER not in body and "results come when the GM resolves it" in body
        assert SECRET_ORDER in client.get(f"/c/{tokens['warren', 'bob']}/turn/1").text
        # what a player wrote is text, never markup
        assert "&lt;img src=x onerror=alert(1)&gt;" in body and "<img src=x" not in body
        assert "&lt;/pre&gt;" in body
        client.portal.call(engine.dispose)


def test_a_kept_turn_is_kept_for_its_reader_only(client, played):
    """The same application serves bob, then alice, then the game's link: each resolved turn
    is kept per reader, so what bob was sent never reaches the others."""
    for _ in range(2):  # made, then kept
        assert BOBS_PRIVATE in page(client, played, "warren", "bob", "story").text
        assert BOBS_PRIVATE in page(client, played, "warren", "bob", "turn/1").text
        for who in ("alice", "gm"):
            for path in ("story", "turn/1", "story.json"):
                assert BOBS_PRIVATE not in page(client, played, "warren", who, path).text
    assert SECRET_ORDER not in page(client, played, "warren", "alice", "turn/1").text


def test_an_undone_turn_is_never_served_as_it_was_kept():
    """Undo changes the turn's version, so a kept page of it is not served again."""
    from datetime import UTC, datetime

    from fappo_bot.service.facade import Services
    from fappo_bot.service.records import TurnRecord, TurnStatus
    from fappo_bot.service.web_links import Reader
    from fappo_bot.service.web_pages import PageService, TurnPage

    pages = PageService(Services(lambda: None).deps)  # type: ignore[arg-type, return-value]
    reader = Reader("g", None)
    turn = TurnRecord(id="t1", game_id="g", number=1, status=TurnStatus.RESOLVED,
                      opened_at=datetime(2026, 12, 3, tzinfo=UTC), version=3)
    shown = TurnPage(number=1, status=TurnStatus.RESOLVED, posts=())
    pages._keep(turn, reader, shown)
    assert pages._kept(turn, reader) is shown
    assert pages._kept(turn, Reader("g", "alice")) is None
    assert pages._kept(turn.model_copy(update={"version": 4}), reader) is None
    pages._keep(turn.model_copy(update={"status": TurnStatus.OPEN, "id": "t2"}), reader, shown)
    assert len(pages._resolved) == 1  # an open turn is never kept
