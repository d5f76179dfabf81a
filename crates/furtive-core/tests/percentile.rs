//! Ruleset `percentile` (clauses P1-P11), through `apply` and the queries.

mod common;

use common::*;
use furtive_core::percentile::{perceives, stealth_score, tier_value};
use furtive_core::query::{
    can_defend, can_locate, can_pickpocket, knockout, DefenseQuery, KnockoutQuery, PairQuery,
    PickpocketQuery,
};
use furtive_core::{
    Audience, Change, Expiry, HiderPhase, HitZone, Modifiers, PairReason, Request,
    SituationModifier, State, Status,
};
use serde_json::json;

/// A spy with Furtivité `skill` and three observers whose acuity sums are
/// 67 (`tie`), 66 (`low`) and 200 (`sharp`).
fn spy_scene(skill: u32) -> State {
    state(json!({
        "ruleset": "percentile",
        "creatures": [
            {"id": "spy", "name": "Spy", "side": "party", "stealthSkill": skill},
            {"id": "tie", "name": "Tie", "side": "guards", "acuities": {"visual": 30, "auditory": 20, "olfactory": 17}},
            {"id": "low", "name": "Low", "side": "guards", "acuities": {"visual": 30, "auditory": 20, "olfactory": 16}},
            {"id": "sharp", "name": "Sharp", "side": "guards", "acuities": {"visual": 100, "auditory": 50, "olfactory": 50}}
        ]
    }))
}

fn score_after(skill: u32, d100: i64, modifiers: serde_json::Value) -> i64 {
    let outcome = ok(
        &spy_scene(skill),
        json!({"type": "enterStealth", "hider": "spy", "roll": d100, "modifiers": modifiers}),
    );
    outcome
        .state
        .hiders
        .get("spy")
        .unwrap()
        .score()
        .expect("a score")
}

// ---------------------------------------------------------------- P1

#[test]
fn p1_tier_below_50_halves_the_d100() {
    assert_eq!(score_after(49, 37, json!({})), 67);
    // floor(37 / 2) = 18
    assert_eq!(tier_value(49, 37), 18);
    assert_eq!(tier_value(0, 1), 0);
}

#[test]
fn p1_tier_50_to_99_adds_the_d100() {
    assert_eq!(score_after(50, 37, json!({})), 87);
    assert_eq!(score_after(99, 100, json!({})), 199);
    assert_eq!(tier_value(99, 37), 37);
}

#[test]
fn p1_tier_100_and_above_adds_one_and_a_half_d100() {
    assert_eq!(score_after(100, 37, json!({})), 155);
    // 3 x 1 / 2 rounds down to 1
    assert_eq!(score_after(120, 1, json!({})), 121);
    assert_eq!(tier_value(100, 99), 148);
}

#[test]
fn p1_zero_skill_and_d100_1_scores_0() {
    assert_eq!(score_after(0, 1, json!({})), 0);
}

#[test]
fn p1_score_is_skill_plus_tier_plus_modifiers() {
    let modifiers = Modifiers {
        situation: vec![SituationModifier::Dark],
        free: vec![furtive_core::FreeModifier {
            label: "fog".into(),
            value: -7,
        }],
    };
    assert_eq!(stealth_score(60, 40, &modifiers), 60 + 40 + 50 - 7);
}

#[test]
fn p1_stored_roll_and_gm_explanation_show_the_arithmetic() {
    let outcome = ok(
        &spy_scene(49),
        json!({"type": "enterStealth", "hider": "spy", "roll": 37}),
    );
    let record = outcome.state.hiders.get("spy").unwrap();
    assert_eq!(record.d100(), Some(37));
    assert_eq!(record.phase, HiderPhase::Hiding);
    let gm = entries_for(&outcome, "P1", Audience::Gm);
    assert_eq!(gm.len(), 1);
    assert!(gm[0].en().contains("stealth score 67"), "{}", gm[0].en());
    assert!(gm[0].en().contains("Furtivité 49"), "{}", gm[0].en());
    assert!(
        gm[0].fr().contains("score de furtivité 67"),
        "{}",
        gm[0].fr()
    );
}

#[test]
fn p1_d100_outside_1_to_100_is_refused() {
    let scene = spy_scene(50);
    for roll in [0, 101, -1, i64::MAX, i64::MIN] {
        let error = refused(
            &scene,
            json!({"type": "enterStealth", "hider": "spy", "roll": roll}),
        );
        assert_eq!(error.code(), "out_of_range", "roll {roll}");
        assert!(error.to_string().starts_with("roll:"), "{error}");
    }
}

// ---------------------------------------------------------------- P2

#[test]
fn p2_dark_cluttered_very_quiet_add_50() {
    let modifiers = json!({"situation": ["dark", "cluttered", "very_quiet"]});
    assert_eq!(score_after(50, 37, modifiers), 87 + 50);
}

#[test]
fn p2_each_situation_modifier_has_its_stable_id_and_value() {
    let expected = [
        ("sprint", -50),
        ("already_perceived", -100),
        ("dark", 50),
        ("no_cover", -50),
        ("cluttered", 50),
        ("very_quiet", -50),
        ("very_noisy", 50),
        ("strong_smells", 50),
        ("deserted", -50),
    ];
    assert_eq!(SituationModifier::ALL.len(), expected.len());
    for (modifier, (id, value)) in SituationModifier::ALL.iter().zip(expected) {
        assert_eq!(modifier.id(), id);
        assert_eq!(modifier.value(), value);
        assert_eq!(serde_json::to_value(modifier).unwrap(), json!(id));
        assert_eq!(
            score_after(50, 37, json!({"situation": [id]})),
            87 + value,
            "{id}"
        );
    }
}

#[test]
fn p2_free_gm_modifiers_add_up_with_situation_modifiers() {
    let modifiers = json!({
        "situation": ["no_cover"],
        "free": [{"label": "fog", "value": 20}, {"label": "bell", "value": -5}, {"value": 1}]
    });
    assert_eq!(score_after(50, 37, modifiers), 87 - 50 + 20 - 5 + 1);
}

