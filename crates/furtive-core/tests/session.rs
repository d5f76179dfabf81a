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
                hider, observers, ..
            } => (hider.as_str(), observers.join(",")),
            other => panic!("unexpected request {other:?}"),
        })
        .collect();
    assert_eq!(
        checks,
        [
            ("rogue", "guard".to_string()),
            ("thief", "guard".to_string())
        ]
    );
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
    // B1: an unknown observer perceives no hider; an unknown token is not
    // hiding, so it is perceived.
    assert!(
        !session
            .perceives(&pair_query("ghost", "rogue"))
            .unwrap()
            .allowed
    );
    assert!(
        session
            .perceives(&pair_query("guard", "ghost"))
            .unwrap()
            .allowed
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

/// A session is `Send` and `Sync`: it moves between threads.
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
    // The typical token drag. The observers stay out of clear view
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
    // stored distance follows the event bit for bit, even where the
    // "unchanged view" shortcut applies.
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
    let distance = session
        .state()
        .hiders
        .get("rogue")
        .unwrap()
        .pairs
        .get("guard")
        .unwrap()
        .distance;
    assert_eq!(distance.map(f64::to_bits), Some((-0.0f64).to_bits()));
    let snapshot = serde_json::to_string(&session.snapshot()).unwrap();
    assert!(snapshot.contains("\"distance\":-0.0"), "{snapshot}");
}

#[test]
fn o4_a_view_naming_an_observer_twice_is_refused_and_changes_nothing() {
    // One clear view a pair: a view naming an observer twice is bad input
    // (`duplicate_token`, the later entry named). It used to read as its
    // last entry.
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
    let before = session.snapshot();
    for (first, last) in [(true, false), (false, true)] {
        let error = session.apply(twice(first, last)).unwrap_err();
        assert_eq!(error.code(), "duplicate_token");
        assert_eq!(
            error.to_string(),
            "view[1].observer: token `guard` is listed twice"
        );
        assert_eq!(session.snapshot(), before);
    }
}

/// A 30-creature `opposed` table whose hider's pairs read every way a view
/// can meet them: out of view, waiting for a check, a stored failed or
/// passing check (O4), exposed (O5), perceived by a non-targeting sense
/// that has not located it yet (O13), a targeting sense in range, an
/// O11 penalty for one side; and one pair missing (a snapshot without it).
fn varied_table() -> Session {
    let creatures: Vec<serde_json::Value> = (0..30)
        .map(|i| {
            let mut creature = json!({
                "id": format!("token{i:02}abcdefgh"),
                "name": format!("Creature {i}"),
                "side": if i % 2 == 0 { "party" } else { "watch" },
                "perceptionModifier": i % 7,
            });
            if i % 9 == 4 || i == 8 {
                creature["enhancedSenses"] = json!([{"sense": "tremorsense", "range": 10}]);
            }
            if i % 11 == 6 {
                creature["enhancedSenses"] =
                    json!([{"sense": "smell", "range": 8, "targeting": true}]);
            }
            creature
        })
        .chain([json!({"id": "decoy", "side": "watch"})])
        .collect();
    let mut session = Session::new(
        serde_json::from_value(json!({"ruleset": "opposed", "creatures": creatures})).unwrap(),
    )
    .unwrap();
    let id = |i: usize| format!("token{i:02}abcdefgh");
    session.apply(hide(&id(0), 14)).unwrap();
    // Some observers come into view and answer their checks: some pass,
    // some fail (then exposed, O5), some leave the check pending.
    let into_view: Vec<String> = (1..30).filter(|i| i % 3 == 1).map(id).collect();
    session
        .apply(ev(json!({
            "type": "viewChanged", "hider": id(0),
            "view": into_view.iter().map(|o| json!({"observer": o, "clearView": true, "distance": 4.0})).collect::<Vec<_>>()
        })))
        .unwrap();
    for (n, observer) in into_view.iter().enumerate() {
        if n % 3 != 2 {
            let total = if n % 2 == 0 { 20 } else { 3 };
            session
                .apply(ev(json!({"type": "perceptionRolled", "hider": id(0), "observer": observer, "total": total})))
                .unwrap();
        }
    }
    // O13: a tremorsense in range without clear view: perceived by its
    // presence only, not located (no check until it has clear view).
    session
        .apply(ev(json!({"type": "viewChanged", "hider": id(0),
            "view": [{"observer": id(8), "clearView": false, "distance": 3.0}]})))
        .unwrap();
    // The decoy stays out of view, far: naming it changes nothing.
    session
        .apply(ev(
            json!({"type": "viewChanged", "hider": id(0), "view": [decoy()]}),
        ))
        .unwrap();
    // O11: a damaging hit from a watch creature: a penalty for its allies.
    session
        .apply(ev(
            json!({"type": "damageTaken", "target": id(0), "attacker": id(3), "hits": 1}),
        ))
        .unwrap();
    // One pair missing, as a snapshot may have it.
    let mut state = session.snapshot();
    state
        .hiders
        .get_mut(id(0).as_str())
        .unwrap()
        .pairs
        .remove(id(29).as_str());
    Session::load(state).unwrap()
}

