//! A clause-by-clause audit of the engine against
//! `shared/rules-interpretation.md` (2026-12-01): boundary scenarios the
//! other test files did not pin, one test per reading, named by clause.

mod common;

use common::*;
use furtive_core::query::{can_defend, DefenseQuery};
use furtive_core::{Audience, HiderPhase, PairReason, SituationModifier, State};
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
    state.hiders["spy"]
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
    assert_eq!(revealed.hiders["spy"].phase, HiderPhase::Revealed);
    assert!(revealed.perceives("sentry", "spy"));
    // P9: a roll made while a non-ally perceives the hider carries -100.
    let rolled = ok(
        &revealed,
        json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
    );
    assert!(carries_minus_100(&rolled.state));
    assert_eq!(rolled.state.hiders["spy"].score(), Some(80 + 50 - 100));
    let added = entries_for(&rolled, "P9", Audience::Gm);
    assert_eq!(added.len(), 1);
    assert!(added[0].en.contains('1'), "{}", added[0].en);
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
    assert_eq!(revealed.hiders["spy"].phase, HiderPhase::Revealed);
    let rolled = ok(
        &revealed,
        json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
    )
    .state;
    assert!(!carries_minus_100(&rolled));
    assert_eq!(rolled.hiders["spy"].score(), Some(130));
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
    assert_eq!(tie.hiders["spy"].score(), Some(100));
    assert!(tie.perceives("guard", "spy"));
    let above = roll(-29);
    assert_eq!(above.hiders["spy"].score(), Some(101));
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
    assert_eq!(own.hiders["spy"].score(), Some(170));
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
        ended.state.hiders["spy"].pairs["guard2"].reason,
        PairReason::SurpriseEnded
    );
}
