//! `Session`: the engine keeps the state; apply, apply_all, settle, the
//! queries, snapshots and the hidden-from patch.

mod common;

use common::*;
use furtive_core::query::{DefenseQuery, HiddenAttackQuery, PairQuery};
use furtive_core::{query, Change, Config, Event, HiddenFromChange, Session, Status};
use serde_json::json;

fn config() -> Config {
    serde_json::from_value(json!({
        "ruleset": "opposed",
        "creatures": [
            {"id": "rogue", "side": "party"},
            {"id": "thief", "side": "party"},
            {"id": "guard", "side": "watch"},
            {"id": "captain", "side": "watch"}
        ]
    }))
    .unwrap()
}

fn hide(hider: &str, roll: i64) -> Event {
    ev(json!({"type": "enterStealth", "hider": hider, "roll": roll, "moved": true}))
}

fn view(hider: &str, observers: &[&str]) -> Event {
    ev(json!({
        "type": "viewChanged",
        "hider": hider,
        "view": observers.iter().map(|o| json!({"observer": o, "clearView": true})).collect::<Vec<_>>()
    }))
}

fn pair_query(observer: &str, hider: &str) -> PairQuery {
    PairQuery {
        observer: observer.into(),
        hider: hider.into(),
    }
}

#[test]
fn a_session_applies_in_place_and_counts_revisions() {
    let mut session = Session::new(config()).unwrap();
    assert_eq!(session.revision(), 0);
    let effects = session.apply(hide("rogue", 15)).unwrap();
    assert_eq!(effects.revision, 1);
    assert_eq!(session.revision(), 1);
    assert!(effects.changes.contains(&Change::Status {
        token: "rogue".into(),
        status: Status::Hidden,
        active: true,
        expires: None,
    }));
    assert!(!session.state().perceives("guard", "rogue"));
    // The free function gives the same outcome from the same state.
    let free = furtive_core::apply(
        &Session::new(config()).unwrap().snapshot(),
        hide("rogue", 15),
    )
    .unwrap();
    assert_eq!(free.state, session.snapshot());
    assert_eq!(free.changes, effects.changes);
    assert_eq!(free.log, effects.log);
}

#[test]
fn a_refused_event_changes_nothing_not_even_the_revision() {
    let mut session = Session::new(config()).unwrap();
    session.apply(hide("rogue", 15)).unwrap();
    session.apply(view("rogue", &["guard"])).unwrap();
    let before = session.snapshot();
    // Valid up to the last view entry, which names an unknown observer.
    let error = session
        .apply(ev(json!({
            "type": "viewChanged", "hider": "rogue", "moved": true,
            "view": [{"observer": "captain", "clearView": true}, {"observer": "ghost", "clearView": true}]
        })))
        .unwrap_err();
    assert_eq!(error.code(), "unknown_token");
    assert_eq!(session.snapshot(), before);
    // A rule that refuses after reading the state: a second roll in one turn.
    session
        .apply(ev(json!({"type": "turnStart", "combatant": "rogue"})))
        .unwrap();
    session.apply(hide("rogue", 9)).unwrap();
    let before = session.snapshot();
    assert_eq!(
        session.apply(hide("rogue", 20)).unwrap_err().code(),
        "stealth_roll_already_made"
    );
    assert_eq!(session.snapshot(), before);
}

#[test]
fn apply_all_is_one_transaction_with_one_set_of_effects() {
    // A door opens in front of two hiders: one call.
    let mut session = Session::new(config()).unwrap();
    session
        .apply_all(vec![hide("rogue", 15), hide("thief", 12)])
        .unwrap();
    let effects = session
        .apply_all(vec![view("rogue", &["guard"]), view("thief", &["guard"])])
        .unwrap();
    assert_eq!(effects.revision, 2);
    let checks: Vec<_> = effects
        .requests
        .iter()
        .map(|r| match r {
            furtive_core::Request::PerceptionCheck {
                hider, observer, ..
            } => (hider.as_str(), observer.as_str()),
            other => panic!("unexpected request {other:?}"),
        })
        .collect();
    assert_eq!(checks, [("rogue", "guard"), ("thief", "guard")]);
    // All or nothing: the third event is refused, the first two are undone.
    let before = session.snapshot();
    let error = session
        .apply_all(vec![
            view("rogue", &["captain"]),
            ev(json!({"type": "perceptionRolled", "hider": "rogue", "observer": "guard", "total": 30})),
            ev(json!({"type": "stopHiding", "hider": "guard"})),
        ])
        .unwrap_err();
    assert_eq!(error.code(), "not_hiding");
    assert_eq!(session.snapshot(), before);
    // Hiding then stopping in one call: nothing visible changed in the end.
    let mut session = Session::new(config()).unwrap();
    let effects = session
        .apply_all(vec![
            hide("rogue", 15),
            ev(json!({"type": "stopHiding", "hider": "rogue"})),
        ])
        .unwrap();
    assert!(effects.changes.is_empty());
    assert!(effects.hidden_from.is_empty());
    // O1 (GM and public), O2 for each of the three observers (GM), B3 (public).
    assert_eq!(effects.log.len(), 2 + 3 + 1);
}

