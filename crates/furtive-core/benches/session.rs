//! `Session::apply` against the free function `apply`, same states, same
//! events, one run (issue 9).
//!
//! The table: 3, 20, 100, 200 and 1000 creatures, a quarter of them hiding
//! (`opposed`, held total 15, nobody in view at entry). The event is one
//! `viewChanged` of the first hider naming 150 observers (all of them when
//! fewer), each coming into clear view: every named pair changes and asks
//! for an O4 Perception check. Between two timed calls the session puts
//! the first hider back where it started (`stopHiding` then `enterStealth`,
//! untimed), so every timed call does that same work.
//!
//! Run: `cargo bench -p furtive-core --bench session`.
//!
//! Groups:
//! - `view_changed/free_apply`: `furtive_core::apply(&state, event)`: the
//!   free function, which loads (validates) a copy of the state and returns
//!   a copy, as every caller did before `Session`;
//! - `view_changed/session_apply`: `Session::apply(event)` in place;
//! - `view_changed/json_session_apply`: `JsonSession::apply`, what a
//!   binding calls: the event's JSON text read into a `Value`, parsed into
//!   an `Event`, applied, and the effects written as JSON text (no
//!   JavaScript conversion);
//! - `view_unchanged/session_apply`: the same first hider, its 150 named
//!   observers already recorded out of clear view at 5 ft; the event names
//!   them again with nothing new (the typical token drag among observers
//!   that stay out of view): no pair changes, nothing is asked;
//! - `view_moved/session_apply`: as `view_unchanged`, but every named
//!   distance changes (5 ft and 6 ft in turn): each pair's stored distance
//!   is written, nothing visible changes, nothing is asked;
//! - `effects/to_text/200`: the effects of the 200-creature event written as
//!   the bindings write them (ASCII JSON text, `api::to_json_text`), alone;
//! - `perceives/session`: one `Session::perceives` query.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use furtive_core::api_session::JsonSession;
use furtive_core::query::PairQuery;
use furtive_core::state::{Config, Creature, Ruleset, Settings};
use furtive_core::{Event, Session, State, ViewEntry};

const SIZES: [usize; 5] = [3, 20, 100, 200, 1000];
const NAMED: usize = 150;

/// A token id shaped like Foundry's (16 letters and digits), fixed by `i`.
fn id(i: usize) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut seed = (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (0..16)
        .map(|_| {
            seed ^= seed >> 29;
            seed = seed.wrapping_mul(0xBF58_476D_1CE4_E5B9);
            ALPHABET[(seed >> 40) as usize % ALPHABET.len()] as char
        })
        .collect()
}

/// `size` creatures, the first quarter (at least one) hiding.
fn table(size: usize) -> State {
    let creatures = (0..size)
        .map(|i| {
            let mut creature = Creature::new(id(i));
            creature.side = if i % 2 == 0 { "party" } else { "watch" }.into();
            creature.perception_modifier = (i % 7) as i64;
            creature
        })
        .collect();
    let mut session = Session::new(Config {
        ruleset: Ruleset::Opposed,
        settings: Settings::default(),
        creatures,
    })
    .unwrap();
    for i in 0..(size / 4).max(1) {
        session.apply(enter_stealth(i)).unwrap();
    }
    session.into_state()
}

/// Token `i` enters stealth with a held total of 15, nobody in view.
fn enter_stealth(i: usize) -> Event {
    Event::EnterStealth {
        hider: id(i),
        roll: 15,
        modifiers: Default::default(),
        moved: true,
        sprinting: false,
        precautions: Vec::new(),
        view: Vec::new(),
    }
}

