//! Ruleset `opposed` (clauses O1-O13), through `apply` and the queries.

mod common;

use common::*;
use furtive_core::opposed::{effective_total, PENALTY_PER_HIT};
use furtive_core::query::{attack_hidden, AttackMode, HiddenAttackQuery};
use furtive_core::{Audience, PairReason, PenaltyScope, Request, State};
use serde_json::json;

/// `rogue` (party) hides among `friend` (party), `guard`, `captain`,
/// `archer` (guards), `merchant` (neutral), `dog` (targeting smell, 30)
/// and `bat` (non-targeting echolocation, 20).
fn scene() -> State {
    state(json!({
        "ruleset": "opposed",
        "creatures": [
            {"id": "rogue", "name": "Rogue", "side": "party", "stealthModifier": 3},
            {"id": "friend", "name": "Friend", "side": "party"},
            {"id": "guard", "name": "Guard", "side": "guards", "perceptionModifier": 2},
            {"id": "captain", "name": "Captain", "side": "guards"},
            {"id": "archer", "name": "Archer", "side": "guards"},
            {"id": "merchant", "name": "Merchant", "side": "neutral"},
            {"id": "dog", "name": "Dog", "side": "guards",
             "enhancedSenses": [{"sense": "smell", "range": 30, "targeting": true}]},
            {"id": "bat", "name": "Bat", "side": "guards",
             "enhancedSenses": [{"sense": "echolocation", "range": 20}]}
        ]
    }))
}

/// The rogue holds `total`, unseen by everyone.
fn hidden(total: i64) -> State {
    run(
        &scene(),
        vec![json!({"type": "enterStealth", "hider": "rogue", "roll": total, "moved": true})],
    )
}

fn in_view(observers: &[&str]) -> serde_json::Value {
    json!({
        "type": "viewChanged",
        "hider": "rogue",
        "view": observers.iter().map(|o| json!({"observer": o, "clearView": true})).collect::<Vec<_>>()
    })
}

fn rolled(observer: &str, total: i64) -> serde_json::Value {
    json!({"type": "perceptionRolled", "hider": "rogue", "observer": observer, "total": total})
}

/// Hidden with total `total`, and every listed observer has rolled (in clear view).
fn checked(total: i64, checks: &[(&str, i64)]) -> State {
    let observers: Vec<&str> = checks.iter().map(|(o, _)| *o).collect();
    let mut events = vec![in_view(&observers)];
    events.extend(checks.iter().map(|(o, t)| rolled(o, *t)));
    run(&hidden(total), events)
}

fn effective(state: &State, observer: &str) -> i64 {
    effective_total(state, state.hiders.get("rogue").unwrap(), observer)
}

// ---------------------------------------------------------------- O1

#[test]
fn o1_entering_stealth_holds_the_stealth_check_total() {
    let outcome = ok(
        &scene(),
        json!({"type": "enterStealth", "hider": "rogue", "roll": 18, "moved": true}),
    );
    let record = outcome.state.hiders.get("rogue").unwrap();
    assert_eq!(record.held_total(), Some(18));
    assert!(record.penalties().is_empty());
    assert!(record.moved_this_turn);
    assert_eq!(record.pairs.len(), 7, "one pair per other creature");
    let o1 = entries_for(&outcome, "O1", Audience::Gm);
    assert!(o1[0].en().contains("18"), "{}", o1[0].en());
}

#[test]
fn o1_zero_length_movement_is_allowed_by_default_and_refused_when_the_setting_is_off() {
    let outcome = ok(
        &scene(),
        json!({"type": "enterStealth", "hider": "rogue", "roll": 10}),
    );
    assert_eq!(
        outcome.state.hiders.get("rogue").unwrap().held_total(),
        Some(10)
    );

    let mut strict = scene();
    strict.settings.allow_zero_length_movement = false;
    let error = refused(
        &strict,
        json!({"type": "enterStealth", "hider": "rogue", "roll": 10}),
    );
    assert_eq!(error.code(), "movement_required");
    assert!(error.to_string().contains("O1"), "{error}");
    ok(
        &strict,
        json!({"type": "enterStealth", "hider": "rogue", "roll": 10, "moved": true}),
    );
}

#[test]
fn o1_the_total_is_accepted_within_plus_minus_1000() {
    for total in [-1000, 0, 1000] {
        let outcome = ok(
            &scene(),
            json!({"type": "enterStealth", "hider": "rogue", "roll": total}),
        );
        assert_eq!(
            outcome.state.hiders.get("rogue").unwrap().held_total(),
            Some(total)
        );
    }
    for total in [-1001, 1001, i64::MIN, i64::MAX] {
        let error = refused(
            &scene(),
            json!({"type": "enterStealth", "hider": "rogue", "roll": total}),
        );
        assert_eq!(error.code(), "out_of_range");
    }
}

