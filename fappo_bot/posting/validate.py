"""Glue from a parsed block to the rules validator, and from its errors back to post lines
(spec/posting.md; RULINGS F4, F5, F8, F10, F13).

`fappo_bot.rules.validate.validate_order` decides what is legal; this module only says where: each
`OrderError` names the part of the order (`where`/`index`) and is mapped to the statement that
produced it. Budget problems (AP and SP) go to the first line, in the post's order, that goes over
the budget, with how much was spent before it.
"""

from __future__ import annotations

from collections.abc import Iterable

from fappo_bot.posting.errors import PostProblem
from fappo_bot.posting.models import ParsedBlock, Statement, StatementKind
from fappo_bot.rules import (
    Action,
    Character,
    ErrorCode,
    OrderError,
    Trait,
    TurnState,
    Where,
    action_spends,
    order_ap_costs,
    order_budget,
    pool_key,
    validate_order,
)

_CANONICAL = frozenset({*(t.value for t in Trait), "floating"})
_WHERE_KIND = {
    Where.ACTION: StatementKind.ACTION,
    Where.GUARD: StatementKind.GUARD,
    Where.REDUCE: StatementKind.REDUCE,
    Where.ENDURE: StatementKind.ENDURE,
}


def check_block(state: TurnState, block: ParsedBlock, faulty: frozenset[int] = frozenset()
                ) -> tuple[list[PostProblem], int | None]:
    """The rules' problems with one block's order, each on its line, and the actor's AP budget
    (F8 budget, F10 wounds and shock, F13 reductions, F4/F5 SP pools, via `validate_order`).

    Lines in `faulty` already have a parse problem; the validator's view of them is not repeated.
    """
    actor = state.character(block.actor)
    if actor is None:
        return [], None
    budget = order_budget(state, actor, block.order)
    errors = validate_order(state, block.order)
    problems: list[PostProblem] = []
    if not errors:
        return problems, budget
    sp_lines = sp_overruns(actor, block)
    sp_done = False
    where = _index(block)
    for error in errors:
        if error.code is ErrorCode.CONCENTRATION_CONFLICT and block.order.good_case:
            continue  # the player's good case is the GM's to rule on in the review (F8)
        if error.code is ErrorCode.SP_INSUFFICIENT and sp_lines:
            if not sp_done:
                problems.extend(sp_lines)  # the amounts are known even on a faulty line
                sp_done = True
            continue
        if error.code is ErrorCode.AP_OVER_BUDGET:
            over = _ap_problem(block, error, budget)
            if over.line not in faulty:  # fix that line first: its AP are not known yet
                problems.append(over)
            continue
        statement = _statement(where, error)
        line = statement.line if statement is not None else _first_line(block)
        if line in faulty and error.code is not ErrorCode.CANNOT_ACT:
            continue
        problems.append(_from_error(error, statement, line))
    return problems, budget


def _index(block: ParsedBlock) -> dict[tuple[StatementKind, int], Statement]:
    """Each action, pledge, reduction and endure of the order -> the statement that made it."""
    found: dict[tuple[StatementKind, int], Statement] = {}
    for statement in block.statements:
        if statement.kind is StatementKind.ENDURE:
            found.setdefault((statement.kind, 0), statement)
        elif statement.index is not None:
            for i in range(statement.index, statement.index + statement.count):
                found[(statement.kind, i)] = statement
    return found


def _statement(where: dict[tuple[StatementKind, int], Statement], error: OrderError
               ) -> Statement | None:
    kind = _WHERE_KIND.get(error.where)
    if kind is None:
        return None
    return where.get((kind, 0 if kind is StatementKind.ENDURE else error.index or 0))


def _first_line(block: ParsedBlock) -> int:
    for statement in block.statements:
        if statement.kind is not StatementKind.CHARACTER:
            return statement.line
    return block.statements[0].line if block.statements else 1


#: the post language's way out of a concentration conflict (F8: "unless the player can make a
#: good case"), said in the reply
GOOD_CASE_HINT = ("Move it to another turn, or make your case to the GM on a line of its own: "
                  "Good case: WHY BOTH FIT IN THE TURN [F:L72].")


def _from_error(error: OrderError, statement: Statement | None, line: int) -> PostProblem:
    words = statement.words if statement is not None else (error.words or "")
    hint = GOOD_CASE_HINT if error.code is ErrorCode.CONCENTRATION_CONFLICT else error.hint
    return PostProblem(line, error.code, _sentence(error.message), words, error.expected,
                       hint, error.candidates, error.actor)


