//! Clauses that hold for both rulesets (B1-B4), atomicity, the events the
//! engine handles for both rulesets, and the JSON facade.

mod common;

use common::*;
use furtive_core::query::{
    can_defend, can_locate, can_pickpocket, hidden_from, knockout, perceives, DefenseQuery,
    KnockoutQuery, PairQuery, PickpocketQuery,
};
use furtive_core::{
    apply, roll_requests, settle, Audience, Change, Event, LogEntry, Outcome, PairReason, Request,
    Roller, State, Status,
};
use furtive_json::functions as api;
use serde_json::{json, Value};

fn percentile_scene(show_numbers: bool) -> State {
    state(json!({
        "ruleset": "percentile",
        "settings": {"showNumbersToPlayers": show_numbers},
        "creatures": [
            {"id": "spy", "name": "Spy", "side": "party", "stealthSkill": 60, "strength": 12},
            {"id": "friend", "name": "Friend", "side": "party", "acuities": {"visual": 20}},
            {"id": "guard", "name": "Guard", "side": "guards", "acuities": {"visual": 40}},
            {"id": "watcher", "name": "Watcher", "side": "guards", "acuities": {"visual": 90, "auditory": 90}}
        ]
    }))
}

fn opposed_scene(show_numbers: bool) -> State {
    state(json!({
        "ruleset": "opposed",
        "settings": {"showNumbersToPlayers": show_numbers},
        "creatures": [
            {"id": "rogue", "name": "Rogue", "side": "party"},
            {"id": "friend", "name": "Friend", "side": "party"},
            {"id": "guard", "name": "Guard", "side": "guards"},
            {"id": "captain", "name": "Captain", "side": "guards"},
            {"id": "archer", "name": "Archer", "side": "guards"},
            {"id": "dog", "name": "Dog", "side": "guards",
             "enhancedSenses": [{"sense": "smell", "range": 30, "targeting": true}]}
        ]
    }))
}

/// Applies every event, returning every outcome (events must be accepted).
fn script(start: &State, events: Vec<Value>) -> Vec<Outcome> {
    let mut current = start.clone();
    let mut outcomes = Vec::new();
    for event in events {
        let outcome = ok(&current, event);
        current = outcome.state.clone();
        outcomes.push(outcome);
    }
    outcomes
}

/// A percentile session that reaches every logged clause of the ruleset.
fn percentile_session(show_numbers: bool) -> Vec<Outcome> {
    script(
        &percentile_scene(show_numbers),
        vec![
            // The spy hides before the combat starts (an ambush): in combat
            // a first roll carries already_perceived (P9).
            json!({"type": "enterStealth", "hider": "spy", "roll": 50, "modifiers": {"situation": ["dark"]}}),
            json!({"type": "turnStart", "combatant": "spy", "round": 1}),
            json!({"type": "modifiersChanged", "hider": "spy", "modifiers": {"situation": ["dark", "cluttered"]}}),
            json!({"type": "modifiersChanged", "hider": "spy", "modifiers": {"situation": ["cluttered", "dark"]}}),
            json!({"type": "attack", "attacker": "spy", "target": "guard", "hitZone": "head"}),
            json!({"type": "attack", "attacker": "spy", "target": "guard"}),
            json!({"type": "attack", "attacker": "spy", "target": "watcher"}),
            json!({"type": "turnEnd", "combatant": "spy"}),
            json!({"type": "turnStart", "combatant": "guard", "round": 1}),
            json!({"type": "turnEnd", "combatant": "guard"}),
            json!({"type": "roundEnd", "round": 1}),
            json!({"type": "turnStart", "combatant": "spy", "round": 2}),
            json!({"type": "enterStealth", "hider": "spy", "roll": 90, "modifiers": {"situation": ["dark"]}}),
            json!({"type": "upsertCreature", "creature": {"id": "late", "name": "Late", "acuities": {"visual": 5}}}),
            json!({"type": "gmOverride", "hider": "spy", "observer": "late", "perceived": true}),
            json!({"type": "sprint", "token": "spy"}),
            json!({"type": "sprint", "token": "guard"}),
            json!({"type": "viewChanged", "hider": "spy", "moved": true, "view": [{"observer": "guard", "clearView": true}]}),
            json!({"type": "stopHiding", "hider": "spy"}),
            json!({"type": "tokenRemoved", "token": "late"}),
            json!({"type": "combatEnd"}),
        ],
    )
}