// ---------------------------------------------------------------- O2

#[test]
fn o2_an_observer_watching_at_entry_perceives_without_a_roll_others_start_unperceiving() {
    let outcome = ok(
        &scene(),
        json!({"type": "enterStealth", "hider": "rogue", "roll": 30, "view": [
            {"observer": "guard", "clearView": true},
            {"observer": "captain", "clearView": false}
        ]}),
    );
    assert!(outcome.requests.is_empty(), "no roll at entry");
    let guard = pair(&outcome.state, "rogue", "guard");
    assert!(guard.perceived);
    assert_eq!(guard.reason, PairReason::WatchedAtEntry);
    for observer in ["captain", "archer", "friend", "merchant"] {
        let p = pair(&outcome.state, "rogue", observer);
        assert!(!p.perceived, "{observer}");
        assert_eq!(p.reason, PairReason::NotInViewAtEntry);
    }
    assert!(entries(&outcome, "O2")
        .iter()
        .any(|e| e.observer.as_deref() == Some("guard") && e.en().contains("clear view at entry")));
}

// ---------------------------------------------------------------- O3

#[test]
fn o3_an_observer_that_perceives_points_the_hider_out_to_its_allies() {
    let scene = checked(18, &[("guard", 19)]);
    let outcome = ok(
        &scene,
        json!({"type": "pointOut", "hider": "rogue", "observer": "guard", "allies": ["captain", "dog"]}),
    );
    assert!(outcome.requests.is_empty(), "no roll");
    for ally in ["captain", "dog"] {
        let p = pair(&outcome.state, "rogue", ally);
        assert!(p.perceived);
        assert_eq!(p.reason, PairReason::PointedOut);
    }
    assert!(
        !pair(&outcome.state, "rogue", "archer").perceived,
        "not named"
    );
    assert_eq!(entries_for(&outcome, "O3", Audience::Public).len(), 1);
}

#[test]
fn o3_an_observer_that_does_not_perceive_cannot_point_out() {
    let scene = checked(18, &[("guard", 10)]);
    let error = refused(
        &scene,
        json!({"type": "pointOut", "hider": "rogue", "observer": "guard", "allies": ["captain"]}),
    );
    assert_eq!(error.code(), "observer_does_not_perceive");
}

#[test]
fn o3_a_list_with_no_ally_is_refused() {
    let scene = checked(18, &[("guard", 19)]);
    for other in ["merchant", "friend"] {
        let error = refused(
            &scene,
            json!({"type": "pointOut", "hider": "rogue", "observer": "guard", "allies": [other]}),
        );
        assert_eq!(error.code(), "not_allied", "{other}");
    }
    // A neutral observer has no allies.
    let scene = checked(18, &[("merchant", 19)]);
    let error = refused(
        &scene,
        json!({"type": "pointOut", "hider": "rogue", "observer": "merchant", "allies": ["guard"]}),
    );
    assert_eq!(error.code(), "not_allied");
}

/// O3, *Decided* (2026-12-04): pointing out to a list is not all-or-nothing.
/// The ally named perceives the hider; the creature named that is not an
/// ally is unaffected, and the log says so.
#[test]
fn o3_pointing_out_to_a_mixed_list_tells_each_ally_and_leaves_the_others() {
    let scene = checked(18, &[("guard", 19)]);
    let outcome = ok(
        &scene,
        json!({"type": "pointOut", "hider": "rogue", "observer": "guard", "allies": ["captain", "merchant"]}),
    );
    assert!(outcome.state.perceives("captain", "rogue"));
    assert!(!outcome.state.perceives("merchant", "rogue"));
    assert_eq!(
        pair(&outcome.state, "rogue", "merchant"),
        pair(&scene, "rogue", "merchant"),
        "the non-ally's pair is untouched"
    );
    let o3 = entries_for(&outcome, "O3", Audience::Public);
    assert_eq!(o3.len(), 2, "{o3:?}");
    assert!(o3[0].en().contains("Captain") && !o3[0].en().contains("Merchant"));
    assert!(o3[1].en().contains("Merchant") && o3[1].en().contains("not allies"));
    assert!(o3[1].fr().contains("pas alliés"));
}

/// O3 tells allies: a point-out naming nobody is no point-out. It was
/// accepted, changed nothing and logged "guard points out rogue to : they
/// perceive it".
#[test]
fn o3_a_point_out_to_nobody_is_refused_naming_allies() {
    let scene = checked(18, &[("guard", 19)]);
    let error = refused(
        &scene,
        json!({"type": "pointOut", "hider": "rogue", "observer": "guard", "allies": []}),
    );
    assert_eq!(error.code(), "invalid_input");
    assert!(error.to_string().starts_with("allies: "), "{error}");
}

// ---------------------------------------------------------------- O4

