"""RULINGS F7 (simultaneous resolution), F13 (provisional hits and their reduction) and P2/P4:
the pipeline end to end, and Hypothesis properties of `resolve_turn`."""

from __future__ import annotations

import random
from dataclasses import asdict, replace

import pytest
from engine_helpers import act, char, codes, health, order, run, state, who
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from fappo_bot.rules.character import StatusKind
from fappo_bot.rules.health import ap_next, dead_index, level_name
from fappo_bot.rules.orders import Action, Order, PendingHit
from fappo_bot.rules.ranges import moves_away
from fappo_bot.rules.results import GMInputs

pytestmark = pytest.mark.unit

_ACTION = TypeAdapter(Action)


def test_f7_both_sides_strike_at_once():
    """F7 Amb-1: "a PC who drops an NPC in turn N still receives that NPC's turn-N attack"."""
    kael = char("Kael", traits={"Nimble": 3}, skills={"Swordfighting": 5}, weapons=["Battle Axe"])
    orc = char("Orc", skills={"Swordfighting": 3}, weapons=["Broadsword"])
    result = run(state(kael, orc),
                 # the Battle Axe's skill is the GM's to name (F19 Amb-1 amendment)
                 order("Kael", {"kind": "attack", "ap": 3, "target": "Orc",
                                "skill": "Swordfighting"}),
                 order("Orc", {"kind": "attack", "ap": 2, "target": "Kael"}))
    assert health(result, "Orc") == "Dying"
    assert act(result, "Orc").damage > 0
    assert health(result, "Kael") != "Healthy"


def test_f13_hits_are_provisional_and_the_next_post_reduces_them():
    """[F:L231] "After the attack occurs, the defender declares the use of SPs to reduce damage
    in the same post as declaring his next action." The resolved state resolves again."""
    kael = char("Kael", traits={"Nimble": 3}, skills={"Swordfighting": 3}, weapons=["Broadsword"],
                health="Battered")
    bandit = char("Bandit", skills={"Swordfighting": 3}, weapons=["Longsword"])
    first = run(state(kael, bandit), order("Bandit", {"kind": "attack", "ap": 3,
                                                      "target": "Kael"}))
    assert health(first, "Kael") == "Dying"
    [hit] = first.hits
    assert hit.levels == 3 and hit.target == "Kael" and hit.id == "t1-bandit-0"
    second = run(first.state, order("Kael", {"kind": "defend", "ap": 1},
                                    reduce=[{"hit": hit.id, "sp": {"Nimble": 2}}]))
    assert codes(second) == set()
    assert health(second, "Kael") == "Wounded"
    assert who(second, "Kael").pool("Nimble") == 1
    assert ap_next(who(second, "Kael"), second.state.config) == 2
    assert second.finalized is not None


def test_f13_unreduced_hit_stays():
    """F13: "no post by calltime -> r_e = 0 (forfeited)"."""
    kael = char("Kael", health="Staggered")
    hit = PendingHit(id="h1", target="Kael", levels=2)
    result = run(state(kael, pending=(hit,)))
    assert health(result, "Kael") == "Wounded"


def test_f15_dying_clock_runs_out():
    """[F:L180] "Dying characters will fall Dead if they don't receive two full turns of
    attention ... within ten combat turns"."""
    kael = char("Kael", health="Dying", dying_turns=9)
    result = run(state(kael))
    assert health(result, "Kael") == "Dead"
    assert any(e.kind == "died" for e in result.events)


def test_f15_two_turns_of_attention_stabilize():
    """F15 example: a medic attends in two turns -> stabilized."""
    kael = char("Kael", health="Dying", attended_turns=1, dying_turns=3)
    medic = char("Medic", traits={"Sagacious": 3}, skills={"Healing": 1})
    result = run(state(kael, medic), order("Medic", {"kind": "tend", "ap": 3, "target": "Kael"}))
    assert [s.kind.value for s in who(result, "Kael").statuses] == ["stabilized"]
    assert health(result, "Kael") == "Dying"


