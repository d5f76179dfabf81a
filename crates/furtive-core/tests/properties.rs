//! Property tests: arbitrary event sequences and arbitrary JSON never make
//! the engine panic, `apply` is deterministic, states survive a JSON round
//! trip, a refused event changes nothing, and every state the engine
//! returns passes its own validation.

mod common;

use common::{hit_zone, patched_lookup};

use std::collections::BTreeSet;

use furtive_core::record_changes::{AttemptChange, ViewChanges};
use furtive_core::state::TokenId;
use furtive_core::{
    apply, create_state, query, settle, validate_state, Acuities, Change, Config, Creature,
    EnhancedSense, Error, Event, FreeModifier, HiderPhase, Modifiers, Outcome, Request, Ruleset,
    Session, Settings, SituationModifier, State, ViewEntry,
};
use furtive_json::functions as api;
use proptest::prelude::*;
use proptest::sample::select;
use serde_json::{json, Map, Value};

/// Five known tokens, one unknown and one invalid id.
const IDS: &[&str] = &["h1", "h2", "o1", "o2", "o3", "zz", ""];
const SIDES: &[&str] = &["", "a", "b", "neutral"];
const SENSES: &[&str] = &["smell", "tremorsense", "SMELL"];

/// Mostly known tokens, sometimes an unknown or invalid id.
fn id() -> impl Strategy<Value = TokenId> {
    prop_oneof![
        12 => select(&IDS[..5]).prop_map(TokenId::from),
        1 => select(&IDS[5..]).prop_map(TokenId::from),
    ]
}

/// Mostly the two tokens of side `a`, so stealth attempts happen.
fn hider_id() -> impl Strategy<Value = TokenId> {
    prop_oneof![4 => select(vec!["h1", "h2"]).prop_map(TokenId::from), 1 => id()]
}

fn ids() -> impl Strategy<Value = Vec<TokenId>> {
    prop::collection::vec(id(), 0..4)
}

/// Everyday values and the extremes.
fn number() -> impl Strategy<Value = i64> {
    prop_oneof![
        12 => -30i64..130,
        1 => select(vec![i64::MIN, i64::MAX, -1001, -1000, 0, 1, 100, 101, 1000, 1001]),
    ]
}

fn count() -> impl Strategy<Value = u32> {
    prop_oneof![
        12 => 0u32..6,
        1 => select(vec![100u32, 101, 500, 501, 1000, 1001, u32::MAX]),
    ]
}

fn distance() -> impl Strategy<Value = f64> {
    prop_oneof![
        12 => 0.0f64..40.0,
        1 => select(vec![f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -1.0, -0.0, 1e9, 1.0e10]),
    ]
}

fn modifiers() -> impl Strategy<Value = Modifiers> {
    (
        prop::collection::vec(select(SituationModifier::ALL.to_vec()), 0..4),
        prop::collection::vec(
            (select(vec!["", "fog"]), number()).prop_map(|(label, value)| FreeModifier {
                label: label.into(),
                value,
            }),
            0..3,
        ),
    )
        .prop_map(|(situation, free)| Modifiers { situation, free })
}

fn view() -> impl Strategy<Value = Vec<ViewEntry>> {
    prop::collection::vec(
        (id(), any::<bool>(), prop::option::of(distance())).prop_map(
            |(observer, clear_view, distance)| ViewEntry {
                observer,
                clear_view,
                distance,
            },
        ),
        0..4,
    )
}

fn creature() -> impl Strategy<Value = Creature> {
    (
        id(),
        select(SIDES),
        count(),
        prop::option::of(count()),
        (count(), count(), count()),
        (number(), number()),
        prop::collection::vec(
            (select(SENSES), distance(), any::<bool>()).prop_map(|(sense, range, targeting)| {
                EnhancedSense {
                    sense: sense.into(),
                    range,
                    targeting,
                }
            }),
            0..2,
        ),
    )
        .prop_map(
            |(id, side, stealth_skill, base, (visual, auditory, olfactory), (sm, pm), senses)| {
                let mut c = Creature::new(id);
                c.side = side.into();
                c.stealth_skill = stealth_skill;
                c.base_stealth_skill = base;
                c.strength = stealth_skill;
                c.acuities = Acuities {
                    visual,
                    auditory,
                    olfactory,
                };
                c.stealth_modifier = sm;
                c.perception_modifier = pm;
                c.enhanced_senses = senses;
                c
            },
        )
}

