//! The rule readings of `rules-interpretation.md`'s *Decided* notes (P9,
//! O5, O8, O13), one test per reading, named by clause.
//! B1 (an unknown observer perceives no hider) is in `both.rs`:
//! `b1_an_observer_the_engine_does_not_know_perceives_no_hider`.

mod common;

use common::*;
use furtive_core::query::{attack_hidden, AttackMode, HiddenAttackQuery};
use furtive_core::{HiderPhase, PairReason, Request, SituationModifier, State};
use serde_json::json;

// ---------------------------------------------------------------- P9

/// A spy (party) among a guard, a hawk-eyed watcher (guards) and an ally.
fn percentile_scene() -> State {
    state(json!({
        "ruleset": "percentile",
        "creatures": [
            {"id": "spy", "side": "party", "stealthSkill": 80},
            {"id": "guard", "side": "guards", "acuities": {"visual": 60}},
            {"id": "watcher", "side": "guards", "acuities": {"visual": 300}},
            {"id": "ally", "side": "party", "acuities": {"visual": 500}}
        ]
    }))
}

fn carries_minus_100(state: &State) -> bool {
    state
        .hiders
        .get("spy")
        .unwrap()
        .modifiers()
        .unwrap()
        .situation
        .contains(&SituationModifier::AlreadyPerceived)
}

#[test]
fn p9_first_roll_in_combat_carries_minus_100() {
    let fighting = run(
        &percentile_scene(),
        vec![json!({"type": "turnStart", "combatant": "spy", "round": 1})],
    );
    let rolled = ok(
        &fighting,
        json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
    )
    .state;
    assert!(carries_minus_100(&rolled));
    assert_eq!(
        rolled.hiders.get("spy").unwrap().score(),
        Some(80 + 50 - 100)
    );
}

#[test]
fn p9_only_non_allies_count_for_the_automatic_minus_100() {
    // Outside combat the first roll: 80 + 50 = 130; the ally (500) and the
    // watcher (300) perceive, the guard (60) does not.
    let scene = run(
        &percentile_scene(),
        vec![json!({"type": "enterStealth", "hider": "spy", "roll": 50})],
    );
    assert!(!carries_minus_100(&scene));
    // Without the watcher only the ally perceives: no -100 on the next roll.
    let without_watcher = run(
        &scene,
        vec![
            json!({"type": "tokenRemoved", "token": "watcher"}),
            json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
        ],
    );
    assert!(without_watcher.perceives("ally", "spy"));
    assert!(!carries_minus_100(&without_watcher));
    // With the watcher (a non-ally) perceiving, the next roll carries it.
    let again = ok(
        &scene,
        json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
    )
    .state;
    assert!(carries_minus_100(&again));
}

#[test]
fn p9_a_p4_reroll_carries_minus_100_when_a_non_ally_perceives() {
    // First roll 130: the watcher perceives. The situation changes (P4):
    // the requested roll is a new roll like any other, -100 included.
    let scene = run(
        &percentile_scene(),
        vec![json!({"type": "enterStealth", "hider": "spy", "roll": 50})],
    );
    let changed = ok(
        &scene,
        json!({"type": "modifiersChanged", "hider": "spy", "modifiers": {"situation": ["dark"]}}),
    );
    let Request::StealthRoll { modifiers, .. } = &changed.requests[0] else {
        panic!("a stealth roll is requested");
    };
    // The request carries the caller's modifiers; P9 decides at the roll.
    assert!(!modifiers
        .situation
        .contains(&SituationModifier::AlreadyPerceived));
    let rerolled = ok(
        &changed.state,
        json!({"type": "enterStealth", "hider": "spy", "roll": 50, "modifiers": {"situation": ["dark"]}}),
    )
    .state;
    assert!(carries_minus_100(&rerolled));
    assert_eq!(
        rerolled.hiders.get("spy").unwrap().score(),
        Some(80 + 50 + 50 - 100)
    );
}