def test_f15_highborn_two_sp_route():
    """F15 example: "A Highborn knight who is adjacent declares 'stabilize' (1 AP) ... and spends
    2 SP (from any pool) -> stabilized"."""
    kael = char("Kael", health="Dying")
    knight = char("Knight", traits={"Highborn": 3})
    result = run(state(kael, knight),
                 order("Knight", {"kind": "tend", "ap": 1, "target": "Kael",
                                  "sp": {"Highborn": 2}}))
    assert who(result, "Kael").has_status(StatusKind.STABILIZED)
    assert who(result, "Knight").pool("Highborn") == 1


def test_refused_order_is_dropped_whole():
    """spec: "Validation refuses an order whole (`errors`), and the actor then acts as if it had
    not posted." No SP are spent."""
    kael = char("Kael", traits={"Nimble": 1}, skills={"Swordfighting": 3}, weapons=["Broadsword"])
    gob = char("Gob")
    result = run(state(kael, gob), order("Kael", {"kind": "attack", "ap": 1, "target": "Gob",
                                                  "sp": {"Nimble": 5}}))
    assert codes(result, "Kael") == {"sp-insufficient"}
    assert result.actions == ()
    assert who(result, "Kael").pool("Nimble") == 1


def test_f18_bleeding_drops_at_end_of_combat_and_binding_restores():
    """F18.2 example: "hit GS by a dagger ... -> Battered; the combat ends -> Incapacitated ...
    A Healing-skilled friend binds for 10 min -> back to Battered"."""
    kael = char("Kael", health="Battered", status=["bleeding"])
    ended = run(state(kael), gm=GMInputs(end_combat=True))
    assert health(ended, "Kael") == "Incapacitated"
    medic = char("Medic", skills={"Healing": 1})
    st2 = replace(ended.state, characters=(*ended.state.characters, medic))
    tend = order("Medic", {"kind": "tend", "ap": 1, "target": "Kael"})
    once = run(st2, tend)
    assert health(once, "Kael") == "Incapacitated"
    assert who(once, "Kael").statuses[0].elapsed == 1
    lapsed = run(once.state)
    assert who(lapsed, "Kael").statuses[0].elapsed == 0  # interrupted: starts over (Amb-6)
    kael = who(once, "Kael")
    almost = replace(kael, statuses=(replace(kael.statuses[0], elapsed=59),))
    st3 = replace(once.state, characters=(almost, medic))
    bound = run(st3, tend)
    assert health(bound, "Kael") == "Battered"
    assert not who(bound, "Kael").statuses


def test_f18_2_no_binding_during_combat():
    """F18.2 Amb-3: "Binding before combat ends: not possible"."""
    kael = char("Kael", health="Battered", status=["bleeding"])
    medic = char("Medic", skills={"Healing": 2})
    result = run(state(kael, medic), order("Medic", {"kind": "tend", "ap": 3, "target": "Kael"}))
    assert act(result, "Medic").effective is False
    assert [s.kind.value for s in who(result, "Kael").statuses] == ["bleeding"]


# ---- properties ------------------------------------------------------------------------------

NAMES = ["Ash", "Bo", "Cy", "Dax", "Eve"]
WEAPONS = ["Broadsword", "Dagger", "Short sword", "Club", "Battle Axe"]


