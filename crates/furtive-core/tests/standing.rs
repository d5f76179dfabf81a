//! The GM queries `standing` (a hider's roll and its parts) and `pairs`
//! (each pair's state and the decision behind it), named by the clauses
//! they report.

mod common;

use common::*;
use furtive_core::standing::{pairs, standing, PairState, PairsQuery, StandingQuery};
use furtive_core::{HiderPhase, Session, SituationModifier, State};
use serde_json::json;

fn standing_of(state: &State, hider: &str) -> furtive_core::standing::Standing {
    standing(
        state,
        &StandingQuery {
            hider: hider.into(),
        },
    )
    .unwrap()
}

fn pairs_of(
    state: &State,
    hider: Option<&str>,
    observer: Option<&str>,
) -> Vec<furtive_core::standing::PairStanding> {
    pairs(
        state,
        &PairsQuery {
            hider: hider.map(Into::into),
            observer: observer.map(Into::into),
        },
    )
    .unwrap()
}

/// A spy (Furtivité 50) among a guard (acuity sum 60) and a captain (200).
fn percentile_scene() -> State {
    state(json!({
        "ruleset": "percentile",
        "creatures": [
            {"id": "spy", "name": "Spy", "side": "party", "stealthSkill": 50},
            {"id": "guard", "name": "Guard", "side": "watch", "acuities": {"visual": 30, "auditory": 20, "olfactory": 10}},
            {"id": "captain", "name": "Captain", "side": "watch", "acuities": {"visual": 100, "auditory": 100}}
        ]
    }))
}

/// A rogue among a guard, an archer (guard's ally), a bat (echolocation,
/// non-targeting, 20) and a dog (smell, targeting, 30).
fn opposed_scene() -> State {
    state(json!({
        "ruleset": "opposed",
        "creatures": [
            {"id": "rogue", "name": "Rogue", "side": "party"},
            {"id": "guard", "name": "Guard", "side": "watch"},
            {"id": "archer", "name": "Archer", "side": "watch"},
            {"id": "bat", "name": "Bat", "side": "watch",
             "enhancedSenses": [{"sense": "echolocation", "range": 20}]},
            {"id": "dog", "name": "Dog", "side": "watch",
             "enhancedSenses": [{"sense": "smell", "range": 30, "targeting": true}]}
        ]
    }))
}

#[test]
fn p1_p2_p4_standing_gives_the_score_its_parts_and_the_pending_modifiers() {
    let scene = run(
        &percentile_scene(),
        vec![
            json!({"type": "enterStealth", "hider": "spy", "roll": 37,
                   "modifiers": {"situation": ["dark"], "free": [{"label": "fog", "value": -13}]}}),
            json!({"type": "modifiersChanged", "hider": "spy", "modifiers": {"situation": ["cluttered"]}}),
        ],
    );
    let answer = standing_of(&scene, "spy");
    assert_eq!(answer.phase, Some(HiderPhase::Hiding));
    assert!(answer.opposed.is_none());
    let roll = answer.percentile.expect("a percentile roll");
    assert_eq!((roll.stealth_skill, roll.d100, roll.tier), (50, 37, 37));
    assert_eq!(roll.modifier_total, 50 - 13);
    assert_eq!(roll.score, 50 + 37 + 37, "F + tier + modifiers");
    assert_eq!(roll.modifiers.situation, vec![SituationModifier::Dark]);
    assert!(!roll.already_perceived_added);
    let pending = roll.pending_modifiers.expect("P4: a new roll is pending");
    assert_eq!(pending.situation, vec![SituationModifier::Cluttered]);
    let json = serde_json::to_value(standing_of(&scene, "spy")).unwrap();
    assert_eq!(json["percentile"]["modifierTotal"], json!(37));
    assert_eq!(
        json["percentile"]["pendingModifiers"]["situation"],
        json!(["cluttered"])
    );
}

#[test]
fn o1_o6_o13_standing_gives_the_held_total_penalties_and_precautions() {
    let scene = run(
        &opposed_scene(),
        vec![
            json!({"type": "enterStealth", "hider": "rogue", "roll": 18, "precautions": ["smell"]}),
            json!({"type": "attack", "attacker": "rogue", "targets": ["guard"], "noisy": true, "hits": 2}),
            json!({"type": "damageTaken", "target": "rogue", "attacker": "guard"}),
        ],
    );
    let answer = standing_of(&scene, "rogue");
    assert!(answer.percentile.is_none());
    let held = answer.opposed.expect("an opposed roll");
    assert_eq!(held.held_total, 18);
    assert_eq!(held.penalties.len(), 2, "O8 and O11");
    assert_eq!(held.global_penalty, 10, "O8: 2 hits × 5; O11 is scoped");
    assert_eq!(held.precautions, vec!["smell".to_owned()]);
    // The scoped O11 penalty shows in the pairs of the attacker's allies.
    let archer = &pairs_of(&scene, Some("rogue"), Some("archer"))[0];
    assert_eq!(archer.effective_total, Some(18 - 10 - 5));
    let guard = &pairs_of(&scene, Some("rogue"), Some("guard"))[0];
    assert_eq!(
        guard.effective_total,
        Some(18 - 10),
        "not the attacker itself"
    );
}

