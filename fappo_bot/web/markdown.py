"""The story page as Markdown, for a reader to download: the same data as the page
(`service/web_pages.StoryPage`), so it holds exactly what that reader may see."""

from __future__ import annotations

from fappo_bot.service.web_pages import StoryPage, TurnPage


def _quoted(text: str) -> list[str]:
    return [f"> {line}" if line else ">" for line in text.splitlines()] or [">"]


def _fenced(text: str) -> list[str]:
    fence = "```"
    while fence in text:
        fence += "`"
    return [fence, *text.splitlines(), fence]


def _turn(turn: TurnPage) -> list[str]:
    lines = [f"## Turn {turn.number} ({turn.status.value})", ""]
    for post in turn.posts:
        secret = " (secret)" if post.secret else ""
        lines += [f"**{post.who}**{secret}:", *_quoted(post.text), ""]
    if not turn.posts:
        lines += ["No posts.", ""]
    if turn.revealed:
        lines += ["### The NPC orders, revealed", ""]
        for order in turn.revealed:
            lines += [*_fenced(order), ""]
    if turn.results:
        lines += ["### Results", "", *_fenced(turn.results), ""]
    for private in turn.private:
        lines += ["### Your private results", "", *_fenced(private), ""]
    for roll in turn.rolls:
        dice = " ".join(map(str, roll.dice)) + (
            " + " + " ".join(map(str, roll.bonus)) if roll.bonus else "")
        odds = f"; P(success) {roll.success.percent}" if roll.success else ""
        lines.append(f"- {roll.name}, {roll.what}: [{dice}] -> {roll.outcome}{odds}")
    if turn.rolls:
        lines.append("")
    if turn.commitment:
        lines += [f"NPC commitment (SHA-256): `{turn.commitment.digest}`", ""]
    return lines


def story_markdown(story: StoryPage) -> str:
    campaign = story.campaign
    lines = [f"# {campaign.name}", "", f"Rules: {campaign.ruleset}. Status: {campaign.status}.",
             "", "## The party", ""]
    lines += [f"- {m.view.name}" + (f" ({m.player})" if m.player else "")
              for m in campaign.party] or ["- nobody yet"]
    lines.append("")
    for turn in story.turns:
        lines += _turn(turn)
    return "\n".join(lines).rstrip() + "\n"