@st.composite
def scenes(draw):
    """A melee scene: up to five fighters, each attacking someone and/or defending."""
    n = draw(st.integers(2, 5))
    fighters = []
    for name in NAMES[:n]:
        fighters.append(char(
            name, traits={"Nimble": draw(st.integers(1, 3)), "Brawny": draw(st.integers(1, 3))},
            skills={"Swordfighting": draw(st.integers(0, 5))},
            weapons=[draw(st.sampled_from(WEAPONS))],
            armor=draw(st.sampled_from(["none", "light", "medium", "heavy"])),
            shield=draw(st.sampled_from(["none", "light", "medium"])),
            health=draw(st.sampled_from(["Healthy", "Staggered", "Battered", "Wounded"])),
        ))
    orders = []
    for f in fighters:
        others = [g.name for g in fighters if g.name != f.name]
        attack_ap = draw(st.integers(0, 2))
        actions = []
        if attack_ap:
            actions.append({"kind": "attack", "ap": attack_ap,
                            "target": draw(st.sampled_from(others)),
                            "sp": {"Nimble": draw(st.integers(0, 1))}})
        if draw(st.booleans()):
            actions.append({"kind": "defend", "ap": 1})
        guard = [{"against": draw(st.sampled_from([*others, "any"])), "sp": {"Brawny": 1}}] if (
            draw(st.booleans())) else []
        orders.append(order(f.name, *actions, guard=guard))
    perm = draw(st.permutations(range(len(orders))))
    return state(*fighters), orders, [orders[i] for i in perm]


@given(scenes())
@settings(max_examples=60, deadline=None)
def test_f7_resolution_independent_of_order_listing(scene):
    """F7 amendment: "no result depends on the order in which orders arrived"."""
    st_, orders, shuffled = scene
    a = run(st_, *orders)
    b = run(st_, *shuffled)
    assert a == b


@given(scenes())
@settings(max_examples=60, deadline=None)
def test_resolution_is_deterministic_and_keeps_values_in_bounds(scene):
    """P2/P4 and F12 Amb-7: same input, same output; SP and AP never negative; damage never
    past Dead."""
    st_, orders, _ = scene
    a = run(st_, *orders)
    assert a == run(st_, *orders)
    cfg = a.state.config
    for c in a.state.characters:
        assert all(v >= 0 for v in c.traits.values()) and c.floating >= 0
        assert ap_next(c, cfg) >= 0
        assert 0 <= c.health <= dead_index(c)
        assert level_name(c, cfg)


def test_f18_2_bleeding_drop_survives_finalising_last_hits():
    """F18.2: the drop to Incapacitated at the end of combat holds when the last resolution's
    provisional hits are settled in the next turn (they were shown on top of the drop)."""
    kael = char("Kael", traits={"Nimble": 3})
    bandit = char("Bandit", skills={"Knife Fighting": 5}, weapons=["Dagger"])
    last = run(state(kael, bandit),
               order("Bandit", {"kind": "attack", "ap": 3, "target": "Kael",
                                "special": "Bleeding"}),
               gm=GMInputs(end_combat=True))
    assert health(last, "Kael") == "Incapacitated"
    after = run(last.state, order("Kael", reduce=[{"hit": last.hits[0].id,
                                                   "sp": {"Nimble": 2}}]))
    assert health(after, "Kael") == "Incapacitated"
    bleeding = next(s for s in who(after, "Kael").statuses if s.restore_to is not None)
    assert bleeding.restore_to == 0


def test_r2_floating_sp_for_reduction_flag():
    """R2 `floating_sp_for_reduction` (F13 Amb-1): off, floating SP cannot reduce damage."""
    from fappo_bot.rules.config import RulesConfig

    kael = char("Kael", floating=2)
    hit = PendingHit(id="h1", target="Kael", levels=2)
    o = order("Kael", reduce=[{"hit": "h1", "sp": {"floating": 2}}])
    assert codes(run(state(kael, pending=(hit,)), o)) == set()
    strict = RulesConfig(floating_sp_for_reduction=False)
    assert codes(run(state(kael, pending=(hit,), config=strict), o)) == {"sp-insufficient"}