#[test]
fn b1_standing_and_pairs_of_a_token_with_no_attempt_or_unknown_are_empty() {
    let scene = percentile_scene();
    for hider in ["spy", "ghost"] {
        let answer = standing_of(&scene, hider);
        assert_eq!(answer.phase, None, "{hider}");
        assert!(answer.percentile.is_none() && answer.opposed.is_none());
        assert!(pairs_of(&scene, Some(hider), None).is_empty());
    }
    let error = standing(&scene, &StandingQuery { hider: "".into() }).unwrap_err();
    assert_eq!(error.code(), "invalid_input");
}

/// B3: each pair says why it stands where it stands, with the numbers, as
/// the cards do: "score 87 > acuity sum 60: not perceived (P3)".
#[test]
fn b3_pairs_give_each_pair_its_state_its_clause_and_its_message() {
    let scene = run(
        &percentile_scene(),
        vec![json!({"type": "enterStealth", "hider": "spy", "roll": 37})],
    );
    let all = pairs_of(&scene, None, None);
    let ids: Vec<(&str, &str)> = all
        .iter()
        .map(|p| (p.hider.as_str(), p.observer.as_str()))
        .collect();
    assert_eq!(ids, vec![("spy", "captain"), ("spy", "guard")], "by id");
    let guard = &all[1];
    assert_eq!(guard.state, PairState::Unperceived);
    assert!(!guard.perceived && !guard.located && !guard.exposed && !guard.defenseless);
    assert_eq!(guard.clause, "P3");
    assert_eq!(
        guard.message.en(),
        "score 87 > acuity sum 60: Guard does not perceive Spy (P3)."
    );
    assert!(guard.message.fr().contains("somme des acuités 60"));
    let captain = &all[0];
    assert_eq!(captain.state, PairState::Perceived);
    assert_eq!(
        captain.message.en(),
        "score 87 ≤ acuity sum 200: Captain perceives Spy (P3)."
    );
    // A GM override is the last decision then.
    let overridden = run(
        &scene,
        vec![json!({"type": "gmOverride", "hider": "spy", "observer": "guard", "perceived": true})],
    );
    let guard = &pairs_of(&overridden, None, Some("guard"))[0];
    assert_eq!(
        (guard.state, guard.clause.id()),
        (PairState::Perceived, "GM")
    );
    assert_eq!(guard.message.en(), "GM override: Guard perceives Spy.");
}

#[test]
fn b1_pairs_with_an_observer_the_engine_does_not_know_are_unperceived() {
    let scene = run(
        &percentile_scene(),
        vec![json!({"type": "enterStealth", "hider": "spy", "roll": 37})],
    );
    let stranger = pairs_of(&scene, None, Some("stranger"));
    assert_eq!(stranger.len(), 1);
    assert_eq!(stranger[0].state, PairState::Unperceived);
    assert_eq!(stranger[0].clause, "B1");
    // The hider is no observer of itself.
    assert!(pairs_of(&scene, Some("spy"), Some("spy")).is_empty());
}

#[test]
fn p6_pairs_show_the_observer_defenseless_against_the_hider() {
    let scene = run(
        &percentile_scene(),
        vec![
            json!({"type": "enterStealth", "hider": "spy", "roll": 37}),
            json!({"type": "attack", "attacker": "spy", "targets": ["guard"]}),
        ],
    );
    let guard = &pairs_of(&scene, Some("spy"), Some("guard"))[0];
    assert!(guard.defenseless);
    assert!(!pairs_of(&scene, Some("spy"), Some("captain"))[0].defenseless);
    // P9: at the end of its turn everyone perceives the attacker.
    let revealed = run(&scene, vec![json!({"type": "turnEnd", "combatant": "spy"})]);
    for pair in pairs_of(&revealed, Some("spy"), None) {
        assert_eq!((pair.state, pair.clause.id()), (PairState::Perceived, "P9"));
        assert!(!pair.defenseless);
        assert!(pair.message.en().contains("everyone perceives Spy"));
    }
}

#[test]
fn o13_pairs_tell_presence_only_from_located() {
    let scene = run(
        &opposed_scene(),
        vec![json!({"type": "enterStealth", "hider": "rogue", "roll": 18,
                    "view": [{"observer": "bat", "clearView": false, "distance": 10},
                             {"observer": "dog", "clearView": false, "distance": 10}]})],
    );
    let bat = &pairs_of(&scene, Some("rogue"), Some("bat"))[0];
    assert_eq!(bat.state, PairState::PresenceOnly);
    assert!(bat.perceived && !bat.located);
    assert_eq!(bat.clause, "O13");
    assert!(
        bat.message.en().contains("echolocation"),
        "{}",
        bat.message.en()
    );
    let dog = &pairs_of(&scene, Some("rogue"), Some("dog"))[0];
    assert_eq!(dog.state, PairState::Perceived);
    assert!(dog.located);
    assert_eq!(dog.distance, Some(10.0));
}