/// An opposed session that reaches every logged clause of the ruleset.
fn opposed_session(show_numbers: bool) -> Vec<Outcome> {
    script(
        &opposed_scene(show_numbers),
        vec![
            json!({"type": "turnStart", "combatant": "rogue", "round": 1}),
            json!({"type": "enterStealth", "hider": "rogue", "roll": 18, "moved": true,
                   "view": [{"observer": "guard", "clearView": true}, {"observer": "dog", "clearView": false, "distance": 12}]}),
            json!({"type": "viewChanged", "hider": "rogue", "moved": true,
                   "view": [{"observer": "captain", "clearView": true}, {"observer": "archer", "clearView": true}]}),
            json!({"type": "perceptionRolled", "hider": "rogue", "observer": "captain", "total": 12}),
            json!({"type": "perceptionRolled", "hider": "rogue", "observer": "archer", "total": 19}),
            json!({"type": "perceptionRolled", "hider": "rogue", "observer": "archer", "total": 20}),
            json!({"type": "pointOut", "hider": "rogue", "observer": "guard", "allies": ["dog"]}),
            json!({"type": "attack", "attacker": "rogue", "target": "friend", "noisy": true}),
            json!({"type": "attack", "attacker": "rogue", "target": "friend", "area": true, "noisy": true}),
            json!({"type": "attack", "attacker": "rogue", "target": "friend"}),
            json!({"type": "perceptionRolled", "hider": "rogue", "observer": "friend", "total": 2}),
            json!({"type": "attack", "attacker": "guard", "target": "rogue"}),
            json!({"type": "damageTaken", "target": "rogue", "attacker": "guard"}),
            // Friend failed its O9 check; in clear view it is exposed (O5),
            // and the rogue moves out of its view.
            json!({"type": "viewChanged", "hider": "rogue",
                   "view": [{"observer": "friend", "clearView": true}]}),
            json!({"type": "viewChanged", "hider": "rogue", "moved": true,
                   "view": [{"observer": "friend", "clearView": false}]}),
            json!({"type": "turnEnd", "combatant": "rogue"}),
            json!({"type": "turnStart", "combatant": "rogue", "round": 2}),
            json!({"type": "enterStealth", "hider": "rogue", "roll": 15}),
            json!({"type": "gmOverride", "hider": "rogue", "observer": "captain", "perceived": false}),
            json!({"type": "upsertCreature", "creature": {"id": "late", "name": "Late", "side": "guards"}}),
            json!({"type": "sprint", "token": "rogue"}),
            json!({"type": "sprint", "token": "rogue"}),
            json!({"type": "tokenRemoved", "token": "late"}),
            json!({"type": "combatEnd"}),
        ],
    )
}

fn all_log(outcomes: &[Outcome]) -> Vec<LogEntry> {
    outcomes.iter().flat_map(|o| o.log.clone()).collect()
}

fn clauses(log: &[LogEntry]) -> std::collections::BTreeSet<String> {
    log.iter().map(|e| e.clause.id().to_owned()).collect()
}

// ---------------------------------------------------------------- B1

#[test]
fn b1_a_pending_perception_check_keeps_the_hider_hidden() {
    let scene = run(
        &opposed_scene(false),
        vec![json!({"type": "enterStealth", "hider": "rogue", "roll": 18})],
    );
    let outcome = ok(
        &scene,
        json!({"type": "viewChanged", "hider": "rogue", "view": [{"observer": "captain", "clearView": true}]}),
    );
    assert_eq!(outcome.requests.len(), 1);
    assert!(!outcome.state.perceives("captain", "rogue"));
    assert!(
        visibility(&outcome).is_empty(),
        "no frame reveals the hider before the answer"
    );
}

#[test]
fn b1_a_creature_joining_an_opposed_scene_starts_unperceiving() {
    let scene = run(
        &opposed_scene(false),
        vec![json!({"type": "enterStealth", "hider": "rogue", "roll": 18})],
    );
    let outcome = ok(
        &scene,
        json!({"type": "upsertCreature", "creature": {"id": "late", "side": "guards"}}),
    );
    assert!(!outcome.state.perceives("late", "rogue"));
}

#[test]
fn b1_the_hidden_status_follows_the_pairs() {
    let entered = ok(
        &percentile_scene(false),
        json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
    );
    assert_eq!(
        status_changes(&entered, "spy", Status::Hidden),
        vec![&Change::Status {
            token: "spy".into(),
            status: Status::Hidden,
            active: true,
            expires: None
        }]
    );
    // Score 110: only the watcher (180) perceives.
    let mut unseen: Vec<_> = visibility(&entered);
    unseen.sort();
    assert_eq!(
        unseen,
        vec![
            ("spy".into(), "friend".into(), false),
            ("spy".into(), "guard".into(), false)
        ]
    );
    // Once every observer perceives, the status goes off.
    let all_see = run(
        &entered.state,
        vec![json!({"type": "gmOverride", "hider": "spy", "observer": "guard", "perceived": true})],
    );
    let outcome = ok(
        &all_see,
        json!({"type": "gmOverride", "hider": "spy", "observer": "friend", "perceived": true}),
    );
    assert_eq!(status_changes(&outcome, "spy", Status::Hidden).len(), 1);
    assert!(
        outcome.state.hiders.contains_key("spy"),
        "still in the attempt"
    );
}

// ---------------------------------------------------------------- B2

