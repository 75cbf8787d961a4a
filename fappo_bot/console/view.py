"""The table's look: the same renderings as on Discord, framed with colour and layout (rich).

The bodies shown are the plain-text renderings of `fappo_bot.posting.render` and the service's
messages, untouched (markup is never interpreted: a post may contain square brackets). The view only
adds the chrome: who is typing, to whom an item is shown, and a colour per kind and per seat.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.cells import cell_len
from rich.console import Console, Group
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from fappo_bot.console.seats import GM_SEAT, Kind, SeatBook, Shown
from fappo_bot.words import plural

#: colour for words of the renderings (chrome only: the words themselves are never changed)
HIGHLIGHTS: tuple[tuple[str, str], ...] = (
    (r"Great Success", "bold green"),
    (r"Solid Success", "green"),
    (r"Bare Success", "yellow"),
    (r"Abject Failure", "bold red"),
    (r"(?<!Abject )Failure", "red"),
    (r"\bDead\b", "bold red"),
    (r"\bDying\b", "red"),
    (r"\(provisional[^)]*\)", "italic"),
    (r"\d+ eliminated|all eliminated", "bold"),
    (r"\b\d+/\d+ AP committed", "bold"),
    (r"SHA-256 commitment:|[0-9a-f]{64}", "dim"),
)


#: control characters shown as visible symbols rather than sent to the terminal: an escape
#: sequence in a name, a post or an imported game would otherwise drive the terminal (clear the
#: screen, set its title, write the clipboard). Newlines and tabs stay; C0 codes become their
#: Control Pictures (ESC is ␛), DEL ␡, and C1 codes �.
_VISIBLE = {
    **{c: 0x2400 + c for c in range(0x20) if c not in (0x09, 0x0A)},
    0x7F: 0x2421,
    **{c: 0xFFFD for c in range(0x80, 0xA0)},
}


def printable(text: str) -> str:
    """`text` safe to print on a terminal: its control characters shown, never obeyed."""
    return text.translate(_VISIBLE)


def styled(body: str) -> Text:
    """A rendering as rich Text: Discord's **bold** shown bold (the asterisks dropped, as Discord
    shows them), results coloured by success level."""
    text = Text()
    for i, line in enumerate(printable(body).split("\n")):
        if i:
            text.append("\n")
        parts = line.split("**")
        if len(parts) % 2 == 0:  # an unpaired "**": leave the line as written
            text.append(line)
            continue
        for j, part in enumerate(parts):
            text.append(part, style="bold" if j % 2 else "")
    for pattern, style in HIGHLIGHTS:
        text.highlight_regex(pattern, style)
    return text


KIND_STYLE: dict[Kind, str] = {
    Kind.REPLY: "green",
    Kind.ERROR: "red",
    Kind.RESULTS: "bright_white",
    Kind.NOTICE: "yellow",
    Kind.QUESTION: "magenta",
    Kind.INFO: "blue",
    Kind.POST: "white",
}


class TableView:
    """Draws the table on a rich console.

    `all_seats` (script replays) shows every item with its audience, so one run shows what each seat
    would see; otherwise only what the current seat sees is drawn, and items for other seats are
    counted, never shown (F29: secrets stay with their seat).
    """

    def __init__(self, console: Console, book: SeatBook, *, all_seats: bool = False) -> None:
        self.console = console
        self.book = book
        self.all_seats = all_seats

    def prompt(self, seat: str) -> str:
        """The input prompt for a seat (plain text, for readline)."""
        return f"[{printable(self.book.label(seat))}]> "

    def seat_text(self, seat: str) -> Text:
        """The seat's label in its colour."""
        return Text(printable(self.book.label(seat)), style=f"bold {self.book.colour(seat)}")

    def echo(self, seat: str, typed: str) -> None:
        """Show what a seat typed (script replays), as the channel would show the message."""
        head = Text.assemble(self.seat_text(seat), Text(" › ", style="dim"))
        lines = printable(typed).splitlines() or [""]
        first = Text.assemble(head, Text(lines[0]))
        rest = [Text("    " + line) for line in lines[1:]]
        self.console.print(Group(first, *rest))

    def seat_change(self, seat: str) -> None:
        """A rule across the screen when the seat changes."""
        self.console.print(Rule(self.seat_text(seat), style=self.book.colour(seat)))

    def audience(self, item: Shown, short: bool = False) -> str:
        """`#table · everyone` or `only alice (Kael)`; `short`: `everyone`, `only alice`."""
        if item.seats is None:
            return "everyone" if short else "#table · everyone"
        names = sorted(item.seats, key=lambda s: (s != GM_SEAT, s))
        return "only " + ", ".join(s if short else self.book.label(s) for s in names)

    def show(self, items: Iterable[Shown], seat: str) -> None:
        """Draw the items the seat may see (all of them, labelled, in a replay)."""
        hidden = 0
        for item in items:
            if not self.all_seats and not item.visible_to(seat):
                hidden += 1
                continue
            style = KIND_STYLE.get(item.kind, "white")
            title = Text(printable(item.title or item.kind.value), style=f"bold {style}")
            tag = printable(self.audience(item))
            if cell_len(tag) + 6 > self.console.width:  # a narrow screen: the tag's short form
                tag = printable(self.audience(item, short=True))
            subtitle = Text(tag, style="dim" if not item.private else "italic")
            width = self._width(item.body, title, subtitle)
            self.console.print(
                Panel(
                    styled(item.body) if item.kind is not Kind.POST else Text(printable(item.body)),
                    width=width,
                    title=title,
                    title_align="left",
                    subtitle=subtitle,
                    subtitle_align="right",
                    border_style=style if not item.private else f"{style} dim",
                    expand=width is not None,  # rich keeps a set width only when expanding
                )
            )
        if hidden:
            self.console.print(
                Text(f"({plural(hidden, 'private message')} for other seats not shown)", style="dim")
            )

    def _width(self, body: str, title: Text, subtitle: Text) -> int | None:
        """The panel's width: its content's (rich's own choice, None), unless the title or the
        audience tag is wider: then wide enough to show them whole (a narrow panel would cut
        the tag off), up to the screen's width."""
        frame = 6  # the corners, a blank each side and the border's first dash
        tags = max(title.cell_len, subtitle.cell_len) + frame
        content = max((cell_len(line) for line in body.split("\n")), default=0) + 4
        return min(tags, self.console.width) if tags > content else None

    def note(self, text: str, style: str = "dim") -> None:
        """A line of table chrome (not part of the game)."""
        self.console.print(Text(printable(text), style=style))

    def failure(self, text: str) -> None:
        """A failed assertion or a table error."""
        self.console.print(Text(printable(text), style="bold red"))