#[test]
fn p2_a_situation_listed_twice_counts_once() {
    assert_eq!(
        score_after(50, 37, json!({"situation": ["dark", "dark"]})),
        137
    );
}

#[test]
fn p2_sprinting_adds_the_sprint_modifier() {
    let outcome = ok(
        &spy_scene(50),
        json!({"type": "enterStealth", "hider": "spy", "roll": 37, "sprinting": true}),
    );
    let record = outcome.state.hiders.get("spy").unwrap();
    assert_eq!(record.score(), Some(37));
    assert!(record
        .modifiers()
        .unwrap()
        .situation
        .contains(&SituationModifier::Sprint));
}

#[test]
fn p2_free_modifier_outside_range_is_refused() {
    let error = refused(
        &spy_scene(50),
        json!({"type": "enterStealth", "hider": "spy", "roll": 37,
               "modifiers": {"free": [{"label": "x", "value": 1001}]}}),
    );
    assert_eq!(error.code(), "out_of_range");
    assert!(
        error.to_string().contains("modifiers.free[0].value"),
        "{error}"
    );
}

// ---------------------------------------------------------------- P3

#[test]
fn p3_acuity_sum_equal_to_score_perceives_one_below_does_not() {
    let outcome = ok(
        &spy_scene(49),
        json!({"type": "enterStealth", "hider": "spy", "roll": 37}),
    );
    // score 67: acuities 30/20/17 (sum 67) tie, perceived; 30/20/16 (66) not.
    assert!(pair(&outcome.state, "spy", "tie").perceived);
    assert!(!pair(&outcome.state, "spy", "low").perceived);
    assert!(pair(&outcome.state, "spy", "sharp").perceived);
    assert_eq!(
        pair(&outcome.state, "spy", "low").reason,
        PairReason::AcuityComparison
    );
    assert!(perceives(67, 67));
    assert!(!perceives(67, 66));
    let p3 = entries_for(&outcome, "P3", Audience::Gm);
    assert_eq!(p3.len(), 3, "one P3 decision per observer");
    let low = p3
        .iter()
        .find(|e| e.observer.as_deref() == Some("low"))
        .unwrap();
    assert!(
        low.en().contains("score 67 > acuity sum 66"),
        "{}",
        low.en()
    );
    let tie = p3
        .iter()
        .find(|e| e.observer.as_deref() == Some("tie"))
        .unwrap();
    assert!(
        tie.en().contains("score 67 ≤ acuity sum 67"),
        "{}",
        tie.en()
    );
}

#[test]
fn p3_a_missing_acuity_counts_zero() {
    let scene = state(json!({
        "ruleset": "percentile",
        "creatures": [
            {"id": "spy", "stealthSkill": 49},
            {"id": "blind", "acuities": {"auditory": 40, "olfactory": 27}},
            {"id": "nothing"}
        ]
    }));
    let outcome = ok(
        &scene,
        json!({"type": "enterStealth", "hider": "spy", "roll": 37}),
    );
    assert!(
        pair(&outcome.state, "spy", "blind").perceived,
        "67 ≤ 0 + 40 + 27"
    );
    assert!(!pair(&outcome.state, "spy", "nothing").perceived, "67 > 0");
}

#[test]
fn p3_a_score_of_zero_or_less_is_perceived_even_by_acuity_sum_zero() {
    let scene = state(json!({
        "ruleset": "percentile",
        "creatures": [{"id": "spy"}, {"id": "nothing"}]
    }));
    let outcome = ok(
        &scene,
        json!({"type": "enterStealth", "hider": "spy", "roll": 1}),
    );
    assert_eq!(outcome.state.hiders.get("spy").unwrap().score(), Some(0));
    assert!(
        pair(&outcome.state, "spy", "nothing").perceived,
        "0 ≤ 0: tie"
    );
    let outcome = ok(
        &scene,
        json!({"type": "enterStealth", "hider": "spy", "roll": 100, "modifiers": {"situation": ["no_cover"]}}),
    );
    assert_eq!(
        outcome.state.hiders.get("spy").unwrap().score(),
        Some(0),
        "0 + floor(100 / 2) - 50"
    );
    assert!(pair(&outcome.state, "spy", "nothing").perceived);
}

#[test]
fn p3_every_other_creature_is_an_observer_allies_included() {
    let scene = state(json!({
        "ruleset": "percentile",
        "creatures": [
            {"id": "spy", "side": "party", "stealthSkill": 80},
            {"id": "friend", "side": "party", "acuities": {"visual": 10}},
            {"id": "foe", "side": "guards", "acuities": {"visual": 10}}
        ]
    }));
    let outcome = ok(
        &scene,
        json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
    );
    let pairs = &outcome.state.hiders.get("spy").unwrap().pairs;
    assert_eq!(pairs.keys().collect::<Vec<_>>(), ["foe", "friend"]);
    assert!(!pairs.get("friend").unwrap().perceived);
    assert!(!pairs.get("foe").unwrap().perceived);
}

#[test]
fn p3_a_creature_joining_is_compared_with_the_score_in_force() {
    let scene = run(
        &spy_scene(49),
        vec![json!({"type": "enterStealth", "hider": "spy", "roll": 37})],
    );
    let outcome = ok(
        &scene,
        json!({"type": "upsertCreature", "creature": {"id": "late", "acuities": {"visual": 70}}}),
    );
    assert!(pair(&outcome.state, "spy", "late").perceived, "67 ≤ 70");
    assert_eq!(entries(&outcome, "P3").len(), 1);
    // New acuities for a known observer: compared again.
    let outcome = ok(
        &outcome.state,
        json!({"type": "upsertCreature", "creature": {"id": "late", "acuities": {"visual": 60}}}),
    );
    assert!(!pair(&outcome.state, "spy", "late").perceived, "67 > 60");
    assert_eq!(
        visibility(&outcome),
        vec![("spy".into(), "late".into(), false)]
    );
}