fn weighted(probability: f64) -> impl Strategy<Value = bool> {
    prop::bool::weighted(probability)
}

/// Every event kind, with ids from the pool and numbers with extremes.
fn event() -> impl Strategy<Value = Event> {
    prop_oneof![
        2 => creature().prop_map(|creature| Event::UpsertCreature { creature }),
        12 => (hider_id(), number(), modifiers(), any::<bool>(), weighted(0.1),
              prop::collection::vec(select(SENSES).prop_map(str::to_owned), 0..2), view())
            .prop_map(|(hider, roll, modifiers, moved, sprinting, precautions, view)| {
                Event::EnterStealth { hider, roll, modifiers: Some(modifiers), moved, sprinting, precautions, view }
            }),
        8 => (hider_id(), any::<bool>(), view())
            .prop_map(|(hider, moved, view)| Event::ViewChanged { hider, moved, view }),
        8 => (hider_id(), id(), number())
            .prop_map(|(hider, observer, total)| Event::PerceptionRolled { hider, observer, total }),
        3 => (hider_id(), id(), ids())
            .prop_map(|(hider, observer, allies)| Event::PointOut { hider, observer, allies }),
        5 => (hider_id(), id(), any::<bool>(), count(), any::<bool>(), hit_zone())
            .prop_map(|(attacker, target, noisy, hits, area, hit_zone)| {
                Event::Attack { attacker, target: Some(target), targets: Vec::new(), noisy, hits, area, hit_zone }
            }),
        3 => (hider_id(), prop::collection::vec(id(), 0..4), any::<bool>(), count(), any::<bool>(), hit_zone())
            .prop_map(|(attacker, targets, noisy, hits, area, hit_zone)| {
                Event::Attack { attacker, target: None, targets, noisy, hits, area, hit_zone }
            }),
        4 => (hider_id(), id(), count())
            .prop_map(|(target, attacker, hits)| Event::DamageTaken { target, attacker, hits }),
        4 => (hider_id(), prop::option::of(count()))
            .prop_map(|(combatant, round)| Event::TurnStart { combatant, round }),
        4 => hider_id().prop_map(|combatant| Event::TurnEnd { combatant }),
        1 => prop::option::of(count()).prop_map(|round| Event::RoundEnd { round }),
        1 => Just(Event::CombatEnd {}),
        3 => (hider_id(), modifiers())
            .prop_map(|(hider, modifiers)| Event::ModifiersChanged { hider, modifiers }),
        1 => id().prop_map(|token| Event::Sprint { token }),
        1 => id().prop_map(|hider| Event::StopHiding { hider }),
        1 => weighted(0.3).prop_flat_map(|removed| {
            if removed { id().boxed() } else { Just(TokenId::from("zz")).boxed() }
        }).prop_map(|token| Event::TokenRemoved { token }),
        3 => (hider_id(), id(), any::<bool>())
            .prop_map(|(hider, observer, perceived)| Event::GmOverride { hider, observer, perceived }),
    ]
}

/// The starting scene: h1, h2 (side a), o1, o2 (side b), o3 (neutral, senses).
fn start(ruleset: Ruleset, show_numbers: bool) -> State {
    let mut creatures = Vec::new();
    for (id, side, skill, visual) in [
        ("h1", "a", 45, 10),
        ("h2", "a", 100, 20),
        ("o1", "b", 0, 40),
        ("o2", "b", 60, 60),
        ("o3", "neutral", 0, 5),
    ] {
        let mut c = Creature::new(id);
        c.side = side.into();
        c.stealth_skill = skill;
        c.acuities.visual = visual;
        c.perception_modifier = 2;
        c.stealth_modifier = 3;
        if id == "o3" {
            c.enhanced_senses.push(EnhancedSense {
                sense: "smell".into(),
                range: 15.0,
                targeting: false,
            });
        }
        creatures.push(c);
    }
    create_state(Config {
        ruleset,
        settings: Settings {
            show_numbers_to_players: show_numbers,
            ..Settings::default()
        },
        creatures,
    })
    .expect("valid start")
}