#[test]
fn b2_perception_is_answered_per_observer() {
    let scene = run(
        &percentile_scene(false),
        vec![json!({"type": "enterStealth", "hider": "spy", "roll": 50})],
    );
    let ask = |observer: &str, hider: &str| {
        perceives(
            &scene,
            &PairQuery {
                observer: observer.into(),
                hider: hider.into(),
            },
        )
        .unwrap()
    };
    let guard = ask("guard", "spy");
    assert!(!guard.allowed);
    assert_eq!(guard.clause, "P3");
    assert!(ask("watcher", "spy").allowed);
    // A token that is not hiding is perceived by everyone.
    assert!(ask("spy", "guard").allowed);
    // B1: an observer the engine does not know perceives no hider.
    let unknown = perceives(
        &scene,
        &PairQuery {
            observer: "nobody".into(),
            hider: "spy".into(),
        },
    )
    .unwrap();
    assert!(!unknown.allowed);
    assert_eq!(unknown.clause, "B1");
}

#[test]
fn b1_an_observer_the_engine_does_not_know_perceives_no_hider() {
    for ruleset in ["percentile", "opposed"] {
        let scene = run(
            &state(json!({
                "ruleset": ruleset,
                "creatures": [{"id": "spy", "stealthSkill": 100}, {"id": "guard"}]
            })),
            vec![json!({"type": "enterStealth", "hider": "spy", "roll": 90, "moved": true})],
        );
        assert!(!scene.perceives("stranger", "spy"), "{ruleset}");
        let ask = |observer: &str, hider: &str| {
            perceives(
                &scene,
                &PairQuery {
                    observer: observer.into(),
                    hider: hider.into(),
                },
            )
        };
        let answer = ask("stranger", "spy").unwrap();
        assert_eq!((answer.allowed, answer.clause.id()), (false, "B1"));
        assert_bilingual_decision(&answer);
        // A token that is not hiding is perceived by everyone, the unknown
        // observer too: the ruleset's entry into stealth says so.
        let answer = ask("stranger", "guard").unwrap();
        let entry = if ruleset == "percentile" { "P1" } else { "O1" };
        assert_eq!((answer.allowed, answer.clause.id()), (true, entry));
        // An unknown token is not hiding: perceived (B1), not refused.
        let answer = ask("guard", "ghost").unwrap();
        assert_eq!((answer.allowed, answer.clause.id()), (true, "B1"));
        assert_bilingual_decision(&answer);
        // The hidden-from lookup lists known observers only; an observer
        // it does not name and the engine does not know is hidden from
        // every hider (docs: npm/README.md, "Unknown tokens").
        assert!(!hidden_from(&scene).unwrap().contains_key("stranger"));
    }
}

/// B1 for every query: a token the engine does not know is never refused
/// (`unknown_token`); as an observer it perceives no hider, as a hider it
/// is not hiding, and each query answers from those two facts.
#[test]
fn b1_every_query_answers_for_unknown_tokens_as_fail_closed() {
    let scene = run(
        &state(json!({
            "ruleset": "percentile",
            "creatures": [
                {"id": "spy", "stealthSkill": 100, "side": "thieves"},
                {"id": "guard", "side": "watch"},
                {"id": "captain", "side": "watch", "acuities": {"visual": 500}}
            ]
        })),
        vec![
            json!({"type": "enterStealth", "hider": "spy", "roll": 90}),
            json!({"type": "attack", "attacker": "spy", "targets": ["guard"], "hitZone": "head"}),
        ],
    );
    let pair = |observer: &str, hider: &str| PairQuery {
        observer: observer.into(),
        hider: hider.into(),
    };
    // P5: an unknown observer perceives no hider, so it may not locate;
    // everyone may locate an unknown token (it is not hiding).
    let answer = can_locate(&scene, &pair("stranger", "spy")).unwrap();
    assert!(!answer.allowed);
    assert!(can_locate(&scene, &pair("guard", "ghost")).unwrap().allowed);
    // P6: an unknown defender does not perceive the hiding attacker: it
    // may not defend the surprised guard; an unknown attacker made no
    // surprise.
    let defend = |defender: &str, target: &str, attacker: &str| {
        can_defend(
            &scene,
            &DefenseQuery {
                defender: defender.into(),
                target: target.into(),
                attacker: attacker.into(),
            },
        )
        .unwrap()
    };
    assert!(!defend("stranger", "guard", "spy").allowed);
    assert!(
        defend("captain", "guard", "spy").allowed,
        "perceives the spy"
    );
    assert!(defend("guard", "guard", "ghost").allowed);
    // P8: an unknown attacker or target has no surprise: no knockout.
    let knock = |attacker: &str, target: &str| {
        knockout(
            &scene,
            &KnockoutQuery {
                attacker: attacker.into(),
                target: target.into(),
                helmet: false,
                raw_damage: None,
                d100: None,
            },
        )
        .unwrap()
    };
    assert!(knock("spy", "guard").allowed);
    for (attacker, target) in [("ghost", "guard"), ("spy", "stranger")] {
        let answer = knock(attacker, target);
        assert!(!answer.allowed, "{attacker} {target}");
        assert_eq!((answer.chance, answer.minutes), (None, None));
    }
    // P10: an unknown target perceives no hider; an unknown hider is seen.
    let pick = |hider: &str, target: &str| {
        can_pickpocket(
            &scene,
            &PickpocketQuery {
                hider: hider.into(),
                target: target.into(),
                held: false,
                visible: true,
            },
        )
        .unwrap()
    };
    assert!(pick("spy", "stranger").allowed);
    assert!(!pick("ghost", "guard").allowed);
    // An id that is no id is still refused, naming the field.
    let error = can_locate(&scene, &pair("", "spy")).unwrap_err();
    assert_eq!(error.code(), "invalid_input");
    assert!(error.to_string().starts_with("observer: "), "{error}");
}