#[test]
fn p9_an_attack_without_surprise_reveals_the_hider_at_the_end_of_its_turn() {
    // 130: the guard does not perceive the spy, the watcher does.
    let scene = run(
        &percentile_scene(),
        vec![
            json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
            json!({"type": "turnStart", "combatant": "spy", "round": 1}),
        ],
    );
    // The watcher perceives the spy: no surprise, but the attack draws attention.
    let attacked = ok(
        &scene,
        json!({"type": "attack", "attacker": "spy", "targets": ["watcher"]}),
    );
    assert!(attacked.state.surprises.is_empty());
    assert!(
        !attacked.state.perceives("guard", "spy"),
        "not before the turn ends"
    );
    assert!(entries_for(&attacked, "P9", furtive_core::Audience::Gm).len() == 1);
    let ended = ok(
        &attacked.state,
        json!({"type": "turnEnd", "combatant": "spy"}),
    );
    let record = ended.state.hiders.get("spy").unwrap();
    assert_eq!(record.phase, HiderPhase::Revealed);
    assert_eq!(
        record.pairs.get("guard").unwrap().reason,
        PairReason::Attacked
    );
    assert!(ended.state.perceives("guard", "spy"));
    assert!(visibility(&ended).contains(&("spy".into(), "guard".into(), true)));
    // The next roll carries -100 (everyone perceives the spy).
    let next = run(
        &ended.state,
        vec![
            json!({"type": "turnStart", "combatant": "spy", "round": 2}),
            json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
        ],
    );
    assert!(carries_minus_100(&next));
}

#[test]
fn p9_an_attack_outside_the_attackers_turn_reveals_it_at_its_next_turn_end_or_combat_end() {
    let scene = run(
        &percentile_scene(),
        vec![
            json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
            json!({"type": "turnStart", "combatant": "guard", "round": 1}),
            // A reaction on the guard's turn: the watcher perceives, no surprise.
            json!({"type": "attack", "attacker": "spy", "target": "watcher"}),
            json!({"type": "turnEnd", "combatant": "guard"}),
        ],
    );
    assert!(
        !scene.perceives("guard", "spy"),
        "the guard's turn end is not the spy's"
    );
    let at_combat_end = ok(&scene, json!({"type": "combatEnd"})).state;
    assert!(at_combat_end.perceives("guard", "spy"));
    let at_turn_end = run(
        &scene,
        vec![
            json!({"type": "turnStart", "combatant": "spy"}),
            json!({"type": "turnEnd", "combatant": "spy"}),
        ],
    );
    assert!(at_turn_end.perceives("guard", "spy"));
}

#[test]
fn p9_a_roll_after_an_attack_keeps_the_reveal_of_that_turn() {
    let scene = run(
        &percentile_scene(),
        vec![
            // Hidden before the combat: 130, the guard does not perceive.
            json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
            json!({"type": "turnStart", "combatant": "spy", "round": 1}),
            json!({"type": "attack", "attacker": "spy", "target": "watcher"}),
            // Rolling again after the attack: 80 + 100 - 100 = 80 > 60.
            json!({"type": "enterStealth", "hider": "spy", "roll": 100}),
        ],
    );
    assert!(!scene.perceives("guard", "spy"));
    let ended = ok(&scene, json!({"type": "turnEnd", "combatant": "spy"})).state;
    assert!(
        ended.perceives("guard", "spy"),
        "the attack still draws attention"
    );
}

// ---------------------------------------------------------------- O5, O8, O9, O13

/// A rogue (held total 20) among guards; `bat` senses presence (non-targeting).
fn opposed_scene() -> State {
    run(
        &state(json!({
            "ruleset": "opposed",
            "creatures": [
                {"id": "rogue", "side": "party"},
                {"id": "a", "side": "guards"},
                {"id": "b", "side": "guards"},
                {"id": "c", "side": "guards"},
                {"id": "bat", "side": "guards",
                 "enhancedSenses": [{"sense": "echolocation", "range": 20}]}
            ]
        })),
        vec![
            json!({"type": "turnStart", "combatant": "rogue", "round": 1}),
            json!({"type": "enterStealth", "hider": "rogue", "roll": 20, "moved": true}),
        ],
    )
}

fn view(observer: &str, clear_view: bool, moved: bool) -> serde_json::Value {
    json!({"type": "viewChanged", "hider": "rogue", "moved": moved,
           "view": [{"observer": observer, "clearView": clear_view, "distance": 10}]})
}

fn rolled(observer: &str, total: i64) -> serde_json::Value {
    json!({"type": "perceptionRolled", "hider": "rogue", "observer": observer, "total": total})
}

