//! Views naming many observers (five or more: the one-pass view walk of
//! cargo feature `view-walk`, and the journal's checked pairs that let
//! `Journal::effects` skip comparing them) among every other event, in
//! both rulesets: `apply`, `apply_all` batches, `settle`, and sessions
//! reloaded from snapshots missing pairs. Each accepted call's changes
//! equal the full comparison of the states before and after
//! (`furtive_core::diff`), its hidden-from patch brings the lookup built
//! before up to date (B1/B2), and a refused call leaves the state as it was.
//! (`tests/properties.rs` names at most three observers per view.)

mod common;

use common::{hit_zone, patched_lookup};
use furtive_core::state::TokenId;
use furtive_core::{
    create_state, query, Config, Creature, EnhancedSense, Event, Modifiers, Ruleset, Session,
    Settings, SituationModifier, State, ViewEntry,
};
use proptest::prelude::*;
use proptest::sample::select;

const KNOWN: &[&str] = &["h1", "h2", "o1", "o2", "o3", "o4", "o5", "o6", "o7", "o8"];
const UNKNOWN: &[&str] = &["zz", "zy", "zx"];

fn id() -> impl Strategy<Value = TokenId> {
    prop_oneof![10 => select(KNOWN).prop_map(TokenId::from), 1 => select(UNKNOWN).prop_map(TokenId::from)]
}

fn hider_id() -> impl Strategy<Value = TokenId> {
    prop_oneof![6 => select(vec!["h1", "h2"]).prop_map(TokenId::from), 1 => id()]
}

fn distance() -> impl Strategy<Value = Option<f64>> {
    prop_oneof![1 => Just(None), 3 => select(vec![0.0, 2.0, 5.0, 9.0, 14.0, 30.0]).prop_map(Some), 1 => Just(Some(-0.0))]
}

fn view() -> impl Strategy<Value = Vec<ViewEntry>> {
    prop_oneof![
        6 => (5usize..9).prop_flat_map(|n| proptest::sample::subsequence(
                KNOWN[2..].to_vec(), n)
            .prop_shuffle()
            .prop_flat_map(|obs| {
                let k = obs.len();
                (Just(obs), prop::collection::vec((prop::bool::weighted(0.7), distance()), k))
            })
            .prop_map(|(obs, vs)| obs.into_iter().zip(vs).map(|(o, (c, d))| ViewEntry { observer: o.into(), clear_view: c, distance: d }).collect())),
        4 => (5usize..13).prop_flat_map(|n| proptest::sample::subsequence(
                KNOWN.iter().chain(UNKNOWN).copied().collect::<Vec<_>>(), n)
            .prop_shuffle()
            .prop_flat_map(|obs| {
                let k = obs.len();
                (Just(obs), prop::collection::vec((any::<bool>(), distance()), k))
            })
            .prop_map(|(obs, vs)| obs.into_iter().zip(vs).map(|(o, (c, d))| ViewEntry { observer: o.into(), clear_view: c, distance: d }).collect())),
        1 => prop::collection::vec((id(), any::<bool>(), distance()).prop_map(|(observer, clear_view, distance)| ViewEntry { observer, clear_view, distance }), 0..8),
    ]
}

fn modifiers() -> impl Strategy<Value = Modifiers> {
    prop::collection::vec(select(SituationModifier::ALL.to_vec()), 0..3).prop_map(|situation| {
        Modifiers {
            situation,
            free: vec![],
        }
    })
}

fn total() -> impl Strategy<Value = i64> {
    -5i64..40
}

fn event() -> impl Strategy<Value = Event> {
    prop_oneof![
        6 => (hider_id(), 0i64..30, modifiers(), any::<bool>(), view())
            .prop_map(|(hider, roll, modifiers, moved, view)| Event::EnterStealth { hider, roll, modifiers: Some(modifiers), moved, sprinting: false, precautions: vec![], view }),
        30 => (hider_id(), any::<bool>(), view()).prop_map(|(hider, moved, view)| Event::ViewChanged { hider, moved, view }),
        8 => (hider_id(), id(), total()).prop_map(|(hider, observer, total)| Event::PerceptionRolled { hider, observer, total }),
        3 => (hider_id(), id(), prop::collection::vec(id(), 0..4)).prop_map(|(hider, observer, allies)| Event::PointOut { hider, observer, allies }),
        4 => (hider_id(), id(), any::<bool>(), 0u32..3, any::<bool>(), hit_zone())
            .prop_map(|(attacker, target, noisy, hits, area, hit_zone)| Event::Attack { attacker, target: Some(target), targets: vec![], noisy, hits, area, hit_zone }),
        3 => (hider_id(), id(), 0u32..3).prop_map(|(target, attacker, hits)| Event::DamageTaken { target, attacker, hits }),
        3 => (hider_id(), prop::option::of(0u32..3)).prop_map(|(combatant, round)| Event::TurnStart { combatant, round }),
        3 => hider_id().prop_map(|combatant| Event::TurnEnd { combatant }),
        1 => prop::option::of(0u32..3).prop_map(|round| Event::RoundEnd { round }),
        1 => Just(Event::CombatEnd {}),
        2 => (hider_id(), modifiers()).prop_map(|(hider, modifiers)| Event::ModifiersChanged { hider, modifiers }),
        1 => id().prop_map(|token| Event::Sprint { token }),
        1 => id().prop_map(|hider| Event::StopHiding { hider }),
        1 => id().prop_map(|token| Event::TokenRemoved { token }),
        2 => (hider_id(), id(), any::<bool>()).prop_map(|(hider, observer, perceived)| Event::GmOverride { hider, observer, perceived }),
    ]
}