#[test]
fn hidden_from_changes_patch_the_lookup() {
    let mut session = Session::new(config()).unwrap();
    let effects = session.apply(hide("rogue", 15)).unwrap();
    let patch = Session::hidden_from_changes(&effects);
    // Allies count too in `opposed` (O3 points out; B2 per observer).
    let observers: Vec<&str> = patch.iter().map(|c| c.observer.as_str()).collect();
    assert_eq!(observers, ["captain", "guard", "thief"]);
    assert!(patch.iter().all(|c| c.hider == "rogue" && c.hidden));
    session.apply(view("rogue", &["guard"])).unwrap();
    let effects = session
        .apply(ev(
            json!({"type": "perceptionRolled", "hider": "rogue", "observer": "guard", "total": 20}),
        ))
        .unwrap();
    assert_eq!(
        Session::hidden_from_changes(&effects),
        [HiddenFromChange {
            observer: "guard".into(),
            hider: "rogue".into(),
            hidden: false
        }]
    );
    // A token leaving removes it from the lookup, as observer and as hider.
    let effects = session
        .apply(ev(json!({"type": "tokenRemoved", "token": "captain"})))
        .unwrap();
    assert_eq!(
        Session::hidden_from_changes(&effects),
        [HiddenFromChange {
            observer: "captain".into(),
            hider: "rogue".into(),
            hidden: false
        }]
    );
    assert_eq!(
        session.hidden_from(),
        query::hidden_from(&session.snapshot()).unwrap()
    );
    assert_eq!(session.hidden_from()["thief"], ["rogue"]);
}

#[test]
fn the_queries_answer_from_the_session_as_the_free_functions_do() {
    let mut session = Session::new(config()).unwrap();
    session.apply(hide("rogue", 15)).unwrap();
    let state = session.snapshot();
    let q = pair_query("guard", "rogue");
    assert_eq!(session.perceives(&q), query::perceives(&state, &q));
    assert!(!session.perceives(&q).unwrap().allowed);
    let defense = DefenseQuery {
        defender: "captain".into(),
        target: "guard".into(),
        attacker: "rogue".into(),
    };
    assert_eq!(
        session.can_defend(&defense),
        query::can_defend(&state, &defense)
    );
    let attack = HiddenAttackQuery {
        attacker: "guard".into(),
        target: "rogue".into(),
        aimed_at_space: true,
        area: false,
    };
    assert_eq!(
        session.attack_hidden(&attack),
        query::attack_hidden(&state, &attack)
    );
    assert_eq!(session.can_locate(&q).unwrap_err().code(), "wrong_ruleset");
    assert_eq!(
        session
            .perceives(&pair_query("ghost", "rogue"))
            .unwrap_err()
            .code(),
        "unknown_token"
    );
}

#[test]
fn settle_is_one_transaction() {
    let mut session = Session::new(config()).unwrap();
    session.apply(hide("rogue", 15)).unwrap();
    let effects = session
        .settle(view("rogue", &["guard", "captain"]), 7)
        .unwrap();
    assert!(effects.requests.is_empty(), "both checks answered");
    assert_eq!(session.revision(), 2);
    let free = furtive_core::settle(
        &{
            let mut s = Session::new(config()).unwrap();
            s.apply(hide("rogue", 15)).unwrap();
            s.snapshot()
        },
        view("rogue", &["guard", "captain"]),
        7,
    )
    .unwrap();
    assert_eq!(free.state, session.snapshot());
    assert_eq!(free.changes, effects.changes);
}

#[test]
fn a_snapshot_loads_back_into_an_equal_session() {
    let mut session = Session::new(config()).unwrap();
    session.apply(hide("rogue", 15)).unwrap();
    let json = serde_json::to_value(session.snapshot()).unwrap();
    assert_eq!(json["version"], 2);
    assert_eq!(json["revision"], 1);
    let loaded = Session::load_json(json).unwrap();
    assert_eq!(loaded.snapshot(), session.snapshot());
    let mut bad = serde_json::to_value(session.snapshot()).unwrap();
    bad["creatures"]["guard"]["stealthModifier"] = json!(5000);
    assert_eq!(Session::load_json(bad).unwrap_err().code(), "out_of_range");
}