// ---------------------------------------------------------------- P4

#[test]
fn p4_changing_modifiers_requests_a_roll_and_keeps_the_old_score_until_it_arrives() {
    // Example of the issue: dark + cluttered + very_quiet = +50.
    let entered = ok(
        &spy_scene(49),
        json!({"type": "enterStealth", "hider": "spy", "roll": 37}),
    );
    let new_modifiers = json!({"situation": ["dark", "cluttered", "very_quiet"]});
    let changed = ok(
        &entered.state,
        json!({"type": "modifiersChanged", "hider": "spy", "modifiers": new_modifiers}),
    );
    let expected: Modifiers = serde_json::from_value(new_modifiers.clone()).unwrap();
    assert_eq!(
        changed.requests,
        vec![Request::StealthRoll {
            hider: "spy".into(),
            modifiers: expected.clone(),
            clause: furtive_core::Clause::P4
        }]
    );
    let record = changed.state.hiders.get("spy").unwrap();
    assert!(record.pending_modifiers().is_some());
    assert_eq!(record.pending_modifiers(), Some(&expected));
    // The old score stays in force: same score, same pairs, no visible change.
    assert_eq!(record.score(), Some(67));
    assert_eq!(record.pairs, entered.state.hiders.get("spy").unwrap().pairs);
    assert!(changed.changes.is_empty());
    // A creature joining meanwhile is compared with the old score (67).
    let joined = ok(
        &changed.state,
        json!({"type": "upsertCreature", "creature": {"id": "late", "acuities": {"visual": 68}}}),
    );
    assert!(pair(&joined.state, "spy", "late").perceived, "67 ≤ 68");
    // The new roll arrives: new score, no longer stale.
    let rolled = ok(
        &joined.state,
        json!({"type": "enterStealth", "hider": "spy", "roll": 37, "modifiers": new_modifiers}),
    );
    let record = rolled.state.hiders.get("spy").unwrap();
    assert!(record.pending_modifiers().is_none());
    assert_eq!(record.pending_modifiers(), None);
    // `tie`, `sharp` and `late` perceived the spy before this roll: P9 adds -100.
    assert_eq!(record.score(), Some(67 + 50 - 100));
}

/// A spy (Furtivité 50) alone with a guard whose acuity sum is 100.
fn lone_spy() -> State {
    state(json!({
        "ruleset": "percentile",
        "creatures": [
            {"id": "spy", "side": "party", "stealthSkill": 50},
            {"id": "guard", "side": "watch", "acuities": {"visual": 40, "auditory": 40, "olfactory": 20}}
        ]
    }))
}

fn score_of(state: &State) -> i64 {
    state.hiders.get("spy").unwrap().score().unwrap()
}

/// P4, *Decided* (2026-12-04): the modifiers belong to the hider's
/// situation, not to one roll. The example of the decision: after
/// `modifiersChanged` to cluttered and dark, a roll of 50 that states no
/// modifiers scores 50 + 50 + 100 = 200 (it scored 100).
#[test]
fn p4_modifiers_belong_to_the_situation_a_roll_without_modifiers_keeps_them() {
    let hidden = ok(
        &lone_spy(),
        json!({"type": "enterStealth", "hider": "spy", "roll": 60}),
    );
    assert_eq!(score_of(&hidden.state), 110, "110 > 100: unperceived");
    let changed = ok(
        &hidden.state,
        json!({"type": "modifiersChanged", "hider": "spy", "modifiers": {"situation": ["cluttered", "dark"]}}),
    );
    let rolled = ok(
        &changed.state,
        json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
    );
    assert_eq!(score_of(&rolled.state), 200);
    let record = rolled.state.hiders.get("spy").unwrap();
    assert_eq!(record.pending_modifiers(), None);
    let cluttered_and_dark = Modifiers {
        situation: vec![SituationModifier::Cluttered, SituationModifier::Dark],
        free: vec![],
    };
    assert_eq!(record.modifiers(), Some(&cluttered_and_dark));
    // The next roll that states none keeps them.
    let again = ok(
        &rolled.state,
        json!({"type": "enterStealth", "hider": "spy", "roll": 20}),
    );
    assert_eq!(score_of(&again.state), 50 + 20 + 100);
    // A roll that states modifiers replaces them, an empty list too.
    let replaced = ok(
        &again.state,
        json!({"type": "enterStealth", "hider": "spy", "roll": 20, "modifiers": {}}),
    );
    assert_eq!(score_of(&replaced.state), 70);
    assert_eq!(
        replaced.state.hiders.get("spy").unwrap().modifiers(),
        Some(&Modifiers::default())
    );
}

/// P4 with P9: only the automatic `already_perceived` is decided afresh at
/// each roll; a roll that states no modifiers does not carry it over.
#[test]
fn p4_a_roll_without_modifiers_decides_the_automatic_already_perceived_afresh() {
    let seen = ok(
        &lone_spy(),
        json!({"type": "enterStealth", "hider": "spy", "roll": 10}),
    );
    assert_eq!(score_of(&seen.state), 60, "60 <= 100: perceived");
    let again = ok(
        &seen.state,
        json!({"type": "enterStealth", "hider": "spy", "roll": 90}),
    );
    assert_eq!(score_of(&again.state), 50 + 90 - 100, "P9: -100");
    let unseen = ok(
        &again.state,
        json!({"type": "gmOverride", "hider": "spy", "observer": "guard", "perceived": false}),
    );
    let fresh = ok(
        &unseen.state,
        json!({"type": "enterStealth", "hider": "spy", "roll": 90}),
    );
    assert_eq!(score_of(&fresh.state), 140, "nobody perceives: no -100");
    assert_eq!(
        fresh.state.hiders.get("spy").unwrap().modifiers(),
        Some(&Modifiers::default())
    );
}