#[test]
fn o4_o5_pairs_show_a_pending_check_then_an_exposed_pair() {
    let scene = run(
        &opposed_scene(),
        vec![
            json!({"type": "enterStealth", "hider": "rogue", "roll": 18}),
            json!({"type": "viewChanged", "hider": "rogue", "view": [{"observer": "guard", "clearView": true}]}),
        ],
    );
    let guard = &pairs_of(&scene, Some("rogue"), Some("guard"))[0];
    assert_eq!(
        (guard.state, guard.clause.id()),
        (PairState::Unperceived, "O4")
    );
    assert!(guard.clear_view);
    assert!(guard
        .message
        .en()
        .contains("immediate Perception check against 18"));
    let failed = run(
        &scene,
        vec![
            json!({"type": "perceptionRolled", "hider": "rogue", "observer": "guard", "total": 12}),
        ],
    );
    let guard = &pairs_of(&failed, Some("rogue"), Some("guard"))[0];
    assert_eq!(guard.state, PairState::Exposed);
    assert!(guard.exposed && !guard.perceived);
    assert_eq!(guard.perception_total, Some(12));
    assert_eq!(
        guard.message.en(),
        "Perception 12 < stealth total 18: Guard does not perceive Rogue; the result is stored (O4)."
    );
}

#[test]
fn o3_pairs_cite_the_point_out() {
    let scene = run(
        &opposed_scene(),
        vec![
            json!({"type": "enterStealth", "hider": "rogue", "roll": 18,
                   "view": [{"observer": "guard", "clearView": true}]}),
            json!({"type": "pointOut", "hider": "rogue", "observer": "guard", "allies": ["archer"]}),
        ],
    );
    let archer = &pairs_of(&scene, Some("rogue"), Some("archer"))[0];
    assert_eq!(
        (archer.state, archer.clause.id()),
        (PairState::Perceived, "O3")
    );
    assert_eq!(
        archer.message.en(),
        "Archer perceives Rogue: an ally pointed it out, no roll (O3)."
    );
    let guard = &pairs_of(&scene, Some("rogue"), Some("guard"))[0];
    assert_eq!(guard.clause, "O2", "watched at entry");
}

#[test]
fn the_session_answers_standing_and_pairs_as_the_free_functions_do() {
    let scene = run(
        &percentile_scene(),
        vec![json!({"type": "enterStealth", "hider": "spy", "roll": 37})],
    );
    let session = Session::load(scene.clone()).unwrap();
    let query = StandingQuery {
        hider: "spy".into(),
    };
    assert_eq!(
        session.standing(&query).unwrap(),
        standing(&scene, &query).unwrap()
    );
    let all = PairsQuery::default();
    assert_eq!(session.pairs(&all).unwrap(), pairs(&scene, &all).unwrap());
}

/// The JSON boundary the bindings call: `standing` and `pairs` read their
/// query strictly (an unknown field is refused, naming the query) and
/// write the same answers as the Rust API, each pair's message as the
/// cards carry it (`[key, argument...]`, rendered by the npm package).
#[test]
fn b3_the_json_session_answers_standing_and_pairs() {
    use furtive_json::session::JsonSession;
    let config = json!({
        "ruleset": "percentile",
        "creatures": [
            {"id": "spy", "name": "Spy", "side": "party", "stealthSkill": 50},
            {"id": "guard", "name": "Guard", "side": "watch", "acuities": {"visual": 30, "auditory": 20, "olfactory": 10}}
        ]
    })
    .to_string();
    let mut session = JsonSession::create(config.as_str()).unwrap();
    session
        .apply(r#"{"type": "enterStealth", "hider": "spy", "roll": 37}"#)
        .unwrap();
    let standing: serde_json::Value =
        serde_json::from_str(&session.standing(r#"{"hider": "spy"}"#).unwrap()).unwrap();
    assert_eq!(standing["percentile"]["score"], json!(87));
    let pairs: serde_json::Value = serde_json::from_str(&session.pairs("{}").unwrap()).unwrap();
    assert_eq!(pairs[0]["observer"], json!("guard"));
    assert_eq!(pairs[0]["state"], json!("unperceived"));
    assert_eq!(pairs[0]["clause"], json!("P3"));
    assert!(pairs[0]["message"].is_array(), "{}", pairs[0]["message"]);
    let error = session
        .pairs(r#"{"hider": "spy", "seen": true}"#)
        .unwrap_err();
    assert_eq!(error.code(), "invalid_input");
    assert!(error.to_string().starts_with("query"), "{error}");
}