fn ruleset() -> impl Strategy<Value = Ruleset> {
    select(vec![Ruleset::Percentile, Ruleset::Opposed])
}

/// Checks every invariant of one accepted step.
fn check_accepted(before: &State, event: &Event, outcome: &Outcome) -> Result<(), TestCaseError> {
    // The engine never returns a state it would refuse.
    prop_assert_eq!(validate_state(&outcome.state), Ok(()));
    // JSON round trip of the state.
    let json = serde_json::to_value(&outcome.state).unwrap();
    let back: State = serde_json::from_value(json).unwrap();
    prop_assert_eq!(&back, &outcome.state);
    // The JSON facade gives the same outcome as the Rust API.
    let through_json = api::apply::<Value>(
        serde_json::to_value(before).unwrap(),
        serde_json::to_value(event).unwrap(),
    );
    prop_assert_eq!(through_json, Ok(serde_json::to_value(outcome).unwrap()));
    // The changes found from the touched slots are those of a full comparison.
    prop_assert_eq!(
        &outcome.changes,
        &furtive_core::diff(before, &outcome.state)
    );
    // Session::apply gives the same, and its hidden-from patch brings the
    // lookup of the state before up to the lookup of the state after.
    let mut session = Session::load(before.clone()).unwrap();
    let effects = session.apply(event.clone()).unwrap();
    prop_assert_eq!(&effects.changes, &outcome.changes);
    prop_assert_eq!(&effects.log, &outcome.log);
    prop_assert_eq!(&effects.requests, &outcome.requests);
    prop_assert_eq!(effects.revision, before.revision + 1);
    prop_assert_eq!(session.state(), &outcome.state);
    let lookup = patched_lookup(before, &effects).map_err(TestCaseError::fail)?;
    prop_assert_eq!(lookup, query::hidden_from(&outcome.state).unwrap());
    // Every visibility change agrees with the new state; B3: every entry bilingual.
    for change in &outcome.changes {
        if let Change::Visibility {
            hider,
            observer,
            perceived,
        } = change
        {
            prop_assert_eq!(outcome.state.perceives(observer, hider), *perceived);
            prop_assert_ne!(before.perceives(observer, hider), *perceived);
        }
    }
    common::assert_bilingual(&outcome.log);
    if !outcome.state.settings.show_numbers_to_players {
        for entry in outcome
            .log
            .iter()
            .filter(|e| e.audience == furtive_core::Audience::Public)
        {
            // Names in this scene hold digits (h1, o2...): strip them first.
            let text = ["h1", "h2", "o1", "o2", "o3"]
                .iter()
                .fold(entry.en().clone(), |t, id| t.replace(id, ""));
            prop_assert!(!common::has_number(&text), "public number: {:?}", entry);
        }
    }
    Ok(())
}

/// Every hider whose being in a stealth attempt differs between two
/// states, by a full comparison: what `Effects::attempts` must say.
fn attempts_between(before: &State, after: &State) -> Vec<AttemptChange> {
    let hiding = |state: &State, id: &str| {
        state
            .hiders
            .get(id)
            .is_some_and(|h| h.phase == HiderPhase::Hiding)
    };
    let ids: BTreeSet<&TokenId> = before.hiders.keys().chain(after.hiders.keys()).collect();
    ids.into_iter()
        .filter(|id| hiding(before, id) != hiding(after, id))
        .map(|id| AttemptChange {
            hider: id.clone(),
            hiding: hiding(after, id),
        })
        .collect()
}

