//! `Effects::attempts` and `Effects::views`: the engine tells its caller
//! which hiders began or ended a stealth attempt and which stored views
//! changed, so the caller keeps no list of the events that change them.
//! (The property test `session_apply_all_is_all_or_nothing` checks both
//! against a full comparison of the states, for arbitrary events.)

use furtive_core::record_changes::{AttemptChange, ViewChanges};
use furtive_core::{Config, Effects, Event, Session, ViewEntry};
use serde_json::json;

fn session(ruleset: &str) -> Session {
    let config: Config = serde_json::from_value(json!({
        "ruleset": ruleset,
        "creatures": [
            {"id": "spy", "side": "party", "stealthSkill": 100},
            {"id": "guard", "side": "watch"},
            {"id": "archer", "side": "watch"}
        ]
    }))
    .unwrap();
    Session::new(config).unwrap()
}

fn apply(session: &mut Session, event: serde_json::Value) -> Effects {
    let event: Event = serde_json::from_value(event).unwrap();
    session.apply(event).unwrap()
}

fn attempt(hiding: bool) -> Vec<AttemptChange> {
    vec![AttemptChange {
        hider: "spy".into(),
        hiding,
    }]
}

#[test]
fn o1_o12_effects_say_which_hiders_began_or_ended_an_attempt() {
    let mut opposed = session("opposed");
    let entered = apply(
        &mut opposed,
        json!({"type": "enterStealth", "hider": "spy", "roll": 15}),
    );
    assert_eq!(entered.attempts, attempt(true));
    // O7: a fresh roll is the same attempt.
    let again = apply(
        &mut opposed,
        json!({"type": "enterStealth", "hider": "spy", "roll": 12}),
    );
    assert!(again.attempts.is_empty());
    // O12: sprinting ends it.
    let sprint = apply(&mut opposed, json!({"type": "sprint", "token": "spy"}));
    assert_eq!(sprint.attempts, attempt(false));
    apply(
        &mut opposed,
        json!({"type": "enterStealth", "hider": "spy", "roll": 15}),
    );
    let removed = apply(
        &mut opposed,
        json!({"type": "tokenRemoved", "token": "spy"}),
    );
    assert_eq!(removed.attempts, attempt(false));
}

#[test]
fn p9_effects_say_the_attack_from_hiding_ended_the_attempt_at_the_turn_end() {
    let mut percentile = session("percentile");
    apply(
        &mut percentile,
        json!({"type": "enterStealth", "hider": "spy", "roll": 90}),
    );
    let attack = apply(
        &mut percentile,
        json!({"type": "attack", "attacker": "spy", "targets": ["guard"]}),
    );
    assert!(
        attack.attempts.is_empty(),
        "still hiding until its turn ends"
    );
    let turn_end = apply(
        &mut percentile,
        json!({"type": "turnEnd", "combatant": "spy"}),
    );
    assert_eq!(turn_end.attempts, attempt(false), "P9: revealed");
    // A roll after the reveal begins a new attempt.
    let rolled = apply(
        &mut percentile,
        json!({"type": "enterStealth", "hider": "spy", "roll": 90}),
    );
    assert_eq!(rolled.attempts, attempt(true));
    let stop = apply(
        &mut percentile,
        json!({"type": "stopHiding", "hider": "spy"}),
    );
    assert_eq!(stop.attempts, attempt(false));
}

fn view(observer: &str, clear_view: bool, distance: Option<f64>) -> ViewEntry {
    ViewEntry {
        observer: observer.into(),
        clear_view,
        distance,
    }
}

/// The spy's views that changed: `view` as now held, then `removed`.
fn spy(view: Vec<ViewEntry>, removed: &[&str]) -> Vec<ViewChanges> {
    vec![ViewChanges {
        hider: "spy".into(),
        view,
        removed: removed.iter().map(|&id| id.into()).collect(),
    }]
}

#[test]
fn b5_o4_effects_list_the_stored_views_that_changed() {
    let mut opposed = session("opposed");
    let entered = apply(
        &mut opposed,
        json!({"type": "enterStealth", "hider": "spy", "roll": 15,
               "view": [{"observer": "guard", "clearView": false, "distance": 30}]}),
    );
    // Every observer gets a pair (O2); the guard's holds the view sent.
    assert_eq!(
        entered.views,
        spy(
            vec![
                view("archer", false, None),
                view("guard", false, Some(30.0))
            ],
            &[]
        )
    );
    let moved = apply(
        &mut opposed,
        json!({"type": "viewChanged", "hider": "spy",
               "view": [{"observer": "guard", "clearView": true, "distance": 20},
                        {"observer": "archer", "clearView": false}]}),
    );
    assert_eq!(moved.views, spy(vec![view("guard", true, Some(20.0))], &[]));
    // The same view again changes nothing.
    let same = apply(
        &mut opposed,
        json!({"type": "viewChanged", "hider": "spy",
               "view": [{"observer": "guard", "clearView": true, "distance": 20}]}),
    );
    assert!(same.views.is_empty());
    // An observer that leaves takes its pair with it.
    let left = apply(
        &mut opposed,
        json!({"type": "tokenRemoved", "token": "guard"}),
    );
    assert_eq!(left.views, spy(vec![], &["guard"]));
    let stop = apply(&mut opposed, json!({"type": "stopHiding", "hider": "spy"}));
    assert_eq!(stop.views, spy(vec![], &["archer"]));
}

#[test]
fn b5_o4_view_changes_of_several_hiders_come_one_entry_per_hider() {
    let mut opposed = session("opposed");
    apply(
        &mut opposed,
        json!({"type": "enterStealth", "hider": "spy", "roll": 15,
               "view": [{"observer": "guard", "clearView": false, "distance": 30}]}),
    );
    apply(
        &mut opposed,
        json!({"type": "enterStealth", "hider": "archer", "roll": 15,
               "view": [{"observer": "guard", "clearView": false, "distance": 30}]}),
    );
    // The guard leaves: both hiders lose their pair with it, each in its own entry.
    let left = apply(
        &mut opposed,
        json!({"type": "tokenRemoved", "token": "guard"}),
    );
    let hiders: Vec<(&str, Vec<&str>)> = left
        .views
        .iter()
        .map(|change| {
            (
                change.hider.as_str(),
                change.removed.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    assert_eq!(
        hiders,
        vec![("archer", vec!["guard"]), ("spy", vec!["guard"])]
    );
    assert!(left.views.iter().all(|change| change.view.is_empty()));
}
