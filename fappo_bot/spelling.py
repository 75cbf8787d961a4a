"""How the project compares names and suggests the one a user meant: `fold`, the one comparison
key of a name, and `nearest`, the one nearest-name matcher behind every "Did you mean" (posts,
the GM's review, Xp posts, settings, time zones, `/help` topics, the table's commands, games
and players). Pure and imports nothing, so every layer, the rules cores included, may use it.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable
from functools import lru_cache


@lru_cache(maxsize=8192)
def fold(name: str) -> str:
    """The comparison key of a name, the one the whole project compares names by:
    compatibility-normalised (full-width letters, ligatures), curly apostrophes straight,
    case-folded, runs of blanks made single. Asked of the same few names again and again, so
    remembered."""
    if not name.isascii():
        name = unicodedata.normalize("NFKC", name).replace("\u2019", "'")
    return " ".join(name.split()).casefold()


def edit_distance(a: str, b: str, cap: int = 8) -> int:
    """The letters to add, remove or change, or pairs of neighbours to swap, that make `a` into
    `b` (optimal string alignment: a swap is one typo, as the post language's tiers count it),
    capped (for ranking suggestions among a few names). Counting stops at the cap: only the
    cells less than `cap` from the diagonal can stay under it, and a count clipped at the cap
    is the same at every cell under it."""
    if abs(len(a) - len(b)) >= cap:
        return cap
    a, b = a[:40], b[:40]
    letters = set(b)
    if sum(ch not in letters for ch in a) >= cap:
        return cap  # each letter of `a` that `b` lacks costs an edit of its own
    n = len(b)
    before: list[int] = []
    previous = [j if j < cap else cap for j in range(n + 1)]
    for i, ca in enumerate(a, 1):
        current = [cap] * (n + 1)
        if i < cap:
            current[0] = i
        low = 0
        for j in range(max(1, i - cap + 1), min(n, i + cap - 1) + 1):
            cb = b[j - 1]
            cost = previous[j - 1] + (ca != cb)
            if previous[j] + 1 < cost:
                cost = previous[j] + 1
            if current[j - 1] + 1 < cost:
                cost = current[j - 1] + 1
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb and before[j - 2] + 1 < cost:
                cost = before[j - 2] + 1
            current[j] = cost if cost < cap else cap
            low = low or cost < cap
        if not low and min(previous) >= cap:
            return cap  # no later row can come back under the cap (a swap looks two rows back)
        before, previous = previous, current
    return previous[n] if previous[n] < cap else cap


def nearest(written: str, names: Iterable[str], limit: int = 3, *,
            always: bool = False) -> tuple[str, ...]:
    """The names of `names` nearest to `written`, at most `limit`, nearest first (ties in the
    folded names' order), each as `names` spells it. A name's score is its distance to the
    folded `written` (`edit_distance`), or one more than the distance to its start of the same length (`Sword`
    is near Swordfighting); a name is near when its score is at most half the written length,
    between 1 and 3. With `always`, the nearest are given even when none is near (a post's
    unknown name, whose player needs the names there are); an empty `written` gives the first
    names then, and nothing otherwise."""
    key = fold(written)
    distinct: dict[str, str] = {}
    for name in names:
        distinct.setdefault(fold(name), name)
    if not key:
        return tuple(distinct[k] for k in sorted(distinct))[:limit] if always else ()
    near = min(3, max(1, len(key) // 2))
    # only a near name counts unless `always`: no distance need be counted past it
    cap = 8 if always else near + 1
    scored = sorted((min(edit_distance(key, folded, cap),
                         edit_distance(key, folded[: len(key)], cap) + 1), folded)
                    for folded in distinct)
    if always and scored:
        near = max(near, scored[0][0])
    return tuple(distinct[folded] for score, folded in scored if score <= near)[:limit]


def nearest_lines(wanted: str, lines: Iterable[str], limit: int = 3) -> list[str]:
    """The lines of output most like `wanted`, most alike first: sentences, not names, so
    compared by the runs of text they share rather than by edits (a line may differ from the
    one expected by a whole word and still be the one meant)."""
    return difflib.get_close_matches(wanted, list(lines), n=limit, cutoff=0.3)