/// Every pair whose stored clear view or distance differs between two
/// states, or that is in one only, by a full comparison: what
/// `Effects::views` must say.
fn views_between(before: &State, after: &State) -> Vec<ViewChanges> {
    let view = |state: &State, hider: &str, observer: &str| {
        state
            .hiders
            .get(hider)
            .and_then(|h| h.pairs.get(observer))
            .map(|p| (p.clear_view, p.distance))
    };
    let mut pairs: BTreeSet<(TokenId, TokenId)> = BTreeSet::new();
    for state in [before, after] {
        for (hider, record) in &state.hiders {
            for observer in record.pairs.keys() {
                pairs.insert((hider.clone(), observer.clone()));
            }
        }
    }
    let mut changes: Vec<ViewChanges> = Vec::new();
    for (hider, observer) in pairs {
        let was = view(before, &hider, &observer);
        let is = view(after, &hider, &observer);
        let bits = |v: Option<(bool, Option<f64>)>| v.map(|(c, d)| (c, d.map(f64::to_bits)));
        if bits(was) == bits(is) {
            continue;
        }
        if changes.last().is_none_or(|last| last.hider != hider) {
            changes.push(ViewChanges {
                hider: hider.clone(),
                view: Vec::new(),
                removed: Vec::new(),
            });
        }
        let last = changes.last_mut().expect("pushed above");
        match is {
            Some((clear_view, distance)) => last.view.push(ViewEntry {
                observer,
                clear_view,
                distance,
            }),
            None => last.removed.push(observer),
        }
    }
    changes
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    /// `Session::apply_all` is one transaction: with every event accepted it
    /// ends where applying them one by one ends, with the changes of a full
    /// comparison of the first and last states and the logs and requests
    /// in order; with one refused, it returns that event's error and the
    /// session is exactly as before.
    #[test]
    fn session_apply_all_is_all_or_nothing(
        ruleset in ruleset(),
        events in prop::collection::vec(event(), 1..8),
    ) {
        let first = start(ruleset, false);
        let mut session = Session::load(first.clone()).unwrap();
        let result = session.apply_all(events.clone());
        let mut one_by_one = Session::load(first.clone()).unwrap();
        let mut refused = None;
        let mut log = Vec::new();
        let mut requests = Vec::new();
        for event in events {
            match one_by_one.apply(event) {
                Ok(effects) => {
                    log.extend(effects.log);
                    Request::append(&mut requests, effects.requests);
                }
                Err(error) => {
                    refused = Some(error);
                    break;
                }
            }
        }
        match (result, refused) {
            (Ok(effects), None) => {
                let last = one_by_one.snapshot();
                prop_assert_eq!(&session.state().creatures, &last.creatures);
                prop_assert_eq!(&session.state().hiders, &last.hiders);
                prop_assert_eq!(&session.state().surprises, &last.surprises);
                prop_assert_eq!(&session.state().combat, &last.combat);
                prop_assert_eq!(session.revision(), 1);
                prop_assert_eq!(&effects.changes, &furtive_core::diff(&first, session.state()));
                prop_assert_eq!(&effects.attempts, &attempts_between(&first, session.state()));
                prop_assert_eq!(&effects.views, &views_between(&first, session.state()));
                prop_assert_eq!(effects.log, log);
                prop_assert_eq!(effects.requests, requests);
            }
            (Err(error), Some(expected)) => {
                prop_assert_eq!(error, expected);
                prop_assert_eq!(session.state(), &first);
            }
            (result, refused) => {
                prop_assert!(false, "apply_all {:?} but one by one {:?}", result.map(|_| ()), refused);
            }
        }
    }

    /// Arbitrary event sequences: no panic, deterministic, atomic, valid,
    /// JSON round trip, and the JSON facade agrees.
    #[test]
    fn b4_sequences_are_deterministic_atomic_and_keep_the_state_valid(
        ruleset in ruleset(),
        show_numbers in any::<bool>(),
        events in prop::collection::vec(event(), 0..40),
    ) {
        let mut state = start(ruleset, show_numbers);
        for event in events {
            let before = state.clone();
            let first = apply(&state, event.clone());
            let second = apply(&state, event.clone());
            prop_assert_eq!(&first, &second, "apply is not deterministic");
            prop_assert_eq!(&state, &before);
            match first {
                Ok(outcome) => {
                    check_accepted(&before, &event, &outcome)?;
                    state = outcome.state;
                }
                Err(error) => {
                    prop_assert!(Error::CODES.contains(&error.code()));
                    prop_assert!(!error.to_string().is_empty());
                }
            }
        }
    }

    /// `settle` after an arbitrary history: no panic, same seed same outcome.
    #[test]
    fn b4_settle_replays_after_arbitrary_histories(
        ruleset in ruleset(),
        events in prop::collection::vec(event(), 0..20),
        last in event(),
        seed in any::<u64>(),
    ) {
        let mut state = start(ruleset, false);
        for event in events {
            if let Ok(outcome) = apply(&state, event) {
                state = outcome.state;
            }
        }
        let a = settle(&state, last.clone(), seed);
        let b = settle(&state, last, seed);
        prop_assert_eq!(&a, &b);
        if let Ok(outcome) = a {
            prop_assert_eq!(validate_state(&outcome.state), Ok(()));
        }
    }
}