#[test]
fn p4_the_same_modifiers_in_another_order_request_nothing() {
    let scene = run(
        &spy_scene(49),
        vec![json!({"type": "enterStealth", "hider": "spy", "roll": 37,
                    "modifiers": {"situation": ["dark", "cluttered"]}})],
    );
    let outcome = ok(
        &scene,
        json!({"type": "modifiersChanged", "hider": "spy",
               "modifiers": {"situation": ["cluttered", "dark", "dark"]}}),
    );
    assert!(outcome.requests.is_empty());
    assert!(outcome
        .state
        .hiders
        .get("spy")
        .unwrap()
        .pending_modifiers()
        .is_none());
    assert_eq!(entries(&outcome, "P4").len(), 1);
}

#[test]
fn p4_the_automatic_already_perceived_is_not_a_change_of_the_callers_modifiers() {
    // Second roll while `sharp` perceives the spy: P9 adds already_perceived
    // on its own. Sending the caller's unchanged modifiers again must not
    // make the score stale.
    let scene = run(
        &spy_scene(49),
        vec![
            json!({"type": "enterStealth", "hider": "spy", "roll": 37, "modifiers": {"situation": ["dark"]}}),
            json!({"type": "enterStealth", "hider": "spy", "roll": 37, "modifiers": {"situation": ["dark"]}}),
        ],
    );
    let record = scene.hiders.get("spy").unwrap();
    assert!(record
        .modifiers()
        .unwrap()
        .situation
        .contains(&SituationModifier::AlreadyPerceived));
    let outcome = ok(
        &scene,
        json!({"type": "modifiersChanged", "hider": "spy", "modifiers": {"situation": ["dark"]}}),
    );
    assert!(outcome.requests.is_empty(), "{:?}", outcome.requests);
    assert!(outcome
        .state
        .hiders
        .get("spy")
        .unwrap()
        .pending_modifiers()
        .is_none());
    // A real change still asks for a roll, with the caller's modifiers only:
    // P9 decides again when that roll arrives.
    let outcome = ok(
        &scene,
        json!({"type": "modifiersChanged", "hider": "spy", "modifiers": {"situation": ["dark", "cluttered"]}}),
    );
    assert_eq!(outcome.requests.len(), 1);
}

#[test]
fn p4_sprint_while_hiding_requests_a_roll_with_sprint() {
    let scene = run(
        &spy_scene(49),
        vec![
            json!({"type": "enterStealth", "hider": "spy", "roll": 37, "modifiers": {"situation": ["dark"]}}),
            // P9 adds already_perceived to this second roll (`sharp` perceives).
            json!({"type": "enterStealth", "hider": "spy", "roll": 37, "modifiers": {"situation": ["dark"]}}),
        ],
    );
    let outcome = ok(&scene, json!({"type": "sprint", "token": "spy"}));
    match outcome.requests.as_slice() {
        [Request::StealthRoll {
            hider, modifiers, ..
        }] => {
            assert_eq!(hider, "spy");
            let mut situation = modifiers.situation.clone();
            situation.sort();
            // The automatic already_perceived is not carried into the request.
            assert_eq!(
                situation,
                vec![SituationModifier::Sprint, SituationModifier::Dark]
            );
        }
        other => panic!("expected one stealth roll request, got {other:?}"),
    }
    assert!(outcome
        .state
        .hiders
        .get("spy")
        .unwrap()
        .pending_modifiers()
        .is_some());
    assert_eq!(
        outcome.state.hiders.get("spy").unwrap().score(),
        scene.hiders.get("spy").unwrap().score()
    );
}

#[test]
fn p4_sprint_by_a_token_that_is_not_hiding_changes_nothing() {
    let scene = spy_scene(49);
    let outcome = ok(&scene, json!({"type": "sprint", "token": "spy"}));
    assert_unchanged(&outcome.state, &scene);
    assert!(outcome.requests.is_empty());
}

#[test]
fn p4_modifiers_changed_for_a_token_that_is_not_hiding_is_refused() {
    let error = refused(
        &spy_scene(49),
        json!({"type": "modifiersChanged", "hider": "spy", "modifiers": {}}),
    );
    assert_eq!(error.code(), "not_hiding");
}

// ---------------------------------------------------------------- P5

#[test]
fn p5_an_observer_that_does_not_perceive_may_not_attempt_to_locate() {
    let scene = run(
        &spy_scene(49),
        vec![json!({"type": "enterStealth", "hider": "spy", "roll": 37})],
    );
    let query = |observer: &str| PairQuery {
        observer: observer.into(),
        hider: "spy".into(),
    };
    let low = can_locate(&scene, &query("low")).unwrap();
    assert!(!low.allowed);
    assert_eq!(low.clause, "P5");
    assert!(can_locate(&scene, &query("tie")).unwrap().allowed);
    // A token that is not hiding can be located by anyone.
    let other = PairQuery {
        observer: "spy".into(),
        hider: "tie".into(),
    };
    assert!(can_locate(&scene, &other).unwrap().allowed);
}

// ---------------------------------------------------------------- P6

/// A combat where `spy` (Furtivité 60) hides and attacks `guard`.
/// `watcher` (ally of guard) perceives the spy, `sleeper` (ally of guard)
/// does not, `stranger` (neutral) does not.
fn ambush() -> State {
    let scene = state(json!({
        "ruleset": "percentile",
        "creatures": [
            {"id": "spy", "name": "Spy", "side": "party", "stealthSkill": 60, "strength": 14},
            {"id": "guard", "name": "Guard", "side": "guards", "acuities": {"visual": 40}},
            {"id": "watcher", "name": "Watcher", "side": "guards", "acuities": {"visual": 90, "auditory": 60}},
            {"id": "sleeper", "name": "Sleeper", "side": "guards", "acuities": {"visual": 10}},
            {"id": "stranger", "name": "Stranger", "side": "neutral"}
        ]
    }));
    run(
        &scene,
        vec![
            // The spy hides before the combat starts: in combat a first roll
            // would carry already_perceived (P9).
            // score 60 + 50 = 110: watcher (150) perceives, the others do not.
            json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
            json!({"type": "turnStart", "combatant": "spy", "round": 1}),
        ],
    )
}

