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
fn the_revision_stays_a_number_javascript_holds_exactly() {
    // 2^53 - 1 (Number.MAX_SAFE_INTEGER) loads and is where it stops.
    let max = (1u64 << 53) - 1;
    let mut state = Session::new(config()).unwrap().snapshot();
    state.revision = max;
    let mut session = Session::load(state.clone()).unwrap();
    assert_eq!(session.apply(hide("rogue", 15)).unwrap().revision, max);
    assert_eq!(session.revision(), max);
    // Above it, a snapshot is refused, naming the field.
    let mut text = serde_json::to_value(&state).unwrap();
    text["revision"] = json!(max + 1);
    let error = Session::load_json(text).unwrap_err();
    assert_eq!(error.code(), "out_of_range");
    assert!(error.to_string().starts_with("revision:"), "{error}");
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
    // B1: an unknown observer perceives no hider; an unknown hider is an error.
    assert!(
        !session
            .perceives(&pair_query("ghost", "rogue"))
            .unwrap()
            .allowed
    );
    assert_eq!(
        session
            .perceives(&pair_query("guard", "ghost"))
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

#[test]
fn a_session_can_move_between_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Session>();
    let mut session = Session::new(config()).unwrap();
    let session = std::thread::spawn(move || {
        session.apply(hide("rogue", 15)).unwrap();
        session
    })
    .join()
    .unwrap();
    assert_eq!(session.revision(), 1);
}

#[test]
fn o4_a_view_that_names_observers_again_with_nothing_new_changes_nothing() {
    // Issue 9: the typical token drag. The observers stay out of clear view
    // at the same distance: no pair changes, nothing is asked or said, and
    // rolling back a later refusal in the same transaction keeps it so.
    let mut session = Session::new(config()).unwrap();
    session.apply(hide("rogue", 15)).unwrap();
    let out_of_view = json!({
        "type": "viewChanged", "hider": "rogue",
        "view": [
            {"observer": "guard", "clearView": false, "distance": 5.0},
            {"observer": "captain", "clearView": false, "distance": 5.0}
        ]
    });
    session.apply(ev(out_of_view.clone())).unwrap();
    let before = session.snapshot();
    let effects = session.apply(ev(out_of_view.clone())).unwrap();
    assert!(effects.changes.is_empty() && effects.requests.is_empty());
    assert!(effects.log.is_empty() && effects.hidden_from.is_empty());
    let mut after = session.snapshot();
    assert_eq!(after.revision, before.revision + 1);
    after.revision = before.revision;
    assert_eq!(after, before);

    // Unchanged guard, captain into clear view, then a refused event: the
    // whole transaction is undone, the captain's pair included.
    let before = session.snapshot();
    let error = session
        .apply_all(vec![
            ev(json!({
                "type": "viewChanged", "hider": "rogue",
                "view": [
                    {"observer": "guard", "clearView": false, "distance": 5.0},
                    {"observer": "captain", "clearView": true, "distance": 5.0}
                ]
            })),
            ev(json!({"type": "viewChanged", "hider": "ghost", "view": []})),
        ])
        .unwrap_err();
    assert_eq!(error.code(), "unknown_token");
    assert_eq!(session.snapshot(), before);
}

#[test]
fn o13_a_distance_that_changes_sign_only_is_still_stored() {
    // -0 and 0 read alike but a snapshot writes them differently: the
    // stored distance follows the event bit for bit, as before issue 9's
    // "unchanged view" shortcut.
    let mut session = Session::new(config()).unwrap();
    session.apply(hide("rogue", 15)).unwrap();
    let at = |distance: f64| {
        ev(json!({
            "type": "viewChanged", "hider": "rogue",
            "view": [{"observer": "guard", "clearView": false, "distance": distance}]
        }))
    };
    session.apply(at(0.0)).unwrap();
    session.apply(at(-0.0)).unwrap();
    let distance = session.state().hiders["rogue"].pairs["guard"].distance;
    assert_eq!(distance.map(f64::to_bits), Some((-0.0f64).to_bits()));
    let snapshot = serde_json::to_string(&session.snapshot()).unwrap();
    assert!(snapshot.contains("\"distance\":-0.0"), "{snapshot}");
}

#[test]
fn o4_a_view_naming_an_observer_twice_reads_as_its_last_entry() {
    // The view is recorded first, then each entry is decided: the last
    // entry's clear view is the one the Perception check follows.
    let twice = |first: bool, last: bool| {
        ev(json!({
            "type": "viewChanged", "hider": "rogue",
            "view": [
                {"observer": "guard", "clearView": first},
                {"observer": "guard", "clearView": last}
            ]
        }))
    };
    let mut session = Session::new(config()).unwrap();
    session.apply(hide("rogue", 15)).unwrap();
    let effects = session.apply(twice(true, false)).unwrap();
    assert!(effects.requests.is_empty(), "{:?}", effects.requests);
    assert!(!session.state().hiders["rogue"].pairs["guard"].clear_view);

    let mut session = Session::new(config()).unwrap();
    session.apply(hide("rogue", 15)).unwrap();
    let effects = session.apply(twice(false, true)).unwrap();
    assert_eq!(effects.requests.len(), 1, "{:?}", effects.requests);
    let pair = &session.state().hiders["rogue"].pairs["guard"];
    assert!(pair.clear_view && pair.check_pending && !pair.exposed);
}