#[test]
fn o4_o6_example_held_18_observer_18_perceives_17_does_not_then_a_noisy_attack_reveals_the_17() {
    let entered = hidden(18);
    let view = ok(&entered, in_view(&["guard", "captain"]));
    assert_eq!(checks_for(&view, "rogue", "guard"), ["O4"]);
    assert_eq!(checks_for(&view, "rogue", "captain"), ["O4"]);
    assert!(pair(&view.state, "rogue", "captain").check_pending);

    let guard = ok(&view.state, rolled("guard", 18));
    assert!(
        pair(&guard.state, "rogue", "guard").perceived,
        "tie is perceived"
    );
    assert_eq!(
        visibility(&guard),
        vec![("rogue".into(), "guard".into(), true)]
    );
    let captain = ok(&guard.state, rolled("captain", 17));
    let p = pair(&captain.state, "rogue", "captain");
    assert!(!p.perceived);
    assert_eq!(p.perception_total, Some(17));
    assert!(p.is_exposed(), "clear view and a failed check");
    assert!(visibility(&captain).is_empty());

    // O8: a noisy 3-hit attack: -15, total 3; the stored 17 now perceives.
    let attack = ok(
        &captain.state,
        json!({"type": "attack", "attacker": "rogue", "target": "archer", "noisy": true, "hits": 3}),
    );
    assert_eq!(effective(&attack.state, "captain"), 3);
    let p = pair(&attack.state, "rogue", "captain");
    assert!(p.perceived);
    assert_eq!(p.reason, PairReason::Penalty);
    assert_eq!(p.perception_total, Some(17), "no new roll");
    assert!(checks_for(&attack, "rogue", "captain").is_empty());
    assert!(visibility(&attack).contains(&("rogue".into(), "captain".into(), true)));
    assert!(entries(&attack, "O6")
        .iter()
        .any(|e| e.audience == Audience::Gm
            && e.en().contains("Stored Perception 17")
            && e.en().contains("3")));
}

#[test]
fn o4_a_stored_result_is_never_rolled_again_in_the_same_attempt() {
    let scene = checked(18, &[("captain", 10)]);
    // The view breaks and comes back: no second check.
    let scene = run(
        &scene,
        vec![
            json!({"type": "viewChanged", "hider": "rogue", "view": [{"observer": "captain", "clearView": false}]}),
        ],
    );
    let back = ok(&scene, in_view(&["captain"]));
    assert!(back.requests.is_empty());
    assert!(!pair(&back.state, "rogue", "captain").perceived);
}

#[test]
fn o4_a_check_is_requested_once_while_it_is_pending() {
    let first = ok(&hidden(18), in_view(&["guard"]));
    assert_eq!(first.requests.len(), 1);
    let second = ok(&first.state, in_view(&["guard"]));
    assert!(second.requests.is_empty());
}

#[test]
fn o4_an_unrequested_second_check_does_not_replace_the_stored_result() {
    let scene = checked(18, &[("captain", 10)]);
    let outcome = ok(&scene, rolled("captain", 20));
    let p = pair(&outcome.state, "rogue", "captain");
    assert_eq!(p.perception_total, Some(10), "stored result kept");
    assert!(!p.perceived);
    assert!(entries_for(&outcome, "O4", Audience::Gm)
        .iter()
        .any(|e| e.en().contains("never rolled again")));
}

#[test]
fn o4_a_check_for_an_observer_out_of_view_is_stored_and_compared() {
    // A check nobody asked for but with nothing stored (e.g. an active search).
    let outcome = ok(&hidden(12), rolled("archer", 12));
    assert!(pair(&outcome.state, "rogue", "archer").perceived);
    let outcome = ok(&hidden(12), rolled("archer", 11));
    let p = pair(&outcome.state, "rogue", "archer");
    assert!(
        !p.perceived && !p.is_exposed(),
        "no clear view: not exposed"
    );
}

#[test]
fn o4_a_check_against_a_token_that_is_not_hiding_is_refused() {
    let error = refused(&scene(), rolled("guard", 5));
    assert_eq!(error.code(), "not_hiding");
}

// ---------------------------------------------------------------- O5

#[test]
fn o5_an_exposed_pair_still_in_clear_view_at_the_end_of_the_hiders_turn_becomes_perceived() {
    let scene = run(
        &checked(18, &[("captain", 10), ("archer", 11)]),
        vec![json!({"type": "turnStart", "combatant": "rogue", "round": 1})],
    );
    // Another combatant's turn end changes nothing.
    let other = ok(&scene, json!({"type": "turnEnd", "combatant": "captain"}));
    assert!(!pair(&other.state, "rogue", "captain").perceived);
    let outcome = ok(&scene, json!({"type": "turnEnd", "combatant": "rogue"}));
    for observer in ["captain", "archer"] {
        let p = pair(&outcome.state, "rogue", observer);
        assert!(p.perceived, "{observer}");
        assert_eq!(p.reason, PairReason::Exposure);
        assert!(!p.is_exposed());
    }
    assert!(
        !pair(&outcome.state, "rogue", "guard").perceived,
        "never in view"
    );
    assert_eq!(entries_for(&outcome, "O5", Audience::Public).len(), 2);
}

