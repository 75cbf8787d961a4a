"""The campaign page in a real browser: Debian's chromium, headless, driven by the Python
`playwright` package (launched by `executable_path`: no browser is ever downloaded), against
the application served by uvicorn on a local port. The pages render (screenshots kept in
tests/artifacts/web/), the commitment check runs in the browser (Web Crypto) and says "matches",
then "does not match" once a byte of the JSON changed; a player's link shows nobody else's
private results nor another game; a rotated link is refused; axe-core (vendored from the npm
registry: tests/web/assets/) finds no serious or critical violation.

Skipped, saying why, where there is no chromium or no playwright (`./scripts/setup` installs
chromium with apt where it can)."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.conftest import Played, build_app

pytestmark = pytest.mark.e2e

CHROMIUM = os.environ.get("FAPPO_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "web"
AXE = Path(__file__).resolve().parent / "assets" / "axe-4.14.1.min.js"
BOBS_PRIVATE = "count the arrows left in his quiver"  # bob's PvP results (conftest)

try:
    from playwright.sync_api import Page, sync_playwright
except ImportError:  # pragma: no cover - the dev install has it
    sync_playwright = None  # type: ignore[assignment]

if sync_playwright is None:
    pytest.skip("the playwright package is not installed (pip install -e .[dev])",
                allow_module_level=True)
if not Path(CHROMIUM).is_file():
    pytest.skip(f"no chromium at {CHROMIUM}: ./scripts/setup installs it with apt where it can "
                "(or set FAPPO_CHROMIUM)", allow_module_level=True)


@pytest.fixture(scope="module")
def site(played: Played) -> Iterator[str]:
    """The campaign page served by uvicorn in a thread of its own (its own event loop), on a
    socket already listening, so the browser's first request simply waits to be accepted."""
    import uvicorn

    app, engine = build_app(played.url)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    server = uvicorn.Server(uvicorn.Config(app, access_log=False, log_config=None,
                                           lifespan="off", log_level="warning"))

    async def serve() -> None:
        try:
            await server.serve(sockets=[sock])
        finally:
            await engine.dispose()

    thread = threading.Thread(target=asyncio.run, args=(serve(),), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with sync_playwright() as playwright:
        try:
            launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                  args=["--no-sandbox"])
        except Exception as exc:  # a stub (a snap's wrapper), or a browser that cannot start
            pytest.skip(f"the chromium at {CHROMIUM} does not start headless: "
                        f"{str(exc).splitlines()[0]}")
        try:
            yield launched
        finally:
            launched.close()


def open_page(browser, url: str, *, phone: bool = False, dark: bool = False,
              bypass_csp: bool = False) -> tuple[Page, list[str]]:
    context = browser.new_context(
        viewport={"width": 390, "height": 844} if phone else {"width": 1200, "height": 900},
        color_scheme="dark" if dark else "light", bypass_csp=bypass_csp,
        device_scale_factor=1)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(url)
    return page, problems


def shot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def url(site: str, played: Played, game: str, who: str, path: str = "") -> str:
    return f"{site}/c/{played.tokens[game, who]}/{path}"


def test_the_pages_render_on_a_phone_and_a_desktop_light_and_dark(site, played, browser):
    page, problems = open_page(browser, url(site, played, "warren", "gm"), phone=True)
    assert page.locator("h1").inner_text() == "The Goblin Warren"
    assert page.locator("article.sheet").count() == 3
    assert page.locator(".track li.here").count() == 3
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll
    shot(page, "party-phone")
    page, more = open_page(browser, url(site, played, "warren", "gm", "turn/1"), dark=True)
    assert page.locator("h1").inner_text().startswith("Turn 1")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(21, 22, 26)"  # the dark scheme
    shot(page, "turn-1-dark")
    page, story = open_page(browser, url(site, played, "warren", "gm", "story"))
    assert page.locator("section.turn").count() >= 3
    shot(page, "story")
    page, xp = open_page(browser, url(site, played, "tomb", "gm", "turn/1"), phone=True)
    assert page.locator("table.rolls tbody tr").count() >= 1
    shot(page, "xp-turn-1-phone")
    # no script refused by the policy, no error: the one script is the static file
    assert problems == more == story == xp == []


def test_the_commitment_check_says_matches_then_does_not_match(site, played, browser):
    page, problems = open_page(browser, url(site, played, "warren", "gm", "turn/1"))
    verdict = page.locator(".verdict")
    verdict.filter(has_text="matches").wait_for()
    assert verdict.inner_text().startswith("matches")
    canonical = page.locator("textarea.canonical")
    text = canonical.input_value()
    changed = text.replace('"ap":2', '"ap":3', 1)
    assert changed != text
    canonical.fill(changed)
    page.get_by_role("button", name="Check the seal").click()
    verdict.filter(has_text="does not match").wait_for()
    assert verdict.inner_text().startswith("does not match")
    canonical.fill(text)  # and back: it matches again
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # the button, by keyboard
    page.locator(".verdict.ok").wait_for()
    shot(page, "commitment-check")
    assert problems == []


def test_a_players_link_shows_only_their_own_private_results(site, played, browser):
    bob, _ = open_page(browser, url(site, played, "warren", "bob", "turn/1"))
    assert BOBS_PRIVATE in bob.locator("main").inner_text()
    alice, _ = open_page(browser, url(site, played, "warren", "alice", "turn/1"))
    assert BOBS_PRIVATE not in alice.locator("main").inner_text()
    alice, _ = open_page(browser, url(site, played, "warren", "alice", "story"))
    text = alice.locator("main").inner_text()
    assert BOBS_PRIVATE not in text and "Nefer" not in text  # nor the other game's story


def test_a_rotated_link_is_refused(site, played, browser):
    from concurrent.futures import ThreadPoolExecutor

    from tests.web.test_pages import rotated

    old = played.tokens["tomb", "gm"]
    with ThreadPoolExecutor(1) as pool:  # playwright's own loop runs in this thread
        new = pool.submit(rotated, played, "The Tomb of Ankh").result()
    played.tokens["tomb", "gm"] = new
    page, _ = open_page(browser, f"{site}/c/{old}/")
    assert "does not open any campaign page" in page.locator("main").inner_text()
    page, _ = open_page(browser, f"{site}/c/{new}/")
    assert page.locator("h1").inner_text() == "The Tomb of Ankh"


def test_the_keyboard_reaches_the_content_first(site, played, browser):
    page, _ = open_page(browser, url(site, played, "warren", "gm"))
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to the content"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"


@pytest.mark.parametrize("path", ["", "turn/1", "story"])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_axe_finds_no_serious_violation(site, played, browser, path, dark):
    # axe is injected as a script of the test's own: the page's policy would refuse it
    page, _ = open_page(browser, url(site, played, "warren", "bob", path), dark=dark,
                        bypass_csp=True)
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("async () => (await axe.run(document)).violations.map("
                          "v => ({id: v.id, impact: v.impact, nodes: v.nodes.length}))")
    serious = [v for v in found if v["impact"] in ("serious", "critical")]
    assert serious == [], serious
    xp, _ = open_page(browser, url(site, played, "tomb", "bob", path), dark=dark,
                      bypass_csp=True)
    xp.add_script_tag(path=str(AXE))
    found = xp.evaluate("async () => (await axe.run(document)).violations.map("
                        "v => ({id: v.id, impact: v.impact}))")
    assert [v for v in found if v["impact"] in ("serious", "critical")] == []