fn defend(state: &State, defender: &str, target: &str, attacker: &str) -> bool {
    can_defend(
        state,
        &DefenseQuery {
            defender: defender.into(),
            target: target.into(),
            attacker: attacker.into(),
        },
    )
    .unwrap()
    .allowed
}

#[test]
fn p6_surprise_attack_makes_the_target_defenseless_until_the_end_of_the_attackers_turn() {
    let scene = ambush();
    let outcome = ok(
        &scene,
        json!({"type": "attack", "attacker": "spy", "target": "guard"}),
    );
    assert_eq!(
        status_changes(&outcome, "guard", Status::Defenseless),
        vec![&Change::Status {
            token: "guard".into(),
            status: Status::Defenseless,
            active: true,
            expires: Some(Expiry {
                turn_end_of: "spy".into()
            })
        }]
    );
    let surprise = outcome.state.surprise("spy", "guard").expect("a surprise");
    assert_eq!(surprise.attacks, 1);
    assert_eq!(entries_for(&outcome, "P6", Audience::Public).len(), 1);
    // The target may use no defense against the attacker.
    let answer = can_defend(
        &outcome.state,
        &DefenseQuery {
            defender: "guard".into(),
            target: "guard".into(),
            attacker: "spy".into(),
        },
    )
    .unwrap();
    assert!(!answer.allowed);
    assert_eq!(answer.clause, "P6");
    // The surprise survives the turn end of someone else...
    let other_end = ok(
        &outcome.state,
        json!({"type": "turnEnd", "combatant": "guard"}),
    );
    assert!(other_end.state.surprise("spy", "guard").is_some());
    // ...and ends with the attacker's turn.
    let end = ok(
        &outcome.state,
        json!({"type": "turnEnd", "combatant": "spy"}),
    );
    assert!(end.state.surprises.is_empty());
    assert_eq!(
        status_changes(&end, "guard", Status::Defenseless),
        vec![&Change::Status {
            token: "guard".into(),
            status: Status::Defenseless,
            active: false,
            expires: None
        }]
    );
    assert!(defend(&end.state, "guard", "guard", "spy"));
}

#[test]
fn p6_an_ally_that_perceives_the_attacker_may_defend_one_that_does_not_may_not() {
    let attacked = ok(
        &ambush(),
        json!({"type": "attack", "attacker": "spy", "target": "guard"}),
    );
    let state = &attacked.state;
    assert!(state.perceives("watcher", "spy"));
    assert!(defend(state, "watcher", "guard", "spy"));
    assert!(!state.perceives("sleeper", "spy"));
    assert!(!defend(state, "sleeper", "guard", "spy"));
    assert!(!defend(state, "stranger", "guard", "spy"));
    // Against another attacker nothing is restricted.
    assert!(defend(state, "sleeper", "guard", "watcher"));
}

#[test]
fn p6_no_surprise_when_the_target_perceives_the_attacker() {
    let outcome = ok(
        &ambush(),
        json!({"type": "attack", "attacker": "spy", "target": "watcher"}),
    );
    assert!(outcome.state.surprises.is_empty());
    assert!(outcome.changes.is_empty());
    assert!(entries(&outcome, "P6")[0].en().contains("no surprise"));
}

#[test]
fn p6_no_surprise_from_an_attacker_that_is_not_hiding() {
    let outcome = ok(
        &ambush(),
        json!({"type": "attack", "attacker": "guard", "target": "sleeper"}),
    );
    assert!(outcome.state.surprises.is_empty());
}

#[test]
fn p6_later_attacks_of_the_surprise_are_counted() {
    let scene = run(
        &ambush(),
        vec![
            json!({"type": "attack", "attacker": "spy", "target": "guard"}),
            json!({"type": "attack", "attacker": "spy", "target": "guard"}),
        ],
    );
    assert_eq!(scene.surprise("spy", "guard").unwrap().attacks, 2);
}

// ---------------------------------------------------------------- P7

#[test]
fn p7_the_first_attack_of_a_surprise_chooses_the_hit_zone() {
    let outcome = ok(
        &ambush(),
        json!({"type": "attack", "attacker": "spy", "target": "guard", "hitZone": "leg"}),
    );
    assert_eq!(
        outcome
            .state
            .surprise("spy", "guard")
            .unwrap()
            .first_hit_zone,
        Some(HitZone::Leg)
    );
    let p7 = entries(&outcome, "P7");
    assert_eq!(p7.len(), 1);
    assert!(p7[0].en().contains("leg") && p7[0].fr().contains("jambe"));
}

#[test]
fn p7_a_hit_zone_on_a_later_attack_is_refused() {
    let scene = run(
        &ambush(),
        vec![json!({"type": "attack", "attacker": "spy", "target": "guard", "hitZone": "head"})],
    );
    let error = refused(
        &scene,
        json!({"type": "attack", "attacker": "spy", "target": "guard", "hitZone": "arm"}),
    );
    assert_eq!(error.code(), "hit_zone_not_allowed");
}

#[test]
fn p7_a_hit_zone_without_surprise_is_refused() {
    let error = refused(
        &ambush(),
        json!({"type": "attack", "attacker": "spy", "target": "watcher", "hitZone": "head"}),
    );
    assert_eq!(error.code(), "hit_zone_not_allowed");
}

// ---------------------------------------------------------------- P8

fn knock(
    state: &State,
    helmet: bool,
    raw: Option<u32>,
    d100: Option<u32>,
) -> furtive_core::query::KnockoutResult {
    knockout(
        state,
        &KnockoutQuery {
            attacker: "spy".into(),
            target: "guard".into(),
            helmet,
            raw_damage: raw,
            d100,
        },
    )
    .unwrap()
}

fn head_surprise() -> State {
    run(
        &ambush(),
        vec![json!({"type": "attack", "attacker": "spy", "target": "guard", "hitZone": "head"})],
    )
}