#[test]
fn o5_a_hider_that_did_not_move_is_revealed_even_when_the_view_broke() {
    // Next turn: a sees the rogue, fails its check (exposed), then walks
    // out of view. The rogue does not move: revealed to a at its turn end.
    let scene = run(
        &opposed_scene(),
        vec![
            json!({"type": "turnEnd", "combatant": "rogue"}),
            json!({"type": "turnStart", "combatant": "rogue", "round": 2}),
            view("a", true, false),
            rolled("a", 5),
            view("a", false, false),
        ],
    );
    let pair = pair(&scene, "rogue", "a");
    assert!(pair.exposed && !pair.clear_view && !pair.perceived);
    let ended = ok(&scene, json!({"type": "turnEnd", "combatant": "rogue"}));
    let pair = &ended
        .state
        .hiders
        .get("rogue")
        .unwrap()
        .pairs
        .get("a")
        .unwrap();
    assert!(pair.perceived && !pair.exposed);
    assert_eq!(pair.reason, PairReason::Exposure);
    assert!(visibility(&ended).contains(&("rogue".into(), "a".into(), true)));
}

#[test]
fn o5_a_hider_that_moved_and_broke_the_view_stays_hidden_and_the_exposure_ends() {
    let scene = run(
        &opposed_scene(),
        vec![
            view("a", true, false),
            rolled("a", 5),
            view("a", false, true),
        ],
    );
    let ended = ok(&scene, json!({"type": "turnEnd", "combatant": "rogue"})).state;
    let pair = &ended.hiders.get("rogue").unwrap().pairs.get("a").unwrap();
    assert!(!pair.perceived && !pair.exposed, "settled at the turn end");
    // Next turn the rogue stays still, a still out of view: nothing to reveal.
    let next = run(
        &ended,
        vec![
            json!({"type": "turnStart", "combatant": "rogue", "round": 2}),
            json!({"type": "turnEnd", "combatant": "rogue"}),
        ],
    );
    assert!(!next.perceives("a", "rogue"));
}

#[test]
fn o5_an_observer_never_in_clear_view_is_not_exposed() {
    // b failed an O9 check (it knows the direction) but never had clear view.
    let scene = run(
        &opposed_scene(),
        vec![
            json!({"type": "attack", "attacker": "rogue", "targets": ["b"]}),
            rolled("b", 3),
        ],
    );
    assert!(!pair(&scene, "rogue", "b").exposed);
    let ended = ok(&scene, json!({"type": "turnEnd", "combatant": "rogue"})).state;
    assert!(!ended.perceives("b", "rogue"));
}

#[test]
fn o8_one_attack_on_several_targets_is_one_penalty_and_o9_each_target_checks() {
    let attacked = ok(
        &opposed_scene(),
        json!({"type": "attack", "attacker": "rogue", "targets": ["a", "b", "c"], "noisy": true, "hits": 3}),
    );
    let penalties = attacked.state.hiders.get("rogue").unwrap().penalties();
    assert_eq!(penalties.len(), 1);
    assert_eq!(
        penalties[0].amount, 5,
        "one instance, whatever the hits or targets"
    );
    for target in ["a", "b", "c"] {
        assert_eq!(checks_for(&attacked, "rogue", target), ["O9"], "{target}");
        assert!(pair(&attacked.state, "rogue", target).check_pending);
    }
    // A single target with 3 hits counts each hit.
    let single = ok(
        &opposed_scene(),
        json!({"type": "attack", "attacker": "rogue", "targets": ["a"], "noisy": true, "hits": 3}),
    );
    assert_eq!(
        single.state.hiders.get("rogue").unwrap().penalties()[0].amount,
        15
    );
}

#[test]
fn o8_the_older_single_target_field_is_still_read() {
    let old = ok(
        &opposed_scene(),
        json!({"type": "attack", "attacker": "rogue", "target": "a", "noisy": true, "hits": 2}),
    );
    let new = ok(
        &opposed_scene(),
        json!({"type": "attack", "attacker": "rogue", "targets": ["a"], "noisy": true, "hits": 2}),
    );
    assert_eq!(old.state, new.state);
    assert_eq!(old.log, new.log);
    assert_eq!(old.requests, new.requests);
}