@given(scenes(), st.lists(st.booleans(), min_size=3, max_size=3))
@settings(max_examples=30, deadline=None)
def test_f7_resolved_state_resolves_again_for_several_turns(scene, reduce_flags):
    """F7/F13: each resolution's state (provisional hits in `pending`) feeds the next one; the
    track never leaves its bounds and every pending hit names a character of the scene."""
    st_, orders, _ = scene
    for reduce in reduce_flags:
        result = run(st_, *orders)
        names = {c.name for c in result.state.characters}
        assert all(h.target in names and h.levels >= 0 for h in result.hits)
        for c in result.state.characters:
            assert 0 <= c.health <= dead_index(c)
        st_ = result.state
        orders = [
            order(o.actor, *[_ACTION.dump_python(a, by_alias=True, exclude_defaults=True,
                                                 mode="json") for a in o.actions],
                  guard=[asdict(p) for p in o.guard],
                  reduce=[{"hit": h.id, "sp": {"Brawny": 1}} for h in result.hits
                          if h.target == o.actor][:1] if reduce else [])
            for o in orders
        ]


def test_f7_step3_overflow_dropped_for_orders_valid_when_posted():
    """F7 amendment: "Dropping the overflow in declared order applies only to orders that were
    valid when posted and became over budget by resolution time"."""
    kael = char("Kael", skills={"Swordfighting": 3}, weapons=["Broadsword"], health="Wounded")
    gob = char("Gob")
    o = order("Kael", {"kind": "attack", "ap": 1, "target": "Gob"}, {"kind": "defend", "ap": 1},
              {"kind": "defend", "ap": 1})
    assert codes(run(state(kael, gob), o)) == {"ap-over-budget"}
    kept = run(state(kael, gob), o, gm=GMInputs(trim_overflow=True))
    assert kept.errors == ()
    assert [a.index for a in kept.actions] == [0, 1]
    assert any(e.kind == "overflow" for e in kept.events)


# ---- void actions (RULINGS Amendments 2026-12-01, F7 Amb-4 and Amb-6) --------------------------
def test_f7_amb4_a_target_moves_away_when_it_moves_away_anywhere_or_toward_another():
    """F7 Amb-4 (amended): "A target moves away when it moves `away`, with no direction, or
    toward someone other than the attacker"."""
    def moving(**fields):
        return TypeAdapter(Order).validate_python(
            {"actor": "Gob", "actions": [{"kind": "move", "ranges": 2, **fields}]})

    assert moves_away(moving(away="Kael"), "Kael")
    assert moves_away(moving(away="Mira"), "Kael")
    assert moves_away(moving(), "Kael")
    assert moves_away(moving(toward="Mira"), "Kael")
    assert not moves_away(moving(toward="Kael"), "Kael")
    assert not moves_away(moving(toward="ka"), "Kael")  # a prefix of the attacker's name
    assert not moves_away(moving(away="Kael", **{"if": "the door opens"}), "Kael")
    assert not moves_away(None, "Kael")


def test_f7_amb4_a_move_toward_a_namesake_of_the_attacker_is_a_move_toward_someone_else():
    """The name a move goes `toward` means whom the turn's names mean (exact before a prefix):
    a Goblin moving toward Kael moves toward someone other than Kaelin, so Kaelin's melee attack
    needs the GM's `engaged` ruling (it counted as a move toward Kaelin, "kael" being a prefix)."""
    kaelin = char("Kaelin", skills={"Swordfighting": 3}, weapons=["Broadsword"])
    kael = char("Kael", skills={"Swordfighting": 3}, weapons=["Broadsword"], position=1)
    gob = char("Gob", skills={"Knife Fighting": 2}, weapons=["Dagger"])
    moving = order("Gob", {"kind": "move", "ranges": 1, "toward": "Kael"})
    result = run(state(kaelin, kael, gob),
                 order("Kaelin", {"kind": "attack", "ap": 1, "target": "Gob"}), moving)
    assert not act(result, "Kaelin").effective
    engaged = run(state(kaelin, kael, gob), moving,
                  order("Kaelin", {"kind": "attack", "ap": 1, "target": "Gob", "engaged": True}))
    assert act(engaged, "Kaelin").effective
    toward = run(state(kaelin, kael, gob), order("Gob", {"kind": "move", "ranges": 1,
                                                         "toward": "kaeli"}),
                 order("Kaelin", {"kind": "attack", "ap": 1, "target": "Gob"}))
    assert act(toward, "Kaelin").effective  # a unique prefix of the attacker is the attacker