#[test]
fn p8_knockout_after_a_head_surprise_without_helmet() {
    let result = knock(&head_surprise(), false, Some(15), Some(60));
    assert!(result.allowed);
    assert_eq!(result.chance, Some(60), "base Furtivité");
    assert_eq!(result.minutes, Some(1 + 14 / 5));
    assert_eq!(result.damage, Some(3), "floor(15 / 4)");
    assert_eq!(result.knocked_out, Some(true), "60 ≤ 60");
    let miss = knock(&head_surprise(), false, Some(3), Some(61));
    assert_eq!(miss.knocked_out, Some(false));
    assert_eq!(miss.damage, Some(0));
    // Without numbers: only whether the attempt is allowed.
    let ask = knock(&head_surprise(), false, None, None);
    assert!(ask.allowed);
    assert_eq!((ask.damage, ask.knocked_out), (None, None));
}

#[test]
fn p8_the_chance_is_the_base_furtivite_without_bonus() {
    let scene = run(
        &head_surprise(),
        vec![json!({"type": "upsertCreature", "creature":
            {"id": "spy", "side": "party", "stealthSkill": 60, "baseStealthSkill": 40, "strength": 4}})],
    );
    let result = knock(&scene, false, Some(10), Some(41));
    assert_eq!(result.chance, Some(40));
    assert_eq!(result.minutes, Some(1));
    assert_eq!(
        result.knocked_out,
        Some(false),
        "41 > base 40 even though 41 ≤ 60"
    );
    assert_eq!(knock(&scene, false, None, Some(40)).knocked_out, Some(true));
}

#[test]
fn p8_no_knockout_with_a_helmet_another_zone_or_no_surprise() {
    let helmet = knock(&head_surprise(), true, Some(10), Some(1));
    assert!(!helmet.allowed);
    assert_eq!(helmet.knocked_out, None);
    assert_eq!(helmet.clause, "P8");

    let trunk = run(
        &ambush(),
        vec![json!({"type": "attack", "attacker": "spy", "target": "guard", "hitZone": "trunk"})],
    );
    assert!(!knock(&trunk, false, None, Some(1)).allowed);
    let no_zone = run(
        &ambush(),
        vec![json!({"type": "attack", "attacker": "spy", "target": "guard"})],
    );
    assert!(!knock(&no_zone, false, None, Some(1)).allowed);
    assert!(!knock(&ambush(), false, None, Some(1)).allowed);
}

/// P8: a refused attempt gives no chance, duration, damage or result, so
/// a UI cannot show them.
#[test]
fn p8_a_refused_knockout_carries_no_chance_or_duration() {
    for (scene, helmet) in [(head_surprise(), true), (ambush(), false)] {
        let refused = knock(&scene, helmet, Some(10), Some(1));
        assert!(!refused.allowed);
        assert_eq!((refused.chance, refused.minutes), (None, None));
        assert_eq!((refused.damage, refused.knocked_out), (None, None));
        let json = serde_json::to_value(&refused).unwrap();
        assert_eq!(
            (&json["chance"], &json["minutes"]),
            (&json!(null), &json!(null))
        );
    }
}

#[test]
fn p8_the_knockout_belongs_to_the_first_attack_only() {
    let scene = run(
        &head_surprise(),
        vec![json!({"type": "attack", "attacker": "spy", "target": "guard"})],
    );
    let result = knock(&scene, false, Some(12), Some(1));
    assert!(!result.allowed, "{}", result.en());
    assert_eq!(result.knocked_out, None);
}

#[test]
fn p8_knockout_inputs_out_of_range_are_refused() {
    let scene = head_surprise();
    for (raw, d100) in [(None, Some(0)), (None, Some(101)), (Some(100_001), None)] {
        let error = knockout(
            &scene,
            &KnockoutQuery {
                attacker: "spy".into(),
                target: "guard".into(),
                helmet: false,
                raw_damage: raw,
                d100,
            },
        )
        .unwrap_err();
        assert_eq!(error.code(), "out_of_range");
    }
}

// ---------------------------------------------------------------- P9

#[test]
fn p9_after_the_surprise_turn_everyone_perceives_and_the_next_roll_carries_minus_100() {
    let attacked = ok(
        &ambush(),
        json!({"type": "attack", "attacker": "spy", "target": "guard"}),
    );
    let ended = ok(
        &attacked.state,
        json!({"type": "turnEnd", "combatant": "spy"}),
    );
    let record = ended.state.hiders.get("spy").unwrap();
    assert_eq!(record.phase, HiderPhase::Revealed);
    for observer in ["guard", "watcher", "sleeper", "stranger"] {
        assert!(ended.state.perceives(observer, "spy"), "{observer}");
        assert_eq!(
            pair(&ended.state, "spy", observer).reason,
            PairReason::SurpriseEnded
        );
    }
    let mut became_visible: Vec<_> = visibility(&ended)
        .into_iter()
        .filter(|(_, _, perceived)| *perceived)
        .map(|(_, observer, _)| observer)
        .collect();
    became_visible.sort();
    assert_eq!(became_visible, ["guard", "sleeper", "stranger"]);
    assert_eq!(
        status_changes(&ended, "spy", Status::Hidden),
        vec![&Change::Status {
            token: "spy".into(),
            status: Status::Hidden,
            active: false,
            expires: None
        }]
    );
    assert_eq!(entries_for(&ended, "P9", Audience::Public).len(), 1);

    // Next turn: the new roll carries already_perceived (-100).
    let next_turn = run(
        &ended.state,
        vec![
            json!({"type": "turnStart", "combatant": "guard", "round": 2}),
            json!({"type": "turnEnd", "combatant": "guard"}),
            json!({"type": "turnStart", "combatant": "spy", "round": 2}),
        ],
    );
    let rolled = ok(
        &next_turn,
        json!({"type": "enterStealth", "hider": "spy", "roll": 90}),
    );
    let record = rolled.state.hiders.get("spy").unwrap();
    assert!(record
        .modifiers()
        .unwrap()
        .situation
        .contains(&SituationModifier::AlreadyPerceived));
    assert_eq!(record.score(), Some(60 + 90 - 100));
    assert_eq!(entries(&rolled, "P9").len(), 1);
    let again = refused(
        &rolled.state,
        json!({"type": "enterStealth", "hider": "spy", "roll": 90}),
    );
    // A second roll in the same turn is refused.
    assert_eq!(again.code(), "stealth_roll_already_made");
    assert!(again.to_string().contains("P9"), "{again}");
}