#[test]
fn o5_unless_the_hider_moved_and_broke_the_view() {
    let scene = run(
        &checked(18, &[("captain", 10), ("archer", 11)]),
        vec![
            json!({"type": "turnStart", "combatant": "rogue", "round": 1}),
            json!({"type": "viewChanged", "hider": "rogue", "moved": true,
                   "view": [{"observer": "captain", "clearView": false}]}),
        ],
    );
    let p = pair(&scene, "rogue", "captain");
    assert!(!p.is_exposed());
    let outcome = ok(&scene, json!({"type": "turnEnd", "combatant": "rogue"}));
    assert!(
        !pair(&outcome.state, "rogue", "captain").perceived,
        "view broken"
    );
    assert!(
        pair(&outcome.state, "rogue", "archer").perceived,
        "still in view"
    );
    assert!(entries_for(&outcome, "O5", Audience::Gm)
        .iter()
        .any(|e| e.en().contains("broke clear view with Captain")));
}

#[test]
fn o5_a_pair_whose_first_check_is_still_pending_has_not_failed_it() {
    let scene = run(
        &hidden(18),
        vec![
            json!({"type": "turnStart", "combatant": "rogue", "round": 1}),
            in_view(&["captain"]),
        ],
    );
    assert!(pair(&scene, "rogue", "captain").check_pending);
    let outcome = ok(&scene, json!({"type": "turnEnd", "combatant": "rogue"}));
    let p = pair(&outcome.state, "rogue", "captain");
    assert!(!p.perceived, "B1: hidden until the check is answered");
    // The check arrives and fails: now exposed, revealed at the next turn end.
    let failed = ok(&outcome.state, rolled("captain", 5));
    assert!(pair(&failed.state, "rogue", "captain").is_exposed());
    let next = run(
        &failed.state,
        vec![
            json!({"type": "turnStart", "combatant": "rogue", "round": 2}),
            json!({"type": "turnEnd", "combatant": "rogue"}),
        ],
    );
    assert!(pair(&next, "rogue", "captain").perceived);
}

// ---------------------------------------------------------------- O6

#[test]
fn o6_a_scoped_penalty_compares_again_only_the_observers_in_its_scope() {
    let scene = checked(18, &[("captain", 15), ("friend", 15), ("merchant", 15)]);
    let outcome = ok(
        &scene,
        json!({"type": "damageTaken", "target": "rogue", "attacker": "guard", "hits": 1}),
    );
    assert_eq!(effective(&outcome.state, "captain"), 13);
    assert_eq!(effective(&outcome.state, "guard"), 18);
    assert_eq!(effective(&outcome.state, "friend"), 18);
    assert_eq!(effective(&outcome.state, "merchant"), 18);
    assert!(pair(&outcome.state, "rogue", "captain").perceived);
    assert!(!pair(&outcome.state, "rogue", "friend").perceived);
    assert!(!pair(&outcome.state, "rogue", "merchant").perceived);
    assert!(outcome.requests.is_empty(), "no new roll after a penalty");
}

#[test]
fn o6_a_stored_result_below_the_lowered_total_stays_unperceiving() {
    let scene = checked(18, &[("captain", 12)]);
    let outcome = ok(
        &scene,
        json!({"type": "attack", "attacker": "rogue", "target": "merchant", "noisy": true}),
    );
    assert_eq!(effective(&outcome.state, "captain"), 13);
    assert!(
        !pair(&outcome.state, "rogue", "captain").perceived,
        "12 < 13"
    );
    let outcome = ok(
        &outcome.state,
        json!({"type": "attack", "attacker": "rogue", "target": "merchant", "noisy": true}),
    );
    assert!(pair(&outcome.state, "rogue", "captain").perceived, "12 ≥ 8");
}

// ---------------------------------------------------------------- O7