def _sentence(message: str) -> str:
    return message[:-1] if message.endswith(".") else message


def _ap_problem(block: ParsedBlock, error: OrderError, budget: int) -> PostProblem:
    """ap-over-budget on the first action, in post order, whose AP go over the budget (F8)."""
    spent = 0
    costs = order_ap_costs(block.order.actions)
    for index, _action, statement in _actions(block):
        cost = costs[index]
        if spent + cost > budget:
            before = f"{spent} already on earlier lines" if spent else "nothing before it"
            return PostProblem(
                statement.line, ErrorCode.AP_OVER_BUDGET,
                f"{block.actor} has {budget} AP this turn; this line needs {cost} more "
                f"({before})", statement.words,
                expected=f"at most {max(0, budget - spent)} AP here",
                hint=error.hint or "take AP off an action or drop one", actor=block.actor)
        spent += cost
    first = next((s for _, _, s in _actions(block)), None)
    return _from_error(error, first, first.line if first is not None else _first_line(block))


def _actions(block: ParsedBlock) -> Iterable[tuple[int, Action, Statement]]:
    for statement in block.statements:
        if statement.kind is StatementKind.ACTION and statement.index is not None:
            start = statement.index
            for offset, action in enumerate(block.order.actions[start: start + statement.count]):
                yield start + offset, action, statement


def _spends(block: ParsedBlock, statement: Statement) -> list[tuple[str, int]]:
    """The SP one statement spends, by canonical pool."""
    order = block.order
    out: list[tuple[str, int]] = []
    index = statement.index or 0
    if statement.kind is StatementKind.ACTION and statement.index is not None:
        for action in order.actions[index: index + statement.count]:
            out.extend(action_spends(action))
    elif statement.kind is StatementKind.GUARD:
        for pledge in order.guard[index: index + statement.count]:
            out.extend(pledge.sp.items())
    elif statement.kind is StatementKind.REDUCE:
        for line in order.reduce[index: index + statement.count]:
            out.extend(line.sp.items())
    elif statement.kind is StatementKind.ENDURE:
        out.append((Trait.TIRELESS.value, 1))
    # the parser writes canonical pool keys already; other spellings are made canonical
    return [(name if name in _CANONICAL else pool_key(name) or name, amount)
            for name, amount in out if amount > 0]


def sp_overruns(actor: Character, block: ParsedBlock) -> list[PostProblem]:
    """sp-insufficient on the first line, in post order, that spends more of a pool than is
    left (F4: "Each point moves the success up one full level"; SP over all lines share pools)."""
    spent: dict[str, int] = {}
    #: pool -> the labels of the lines that spent from it, in order (a dict: an ordered set,
    #: so a post of n spending lines is checked in O(n), not O(n^2))
    where: dict[str, dict[str, None]] = {}
    problems: list[PostProblem] = []
    reported: set[str] = set()
    for statement in block.statements:
        for pool, amount in _spends(block, statement):
            have = actor.pool(pool)
            before = spent.get(pool, 0)
            spent[pool] = before + amount
            if spent[pool] > have and pool not in reported:
                reported.add(pool)
                earlier = list(where.get(pool, {}))
                note = f" ({before} spent on {_and(earlier)})" if before else ""
                problems.append(PostProblem(
                    statement.line, ErrorCode.SP_INSUFFICIENT,
                    f"{actor.name} has {max(0, have - before)} SP left in {pool}{note}",
                    statement.sp_words or statement.words,
                    expected=f"at most {max(0, have - before)} SP from {pool}",
                    hint="Actions, Guard, Reduce and Endure lines all draw on the same pools",
                    actor=actor.name))
            where.setdefault(pool, {})[_label(statement)] = None
    return problems


def _label(statement: Statement) -> str:
    if statement.kind is StatementKind.GUARD:
        return "Guard"
    if statement.kind is StatementKind.REDUCE:
        return "Reduce"
    if statement.kind is StatementKind.ENDURE:
        return "Endure"
    return f"line {statement.line}"


def _and(labels: list[str]) -> str:
    if len(labels) <= 1:
        return "".join(labels)
    return ", ".join(labels[:-1]) + " and " + labels[-1]