// ---------------------------------------------------------------- arbitrary JSON

const KEYS: &[&str] = &[
    "type",
    "kind",
    "ruleset",
    "settings",
    "creatures",
    "hiders",
    "version",
    "id",
    "hider",
    "observer",
    "attacker",
    "target",
    "token",
    "combatant",
    "roll",
    "total",
    "hits",
    "round",
    "modifiers",
    "situation",
    "free",
    "value",
    "label",
    "view",
    "clearView",
    "distance",
    "allies",
    "creature",
    "acuities",
    "visual",
    "stealthSkill",
    "enhancedSenses",
    "range",
    "sense",
    "pairs",
    "perceived",
    "hitZone",
    "defender",
    "helmet",
    "rawDamage",
    "d100",
    "held",
    "visible",
];
const STRINGS: &[&str] = &[
    "",
    "h1",
    "o1",
    "zz",
    "percentile",
    "opposed",
    "enterStealth",
    "viewChanged",
    "attack",
    "perceptionRolled",
    "upsertCreature",
    "dark",
    "head",
    "neutral",
    "all",
    "alliesOf",
    "perceptionCheck",
    "stealthRoll",
    "hiding",
    "revealed",
];

fn json_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        number().prop_map(Value::from),
        select(vec![u64::MAX, 1 << 53, (1 << 53) - 1]).prop_map(Value::from),
        select(vec![-0.5f64, 0.5, 1e308, -1e308, 37.0]).prop_map(Value::from),
        select(STRINGS).prop_map(Value::from),
    ]
}

fn arbitrary_json() -> impl Strategy<Value = Value> {
    json_leaf().prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((select(KEYS), inner), 0..6).prop_map(|entries| {
                Value::Object(
                    entries
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect(),
                )
            }),
        ]
    })
}

/// An object shaped like an event: a real `type` and fields from the pool.
fn event_like() -> impl Strategy<Value = Value> {
    (
        select(vec![
            "upsertCreature",
            "enterStealth",
            "viewChanged",
            "perceptionRolled",
            "pointOut",
            "attack",
            "damageTaken",
            "turnStart",
            "turnEnd",
            "roundEnd",
            "combatEnd",
            "modifiersChanged",
            "sprint",
            "stopHiding",
            "tokenRemoved",
            "gmOverride",
        ]),
        prop::collection::vec((select(KEYS), arbitrary_json()), 0..6),
    )
        .prop_map(|(kind, fields)| {
            let mut map: Map<String, Value> =
                fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
            map.insert("type".into(), Value::from(kind));
            Value::Object(map)
        })
}