#[test]
fn o7_a_fresh_roll_replaces_the_total_clears_penalties_and_keeps_perceivers() {
    let scene = run(
        &checked(18, &[("guard", 18), ("captain", 12)]),
        vec![
            json!({"type": "turnStart", "combatant": "rogue", "round": 1}),
            json!({"type": "attack", "attacker": "rogue", "target": "merchant", "noisy": true, "hits": 2}),
            json!({"type": "turnEnd", "combatant": "rogue"}),
            json!({"type": "turnStart", "combatant": "rogue", "round": 2}),
        ],
    );
    assert_eq!(scene.hiders.get("rogue").unwrap().penalties().len(), 1);
    assert!(pair(&scene, "rogue", "captain").perceived, "12 ≥ 8");
    let outcome = ok(
        &scene,
        json!({"type": "enterStealth", "hider": "rogue", "roll": 25, "moved": true}),
    );
    let record = outcome.state.hiders.get("rogue").unwrap();
    assert_eq!(record.held_total(), Some(25));
    assert!(record.penalties().is_empty());
    assert!(pair(&outcome.state, "rogue", "guard").perceived);
    assert!(pair(&outcome.state, "rogue", "captain").perceived);
    assert!(!pair(&outcome.state, "rogue", "archer").perceived);
    assert_eq!(entries(&outcome, "O7").len(), 2, "GM and public");
}

#[test]
fn o7_a_lower_fresh_total_is_compared_with_the_stored_results() {
    let scene = checked(18, &[("captain", 12)]);
    let outcome = ok(
        &scene,
        json!({"type": "enterStealth", "hider": "rogue", "roll": 12}),
    );
    let p = pair(&outcome.state, "rogue", "captain");
    assert!(p.perceived, "stored 12 ≥ new total 12");
    assert!(checks_for(&outcome, "rogue", "captain").is_empty());
}

#[test]
fn o7_one_stealth_roll_per_turn_in_combat_on_the_hiders_own_turn() {
    let scene = run(
        &hidden(18),
        vec![
            json!({"type": "turnStart", "combatant": "rogue", "round": 1}),
            json!({"type": "enterStealth", "hider": "rogue", "roll": 20}),
        ],
    );
    let error = refused(
        &scene,
        json!({"type": "enterStealth", "hider": "rogue", "roll": 20}),
    );
    assert_eq!(error.code(), "stealth_roll_already_made");
    assert!(error.to_string().contains("O7"));
    let scene = run(
        &scene,
        vec![
            json!({"type": "turnEnd", "combatant": "rogue"}),
            json!({"type": "turnStart", "combatant": "guard"}),
        ],
    );
    let error = refused(
        &scene,
        json!({"type": "enterStealth", "hider": "rogue", "roll": 20}),
    );
    assert_eq!(error.code(), "not_hider_turn");
}

// ---------------------------------------------------------------- O8

fn penalty_after(attack: serde_json::Value) -> i64 {
    let outcome = ok(&hidden(18), attack);
    18 - effective(&outcome.state, "guard")
}

#[test]
fn o8_each_hit_of_a_noisy_attack_costs_5_an_area_effect_counts_once() {
    assert_eq!(PENALTY_PER_HIT, 5);
    assert_eq!(
        penalty_after(
            json!({"type": "attack", "attacker": "rogue", "target": "guard", "noisy": true})
        ),
        5
    );
    assert_eq!(
        penalty_after(
            json!({"type": "attack", "attacker": "rogue", "target": "guard", "noisy": true, "hits": 5})
        ),
        25
    );
    assert_eq!(
        penalty_after(
            json!({"type": "attack", "attacker": "rogue", "target": "guard", "noisy": true, "hits": 5, "area": true})
        ),
        5
    );
    assert_eq!(
        penalty_after(json!({"type": "attack", "attacker": "rogue", "target": "guard", "hits": 5})),
        0,
        "a silent attack costs nothing"
    );
}

#[test]
fn o8_noisy_attack_penalties_are_global_and_cumulative() {
    let scene = run(
        &hidden(18),
        vec![
            json!({"type": "attack", "attacker": "rogue", "target": "guard", "noisy": true}),
            json!({"type": "attack", "attacker": "rogue", "target": "guard", "noisy": true, "hits": 2}),
        ],
    );
    let record = scene.hiders.get("rogue").unwrap();
    assert_eq!(record.penalties().len(), 2);
    assert!(record
        .penalties()
        .iter()
        .all(|p| p.scope == PenaltyScope::All {} && p.clause == "O8"));
    for observer in ["guard", "friend", "merchant", "dog"] {
        assert_eq!(effective(&scene, observer), 3, "{observer}");
    }
}

#[test]
fn o8_an_attack_by_a_token_that_is_not_hiding_has_no_stealth_effect() {
    let scene = hidden(18);
    let outcome = ok(
        &scene,
        json!({"type": "attack", "attacker": "guard", "target": "rogue", "noisy": true, "hits": 4}),
    );
    assert_unchanged(&outcome.state, &scene);
    assert!(outcome.requests.is_empty());
}

// ---------------------------------------------------------------- O9