/// `perceives` of a token that is not hiding cites the ruleset's entry
/// into stealth (P1, O1), not B3 (the explanations clause); a hider
/// revealed after an attack cites P9.
#[test]
fn p1_o1_a_token_that_is_not_hiding_is_perceived_citing_the_entry_into_stealth() {
    for (ruleset, entry) in [("percentile", "P1"), ("opposed", "O1")] {
        let scene = state(json!({
            "ruleset": ruleset,
            "creatures": [{"id": "spy", "name": "Spy"}, {"id": "guard", "name": "Guard"}]
        }));
        let answer = perceives(
            &scene,
            &PairQuery {
                observer: "guard".into(),
                hider: "spy".into(),
            },
        )
        .unwrap();
        assert_eq!((answer.allowed, answer.clause.id()), (true, entry));
        assert_eq!(
            answer.en(),
            format!("Spy is not hiding: everyone perceives it, Guard too ({entry}).")
        );
        assert!(answer.fr().contains("ne se cache pas"));
    }
    let revealed = run(
        &state(json!({
            "ruleset": "percentile",
            "creatures": [
                {"id": "spy", "side": "party", "stealthSkill": 100},
                {"id": "guard", "side": "watch"}
            ]
        })),
        vec![
            json!({"type": "enterStealth", "hider": "spy", "roll": 90}),
            json!({"type": "attack", "attacker": "spy", "targets": ["guard"]}),
            json!({"type": "turnEnd", "combatant": "spy"}),
        ],
    );
    let answer = perceives(
        &revealed,
        &PairQuery {
            observer: "guard".into(),
            hider: "spy".into(),
        },
    )
    .unwrap();
    assert_eq!((answer.allowed, answer.clause.id()), (true, "P9"));
}

fn assert_bilingual_decision(decision: &furtive_core::Decision) {
    assert!(decision.en().contains("(B1)") && decision.fr().contains("(B1)"));
    assert_ne!(decision.en(), decision.fr());
}

// ---------------------------------------------------------------- B3

#[test]
fn b3_every_decision_is_explained_in_english_and_french_with_its_clause() {
    let percentile = all_log(&percentile_session(false));
    assert_bilingual(&percentile);
    let expected: Vec<&str> = vec!["B3", "GM", "P1", "P3", "P4", "P6", "P7", "P9"];
    for clause in expected {
        assert!(
            clauses(&percentile).contains(clause),
            "percentile log lacks {clause}"
        );
    }
    let opposed = all_log(&opposed_session(false));
    assert_bilingual(&opposed);
    for clause in [
        "B3", "GM", "O1", "O2", "O3", "O4", "O5", "O6", "O7", "O8", "O9", "O11", "O12", "O13",
    ] {
        assert!(
            clauses(&opposed).contains(clause),
            "opposed log lacks {clause}"
        );
    }
}

#[test]
fn b3_gm_entries_carry_the_numbers() {
    let percentile = all_log(&percentile_session(false));
    let opposed = all_log(&opposed_session(false));
    for (log, clause) in [
        (&percentile, "P1"),
        (&percentile, "P3"),
        (&percentile, "P4"),
        (&opposed, "O1"),
        (&opposed, "O4"),
        (&opposed, "O6"),
        (&opposed, "O8"),
        (&opposed, "O9"),
        (&opposed, "O11"),
    ] {
        let gm: Vec<_> = log
            .iter()
            .filter(|e| e.clause == clause && e.audience == Audience::Gm)
            .collect();
        assert!(!gm.is_empty(), "no GM entry for {clause}");
        assert!(
            gm.iter()
                .any(|e| has_number(&e.en()) && has_number(&e.fr())),
            "no number in the GM entries of {clause}: {gm:?}"
        );
    }
    let p1 = percentile
        .iter()
        .find(|e| e.clause == "P1" && e.audience == Audience::Gm)
        .unwrap();
    assert!(p1.en().contains("stealth score 160"), "{}", p1.en());
}