@pytest.mark.parametrize("status", ["prone", "transfixed"])
def test_f7_amb4_a_target_whose_move_goes_nowhere_has_not_moved_away(status):
    """A prone target without `stand`, or one pinned by a Transfix, does not move (F18.9,
    F18.14): its move is void, so it has not moved away and the melee attack on it resolves."""
    kael = char("Kael", skills={"Swordfighting": 3}, weapons=["Broadsword"])
    fields = {"status": [{"kind": "transfixed", "flag": True}]} if status == "transfixed" \
        else {"status": [status]}
    gob = char("Gob", skills={"Knife Fighting": 2}, weapons=["Dagger"], **fields)
    result = run(state(kael, gob), order("Kael", {"kind": "attack", "ap": 1, "target": "Gob"}),
                 order("Gob", {"kind": "move", "ranges": 1, "away": "Kael"}))
    assert not act(result, "Gob").effective  # the move goes nowhere
    assert act(result, "Kael").effective and act(result, "Kael").total == 3 + 1


def test_f7_amb6_a_void_action_spends_its_ap_and_the_order_resolves():
    """F7 Amb-6 (amended): "an action of an accepted order that proves impossible at resolution
    (a conditional whose GM-named target is out of reach ...) is void alone: its AP are spent,
    it reports `effective: false`, and the rest of the order resolves"."""
    kael = char("Kael", traits={"Nimble": 3}, skills={"Swordfighting": 3, "Archery": 3},
                weapons=["Long Bow", "Broadsword"], wielding="Long Bow")
    gob = char("Gob", skills={"Knife Fighting": 2}, weapons=["Dagger"], position=3)
    result = run(state(kael, gob), order(
        "Kael", {"kind": "attack", "ap": 2, "target": "Gob"},
        {"kind": "attack", "ap": 1, "target": "Gob", "weapon": "Fist", "if": "he comes",
         "triggered": True}))
    assert result.errors == ()
    assert act(result, "Kael", 0).effective and act(result, "Kael", 0).damage > 0
    void = act(result, "Kael", 1)
    assert (void.effective, void.total, void.notes) == (False, None, ("Gob is out of reach",))


def test_f7_amb6_an_opposed_skill_use_on_a_target_dead_at_the_snapshot_is_void_alone():
    """F7 Amb-6 (amended): an action whose target is Dead at the snapshot is void alone (it
    resolved against a corpse's defense of 1). With the GM's difficulty the target is only its
    subject (searching a body), and the use resolves."""
    mira = char("Mira", traits={"Alluring": 3}, skills={"Persuasion": 3})
    body = char("Body", health="Dead")
    result = run(state(mira, body), order(
        "Mira", {"kind": "skill", "ap": 2, "skill": "Persuasion", "target": "Body"},
        {"kind": "skill", "ap": 1, "skill": "Searching", "target": "Body", "difficulty": 2}))
    assert result.errors == ()
    void = act(result, "Mira", 0)
    assert (void.effective, void.total, void.notes) == (False, None, ("Body is dead",))
    searched = act(result, "Mira", 1)
    assert searched.effective and (searched.total, searched.difficulty) == (0 + 1, 2)


def test_f7_amb6_a_cast_at_targets_dead_at_the_snapshot_is_void_alone():
    """F7 Amb-6 (amended): a cast at a target Dead at the snapshot is void (it dealt its damage
    to the dead); an area cast leaves the dead out of its attack stage."""
    zara = char("Zara", traits={"Uncanny": 3}, skills={"Spellcasting": 5},
                spells=[{"name": "Bolt", "effects": {"damage": 2}}])
    body = char("Body", health="Dead")
    gob = char("Gob")
    result = run(state(zara, body, gob), order(
        "Zara", {"kind": "cast", "ap": 1, "spell": "Bolt", "target": "Body"},
        {"kind": "cast", "ap": 1, "spell": "Bolt", "targets": ["Body", "Gob"]}))
    assert result.errors == ()
    void = act(result, "Zara", 0)
    assert (void.effective, void.damage, void.notes) == (False, 0, ("Body is dead",))
    area = act(result, "Zara", 1)
    assert area.effective and [t.name for t in area.targets] == ["Gob"]