#[test]
fn p9_in_combat_a_stealth_roll_is_made_on_the_hiders_own_turn() {
    let scene = run(
        &spy_scene(50),
        vec![json!({"type": "turnStart", "combatant": "tie", "round": 1})],
    );
    let error = refused(
        &scene,
        json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
    );
    assert_eq!(error.code(), "not_hider_turn");
}

#[test]
fn p9_outside_combat_there_is_no_per_turn_limit() {
    let scene = run(
        &spy_scene(100),
        vec![
            json!({"type": "enterStealth", "hider": "spy", "roll": 100}),
            json!({"type": "enterStealth", "hider": "spy", "roll": 100}),
            json!({"type": "enterStealth", "hider": "spy", "roll": 100}),
        ],
    );
    assert!(scene.hiders.get("spy").unwrap().score().is_some());
}

#[test]
fn p9_a_roll_while_one_observer_perceives_carries_already_perceived_none_without() {
    // First roll 67: `tie` and `sharp` perceive.
    let first = run(
        &spy_scene(49),
        vec![json!({"type": "enterStealth", "hider": "spy", "roll": 37})],
    );
    let second = ok(
        &first,
        json!({"type": "enterStealth", "hider": "spy", "roll": 37}),
    );
    assert_eq!(
        second.state.hiders.get("spy").unwrap().score(),
        Some(67 - 100)
    );
    let p9 = entries_for(&second, "P9", Audience::Gm);
    assert_eq!(p9.len(), 1);
    assert!(p9[0].en().contains("2 observer(s)"), "{}", p9[0].en());

    // A hider nobody perceives rolls again without the penalty.
    let unseen = state(json!({
        "ruleset": "percentile",
        "creatures": [{"id": "spy", "stealthSkill": 100}, {"id": "dull"}]
    }));
    let scene = run(
        &unseen,
        vec![
            json!({"type": "enterStealth", "hider": "spy", "roll": 10}),
            json!({"type": "enterStealth", "hider": "spy", "roll": 10}),
        ],
    );
    assert_eq!(scene.hiders.get("spy").unwrap().score(), Some(115));
}

#[test]
fn p9_stop_hiding_removes_the_record_so_a_later_roll_has_no_automatic_penalty() {
    let scene = run(
        &spy_scene(49),
        vec![
            json!({"type": "enterStealth", "hider": "spy", "roll": 37}),
            json!({"type": "stopHiding", "hider": "spy"}),
        ],
    );
    assert!(!scene.hiders.contains_key("spy"));
    let outcome = ok(
        &scene,
        json!({"type": "enterStealth", "hider": "spy", "roll": 37}),
    );
    assert_eq!(outcome.state.hiders.get("spy").unwrap().score(), Some(67));
    assert!(entries(&outcome, "P9").is_empty());
}

#[test]
fn p9_combat_end_ends_every_surprise_and_reveals_the_attackers() {
    // A surprise made outside combat (no turns) lasts until combat end.
    let scene = state(json!({
        "ruleset": "percentile",
        "creatures": [
            {"id": "spy", "stealthSkill": 60},
            {"id": "guard", "acuities": {"visual": 10}}
        ]
    }));
    let scene = run(
        &scene,
        vec![
            json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
            json!({"type": "attack", "attacker": "spy", "target": "guard"}),
        ],
    );
    assert!(scene.surprise("spy", "guard").is_some());
    let ended = ok(&scene, json!({"type": "combatEnd"}));
    assert!(ended.state.surprises.is_empty());
    assert!(
        ended.state.perceives("guard", "spy"),
        "P9: the surprise is over"
    );
    assert_eq!(
        ended.state.hiders.get("spy").unwrap().phase,
        HiderPhase::Revealed
    );
    assert_eq!(
        visibility(&ended),
        vec![("spy".into(), "guard".into(), true)]
    );
}

#[test]
fn p9_the_end_of_another_combatants_turn_does_not_reset_the_hiders_roll() {
    let scene = run(
        &spy_scene(49),
        vec![
            json!({"type": "turnStart", "combatant": "spy", "round": 1}),
            json!({"type": "enterStealth", "hider": "spy", "roll": 37}),
            // A stray or late turn end of someone else.
            json!({"type": "turnEnd", "combatant": "tie"}),
        ],
    );
    let error = refused(
        &scene,
        json!({"type": "enterStealth", "hider": "spy", "roll": 90}),
    );
    assert_eq!(error.code(), "stealth_roll_already_made");
}

// ---------------------------------------------------------------- P10

#[test]
fn p10_pickpocket_a_visible_object_not_held_while_unperceived() {
    let scene = ambush();
    let ask = |target: &str, held: bool, visible: bool| {
        can_pickpocket(
            &scene,
            &PickpocketQuery {
                hider: "spy".into(),
                target: target.into(),
                held,
                visible,
            },
        )
        .unwrap()
    };
    let purse = ask("guard", false, true);
    assert!(purse.allowed);
    assert_eq!(purse.clause, "P10");
    assert!(!ask("guard", true, true).allowed, "held");
    assert!(!ask("guard", false, false).allowed, "hidden object");
    assert!(
        !ask("watcher", false, true).allowed,
        "the target perceives the spy"
    );
}

// ---------------------------------------------------------------- P11

#[test]
fn p11_stealth_d100_values_1_and_100_are_plain_numbers() {
    assert_eq!(score_after(50, 1, json!({})), 51);
    assert_eq!(score_after(50, 100, json!({})), 150);
    assert_eq!(score_after(50, 2, json!({})), 52);
    assert_eq!(score_after(50, 99, json!({})), 149);
}