#[test]
fn b3_public_entries_carry_no_hidden_number_by_default() {
    for log in [
        all_log(&percentile_session(false)),
        all_log(&opposed_session(false)),
    ] {
        let public: Vec<_> = log
            .iter()
            .filter(|e| e.audience == Audience::Public)
            .collect();
        assert!(public.len() > 5);
        for entry in public {
            assert!(
                !has_number(&entry.en()) && !has_number(&entry.fr()),
                "public entry shows a number: {entry:?}"
            );
        }
    }
}

#[test]
fn b3_public_entries_carry_the_numbers_when_the_setting_shows_them() {
    for (log, clause) in [
        (all_log(&percentile_session(true)), "P1"),
        (all_log(&percentile_session(true)), "P4"),
        (all_log(&opposed_session(true)), "O4"),
        (all_log(&opposed_session(true)), "O1"),
    ] {
        let gm: Vec<_> = log
            .iter()
            .filter(|e| e.clause == clause && e.audience == Audience::Gm)
            .collect();
        let public: Vec<_> = log
            .iter()
            .filter(|e| e.clause == clause && e.audience == Audience::Public)
            .collect();
        assert!(!public.is_empty(), "{clause}");
        assert!(
            public
                .iter()
                .any(|p| has_number(&p.en()) && gm.iter().any(|g| g.en() == p.en())),
            "{clause}: public entries do not show the GM numbers: {public:?}"
        );
    }
    let percentile = all_log(&percentile_session(true));
    let p1 = percentile
        .iter()
        .find(|e| e.clause == "P1" && e.audience == Audience::Public)
        .unwrap();
    assert!(p1.en().contains("stealth score 160"), "{}", p1.en());
    assert!(p1.fr().contains("score de furtivité 160"), "{}", p1.fr());
}

#[test]
fn b3_query_decisions_are_bilingual_with_a_clause() {
    let scene = run(
        &percentile_scene(false),
        vec![json!({"type": "enterStealth", "hider": "spy", "roll": 50})],
    );
    let decision = perceives(
        &scene,
        &PairQuery {
            observer: "guard".into(),
            hider: "spy".into(),
        },
    )
    .unwrap();
    assert!(known_clause(decision.clause.id()));
    assert_ne!(decision.en(), decision.fr());
    assert!(decision.en().contains("Guard") && decision.fr().contains("Guard"));
}

// ---------------------------------------------------------------- B4

fn opposed_checks() -> (State, Event) {
    let scene = run(
        &opposed_scene(false),
        vec![json!({"type": "enterStealth", "hider": "rogue", "roll": 11})],
    );
    let event = ev(json!({"type": "viewChanged", "hider": "rogue", "view": [
        {"observer": "guard", "clearView": true},
        {"observer": "captain", "clearView": true},
        {"observer": "archer", "clearView": true}
    ]}));
    (scene, event)
}

#[test]
fn b4_settle_with_the_same_seed_replays_exactly() {
    let (scene, event) = opposed_checks();
    let first = settle(&scene, event.clone(), 42).unwrap();
    let second = settle(&scene, event, 42).unwrap();
    assert_eq!(first, second);
    assert!(first.requests.is_empty(), "every check answered");
    for observer in ["guard", "captain", "archer"] {
        let total = pair(&first.state, "rogue", observer)
            .perception_total
            .unwrap();
        assert!((1..=20).contains(&total), "1d20 + 0: {total}");
    }
    // Percentile: the P4 stealth roll is answered with a d100.
    let scene = run(
        &percentile_scene(false),
        vec![json!({"type": "enterStealth", "hider": "spy", "roll": 50})],
    );
    let event = ev(
        json!({"type": "modifiersChanged", "hider": "spy", "modifiers": {"situation": ["dark"]}}),
    );
    let a = settle(&scene, event.clone(), 7).unwrap();
    assert_eq!(a, settle(&scene, event, 7).unwrap());
    let record = a.state.hiders.get("spy").unwrap();
    assert!(record.pending_modifiers().is_none());
    let d100 = record.d100().unwrap();
    assert!((1..=100).contains(&d100));
    // The watcher perceived before the roll: P9 adds -100.
    assert_eq!(record.score(), Some(60 + i64::from(d100) + 50 - 100));
}

#[test]
fn b4_different_seeds_can_differ() {
    let (scene, event) = opposed_checks();
    let reference = settle(&scene, event.clone(), 0).unwrap();
    let differing = (1..32)
        .filter(|seed| settle(&scene, event.clone(), *seed).unwrap() != reference)
        .count();
    assert!(differing > 0, "32 seeds gave the same dice");
}