/// An observer of [`varied_table`] out of view and out of every sense's
/// range, already recorded so: a view entry naming it changes nothing.
fn decoy() -> serde_json::Value {
    json!({"observer": "decoy", "clearView": false, "distance": 500.0})
}

/// The view of `observers`, each with its clear view and distance.
fn varied_view(observers: &[(usize, bool, f64)]) -> Vec<serde_json::Value> {
    observers
        .iter()
        .map(|&(i, clear_view, distance)| {
            json!({"observer": format!("token{i:02}abcdefgh"), "clearView": clear_view, "distance": distance})
        })
        .collect()
}

#[test]
fn o4_o5_o13_a_view_decides_each_pair_as_one_view_per_observer_would() {
    // The named pairs are found once and each is recorded and
    // decided in one pass. For distinct observers that reads as recording
    // every entry first, then deciding each (each pair's decision reads
    // only its own pair): it must give what the two passes give, and what
    // one single-entry view per observer gives, in order: same state, same
    // changes, requests and log. Views naming few observers of many pairs
    // (looked up) and many (one walk) both.
    let views: Vec<Vec<(usize, bool, f64)>> = vec![
        (1..30).map(|i| (i, i % 4 != 0, (i % 13) as f64)).collect(),
        (1..30)
            .rev()
            .map(|i| (i, i % 5 == 0, 3.0 + (i % 3) as f64))
            .collect(),
        (1..30).map(|i| (i, false, 20.0)).collect(),
        vec![(8, true, 3.0), (4, true, 9.0), (29, true, 2.0)],
        vec![(13, false, 5.0)],
        (10..25).map(|i| (i, true, 12.0)).collect(),
    ];
    let (mut said, mut asked, mut locating) = (0, 0, false);
    for observers in views {
        let mut one_pass = varied_table();
        let mut singles = varied_table();
        let hider = "token00abcdefgh";
        let entries = varied_view(&observers);
        let whole = one_pass
            .apply(ev(
                json!({"type": "viewChanged", "hider": hider, "view": entries}),
            ))
            .unwrap();
        let each = singles
            .apply_all(
                entries
                    .iter()
                    .map(|entry| {
                        ev(json!({"type": "viewChanged", "hider": hider, "view": [entry]}))
                    })
                    .collect(),
            )
            .unwrap();
        assert_eq!(whole, each, "{observers:?}");
        assert_eq!(one_pass.snapshot(), singles.snapshot(), "{observers:?}");
        // (A view naming an observer twice, which took the journal's
        // two-pass path, is refused as bad input since: `duplicate_token`.)
        said += whole.log.len();
        asked += whole.requests.len();
        locating |= whole.requests.iter().any(|r| {
            matches!(r, furtive_core::Request::PerceptionCheck { clause, .. } if clause.id() == "O13")
        });
    }
    // The table meets the rules: decisions were made and checks asked,
    // an O13 locating check among them.
    assert!(
        said >= 10 && asked >= 3,
        "{said} log entries, {asked} requests"
    );
    assert!(locating, "no O13 locating check asked");
}