def _void_scenario(rng: random.Random):
    """Attackers striking targets that may be Dead, prone (standing up or not) and moving in
    any direction, conditionally or not; attacks engaged or conditional at random."""
    attackers = [f"A{i}" for i in range(rng.randint(1, 3))]
    targets = [f"T{i}" for i in range(rng.randint(1, 3))]
    chars = [char(a, traits={"Nimble": 3}, skills={"Swordfighting": 3}, weapons=["Broadsword"])
             for a in attackers]
    info: dict[str, dict[str, bool]] = {}
    for t in targets:
        dead, prone = rng.random() < 0.1, rng.random() < 0.25
        fields: dict[str, object] = {"health": "Dead"} if dead else {}
        if prone:
            fields["status"] = ["prone"]
        chars.append(char(t, skills={"Knife Fighting": 2}, weapons=["Dagger"], **fields))
        info[t] = {"dead": dead, "prone": prone, "stand": False}
    orders, moves, attacks = [], {}, {}
    for t in targets:
        if rng.random() < 0.2:
            continue
        move: dict[str, object] = {"kind": "move", "ranges": 1}
        way = rng.choice(["away", "toward", None])
        if way is not None:
            move[way] = rng.choice([x for x in attackers + targets if x != t])
        if rng.random() < 0.3:
            move.update({"if": "whenever", "triggered": rng.random() < 0.5})
        info[t]["stand"] = info[t]["prone"] and rng.random() < 0.5
        stand = [{"kind": "stand", "ap": 2}] if info[t]["stand"] else []
        moves[t] = move
        orders.append(order(t, *stand, move))
    for a in attackers:
        attack: dict[str, object] = {"kind": "attack", "ap": 1, "target": rng.choice(targets)}
        if rng.random() < 0.2:
            attack["engaged"] = True
        if rng.random() < 0.2:
            attack.update({"if": "it comes", "triggered": rng.random() < 0.6})
        attacks[a] = attack
        orders.append(order(a, attack))
    return chars, orders, attacks, moves, info


def _resolves(attacker: str, attack: dict, moves: dict, info: dict) -> bool:
    """The amendments, read directly: void when untriggered, at the Dead, or at a target that
    moved away (`away`, no direction, or toward someone else, by a move that happens) unless the
    GM ruled the attacker engaged."""
    target = str(attack["target"])
    if "if" in attack and not attack["triggered"]:
        return False
    if info[target]["dead"]:
        return False
    move = moves.get(target)
    if attack.get("engaged") or move is None or info[target]["dead"]:
        return True
    if "if" in move and not move["triggered"]:
        return True
    if info[target]["prone"] and not info[target]["stand"]:
        return True  # its move goes nowhere
    if "away" in move or "toward" not in move:
        return False
    return move["toward"] == attacker


@pytest.mark.parametrize("seed", range(4))
def test_f7_amb4_amb6_void_melee_against_the_amendments_read_directly(seed):
    """Generated turns (a differential check in small): each melee attack resolves exactly when
    the amendments say it does. Dead targets' orders are refused (cannot-act) and move nowhere."""
    rng = random.Random(seed)
    for _ in range(150):
        chars, orders, attacks, moves, info = _void_scenario(rng)
        result = run(state(*chars), *orders)
        assert {e.actor for e in result.errors} <= {t for t in info if info[t]["dead"]}
        for attacker, attack in attacks.items():
            assert act(result, attacker).effective is _resolves(attacker, attack, moves, info), \
                (attacker, attack, moves.get(str(attack["target"])), info[str(attack["target"])])