#[test]
fn b4_roll_requests_with_the_same_seed_give_the_same_events() {
    let (scene, event) = opposed_checks();
    let outcome = apply(&scene, event).unwrap();
    // One request names the three observers.
    let [Request::PerceptionCheck { observers, .. }] = outcome.requests.as_slice() else {
        panic!("one check request, got {:?}", outcome.requests);
    };
    assert_eq!(observers.len(), 3);
    let a = roll_requests(&outcome.state, &outcome.requests, 99).unwrap();
    let b = roll_requests(&outcome.state, &outcome.requests, 99).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.len(), 3, "one roll per observer");
    for (event, asked) in a.iter().zip(observers) {
        match event {
            Event::PerceptionRolled {
                observer, total, ..
            } => {
                assert_eq!(observer, asked);
                assert!((1..=20).contains(total));
            }
            other => panic!("unexpected answer {other:?}"),
        }
    }
}

#[test]
fn b4_the_roller_adds_the_modifier_to_the_configured_die() {
    let mut scene = opposed_scene(false);
    scene.settings.check_die = 6;
    scene
        .creatures
        .get_mut("guard")
        .unwrap()
        .perception_modifier = 100;
    let request = Request::PerceptionCheck {
        hider: "rogue".into(),
        observers: vec!["guard".into()],
        clause: furtive_core::Clause::O4,
    };
    let mut roller = Roller::new(5);
    for _ in 0..200 {
        match roller.answer(&scene, &request).unwrap().as_slice() {
            [Event::PerceptionRolled { total, .. }] => assert!((101..=106).contains(total)),
            other => panic!("{other:?}"),
        }
    }
    let mut roller = Roller::new(5);
    let faces: std::collections::BTreeSet<i64> = (0..500).map(|_| roller.die(6)).collect();
    assert_eq!(faces, (1..=6).collect());
}

#[test]
fn b4_settle_leaves_an_out_of_turn_stealth_roll_to_the_caller() {
    let scene = run(
        &percentile_scene(false),
        vec![
            json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
            json!({"type": "turnStart", "combatant": "spy", "round": 1}),
            json!({"type": "turnEnd", "combatant": "spy"}),
            json!({"type": "turnStart", "combatant": "guard", "round": 1}),
        ],
    );
    let event = ev(
        json!({"type": "modifiersChanged", "hider": "spy", "modifiers": {"situation": ["dark"]}}),
    );
    let outcome = settle(&scene, event, 3).unwrap();
    assert!(matches!(
        outcome.requests.as_slice(),
        [Request::StealthRoll { hider, .. }] if hider == "spy"
    ));
    assert!(outcome
        .state
        .hiders
        .get("spy")
        .unwrap()
        .pending_modifiers()
        .is_some());
}

#[test]
fn b4_the_json_facade_replays_and_checks_the_seed() {
    let (scene, event) = opposed_checks();
    let state = serde_json::to_value(&scene).unwrap();
    let event = serde_json::to_value(&event).unwrap();
    let a = api::settle::<Value>(state.clone(), event.clone(), json!(42)).unwrap();
    let b = api::settle::<Value>(state.clone(), event.clone(), json!(42.0)).unwrap();
    assert_eq!(a, b);
    assert_eq!(
        a,
        serde_json::to_value(settle(&scene, ev(event.clone()), 42).unwrap()).unwrap()
    );
    for seed in [json!(-1), json!(1.5), json!(9007199254740992u64)] {
        let error = api::settle::<Value>(state.clone(), event.clone(), seed.clone()).unwrap_err();
        assert_eq!(error.code(), "out_of_range", "{seed}");
    }
    for seed in [json!("1"), Value::Null, json!([1])] {
        let error = api::settle::<Value>(state.clone(), event.clone(), seed.clone()).unwrap_err();
        assert_eq!(error.code(), "invalid_input", "{seed}");
        assert!(
            error.to_string().starts_with("seed: ")
                && error.to_string().contains(" is not a whole number 0..="),
            "{error}"
        );
    }
    let requests = json!([{"kind": "perceptionCheck", "hider": "rogue", "observers": ["guard"], "clause": "O4"}]);
    let events =
        api::roll_requests::<Value>(state.clone(), requests.clone(), json!(9007199254740991u64))
            .unwrap();
    assert_eq!(
        events,
        api::roll_requests::<Value>(state, requests, json!(9007199254740991u64)).unwrap()
    );
    assert_eq!(events[0]["type"], "perceptionRolled");
}

// ---------------------------------------------------------------- atomicity

