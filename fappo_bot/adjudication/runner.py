"""Running adjudication cases: each kind through its rules module, then `compare` (spec/cases.md).

A case never raises: a malformed case fails as `bad-case`, and an unexpected error inside the
rules fails the case with the error's type and message (no traceback), so the other cases still
run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fappo_bot.adjudication.compare import compare
from fappo_bot.adjudication.loader import (
    BadCase,
    Case,
    HealCase,
    ParseCase,
    PostOrder,
    RestCase,
    SheetCase,
    SpellCase,
    TurnCase,
)
from fappo_bot.adjudication.outcome import CaseOutcome
from fappo_bot.adjudication.report import turn_dict
from fappo_bot.adjudication.xp_case import XpCase
from fappo_bot.collector import collector_paused
from fappo_bot.rules import (
    Order,
    RulesError,
    TurnState,
    cast_difficulty,
    general_difficulty,
    learned_cast_difficulty,
    learned_difficulty,
    resolve_turn,
    spell_cost,
)
from fappo_bot.sheets.convert import CaseError


def run_case(case: Case) -> CaseOutcome:
    """Run one case and compare the fields its `expect` lists."""
    if isinstance(case, BadCase):
        return CaseOutcome(case.id, case.kind, case.source, False,
                           problem=f"{case.code}: {case.problem}", code=case.code)
    if isinstance(case, XpCase):
        from fappo_bot.adjudication.xp import run_xp_case

        return run_xp_case(case)
    kind = case.kind.value
    runner = _RUNNERS[type(case)]
    try:
        result = runner(case)
    except CaseError as exc:
        return CaseOutcome(case.id, kind, case.source, False,
                           problem=f"{exc.code}: {exc}", code=exc.code)
    except RulesError as exc:
        return CaseOutcome(case.id, kind, case.source, False,
                           problem=f"the rules refused the case ({exc.code}): {exc}",
                           code=exc.code)
    except Exception as exc:
        return CaseOutcome(case.id, kind, case.source, False,
                           problem=f"error while running the case: {type(exc).__name__}: {exc}",
                           code="crash")
    differences = compare(case.expect, result)
    return CaseOutcome(case.id, kind, case.source, not differences, result, differences)


# ---- turn --------------------------------------------------------------------------------------
def parse_text(text: str, state: TurnState, poster: str) -> tuple[list[Order], list[dict[str, Any]]]:
    """A post through the project's post parser (spec/posting.md): its orders, or (when it has
    problems, and then no orders at all) its problems as `{line, code, message, actor}`."""
    orders, errors, _ = _parse_post(text, state, poster)
    return orders, errors


def _parse_post(text: str, state: TurnState, poster: str
                ) -> tuple[list[Order], list[dict[str, Any]], list[Order]]:
    """`parse_text`, and the orders a post with problems would have made (refused whole)."""
    # imported here: a run without posts (sheets, spells, the turns in orders) never loads the
    # post language
    from fappo_bot.posting import PostContext, parse_post

    parsed = parse_post(text, PostContext.for_poster(state, poster))
    errors = [{"line": p.line, "code": p.code.value, "message": p.message, "actor": p.actor}
              for p in parsed.problems]
    if not errors:
        return list(parsed.orders), errors, []
    return [], errors, [b.order for b in parsed.blocks if b.order is not None]


def _run_turn(case: TurnCase) -> dict[str, Any]:
    """Resolve the turn (F7) and report every action, character and error."""
    state = TurnState(characters=case.characters, pending=case.pending, config=case.config)
    orders: list[Order] = []
    refused_posts: list[Order] = []
    post_errors: list[dict[str, Any]] = []
    for order in case.orders:
        if isinstance(order, PostOrder):
            poster = order.poster or order.actor
            if poster is None:
                raise CaseError("a post order needs an actor (or a poster)")
            parsed, errors, refused = _parse_post(order.post, state, poster)
            orders.extend(parsed)
            refused_posts.extend(refused)
            post_errors.extend({**e, "actor": e["actor"] or order.actor or poster}
                               for e in errors)
        else:
            orders.append(order)
    with collector_paused():  # as the service resolves a turn (`service.base.rules_resolver`)
        result = resolve_turn(state, orders, case.gm)
    out = turn_dict(result, orders, refused_posts)
    out["errors"] = post_errors + out["errors"]
    return out


# ---- parse -------------------------------------------------------------------------------------
def parse_result(case: ParseCase) -> dict[str, Any]:
    """The orders (case schema, plus intent and ooc) or the errors (line, code) of a post."""
    from fappo_bot.adjudication.report import order_case_dict

    state = TurnState(characters=case.characters, pending=case.pending, config=case.config)
    parsed, errors = parse_text(case.post, state, case.poster)
    orders = [order_case_dict(o) for o in parsed]
    return {"orders": orders, "errors": errors}


# ---- spell -------------------------------------------------------------------------------------
def _run_spell(case: SpellCase) -> dict[str, Any]:
    """General and learned difficulties and the CC cost of a spell (F24, F26)."""
    minimum = case.config.min_spell_difficulty
    general = general_difficulty(case.effects)
    learned = learned_difficulty(general)
    return {
        "difficulty": general,
        "cast_difficulty": cast_difficulty(general, case.ranges, minimum),
        "learned": learned,
        "learned_cast_difficulty": learned_cast_difficulty(general, case.ranges, minimum),
        "cost": spell_cost(learned),
    }


# ---- sheet, rest, heal -------------------------------------------------------------------------
def _run_sheet(case: SheetCase) -> dict[str, Any]:
    from fappo_bot.adjudication.kinds import run_sheet

    return run_sheet(case)


def _run_rest(case: RestCase) -> dict[str, Any]:
    from fappo_bot.adjudication.kinds import run_rest

    return run_rest(case)


def _run_heal(case: HealCase) -> dict[str, Any]:
    from fappo_bot.adjudication.kinds import run_heal

    return run_heal(case)


_RUNNERS: dict[type, Callable[[Any], dict[str, Any]]] = {
    TurnCase: _run_turn,
    ParseCase: parse_result,
    SpellCase: _run_spell,
    SheetCase: _run_sheet,
    RestCase: _run_rest,
    HealCase: _run_heal,
}