fn view_heavy() -> impl Strategy<Value = Event> {
    prop_oneof![
        8 => (select(vec!["h1","h2"]).prop_map(TokenId::from), any::<bool>(), view()).prop_map(|(hider, moved, view)| Event::ViewChanged { hider, moved, view }),
        3 => (select(vec!["h1","h2"]).prop_map(TokenId::from), select(KNOWN[2..].to_vec()).prop_map(TokenId::from), total()).prop_map(|(hider, observer, total)| Event::PerceptionRolled { hider, observer, total }),
        1 => event(),
    ]
}

fn start(ruleset: Ruleset) -> State {
    let mut creatures = Vec::new();
    for (i, id) in KNOWN.iter().enumerate() {
        let mut c = Creature::new(*id);
        c.side = if id.starts_with('h') {
            "a".into()
        } else {
            "b".into()
        };
        c.stealth_skill = 40;
        c.acuities.visual = 10 + 5 * i as u32;
        c.perception_modifier = (i % 5) as i64;
        if i % 3 == 1 {
            c.enhanced_senses.push(EnhancedSense {
                sense: "smell".into(),
                range: 8.0,
                targeting: i % 2 == 0,
            });
        }
        if i == 6 {
            c.enhanced_senses.push(EnhancedSense {
                sense: "tremorsense".into(),
                range: 10.0,
                targeting: true,
            });
        }
        creatures.push(c);
    }
    create_state(Config {
        ruleset,
        settings: Settings::default(),
        creatures,
    })
    .unwrap()
}

fn check(
    before: &State,
    session: &Session,
    effects: &furtive_core::Effects,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        &effects.changes,
        &furtive_core::diff(before, session.state())
    );
    let lookup = patched_lookup(before, effects).map_err(TestCaseError::fail)?;
    prop_assert_eq!(lookup, query::hidden_from(session.state()).unwrap());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    #[test]
    fn o4_b2_views_of_many_observers_report_what_a_full_comparison_finds(
        ruleset in select(vec![Ruleset::Opposed, Ruleset::Percentile]),
        calls in prop::collection::vec(
            (
                prop_oneof![
                    3 => prop::collection::vec(event(), 1..2),
                    2 => prop::collection::vec(event(), 2..5),
                    4 => prop::collection::vec(view_heavy(), 1..5),
                ],
                0u8..4,
                any::<u64>(),
                any::<u64>(),
            ),
            1..14,
        ),
    ) {
        let mut session = Session::load(start(ruleset)).unwrap();
        for hider in ["h1", "h2"] {
            session
                .apply(Event::EnterStealth {
                    hider: hider.into(),
                    roll: 18,
                    modifiers: None,
                    moved: true,
                    sprinting: false,
                    precautions: vec![],
                    view: vec![],
                })
                .unwrap();
        }
        // `how`: 0 `apply_all`, 1 `settle` of the first event, 2 `apply`
        // of a lone event, 3 `apply_all` after reloading the session from
        // its snapshot without the pairs `dropped` marks.
        for (events, how, seed, dropped) in calls {
            if how == 3 {
                let mut state = session.snapshot();
                let mut bit = 0;
                let hiders: Vec<TokenId> = state.hiders.keys().cloned().collect();
                for hider in hiders {
                    let record = state.hiders.get_mut(hider.as_str()).unwrap();
                    let observers: Vec<TokenId> = record.pairs.keys().cloned().collect();
                    for observer in observers {
                        if dropped >> (bit % 64) & 1 == 1 {
                            record.pairs.remove(observer.as_str());
                        }
                        bit += 1;
                    }
                }
                if let Ok(reloaded) = Session::load(state) {
                    session = reloaded;
                }
            }
            let before = session.snapshot();
            let result = match how {
                1 => session.settle(events[0].clone(), seed),
                2 if events.len() == 1 => session.apply(events[0].clone()),
                _ => session.apply_all(events.clone()),
            };
            match result {
                Ok(effects) => check(&before, &session, &effects)?,
                Err(_) => prop_assert_eq!(session.state(), &before),
            }
        }
    }
}