#[test]
fn atomicity_a_rejected_event_leaves_the_state_untouched() {
    let percentile = run(
        &percentile_scene(false),
        vec![
            json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
            json!({"type": "turnStart", "combatant": "spy", "round": 1}),
            json!({"type": "attack", "attacker": "spy", "target": "guard", "hitZone": "head"}),
        ],
    );
    for event in [
        json!({"type": "enterStealth", "hider": "spy", "roll": 0}),
        json!({"type": "attack", "attacker": "spy", "target": "guard", "hitZone": "arm"}),
        json!({"type": "enterStealth", "hider": "spy", "roll": 20, "view": [{"observer": "ghost", "clearView": true}]}),
        json!({"type": "modifiersChanged", "hider": "guard", "modifiers": {}}),
        json!({"type": "upsertCreature", "creature": {"id": "spy", "stealthSkill": 501}}),
        json!({"type": "perceptionRolled", "hider": "spy", "observer": "guard", "total": 1}),
    ] {
        let before = percentile.clone();
        let error = refused(&percentile, event);
        assert_eq!(percentile, before, "{error}");
    }
    let opposed = run(
        &opposed_scene(false),
        vec![json!({"type": "enterStealth", "hider": "rogue", "roll": 18})],
    );
    for event in [
        json!({"type": "pointOut", "hider": "rogue", "observer": "guard", "allies": ["captain"]}),
        json!({"type": "viewChanged", "hider": "rogue", "view": [
            {"observer": "guard", "clearView": true}, {"observer": "rogue", "clearView": true}]}),
        json!({"type": "damageTaken", "target": "rogue", "attacker": "guard", "hits": 0}),
        json!({"type": "enterStealth", "hider": "rogue", "roll": 18, "sprinting": true}),
    ] {
        let before = opposed.clone();
        refused(&opposed, event);
        assert_eq!(opposed, before);
    }
    // Through the JSON facade: the error is returned, and the same state
    // then accepts a valid event exactly as if nothing had happened.
    let state = serde_json::to_value(&opposed).unwrap();
    let error = api::apply::<Value>(
        state.clone(),
        json!({"type": "pointOut", "hider": "rogue", "observer": "guard", "allies": ["captain"]}),
    )
    .unwrap_err();
    assert_eq!(error.code(), "observer_does_not_perceive");
    let valid =
        json!({"type": "perceptionRolled", "hider": "rogue", "observer": "guard", "total": 20});
    assert_eq!(
        api::apply::<Value>(state, valid.clone()).unwrap(),
        serde_json::to_value(apply(&opposed, ev(valid)).unwrap()).unwrap()
    );
}

// ---------------------------------------------------------------- engine events

#[test]
fn upsert_creature_replaces_the_data_and_keeps_the_pairs() {
    let scene = run(
        &percentile_scene(false),
        vec![json!({"type": "enterStealth", "hider": "spy", "roll": 50})],
    );
    let outcome = ok(
        &scene,
        json!({"type": "upsertCreature", "creature": {"id": "guard", "name": "Sergeant", "side": "guards", "acuities": {"visual": 200}}}),
    );
    assert_eq!(
        outcome.state.creatures.get("guard").unwrap().name,
        "Sergeant"
    );
    assert!(pair(&outcome.state, "spy", "guard").perceived, "110 ≤ 200");
    assert_eq!(outcome.state.hiders.get("spy").unwrap().pairs.len(), 3);
    let b3 = entries(&outcome, "B3");
    assert!(b3[0].en().contains("updated"));
    // A GM override is kept when the creature changes.
    let overridden = run(
        &scene,
        vec![
            json!({"type": "gmOverride", "hider": "spy", "observer": "friend", "perceived": true}),
            json!({"type": "upsertCreature", "creature": {"id": "friend", "side": "party", "acuities": {"visual": 1}}}),
        ],
    );
    let p = pair(&overridden, "spy", "friend");
    assert!(p.perceived);
    assert_eq!(p.reason, PairReason::GmOverride);
}

#[test]
fn token_removed_drops_the_creature_its_pairs_surprises_and_turn() {
    let scene = run(
        &percentile_scene(false),
        vec![
            json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
            json!({"type": "turnStart", "combatant": "spy", "round": 1}),
            json!({"type": "attack", "attacker": "spy", "target": "guard"}),
        ],
    );
    let outcome = ok(&scene, json!({"type": "tokenRemoved", "token": "guard"}));
    assert!(!outcome.state.creatures.contains_key("guard"));
    assert!(!outcome
        .state
        .hiders
        .get("spy")
        .unwrap()
        .pairs
        .contains_key("guard"));
    assert!(outcome.state.surprises.is_empty());
    assert_eq!(
        status_changes(&outcome, "guard", Status::Defenseless).len(),
        1,
        "defenseless off"
    );
    let outcome = ok(&scene, json!({"type": "tokenRemoved", "token": "spy"}));
    assert!(outcome.state.hiders.is_empty());
    assert!(outcome.state.surprises.is_empty());
    assert_eq!(outcome.state.combat.turn, None);
    assert_eq!(
        refused(
            &outcome.state,
            json!({"type": "tokenRemoved", "token": "spy"})
        )
        .code(),
        "unknown_token"
    );
}

#[test]
fn stop_hiding_makes_everyone_perceive() {
    let scene = run(
        &opposed_scene(false),
        vec![json!({"type": "enterStealth", "hider": "rogue", "roll": 18})],
    );
    let outcome = ok(&scene, json!({"type": "stopHiding", "hider": "rogue"}));
    assert!(outcome.state.hiders.is_empty());
    assert_eq!(visibility(&outcome).len(), 5);
    assert!(visibility(&outcome)
        .iter()
        .all(|(_, _, perceived)| *perceived));
    assert_eq!(
        refused(
            &outcome.state,
            json!({"type": "stopHiding", "hider": "rogue"})
        )
        .code(),
        "not_hiding"
    );
}