#[test]
fn o9_the_target_makes_an_immediate_check_against_the_total_after_the_o8_penalty() {
    let outcome = ok(
        &hidden(18),
        json!({"type": "attack", "attacker": "rogue", "target": "guard", "noisy": true, "hits": 2}),
    );
    assert_eq!(checks_for(&outcome, "rogue", "guard"), ["O9"]);
    assert!(pair(&outcome.state, "rogue", "guard").check_pending);
    assert!(entries_for(&outcome, "O9", Audience::Gm)[0]
        .en()
        .contains("against 8"));
    let seen = ok(&outcome.state, rolled("guard", 8));
    assert!(pair(&seen.state, "rogue", "guard").perceived);
    let unseen = ok(&outcome.state, rolled("guard", 7));
    assert!(!pair(&unseen.state, "rogue", "guard").perceived);
}

#[test]
fn o9_a_silent_attack_also_gives_the_target_a_check() {
    let outcome = ok(
        &hidden(18),
        json!({"type": "attack", "attacker": "rogue", "target": "guard"}),
    );
    assert_eq!(checks_for(&outcome, "rogue", "guard"), ["O9"]);
}

#[test]
fn o9_requests_a_fresh_check_even_when_a_stored_result_exists() {
    let scene = checked(18, &[("guard", 10)]);
    let outcome = ok(
        &scene,
        json!({"type": "attack", "attacker": "rogue", "target": "guard"}),
    );
    assert_eq!(checks_for(&outcome, "rogue", "guard"), ["O9"]);
    let answered = ok(&outcome.state, rolled("guard", 19));
    let p = pair(&answered.state, "rogue", "guard");
    assert!(p.perceived);
    assert_eq!(
        p.perception_total,
        Some(19),
        "the O9 check replaces the stored one"
    );
}

#[test]
fn o9_no_check_when_the_target_already_perceives() {
    let scene = checked(18, &[("guard", 19)]);
    let outcome = ok(
        &scene,
        json!({"type": "attack", "attacker": "rogue", "target": "guard"}),
    );
    assert!(outcome.requests.is_empty());
}

// ---------------------------------------------------------------- O10

fn hidden_attack(state: &State, attacker: &str, aimed: bool, area: bool) -> AttackMode {
    attack_hidden(
        state,
        &HiddenAttackQuery {
            attacker: attacker.into(),
            target: "rogue".into(),
            aimed_at_space: aimed,
            area,
        },
    )
    .unwrap()
    .mode
}

#[test]
fn o10_an_attacker_that_does_not_perceive_rolls_with_disadvantage_at_the_space_or_misses() {
    let scene = checked(18, &[("guard", 19)]);
    assert_eq!(
        hidden_attack(&scene, "captain", true, false),
        AttackMode::Disadvantage
    );
    assert_eq!(
        hidden_attack(&scene, "captain", false, false),
        AttackMode::Miss
    );
    assert_eq!(
        hidden_attack(&scene, "captain", false, true),
        AttackMode::Normal,
        "area"
    );
    assert_eq!(
        hidden_attack(&scene, "guard", false, false),
        AttackMode::Normal,
        "perceives"
    );
    // A token that is not hiding is attacked normally.
    let answer = attack_hidden(
        &scene,
        &HiddenAttackQuery {
            attacker: "rogue".into(),
            target: "guard".into(),
            aimed_at_space: false,
            area: false,
        },
    )
    .unwrap();
    assert_eq!(answer.mode, AttackMode::Normal);
    assert_eq!(answer.clause, "O10");
}

// ---------------------------------------------------------------- O11

#[test]
fn o11_damage_penalizes_only_the_attackers_allies() {
    let scene = checked(
        18,
        &[
            ("guard", 14),
            ("captain", 14),
            ("merchant", 14),
            ("friend", 14),
        ],
    );
    let outcome = ok(
        &scene,
        json!({"type": "damageTaken", "target": "rogue", "attacker": "guard"}),
    );
    let record = outcome.state.hiders.get("rogue").unwrap();
    assert_eq!(
        record.penalties()[0].scope,
        PenaltyScope::AlliesOf {
            attacker: "guard".into(),
            side: "guards".into()
        }
    );
    assert_eq!(record.penalties()[0].clause, "O11");
    assert_eq!(effective(&outcome.state, "guard"), 18, "not the attacker");
    assert_eq!(
        effective(&outcome.state, "captain"),
        13,
        "an ally of the attacker"
    );
    assert_eq!(effective(&outcome.state, "merchant"), 18, "neutral");
    assert_eq!(effective(&outcome.state, "friend"), 18, "the hider's side");
    assert!(
        pair(&outcome.state, "rogue", "captain").perceived,
        "14 ≥ 13"
    );
    assert!(!pair(&outcome.state, "rogue", "guard").perceived);
    assert!(!pair(&outcome.state, "rogue", "merchant").perceived);
}