#[test]
fn o4_a_refused_event_after_a_view_of_many_observers_changes_nothing() {
    // The one-pass view writes pairs (a missing one created) and
    // journals them; a later refusal in the same transaction undoes all.
    let mut session = varied_table();
    let before = session.snapshot();
    let entries = varied_view(&(1..30).map(|i| (i, i % 2 == 0, 1.0)).collect::<Vec<_>>());
    let error = session
        .apply_all(vec![
            ev(json!({"type": "viewChanged", "hider": "token00abcdefgh", "moved": true, "view": entries})),
            ev(json!({"type": "stopHiding", "hider": "token05abcdefgh"})),
        ])
        .unwrap_err();
    assert_eq!(error.code(), "not_hiding");
    assert_eq!(session.snapshot(), before);
    // Refused inside the view itself: the 20th entry names an unknown
    // observer; the first 19 are valid and nothing of them stays.
    let mut entries = varied_view(&(1..25).map(|i| (i, true, 1.0)).collect::<Vec<_>>());
    entries[19]["observer"] = json!("ghost");
    let error = session
        .apply(ev(
            json!({"type": "viewChanged", "hider": "token00abcdefgh", "view": entries}),
        ))
        .unwrap_err();
    assert_eq!(error.code(), "unknown_token");
    assert!(
        matches!(&error, furtive_core::Error::UnknownToken { field, id } if field == "view[19].observer" && id == "ghost"),
        "{error:?}"
    );
    assert_eq!(session.snapshot(), before);
}

/// Applies `events` as one transaction and checks its changes against the
/// full comparison of the states before and after (`furtive_core::diff`).
fn changes_match_the_full_comparison(session: &mut Session, events: Vec<Event>) -> Vec<Change> {
    let before = session.snapshot();
    let effects = session.apply_all(events).unwrap();
    assert_eq!(
        effects.changes,
        furtive_core::diff(&before, &session.snapshot())
    );
    effects.changes
}

#[test]
fn o4_o13_a_view_of_many_observers_reports_the_one_pair_it_turns_among_checks_asked() {
    // A view whose named pairs all read as perceived as they did
    // (each asked an O4 check) skips the comparison of the touched pairs;
    // one pair that turns among them, in the same view or a later event of
    // the transaction, must still be reported.
    let hider = "token00abcdefgh";
    let id = |i: usize| format!("token{i:02}abcdefgh");
    let fresh = || {
        let mut session = varied_table();
        session
            .apply(ev(json!({"type": "stopHiding", "hider": hider})))
            .unwrap();
        session.apply(hide(hider, 14)).unwrap();
        session
    };
    // The one change expected: creature `i` now perceives the hider.
    let perceived_by = |i: usize| {
        vec![Change::Visibility {
            hider: hider.into(),
            observer: id(i),
            perceived: true,
        }]
    };
    // No sense reaches at 30 ft: every pair is asked a check, none turns.
    let far: Vec<usize> = (1..30).collect();
    let far_view = || {
        let entries: Vec<(usize, bool, f64)> = far.iter().map(|&i| (i, true, 30.0)).collect();
        ev(json!({"type": "viewChanged", "hider": hider, "view": varied_view(&entries)}))
    };
    let mut session = fresh();
    let effects = session.apply(far_view()).unwrap();
    assert!(effects.changes.is_empty(), "{:?}", effects.changes);
    assert!(effects.hidden_from.is_empty());
    let asked: usize = effects
        .requests
        .iter()
        .map(|request| match request {
            furtive_core::Request::PerceptionCheck { observers, .. } => observers.len(),
            other => panic!("unexpected request {other:?}"),
        })
        .sum();
    assert_eq!(asked, 29);
    // The same view with creature 6's targeting smell in range (8 ft): it
    // perceives the hider (O13), the others are asked their checks.
    let mut session = fresh();
    let near: Vec<(usize, bool, f64)> = far
        .iter()
        .map(|&i| (i, true, if i == 6 { 2.0 } else { 30.0 }))
        .collect();
    let changes = changes_match_the_full_comparison(
        &mut session,
        vec![ev(
            json!({"type": "viewChanged", "hider": hider, "view": varied_view(&near)}),
        )],
    );
    assert_eq!(changes, perceived_by(6));
    // A later event of the transaction turns a pair the view checked: a
    // passing Perception check of creature 7 (O4).
    let mut session = fresh();
    let changes = changes_match_the_full_comparison(
        &mut session,
        vec![
            far_view(),
            ev(json!({"type": "perceptionRolled", "hider": hider, "observer": id(7), "total": 25})),
        ],
    );
    assert_eq!(changes, perceived_by(7));
    // Two views of the transaction, the second turning a pair the first
    // checked (a sense now in range).
    let mut session = fresh();
    let changes = changes_match_the_full_comparison(
        &mut session,
        vec![
            far_view(),
            ev(json!({"type": "viewChanged", "hider": hider, "view": varied_view(&near)})),
        ],
    );
    assert_eq!(changes.len(), 1, "{changes:?}");
}