/// Every path (as a list of keys / indexes) of a JSON value.
fn paths(value: &Value, prefix: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    out.push(prefix.clone());
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                prefix.push(Value::from(k.as_str()));
                paths(v, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                prefix.push(Value::from(i));
                paths(v, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

fn replace_at(value: &mut Value, path: &[Value], replacement: Value) {
    match path.split_first() {
        None => *value = replacement,
        Some((head, rest)) => {
            let next = match (value, head) {
                (Value::Object(map), Value::String(k)) => map.get_mut(k),
                (Value::Array(items), Value::Number(i)) => {
                    items.get_mut(i.as_u64().unwrap_or(0) as usize)
                }
                _ => None,
            };
            if let Some(next) = next {
                replace_at(next, rest, replacement);
            }
        }
    }
}

/// A state with hiders, pairs, penalties and a surprise, as JSON.
fn rich_state_json(ruleset: Ruleset) -> Value {
    let mut state = start(ruleset, false);
    let events = match ruleset {
        Ruleset::Percentile => vec![
            json!({"type": "enterStealth", "hider": "h1", "roll": 90}),
            json!({"type": "modifiersChanged", "hider": "h1", "modifiers": {"situation": ["dark"], "free": [{"label": "fog", "value": 5}]}}),
            json!({"type": "attack", "attacker": "h1", "target": "o1", "hitZone": "head"}),
        ],
        Ruleset::Opposed => vec![
            json!({"type": "enterStealth", "hider": "h1", "roll": 15, "precautions": ["smell"]}),
            json!({"type": "viewChanged", "hider": "h1", "view": [{"observer": "o1", "clearView": true, "distance": 3}]}),
            json!({"type": "perceptionRolled", "hider": "h1", "observer": "o1", "total": 4}),
            json!({"type": "damageTaken", "target": "h1", "attacker": "o2"}),
        ],
    };
    for event in events {
        state = apply(&state, serde_json::from_value(event).unwrap())
            .unwrap()
            .state;
    }
    serde_json::to_value(state).unwrap()
}

/// Calls every facade function; each must answer Ok or Err.
fn call_everything(state: &Value, input: &Value) {
    let _ = api::apply::<Value>(state.clone(), input.clone());
    let _ = api::perceives::<Value>(state.clone(), input.clone());
    let _ = api::can_locate::<Value>(state.clone(), input.clone());
    let _ = api::can_defend::<Value>(state.clone(), input.clone());
    let _ = api::knockout::<Value>(state.clone(), input.clone());
    let _ = api::can_pickpocket::<Value>(state.clone(), input.clone());
    let _ = api::attack_hidden::<Value>(state.clone(), input.clone());
    let _ = api::roll_requests::<Value>(state.clone(), input.clone(), json!(1));
    let _ = api::settle::<Value>(state.clone(), input.clone(), input.clone());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_json_config_never_panics(config in arbitrary_json()) {
        let _ = api::create_state::<Value>(config);
    }

    #[test]
    fn arbitrary_json_config_with_a_real_ruleset_never_panics(
        ruleset in select(vec!["percentile", "opposed"]),
        creatures in prop::collection::vec(arbitrary_json(), 0..4),
        settings in arbitrary_json(),
    ) {
        let _ = api::create_state::<Value>(json!({"ruleset": ruleset, "creatures": creatures}));
        let _ = api::create_state::<Value>(json!({"ruleset": ruleset, "settings": settings}));
    }

    #[test]
    fn arbitrary_json_events_and_queries_never_panic(
        ruleset in ruleset(),
        input in prop_oneof![arbitrary_json(), event_like()],
    ) {
        let state = rich_state_json(ruleset);
        call_everything(&state, &input);
        // An arbitrary state with an arbitrary input as well.
        call_everything(&input, &input);
    }

    #[test]
    fn a_state_with_one_arbitrary_value_never_panics_and_is_checked(
        ruleset in ruleset(),
        pick in any::<prop::sample::Index>(),
        replacement in arbitrary_json(),
        event in event_like(),
    ) {
        let mut state = rich_state_json(ruleset);
        let mut all = Vec::new();
        paths(&state, &mut Vec::new(), &mut all);
        let path = pick.get(&all).clone();
        replace_at(&mut state, &path, replacement);
        let outcome = api::apply::<Value>(state.clone(), json!({"type": "combatEnd"}));
        // Whatever was accepted is a state the engine accepts again.
        if let Ok(outcome) = outcome {
            let next: State = serde_json::from_value(outcome["state"].clone()).unwrap();
            prop_assert_eq!(validate_state(&next), Ok(()));
        }
        call_everything(&state, &event);
    }
}