/// The first hider's view of up to 150 other creatures, all at `distance`.
fn view(size: usize, clear_view: bool, distance: f64) -> Event {
    Event::ViewChanged {
        hider: id(0),
        moved: false,
        view: (1..size)
            .take(NAMED)
            .map(|i| ViewEntry {
                observer: id(i),
                clear_view,
                distance: Some(distance),
            })
            .collect(),
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("view_changed");
    group
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    for size in SIZES {
        let state = table(size);
        let into_view = view(size, true, 5.0);
        let reset = vec![Event::StopHiding { hider: id(0) }, enter_stealth(0)];
        group.bench_with_input(BenchmarkId::new("free_apply", size), &size, |b, _| {
            b.iter(|| black_box(furtive_core::apply(&state, into_view.clone()).unwrap()))
        });
        group.bench_with_input(BenchmarkId::new("session_apply", size), &size, |b, _| {
            let mut session = Session::load(state.clone()).unwrap();
            b.iter_custom(|iterations| {
                let mut timed = Duration::ZERO;
                for _ in 0..iterations {
                    let event = into_view.clone();
                    let start = Instant::now();
                    let effects = black_box(session.apply(event).unwrap());
                    timed += start.elapsed();
                    assert_eq!(effects.requests.len(), NAMED.min(size - 1));
                    black_box(session.apply_all(reset.clone()).unwrap());
                }
                timed
            })
        });
        let event_text = serde_json::to_string(&serde_json::json!({
            "type": "viewChanged",
            "hider": id(0),
            "moved": false,
            "view": (1..size).take(NAMED).map(|i| serde_json::json!({
                "observer": id(i), "clearView": true, "distance": 5.0
            })).collect::<Vec<_>>(),
        }))
        .unwrap();
        let reset_value = serde_json::json!([
            { "type": "stopHiding", "hider": id(0) },
            { "type": "enterStealth", "hider": id(0), "roll": 15, "moved": true },
        ]);
        group.bench_with_input(
            BenchmarkId::new("json_session_apply", size),
            &size,
            |b, _| {
                let snapshot = serde_json::to_value(&state).unwrap();
                let mut session = JsonSession::load(snapshot).unwrap();
                b.iter_custom(|iterations| {
                    let mut timed = Duration::ZERO;
                    for _ in 0..iterations {
                        let start = Instant::now();
                        let value: serde_json::Value = serde_json::from_str(&event_text).unwrap();
                        black_box(session.apply(value).unwrap());
                        timed += start.elapsed();
                        black_box(session.apply_all(reset_value.clone()).unwrap());
                    }
                    timed
                })
            },
        );
    }
    group.finish();

    for group_name in ["view_unchanged", "view_moved"] {
        let mut group = c.benchmark_group(group_name);
        group
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2))
            .sample_size(20);
        for size in SIZES {
            let mut session = Session::load(table(size)).unwrap();
            session.apply(view(size, false, 5.0)).unwrap();
            let events = if group_name == "view_unchanged" {
                [view(size, false, 5.0), view(size, false, 5.0)]
            } else {
                [view(size, false, 6.0), view(size, false, 5.0)]
            };
            group.bench_with_input(BenchmarkId::new("session_apply", size), &size, |b, _| {
                b.iter_custom(|iterations| {
                    let mut timed = Duration::ZERO;
                    for i in 0..iterations {
                        let event = events[i as usize % 2].clone();
                        let start = Instant::now();
                        let effects = black_box(session.apply(event).unwrap());
                        timed += start.elapsed();
                        assert!(effects.changes.is_empty() && effects.requests.is_empty());
                    }
                    timed
                })
            });
        }
        group.finish();
    }

    let mut group = c.benchmark_group("effects");
    group
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(20);
    let mut session = Session::load(table(200)).unwrap();
    let effects = session.apply(view(200, true, 5.0)).unwrap();
    group.bench_function("to_text/200", |b| {
        b.iter(|| black_box(furtive_core::api::to_json_text(&effects).unwrap()))
    });
    group.finish();

    let mut group = c.benchmark_group("perceives");
    group
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    for size in [200, 1000] {
        let session = Session::load(table(size)).unwrap();
        let query = PairQuery {
            observer: id(size - 1),
            hider: id(0),
        };
        group.bench_with_input(BenchmarkId::new("session", size), &size, |b, _| {
            b.iter(|| black_box(session.perceives(&query).unwrap()))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