#[test]
fn p11_knockout_d100_ignores_automatic_success_and_failure() {
    let with_base = |base: u32| {
        run(
            &head_surprise(),
            vec![json!({"type": "upsertCreature", "creature":
                {"id": "spy", "stealthSkill": 60, "baseStealthSkill": base}})],
        )
    };
    // 01 is no automatic success: base 0 never knocks out.
    assert_eq!(
        knock(&with_base(0), false, None, Some(1)).knocked_out,
        Some(false)
    );
    // 100 is no automatic failure: base 100 always knocks out.
    assert_eq!(
        knock(&with_base(100), false, None, Some(100)).knocked_out,
        Some(true)
    );
    assert_eq!(
        knock(&with_base(99), false, None, Some(99)).knocked_out,
        Some(true)
    );
    assert_eq!(
        knock(&with_base(1), false, None, Some(2)).knocked_out,
        Some(false)
    );
}

#[test]
fn p11_a_creature_without_the_skill_has_furtivite_0() {
    let scene = state(json!({
        "ruleset": "percentile",
        "creatures": [{"id": "clumsy"}, {"id": "dull"}]
    }));
    assert_eq!(scene.creatures.get("clumsy").unwrap().stealth_skill, 0);
    let outcome = ok(
        &scene,
        json!({"type": "enterStealth", "hider": "clumsy", "roll": 99}),
    );
    assert_eq!(
        outcome.state.hiders.get("clumsy").unwrap().score(),
        Some(49)
    );
}

#[test]
fn p_rules_events_of_the_other_ruleset_are_refused() {
    let scene = run(
        &spy_scene(49),
        vec![json!({"type": "enterStealth", "hider": "spy", "roll": 37})],
    );
    for event in [
        json!({"type": "perceptionRolled", "hider": "spy", "observer": "tie", "total": 3}),
        json!({"type": "pointOut", "hider": "spy", "observer": "tie", "allies": ["low"]}),
        json!({"type": "damageTaken", "target": "spy", "attacker": "tie"}),
    ] {
        assert_eq!(refused(&scene, event).code(), "wrong_ruleset");
    }
}

#[test]
fn p2_the_modifier_list_is_worded_in_both_languages() {
    let outcome = ok(
        &spy_scene(50),
        json!({"type": "enterStealth", "hider": "spy", "roll": 37}),
    );
    let p1 = &entries_for(&outcome, "P1", Audience::Gm)[0];
    assert!(p1.en().contains("(none)"), "{}", p1.en());
    assert!(p1.fr().contains("(aucun)"), "{}", p1.fr());
    let outcome = ok(
        &outcome.state,
        json!({"type": "modifiersChanged", "hider": "spy",
               "modifiers": {"situation": ["dark"], "free": [{"value": 5}, {"label": "fog", "value": -5}]}}),
    );
    let p4 = &entries_for(&outcome, "P4", Audience::Gm)[0];
    assert!(p4.en().contains("(dark +50, GM +5, fog -5)"), "{}", p4.en());
    assert!(
        p4.fr().contains("(obscurité +50, MJ +5, fog -5)"),
        "{}",
        p4.fr()
    );
}

#[test]
fn p9_vanishing_mid_fight_carries_minus_100_on_a_first_roll() {
    // In combat a creature that never hid is seen fighting: its first roll
    // carries already_perceived (P9, "to vanish mid-fight").
    let scene = state(json!({
        "ruleset": "percentile",
        "creatures": [
            {"id": "spy", "side": "party", "stealthSkill": 80},
            {"id": "guard", "side": "guards", "acuities": {"visual": 60}}
        ]
    }));
    let fighting = run(
        &scene,
        vec![json!({"type": "turnStart", "combatant": "spy", "round": 1})],
    );
    let rolled = ok(
        &fighting,
        json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
    );
    let record = rolled.state.hiders.get("spy").unwrap();
    assert!(record
        .modifiers()
        .unwrap()
        .situation
        .contains(&SituationModifier::AlreadyPerceived));
    assert_eq!(record.score(), Some(80 + 50 - 100));
    assert!(rolled.state.perceives("guard", "spy"));
    // Outside combat the same first roll has no automatic -100.
    let calm = ok(
        &scene,
        json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
    );
    assert_eq!(calm.state.hiders.get("spy").unwrap().score(), Some(130));
}

#[test]
fn p9_allies_perceiving_the_hider_do_not_add_minus_100() {
    // P2/P9: already_perceived is about the creatures the hider hides from;
    // an ally that perceives it does not count.
    let scene = state(json!({
        "ruleset": "percentile",
        "creatures": [
            {"id": "spy", "side": "party", "stealthSkill": 60},
            {"id": "friend", "side": "party", "acuities": {"visual": 500}},
            {"id": "guard", "side": "guards", "acuities": {"visual": 10}}
        ]
    }));
    let hidden = ok(
        &scene,
        json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
    );
    assert!(hidden.state.perceives("friend", "spy"));
    assert!(!hidden.state.perceives("guard", "spy"));
    let again = ok(
        &hidden.state,
        json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
    );
    assert_eq!(again.state.hiders.get("spy").unwrap().score(), Some(110));
    assert!(!again
        .state
        .hiders
        .get("spy")
        .unwrap()
        .modifiers()
        .unwrap()
        .situation
        .contains(&SituationModifier::AlreadyPerceived));
}

#[test]
fn p2_situation_modifiers_lists_the_nine_with_their_values() {
    let list = furtive_json::functions::situation_modifiers::<serde_json::Value>().unwrap();
    assert_eq!(
        list,
        json!([
            {"id": "sprint", "value": -50},
            {"id": "already_perceived", "value": -100},
            {"id": "dark", "value": 50},
            {"id": "no_cover", "value": -50},
            {"id": "cluttered", "value": 50},
            {"id": "very_quiet", "value": -50},
            {"id": "very_noisy", "value": 50},
            {"id": "strong_smells", "value": 50},
            {"id": "deserted", "value": -50}
        ])
    );
}