#[test]
fn o8_bad_target_lists_are_refused_naming_the_field() {
    let scene = opposed_scene();
    let both = refused(
        &scene,
        json!({"type": "attack", "attacker": "rogue", "target": "a", "targets": ["b"]}),
    );
    assert_eq!(both.code(), "invalid_input");
    assert!(both.to_string().starts_with("target:"), "{both}");
    let twice = refused(
        &scene,
        json!({"type": "attack", "attacker": "rogue", "targets": ["a", "b", "a"]}),
    );
    assert_eq!(twice.code(), "duplicate_token");
    assert!(twice.to_string().starts_with("targets[2]:"), "{twice}");
    let unknown = refused(
        &scene,
        json!({"type": "attack", "attacker": "rogue", "targets": ["a", "ghost"]}),
    );
    assert_eq!(unknown.code(), "unknown_token");
    assert!(unknown.to_string().starts_with("targets[1]:"), "{unknown}");
    let itself = refused(
        &scene,
        json!({"type": "attack", "attacker": "rogue", "targets": ["rogue"]}),
    );
    assert_eq!(itself.code(), "self_reference");
    let none = refused(
        &scene,
        json!({"type": "attack", "attacker": "rogue", "targets": []}),
    );
    assert_eq!(none.code(), "invalid_input");
}

#[test]
fn p6_each_target_of_a_multi_target_attack_gets_its_own_surprise() {
    // 130: the guard does not perceive the spy, the watcher does.
    let scene = run(
        &percentile_scene(),
        vec![
            json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
            json!({"type": "turnStart", "combatant": "spy", "round": 1}),
        ],
    );
    let attacked = ok(
        &scene,
        json!({"type": "attack", "attacker": "spy", "targets": ["guard", "watcher"]}),
    )
    .state;
    assert!(attacked.surprise("spy", "guard").is_some());
    assert!(
        attacked.surprise("spy", "watcher").is_none(),
        "the watcher perceives"
    );
    // A hit zone needs every target to be a new surprise (P7): refused, atomically.
    let error = refused(
        &scene,
        json!({"type": "attack", "attacker": "spy", "targets": ["guard", "watcher"], "hitZone": "head"}),
    );
    assert_eq!(error.code(), "hit_zone_not_allowed");
}

#[test]
fn o13_a_presence_only_observer_in_clear_view_checks_once_to_locate() {
    // The bat senses the rogue at 10 (range 20): presence only.
    let sensed = ok(&opposed_scene(), view("bat", false, false)).state;
    let pair = pair(&sensed, "rogue", "bat");
    assert!(pair.perceived);
    assert_eq!(pair.reason, PairReason::EnhancedSense);
    // Clear view: one O4 check to locate it (clause O13).
    let seen = ok(&sensed, view("bat", true, false));
    assert_eq!(checks_for(&seen, "rogue", "bat"), ["O13"]);
    // Asking again while the check is pending requests nothing more.
    let again = ok(&seen.state, view("bat", true, false));
    assert!(again.requests.is_empty());
    // a does not perceive the rogue at all: it does not locate it either.
    assert!(!furtive_core::opposed::locates(&sensed, "rogue", "a"));
    assert!(!furtive_core::opposed::locates(&seen.state, "rogue", "bat"));
}

#[test]
fn o13_o10_applies_until_the_locating_check_succeeds() {
    let seen = run(
        &opposed_scene(),
        vec![view("bat", false, false), view("bat", true, false)],
    );
    let attack = |state: &State| {
        attack_hidden(
            state,
            &HiddenAttackQuery {
                attacker: "bat".into(),
                target: "rogue".into(),
                aimed_at_space: false,
                area: false,
            },
        )
        .unwrap()
    };
    assert_eq!(attack(&seen).mode, AttackMode::Miss, "presence only: O10");
    // A failed check: still presence only, the result is stored.
    let failed = ok(&seen, rolled("bat", 12));
    assert!(failed.changes.is_empty());
    assert_eq!(attack(&failed.state).mode, AttackMode::Miss);
    assert_eq!(
        pair(&failed.state, "rogue", "bat").perception_total,
        Some(12)
    );
    // No second check in this attempt; a penalty can make the stored one succeed (O6).
    let again = ok(&failed.state, view("bat", true, false));
    assert!(again.requests.is_empty());
    let noisy = ok(
        &failed.state,
        json!({"type": "attack", "attacker": "rogue", "targets": ["a"], "noisy": true, "hits": 2}),
    );
    assert!(furtive_core::opposed::locates(&noisy.state, "rogue", "bat"));
    assert_eq!(attack(&noisy.state).mode, AttackMode::Normal);
    // A successful check locates it at once.
    let located = ok(&seen, rolled("bat", 20)).state;
    assert_eq!(
        pair(&located, "rogue", "bat").reason,
        PairReason::PerceptionCheck
    );
    assert_eq!(attack(&located).mode, AttackMode::Normal);
}