#[test]
fn o11_each_damaging_hit_is_cumulative() {
    let scene = run(
        &hidden(18),
        vec![
            json!({"type": "damageTaken", "target": "rogue", "attacker": "guard", "hits": 2}),
            json!({"type": "damageTaken", "target": "rogue", "attacker": "captain", "hits": 1}),
        ],
    );
    assert_eq!(effective(&scene, "archer"), 18 - 15);
    assert_eq!(
        effective(&scene, "guard"),
        18 - 5,
        "captain's hit counts for guard"
    );
    assert_eq!(
        effective(&scene, "captain"),
        18 - 10,
        "guard's hits count for captain"
    );
}

#[test]
fn o11_damage_from_a_neutral_attacker_penalizes_nobody() {
    let scene = run(
        &hidden(18),
        vec![json!({"type": "damageTaken", "target": "rogue", "attacker": "merchant", "hits": 3})],
    );
    for observer in ["guard", "friend", "merchant"] {
        assert_eq!(effective(&scene, observer), 18, "{observer}");
    }
}

#[test]
fn o11_damage_to_a_token_that_is_not_hiding_is_refused() {
    let error = refused(
        &scene(),
        json!({"type": "damageTaken", "target": "rogue", "attacker": "guard"}),
    );
    assert_eq!(error.code(), "not_hiding");
}

// ---------------------------------------------------------------- O12

#[test]
fn o12_a_sprinting_character_cannot_enter_stealth() {
    let error = refused(
        &scene(),
        json!({"type": "enterStealth", "hider": "rogue", "roll": 18, "sprinting": true}),
    );
    assert_eq!(error.code(), "sprinting");
    assert!(error.to_string().contains("O12"));
}

#[test]
fn o12_sprinting_while_hidden_ends_the_attempt() {
    let scene = checked(18, &[("guard", 19)]);
    let outcome = ok(&scene, json!({"type": "sprint", "token": "rogue"}));
    assert!(!outcome.state.hiders.contains_key("rogue"));
    for observer in ["captain", "archer", "friend", "merchant", "dog", "bat"] {
        assert!(outcome.state.perceives(observer, "rogue"));
        assert!(visibility(&outcome).contains(&("rogue".into(), observer.into(), true)));
    }
    assert_eq!(entries_for(&outcome, "O12", Audience::Public).len(), 1);
    // Sprinting when not hiding changes nothing.
    let outcome = ok(&scene, json!({"type": "sprint", "token": "guard"}));
    assert_unchanged(&outcome.state, &scene);
}

// ---------------------------------------------------------------- O13

#[test]
fn o13_an_uncountered_enhanced_sense_in_range_perceives_without_a_roll() {
    let outcome = ok(
        &hidden(30),
        json!({"type": "viewChanged", "hider": "rogue", "view": [
            {"observer": "dog", "clearView": true, "distance": 30},
            {"observer": "bat", "clearView": false, "distance": 5}
        ]}),
    );
    assert!(outcome.requests.is_empty(), "{:?}", outcome.requests);
    for observer in ["dog", "bat"] {
        let p = pair(&outcome.state, "rogue", observer);
        assert!(p.perceived, "{observer}");
        assert_eq!(p.reason, PairReason::EnhancedSense);
    }
    let dog = entries_for(&outcome, "O13", Audience::Gm)
        .into_iter()
        .find(|e| e.observer.as_deref() == Some("dog"))
        .unwrap();
    assert!(
        dog.en().contains("smell") && dog.en().contains("targeting"),
        "{}",
        dog.en()
    );
}

#[test]
fn o13_with_the_matching_precaution_it_falls_back_to_o4() {
    let scene = run(
        &scene(),
        vec![
            json!({"type": "enterStealth", "hider": "rogue", "roll": 30, "precautions": ["SMELL"]}),
        ],
    );
    let outcome = ok(
        &scene,
        json!({"type": "viewChanged", "hider": "rogue", "view": [
            {"observer": "dog", "clearView": true, "distance": 10}
        ]}),
    );
    assert!(!pair(&outcome.state, "rogue", "dog").perceived);
    assert_eq!(checks_for(&outcome, "rogue", "dog"), ["O4"]);
}

#[test]
fn o13_a_sense_out_of_range_falls_back_to_o4() {
    let outcome = ok(
        &hidden(30),
        json!({"type": "viewChanged", "hider": "rogue", "view": [
            {"observer": "dog", "clearView": true, "distance": 30.5},
            {"observer": "bat", "clearView": false, "distance": 21}
        ]}),
    );
    assert!(!pair(&outcome.state, "rogue", "dog").perceived);
    assert!(!pair(&outcome.state, "rogue", "bat").perceived);
    assert_eq!(checks_for(&outcome, "rogue", "dog"), ["O4"]);
    assert!(
        checks_for(&outcome, "rogue", "bat").is_empty(),
        "no clear view"
    );
}