#[test]
fn gm_override_forces_one_pair() {
    let scene = run(
        &opposed_scene(false),
        vec![json!({"type": "enterStealth", "hider": "rogue", "roll": 18})],
    );
    let outcome = ok(
        &scene,
        json!({"type": "gmOverride", "hider": "rogue", "observer": "archer", "perceived": true}),
    );
    let p = pair(&outcome.state, "rogue", "archer");
    assert!(p.perceived);
    assert_eq!(p.reason, PairReason::GmOverride);
    assert_eq!(entries(&outcome, "GM").len(), 1);
    assert_eq!(
        perceives(
            &outcome.state,
            &PairQuery {
                observer: "archer".into(),
                hider: "rogue".into()
            }
        )
        .unwrap()
        .clause,
        "GM"
    );
    assert_eq!(
        refused(
            &scene,
            json!({"type": "gmOverride", "hider": "guard", "observer": "archer", "perceived": true})
        )
        .code(),
        "not_hiding"
    );
}

#[test]
fn combat_bookkeeping_follows_turns_and_rounds() {
    let scene = run(
        &opposed_scene(false),
        vec![json!({"type": "turnStart", "combatant": "guard"})],
    );
    assert!(scene.combat.active);
    assert_eq!(scene.combat.round, 1);
    assert_eq!(scene.combat.turn.as_deref(), Some("guard"));
    let scene = run(
        &scene,
        vec![
            json!({"type": "turnEnd", "combatant": "guard"}),
            json!({"type": "roundEnd"}),
        ],
    );
    assert_eq!(scene.combat.round, 2);
    assert_eq!(scene.combat.turn, None);
    // A combatant the engine does not track (e.g. a hazard) is accepted.
    let scene = run(
        &scene,
        vec![json!({"type": "turnStart", "combatant": "lava", "round": 7})],
    );
    assert_eq!(scene.combat.round, 7);
    let scene = run(&scene, vec![json!({"type": "combatEnd"})]);
    assert_eq!(scene.combat, Default::default());
}

// ---------------------------------------------------------------- JSON facade

#[test]
fn api_parse_errors_name_the_field() {
    let state = serde_json::to_value(opposed_scene(false)).unwrap();
    let error = api::apply::<Value>(
        state.clone(),
        json!({"type": "enterStealth", "hider": 3, "roll": 1}),
    )
    .unwrap_err();
    assert_eq!(error.code(), "invalid_input");
    assert!(error.to_string().starts_with("event.hider:"), "{error}");
    let error = api::apply::<Value>(state.clone(), json!({"type": "teleport"})).unwrap_err();
    assert_eq!(error.code(), "invalid_input");
    let error = api::apply::<Value>(
        state.clone(),
        json!({"type": "stopHiding", "hider": "rogue", "extra": 1}),
    )
    .unwrap_err();
    assert_eq!(error.code(), "invalid_input", "unknown fields are refused");
    let mut bad = state;
    bad["creatures"]["guard"]["acuities"] = json!({"visual": -1});
    let error = api::apply::<Value>(bad, json!({"type": "combatEnd"})).unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("state.creatures.guard.acuities.visual:"),
        "{error}"
    );
}

#[test]
fn api_outputs_match_the_rust_api() {
    let config = json!({
        "ruleset": "percentile",
        "creatures": [{"id": "spy", "stealthSkill": 49}, {"id": "tie", "acuities": {"visual": 67}}]
    });
    let state = api::create_state::<Value>(config).unwrap();
    assert_eq!(state["version"], 2);
    let outcome = api::apply::<Value>(
        state.clone(),
        json!({"type": "enterStealth", "hider": "spy", "roll": 37}),
    )
    .unwrap();
    assert_eq!(outcome["state"]["hiders"]["spy"]["score"], 67);
    assert_eq!(
        outcome["state"]["hiders"]["spy"]["pairs"]["tie"]["perceived"],
        true
    );
    assert!(outcome["state"]["hiders"]["spy"]
        .get("alreadyPerceivedAdded")
        .is_none());
    let rust_state: State = serde_json::from_value(state).unwrap();
    let rust = apply(
        &rust_state,
        ev(json!({"type": "enterStealth", "hider": "spy", "roll": 37})),
    )
    .unwrap();
    assert_eq!(outcome, serde_json::to_value(rust).unwrap());
    let decision = api::perceives::<Value>(
        outcome["state"].clone(),
        json!({"observer": "tie", "hider": "spy"}),
    )
    .unwrap();
    assert_eq!(decision["allowed"], true);
    assert_eq!(decision["clause"], "P3");
    assert_eq!(
        api::error_codes::<Value>().unwrap(),
        json!(furtive_core::Error::CODES)
    );
}
