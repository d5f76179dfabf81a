//! A clause-by-clause audit of the engine against
//! `shared/rules-interpretation.md` (2026-12-01): boundary scenarios the
//! other test files did not pin, one test per reading, named by clause.

mod common;

use common::*;
use furtive_core::query::{attack_hidden, can_defend, AttackMode, DefenseQuery, HiddenAttackQuery};
use furtive_core::{
    Audience, Change, Expiry, HiderPhase, PairReason, SituationModifier, State, Status,
};
use serde_json::json;

// ---------------------------------------------------------------- percentile

/// A spy (party, Furtivité 80), an ally (party, acuity sum 500) and a guard
/// (guards, acuity sum 0).
fn percentile_scene() -> State {
    state(json!({
        "ruleset": "percentile",
        "creatures": [
            {"id": "spy", "side": "party", "stealthSkill": 80},
            {"id": "ally", "side": "party", "acuities": {"visual": 500}},
            {"id": "guard", "side": "guards"}
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
fn p9_a_non_ally_that_arrived_after_the_reveal_counts_for_the_minus_100() {
    // Outside combat: 80 + 50 = 130, the ally perceives, the guard does not.
    // The spy attacks the guard from hiding (a surprise); the surprise turn
    // ends: everyone perceives the spy (P9). The guard leaves, a sentry of
    // the guards arrives: the spy is revealed, so the sentry perceives it.
    let revealed = run(
        &percentile_scene(),
        vec![
            json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
            json!({"type": "turnStart", "combatant": "spy", "round": 1}),
            json!({"type": "attack", "attacker": "spy", "targets": ["guard"]}),
            json!({"type": "turnEnd", "combatant": "spy"}),
            json!({"type": "tokenRemoved", "token": "guard"}),
            json!({"type": "upsertCreature", "creature": {"id": "sentry", "side": "guards"}}),
            json!({"type": "turnStart", "combatant": "spy", "round": 2}),
        ],
    );
    assert_eq!(
        revealed.hiders.get("spy").unwrap().phase,
        HiderPhase::Revealed
    );
    assert!(revealed.perceives("sentry", "spy"));
    // P9: a roll made while a non-ally perceives the hider carries -100.
    let rolled = ok(
        &revealed,
        json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
    );
    assert!(carries_minus_100(&rolled.state));
    assert_eq!(
        rolled.state.hiders.get("spy").unwrap().score(),
        Some(80 + 50 - 100)
    );
    let added = entries_for(&rolled, "P9", Audience::Gm);
    assert_eq!(added.len(), 1);
    assert!(added[0].en().contains('1'), "{}", added[0].en());
}

#[test]
fn p9_only_allies_around_a_revealed_hider_add_no_minus_100() {
    // The same story without a newcomer: the guard left, only the ally
    // (which does not count) perceives the spy.
    let revealed = run(
        &percentile_scene(),
        vec![
            json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
            json!({"type": "attack", "attacker": "spy", "targets": ["guard"]}),
            json!({"type": "turnStart", "combatant": "spy", "round": 1}),
            json!({"type": "turnEnd", "combatant": "spy"}),
            json!({"type": "combatEnd"}),
            json!({"type": "tokenRemoved", "token": "guard"}),
        ],
    );
    assert_eq!(
        revealed.hiders.get("spy").unwrap().phase,
        HiderPhase::Revealed
    );
    let rolled = ok(
        &revealed,
        json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
    )
    .state;
    assert!(!carries_minus_100(&rolled));
    assert_eq!(rolled.hiders.get("spy").unwrap().score(), Some(130));
}

#[test]
fn p3_a_modifier_bringing_the_score_exactly_to_the_acuity_sum_is_perceived() {
    // 80 + 50 + free -30 = 100 against an acuity sum of 100 (60 + 40 + 0):
    // a tie is perceived; -29 (101) is not.
    let scene = run(
        &percentile_scene(),
        vec![json!({"type": "upsertCreature", "creature":
            {"id": "guard", "side": "guards", "acuities": {"visual": 60, "auditory": 40}}})],
    );
    let roll = |free: i64| {
        ok(
            &scene,
            json!({"type": "enterStealth", "hider": "spy", "roll": 50,
                   "modifiers": {"free": [{"label": "mist", "value": free}]}}),
        )
        .state
    };
    let tie = roll(-30);
    assert_eq!(tie.hiders.get("spy").unwrap().score(), Some(100));
    assert!(tie.perceives("guard", "spy"));
    let above = roll(-29);
    assert_eq!(above.hiders.get("spy").unwrap().score(), Some(101));
    assert!(!above.perceives("guard", "spy"));
}

#[test]
fn p9_a_second_roll_in_the_same_combat_turn_is_refused_and_the_next_turn_allows_one() {
    let scene = run(
        &percentile_scene(),
        vec![
            json!({"type": "turnStart", "combatant": "spy", "round": 1}),
            json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
        ],
    );
    // First roll in combat: -100 (the guard is a non-ally in the scene).
    assert!(carries_minus_100(&scene));
    let error = refused(
        &scene,
        json!({"type": "enterStealth", "hider": "spy", "roll": 90}),
    );
    assert_eq!(error.code(), "stealth_roll_already_made");
    let next = run(
        &scene,
        vec![
            json!({"type": "turnEnd", "combatant": "spy"}),
            json!({"type": "turnStart", "combatant": "guard", "round": 1}),
        ],
    );
    assert_eq!(
        refused(
            &next,
            json!({"type": "enterStealth", "hider": "spy", "roll": 90})
        )
        .code(),
        "not_hider_turn"
    );
    let own = run(
        &next,
        vec![
            json!({"type": "turnEnd", "combatant": "guard"}),
            json!({"type": "turnStart", "combatant": "spy", "round": 2}),
            json!({"type": "enterStealth", "hider": "spy", "roll": 90}),
        ],
    );
    // 80 + 90 = 170 > 0: the guard does not perceive; no non-ally
    // perceived the spy at the roll, so no -100 this time.
    assert!(!carries_minus_100(&own));
    assert_eq!(own.hiders.get("spy").unwrap().score(), Some(170));
}

#[test]
fn p6_p9_a_multi_target_surprise_ends_and_reveals_at_the_attackers_turn_end() {
    // 130 against guard (0), guard2 (0) and a captain of the guards (200).
    let scene = run(
        &percentile_scene(),
        vec![
            json!({"type": "upsertCreature", "creature": {"id": "guard2", "side": "guards"}}),
            json!({"type": "upsertCreature", "creature":
                {"id": "captain", "side": "guards", "acuities": {"visual": 200}}}),
            json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
            json!({"type": "turnStart", "combatant": "spy", "round": 1}),
            json!({"type": "attack", "attacker": "spy", "targets": ["guard", "guard2"]}),
        ],
    );
    assert!(scene.surprise("spy", "guard").is_some());
    assert!(scene.surprise("spy", "guard2").is_some());
    // P6: guard2, an ally of guard that does not perceive the spy, may not
    // defend it; the captain, an ally that perceives the spy, may.
    let defend = |defender: &str| {
        can_defend(
            &scene,
            &DefenseQuery {
                defender: defender.into(),
                target: "guard".into(),
                attacker: "spy".into(),
            },
        )
        .unwrap()
        .allowed
    };
    assert!(!defend("guard2"));
    assert!(defend("captain"));
    assert!(!defend("guard"));
    let ended = ok(&scene, json!({"type": "turnEnd", "combatant": "spy"}));
    assert!(ended.state.surprises.is_empty());
    assert!(ended.state.perceives("guard", "spy"));
    assert!(ended.state.perceives("guard2", "spy"));
    assert_eq!(
        ended
            .state
            .hiders
            .get("spy")
            .unwrap()
            .pairs
            .get("guard2")
            .unwrap()
            .reason,
        PairReason::SurpriseEnded
    );
}

#[test]
fn p6_the_defenseless_status_and_its_expiry_follow_the_latest_surprise() {
    // P6: each surprise makes the target defenseless until the end of its
    // attacker's turn. The spy surprises the guard on its own turn; a thief
    // (party, Furtivité 80, hiding) surprises it too, out of its turn (a
    // reaction): the guard is now defenseless until the thief's turn end
    // as well, which the status change says. When the spy's turn ends the
    // thief's surprise still runs: the status stays, and names the thief.
    let defenseless = |token: &str, attacker: Option<&str>| Change::Status {
        token: token.into(),
        status: Status::Defenseless,
        active: attacker.is_some(),
        expires: attacker.map(|a| Expiry {
            turn_end_of: a.into(),
        }),
    };
    let scene = run(
        &percentile_scene(),
        vec![
            json!({"type": "upsertCreature", "creature":
                {"id": "thief", "side": "party", "stealthSkill": 80}}),
            json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
            json!({"type": "enterStealth", "hider": "thief", "roll": 50}),
            json!({"type": "turnStart", "combatant": "spy", "round": 1}),
            json!({"type": "attack", "attacker": "spy", "targets": ["guard"]}),
        ],
    );
    assert!(scene.surprise("spy", "guard").is_some());
    let second = ok(
        &scene,
        json!({"type": "attack", "attacker": "thief", "targets": ["guard"]}),
    );
    assert!(second.state.surprise("thief", "guard").is_some());
    let expected = defenseless("guard", Some("thief"));
    assert_eq!(
        status_changes(&second, "guard", Status::Defenseless),
        [&expected]
    );
    assert_eq!(furtive_core::diff(&scene, &second.state), second.changes);
    // The spy's turn ends: the thief's surprise runs on, so does the status
    // (no change: it already names the thief).
    let spy_end = ok(
        &second.state,
        json!({"type": "turnEnd", "combatant": "spy"}),
    );
    assert!(spy_end.state.surprise("thief", "guard").is_some());
    assert!(status_changes(&spy_end, "guard", Status::Defenseless).is_empty());
    // The other order: the thief's surprise first (outside combat, until
    // its next turn end), then the spy's on its turn. The spy's turn end
    // leaves the thief's: the status stays and now expires with the thief.
    let thief_first = run(
        &percentile_scene(),
        vec![
            json!({"type": "upsertCreature", "creature":
                {"id": "thief", "side": "party", "stealthSkill": 80}}),
            json!({"type": "upsertCreature", "creature":
                {"id": "guard2", "side": "guards"}}),
            json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
            json!({"type": "enterStealth", "hider": "thief", "roll": 50}),
            json!({"type": "attack", "attacker": "thief", "targets": ["guard2"]}),
            json!({"type": "turnStart", "combatant": "spy", "round": 1}),
        ],
    );
    assert!(thief_first.surprise("thief", "guard2").is_some());
    let spy_attack = ok(
        &thief_first,
        json!({"type": "attack", "attacker": "spy", "targets": ["guard2"]}),
    );
    let expected = defenseless("guard2", Some("spy"));
    assert_eq!(
        status_changes(&spy_attack, "guard2", Status::Defenseless),
        [&expected]
    );
    let spy_end = ok(
        &spy_attack.state,
        json!({"type": "turnEnd", "combatant": "spy"}),
    );
    let expected = defenseless("guard2", Some("thief"));
    assert_eq!(
        status_changes(&spy_end, "guard2", Status::Defenseless),
        [&expected]
    );
    assert_eq!(
        furtive_core::diff(&spy_attack.state, &spy_end.state),
        spy_end.changes
    );
    let thief_end = ok(
        &spy_end.state,
        json!({"type": "turnEnd", "combatant": "thief"}),
    );
    let expected = defenseless("guard2", None);
    assert_eq!(
        status_changes(&thief_end, "guard2", Status::Defenseless),
        [&expected]
    );
}

#[test]
fn p7_a_hit_zone_refused_on_a_multi_target_attack_names_the_target_at_fault() {
    // 130 against the guard (0, surprised) and a captain (200, perceives
    // the spy): a hit zone needs every target to be a new surprise (P7);
    // the refusal names the captain and its place in `targets`, so the
    // caller knows which target to drop. With one target the message is
    // the one it always was.
    let scene = run(
        &percentile_scene(),
        vec![
            json!({"type": "upsertCreature", "creature":
                {"id": "captain", "side": "guards", "acuities": {"visual": 200}}}),
            json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
        ],
    );
    let error = refused(
        &scene,
        json!({"type": "attack", "attacker": "spy", "targets": ["guard", "captain"],
               "hitZone": "head"}),
    );
    assert_eq!(error.code(), "hit_zone_not_allowed");
    assert_eq!(
        error.to_string(),
        "hitZone: `spy` may choose the hit zone only on the first attack of a surprise (P7): \
         targets[1] `captain` is no new surprise"
    );
    let single = refused(
        &scene,
        json!({"type": "attack", "attacker": "spy", "target": "captain", "hitZone": "head"}),
    );
    assert_eq!(
        single.to_string(),
        "hitZone: `spy` may choose the hit zone only on the first attack of a surprise (P7)"
    );
}

// ---------------------------------------------------------------- opposed

/// A rogue (party) hiding with 20 on its own turn; guards a and b; a bat
/// (guards) with a non-targeting echolocation of range 20.
fn opposed_scene() -> State {
    run(
        &state(json!({
            "ruleset": "opposed",
            "creatures": [
                {"id": "rogue", "side": "party"},
                {"id": "a", "side": "guards"},
                {"id": "b", "side": "guards"},
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

fn view(observer: &str, clear_view: bool, distance: f64) -> serde_json::Value {
    json!({"type": "viewChanged", "hider": "rogue", "moved": false,
           "view": [{"observer": observer, "clearView": clear_view, "distance": distance}]})
}

fn rolled(observer: &str, total: i64) -> serde_json::Value {
    json!({"type": "perceptionRolled", "hider": "rogue", "observer": observer, "total": total})
}

#[test]
fn o9_a_target_that_perceives_only_the_presence_checks_to_see_the_attacker_precisely() {
    // The bat senses the rogue at 10 (range 20), out of clear view:
    // presence only (O13), so it does not see the rogue precisely.
    let sensed = ok(&opposed_scene(), view("bat", false, 10.0)).state;
    assert!(sensed.perceives("bat", "rogue"));
    assert!(!furtive_core::opposed::locates(&sensed, "rogue", "bat"));
    // The rogue attacks the bat from hiding, silently: O9, the target makes
    // an immediate check against the effective total to see it precisely.
    let attacked = ok(
        &sensed,
        json!({"type": "attack", "attacker": "rogue", "targets": ["bat"]}),
    );
    assert_eq!(checks_for(&attacked, "rogue", "bat"), ["O9"]);
    // A check that reaches the total locates the rogue.
    let located = ok(&attacked.state, rolled("bat", 20)).state;
    assert!(furtive_core::opposed::locates(&located, "rogue", "bat"));
    let attack = attack_hidden(
        &located,
        &HiddenAttackQuery {
            attacker: "bat".into(),
            target: "rogue".into(),
            aimed_at_space: false,
            area: false,
        },
    )
    .unwrap();
    assert_eq!(attack.mode, AttackMode::Normal);
}

#[test]
fn o9_a_target_that_already_locates_the_attacker_is_not_asked() {
    let scene = run(
        &opposed_scene(),
        vec![view("a", true, 5.0), rolled("a", 25)],
    );
    assert!(furtive_core::opposed::locates(&scene, "rogue", "a"));
    let attacked = ok(
        &scene,
        json!({"type": "attack", "attacker": "rogue", "targets": ["a"], "noisy": true}),
    );
    assert!(checks_for(&attacked, "rogue", "a").is_empty());
}

#[test]
fn o9_o11_the_targets_check_is_against_its_own_effective_total() {
    // a damaged the rogue twice: -10 against a's allies (b, bat), not a.
    // A noisy attack on b: -5 for all. b faces 20 - 10 - 5 = 5, a faces 15.
    let scene = run(
        &opposed_scene(),
        vec![json!({"type": "damageTaken", "target": "rogue", "attacker": "a", "hits": 2})],
    );
    let attacked = ok(
        &scene,
        json!({"type": "attack", "attacker": "rogue", "targets": ["b"], "noisy": true}),
    );
    let record = attacked.state.hiders.get("rogue").unwrap();
    assert_eq!(
        furtive_core::opposed::effective_total(&attacked.state, record, "b"),
        5
    );
    assert_eq!(
        furtive_core::opposed::effective_total(&attacked.state, record, "a"),
        15
    );
    let o9 = entries(&attacked, "O9");
    assert_eq!(o9.len(), 2, "one GM entry and one public entry");
    let gm = o9.iter().find(|e| e.audience == Audience::Gm).unwrap();
    assert!(gm.en().contains('5') && gm.fr().contains('5'), "{gm:?}");
    // A tie perceives (O4): 5 against 5.
    let tie = ok(
        &attacked.state,
        json!({"type": "perceptionRolled", "hider": "rogue", "observer": "b", "total": 5}),
    )
    .state;
    assert!(tie.perceives("b", "rogue"));
    let below = ok(
        &attacked.state,
        json!({"type": "perceptionRolled", "hider": "rogue", "observer": "b", "total": 4}),
    )
    .state;
    assert!(!below.perceives("b", "rogue"));
}

#[test]
fn o7_a_fresh_roll_clears_the_o11_penalty_and_compares_the_stored_results_again() {
    // a fails at 12 against 20 in clear view; the rogue then moves out of
    // its view, so O5 keeps it hidden from a at the turn end. Damage from b:
    // -5 against b's allies, a included: a faces 15 > 12.
    let scene = run(
        &opposed_scene(),
        vec![
            view("a", true, 5.0),
            rolled("a", 12),
            json!({"type": "viewChanged", "hider": "rogue", "moved": true,
                   "view": [{"observer": "a", "clearView": false, "distance": 5}]}),
            json!({"type": "damageTaken", "target": "rogue", "attacker": "b", "hits": 1}),
            json!({"type": "turnEnd", "combatant": "rogue"}),
            json!({"type": "turnStart", "combatant": "rogue", "round": 2}),
        ],
    );
    assert!(!scene.perceives("a", "rogue"));
    let record = scene.hiders.get("rogue").unwrap();
    assert_eq!(
        furtive_core::opposed::effective_total(&scene, record, "a"),
        15
    );
    // A fresh 12 on the next turn: the penalty is gone, and the stored 12
    // reaches the new total with no new roll (O7, O4: a tie perceives).
    let fresh = ok(
        &scene,
        json!({"type": "enterStealth", "hider": "rogue", "roll": 12, "moved": true}),
    );
    assert!(fresh
        .state
        .hiders
        .get("rogue")
        .unwrap()
        .penalties()
        .is_empty());
    assert!(fresh.state.perceives("a", "rogue"));
    assert!(checks_for(&fresh, "rogue", "a").is_empty());
    // A fresh 13 keeps it hidden from a.
    let higher = ok(
        &scene,
        json!({"type": "enterStealth", "hider": "rogue", "roll": 13, "moved": true}),
    )
    .state;
    assert!(!higher.perceives("a", "rogue"));
}

#[test]
fn o5_o7_a_fresh_roll_made_as_part_of_a_movement_counts_as_moving() {
    // Turn 2: a gets clear view, fails at 5 (exposed). The rogue rolls a
    // fresh check as part of a movement (O1, O7: `moved`) that takes it out
    // of a's view. It moved this turn and the view is broken: O5 keeps it
    // hidden from a at the end of its turn.
    let exposed = run(
        &opposed_scene(),
        vec![
            json!({"type": "turnEnd", "combatant": "rogue"}),
            json!({"type": "turnStart", "combatant": "rogue", "round": 2}),
            view("a", true, 5.0),
            rolled("a", 5),
        ],
    );
    assert!(pair(&exposed, "rogue", "a").is_exposed());
    let moved_away = ok(
        &exposed,
        json!({"type": "enterStealth", "hider": "rogue", "roll": 20, "moved": true,
               "view": [{"observer": "a", "clearView": false, "distance": 8}]}),
    )
    .state;
    let ended = ok(
        &moved_away,
        json!({"type": "turnEnd", "combatant": "rogue"}),
    )
    .state;
    assert!(!ended.perceives("a", "rogue"));
    // The same fresh roll without moving (the view broke on a's side): the
    // hider that did not move is revealed (O5, *Decided*).
    let stayed = ok(
        &exposed,
        json!({"type": "enterStealth", "hider": "rogue", "roll": 20, "moved": false,
               "view": [{"observer": "a", "clearView": false, "distance": 8}]}),
    )
    .state;
    let ended = ok(&stayed, json!({"type": "turnEnd", "combatant": "rogue"})).state;
    assert!(ended.perceives("a", "rogue"));
}

#[test]
fn o13_a_sense_exactly_at_its_range_perceives_a_hair_beyond_does_not() {
    let at_range = ok(&opposed_scene(), view("bat", false, 20.0)).state;
    assert!(at_range.perceives("bat", "rogue"));
    assert_eq!(
        pair(&at_range, "rogue", "bat").reason,
        PairReason::EnhancedSense
    );
    let beyond = ok(&opposed_scene(), view("bat", false, 20.01)).state;
    assert!(!beyond.perceives("bat", "rogue"));
}

#[test]
fn o6_a_stored_result_equal_to_the_lowered_total_perceives() {
    // b fails at 15 against 20; an area fireball (noisy, 3 hits, area): one
    // -5 (O8), total 15 = 15: a tie perceives, with no new roll (O6, O4).
    let failed = run(
        &opposed_scene(),
        vec![view("b", true, 5.0), rolled("b", 15)],
    );
    assert!(!failed.perceives("b", "rogue"));
    let fireball = ok(
        &failed,
        json!({"type": "attack", "attacker": "rogue", "targets": ["a"], "noisy": true,
               "hits": 3, "area": true}),
    );
    assert_eq!(
        fireball.state.hiders.get("rogue").unwrap().penalties()[0].amount,
        5
    );
    assert!(fireball.state.perceives("b", "rogue"));
    assert_eq!(
        pair(&fireball.state, "rogue", "b").reason,
        PairReason::Penalty
    );
    assert!(checks_for(&fireball, "rogue", "b").is_empty());
    let o6 = entries_for(&fireball, "O6", Audience::Gm);
    assert_eq!(o6.len(), 1);
    assert!(
        o6[0].en().contains("15 ≥ effective stealth total 15"),
        "{}",
        o6[0].en()
    );
    assert!(
        o6[0].fr().contains("15 ≥ total de discrétion effectif 15"),
        "{}",
        o6[0].fr()
    );
}

#[test]
fn o4_a_view_listing_an_observer_twice_is_refused_naming_the_entry() {
    // Bad input: one view entry an observer (O4's clear view is one fact a
    // pair). The same observer twice (the last entry used to win) is
    // refused with `duplicate_token`, naming the later entry, and changes
    // nothing; short and long lists (a walk over the sorted view) alike,
    // in `viewChanged` and in `enterStealth`'s view.
    let entry = |observer: &str, clear: bool| json!({"observer": observer, "clearView": clear});
    let short = vec![entry("a", true), entry("b", false), entry("a", false)];
    let error = refused(
        &opposed_scene(),
        json!({"type": "viewChanged", "hider": "rogue", "view": short}),
    );
    assert_eq!(error.code(), "duplicate_token");
    assert_eq!(
        error.to_string(),
        "view[2].observer: token `a` is listed twice"
    );
    // Twelve guards, then b again, then the first guard again: the first
    // entry that repeats an earlier one is named.
    let mut scene = opposed_scene();
    let mut long = Vec::new();
    for i in 0..12 {
        let id = format!("g{i:02}");
        scene = ok(
            &scene,
            json!({"type": "upsertCreature", "creature": {"id": id, "side": "guards"}}),
        )
        .state;
        long.push(entry(&id, i % 2 == 0));
    }
    long.insert(3, entry("b", true));
    long.push(entry("b", false));
    long.push(entry("g00", false));
    let error = refused(
        &scene,
        json!({"type": "viewChanged", "hider": "rogue", "view": long}),
    );
    assert_eq!(error.code(), "duplicate_token");
    assert_eq!(
        error.to_string(),
        "view[13].observer: token `b` is listed twice"
    );
    let percentile = run(
        &percentile_scene(),
        vec![json!({"type": "enterStealth", "hider": "spy", "roll": 50})],
    );
    let error = refused(
        &percentile,
        json!({"type": "viewChanged", "hider": "spy",
               "view": [entry("guard", true), entry("guard", true)]}),
    );
    assert_eq!(
        error.to_string(),
        "view[1].observer: token `guard` is listed twice"
    );
    let error = refused(
        &opposed_scene(),
        json!({"type": "enterStealth", "hider": "rogue", "roll": 25, "moved": true,
               "view": [entry("b", true), entry("b", true)]}),
    );
    assert_eq!(error.code(), "duplicate_token");
}

#[test]
fn o13_o6_a_stored_check_that_locates_after_a_penalty_cites_o6() {
    // The bat senses the rogue (presence only, O13) and has it in clear
    // view: its locating check fails at 15 against 20. A noisy attack on
    // a (-5, O8) lowers the total to 15: the stored 15 now locates the
    // rogue, by the penalty (O6), not by a check coming into view (O4).
    let failed = run(
        &opposed_scene(),
        vec![
            view("bat", false, 10.0),
            view("bat", true, 10.0),
            rolled("bat", 15),
        ],
    );
    assert!(!furtive_core::opposed::locates(&failed, "rogue", "bat"));
    let attacked = ok(
        &failed,
        json!({"type": "attack", "attacker": "rogue", "targets": ["a"], "noisy": true}),
    );
    assert!(furtive_core::opposed::locates(
        &attacked.state,
        "rogue",
        "bat"
    ));
    assert_eq!(
        pair(&attacked.state, "rogue", "bat").reason,
        PairReason::Penalty
    );
    let located = entries_for(&attacked, "O13", Audience::Gm);
    assert_eq!(located.len(), 1);
    assert!(
        located[0].en().ends_with("now locates it (O13, O6)."),
        "{}",
        located[0].en()
    );
    assert!(
        located[0].fr().ends_with("le situe maintenant (O13, O6)."),
        "{}",
        located[0].fr()
    );
}

#[test]
fn b3_b5_every_clause_the_engine_can_cite_is_a_known_clause_id() {
    // B3: tests check each explanation's clause with `known_clause`; it
    // must accept every id the engine can cite (B5's concealment by
    // darkness decisions included) and nothing else.
    for clause in furtive_core::Clause::ALL {
        assert!(known_clause(clause.id()), "{}", clause.id());
    }
    for unknown in ["P0", "P12", "O14", "B6", "X1", ""] {
        assert!(!known_clause(unknown), "{unknown}");
    }
}