#[test]
fn o13_a_sense_in_range_at_entry_perceives() {
    let outcome = ok(
        &scene(),
        json!({"type": "enterStealth", "hider": "rogue", "roll": 30, "view": [
            {"observer": "bat", "clearView": false, "distance": 3}
        ]}),
    );
    assert_eq!(
        pair(&outcome.state, "rogue", "bat").reason,
        PairReason::EnhancedSense
    );
}

#[test]
fn o13_a_creature_gaining_a_sense_is_checked_again() {
    let scene = run(
        &hidden(30),
        vec![json!({"type": "viewChanged", "hider": "rogue", "view": [
            {"observer": "merchant", "clearView": false, "distance": 4}
        ]})],
    );
    assert!(!pair(&scene, "rogue", "merchant").perceived);
    let outcome = ok(
        &scene,
        json!({"type": "upsertCreature", "creature": {"id": "merchant", "side": "neutral",
            "enhancedSenses": [{"sense": "tremorsense", "range": 5}]}}),
    );
    assert!(pair(&outcome.state, "rogue", "merchant").perceived);
}

#[test]
fn o13_o10_a_targeting_sense_gives_the_exact_space_a_non_targeting_one_presence_only() {
    let scene = run(
        &hidden(30),
        vec![json!({"type": "viewChanged", "hider": "rogue", "view": [
            {"observer": "dog", "clearView": false, "distance": 10},
            {"observer": "bat", "clearView": false, "distance": 10}
        ]})],
    );
    assert!(scene.perceives("dog", "rogue") && scene.perceives("bat", "rogue"));
    let dog = attack_hidden(
        &scene,
        &HiddenAttackQuery {
            attacker: "dog".into(),
            target: "rogue".into(),
            aimed_at_space: false,
            area: false,
        },
    )
    .unwrap();
    assert_eq!(dog.mode, AttackMode::Normal);
    assert_eq!(dog.clause, "O13");
    // Presence only: O10 still applies.
    assert_eq!(
        hidden_attack(&scene, "bat", true, false),
        AttackMode::Disadvantage
    );
    assert_eq!(hidden_attack(&scene, "bat", false, false), AttackMode::Miss);
}

#[test]
fn o_rules_queries_and_events_of_the_other_ruleset_are_refused() {
    let scene = hidden(18);
    let error = refused(
        &scene,
        json!({"type": "modifiersChanged", "hider": "rogue", "modifiers": {}}),
    );
    assert_eq!(error.code(), "wrong_ruleset");
    let error = refused(
        &scene,
        json!({"type": "attack", "attacker": "rogue", "target": "guard", "hitZone": "head"}),
    );
    assert_eq!(error.code(), "wrong_ruleset");
    let located = furtive_core::query::can_locate(
        &scene,
        &furtive_core::query::PairQuery {
            observer: "guard".into(),
            hider: "rogue".into(),
        },
    );
    assert_eq!(located.unwrap_err().code(), "wrong_ruleset");
}

#[test]
fn o_requests_name_the_clause_that_asked() {
    let outcome = ok(&hidden(18), in_view(&["guard"]));
    assert_eq!(
        outcome.requests,
        vec![Request::PerceptionCheck {
            hider: "rogue".into(),
            observers: vec!["guard".into()],
            clause: furtive_core::Clause::O4
        }]
    );
}

#[test]
fn o4_one_check_request_names_every_observer_that_comes_into_view_in_the_order_named() {
    let outcome = ok(&hidden(18), in_view(&["guard", "captain", "archer"]));
    assert_eq!(
        outcome.requests,
        vec![Request::PerceptionCheck {
            hider: "rogue".into(),
            observers: vec!["guard".into(), "captain".into(), "archer".into()],
            clause: furtive_core::Clause::O4
        }]
    );
    // Each observer answers with its own roll.
    let state = run(
        &outcome.state,
        vec![
            rolled("guard", 20),
            rolled("captain", 5),
            rolled("archer", 18),
        ],
    );
    let perceives = |observer: &str| {
        furtive_core::query::perceives(
            &state,
            &furtive_core::query::PairQuery {
                observer: observer.into(),
                hider: "rogue".into(),
            },
        )
        .unwrap()
        .allowed
    };
    assert!(perceives("guard") && perceives("archer") && !perceives("captain"));
}

#[test]
fn p6_opposed_has_no_surprise_rule_so_anyone_may_defend() {
    let scene = run(
        &hidden(30),
        vec![json!({"type": "attack", "attacker": "rogue", "target": "guard"})],
    );
    assert!(scene.surprises.is_empty());
    let answer = furtive_core::query::can_defend(
        &scene,
        &furtive_core::query::DefenseQuery {
            defender: "guard".into(),
            target: "guard".into(),
            attacker: "rogue".into(),
        },
    )
    .unwrap();
    assert!(answer.allowed);
}