#[test]
fn b3_a_hider_removed_after_the_observer_it_hid_from_in_one_transaction_stops_showing_hidden() {
    // The observer's pair is saved before the hider's whole record: the
    // state before must still count that pair (the hider showed `hidden`).
    let config: Config = serde_json::from_value(json!({
        "ruleset": "opposed",
        "creatures": [{"id": "spy", "side": "party"}, {"id": "guard", "side": "watch"}]
    }))
    .unwrap();
    let mut session = Session::new(config).unwrap();
    let effects = session.apply(hide("spy", 15)).unwrap();
    assert!(effects.changes.contains(&Change::Status {
        token: "spy".into(),
        status: Status::Hidden,
        active: true,
        expires: None,
    }));
    let changes = changes_match_the_full_comparison(
        &mut session,
        vec![
            ev(json!({"type": "tokenRemoved", "token": "guard"})),
            ev(json!({"type": "tokenRemoved", "token": "spy"})),
        ],
    );
    assert!(
        changes.contains(&Change::Status {
            token: "spy".into(),
            status: Status::Hidden,
            active: false,
            expires: None,
        }),
        "{changes:?}"
    );
}

#[test]
fn b1_a_creature_saved_twice_in_one_transaction_reads_as_it_was_at_its_start() {
    // The guard leaves and comes back, and a newcomer joins and leaves,
    // in one `applyAll`: each reads "before" from its first saved value,
    // so nothing changed for either, not even the hidden-from lookup.
    let mut session = Session::new(config()).unwrap();
    session.apply(hide("rogue", 15)).unwrap();
    let before = session.snapshot();
    let guard = json!({"id": "guard", "side": "watch"});
    let newcomer = json!({"id": "newcomer", "side": "watch"});
    let effects = session
        .apply_all(vec![
            ev(json!({"type": "tokenRemoved", "token": "guard"})),
            ev(json!({"type": "upsertCreature", "creature": guard})),
            ev(json!({"type": "upsertCreature", "creature": newcomer})),
            ev(json!({"type": "tokenRemoved", "token": "newcomer"})),
        ])
        .unwrap();
    assert_eq!(
        effects.changes,
        furtive_core::diff(&before, &session.snapshot())
    );
    assert_eq!(
        query::hidden_from(&before).unwrap(),
        query::hidden_from(session.state()).unwrap()
    );
    assert_eq!(effects.hidden_from, vec![], "{:?}", effects.hidden_from);
}
