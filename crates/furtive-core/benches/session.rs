//! `Session::apply` against the free function `apply`, same states, same
//! events, one run.
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
//! - `view_one_in/session_apply`: as `view_unchanged`, but the first named
//!   observer comes into clear view (a token drag past one observer): one
//!   pair changes and asks for an O4 Perception check (the session is put
//!   back between two timed calls, untimed);
//! - `effects/to_text/200`: the effects of the 200-creature event written as
//!   the bindings write them (ASCII JSON text, `api::to_json_text`), alone;
//! - `perceives/session`: one `Session::perceives` query.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use furtive_core::query::PairQuery;
use furtive_core::{Event, Session};
use furtive_json::session::JsonSession;

mod common;
use common::{enter_stealth, id, named, table, view, NAMED, SIZES};

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("view_changed");
    group
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    for size in SIZES {
        let state = table(size);
        let into_view = view(size, NAMED, 5.0);
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
                    let asked: usize = effects
                        .requests
                        .iter()
                        .map(|request| match request {
                            furtive_core::Request::PerceptionCheck { observers, .. } => {
                                observers.len()
                            }
                            _ => 1,
                        })
                        .sum();
                    assert_eq!(asked, named(size));
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
            session.apply(view(size, 0, 5.0)).unwrap();
            let events = if group_name == "view_unchanged" {
                [view(size, 0, 5.0), view(size, 0, 5.0)]
            } else {
                [view(size, 0, 6.0), view(size, 0, 5.0)]
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

    let mut group = c.benchmark_group("view_one_in");
    group
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    for size in SIZES {
        let mut session = Session::load(table(size)).unwrap();
        session.apply(view(size, 0, 5.0)).unwrap();
        let one_in = view(size, 1, 5.0);
        let reset = vec![
            Event::StopHiding { hider: id(0) },
            enter_stealth(0),
            view(size, 0, 5.0),
        ];
        group.bench_with_input(BenchmarkId::new("session_apply", size), &size, |b, _| {
            b.iter_custom(|iterations| {
                let mut timed = Duration::ZERO;
                for _ in 0..iterations {
                    let event = one_in.clone();
                    let start = Instant::now();
                    let effects = black_box(session.apply(event).unwrap());
                    timed += start.elapsed();
                    assert_eq!(effects.requests.len(), 1);
                    black_box(session.apply_all(reset.clone()).unwrap());
                }
                timed
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("effects");
    group
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(20);
    let mut session = Session::load(table(200)).unwrap();
    let effects = session.apply(view(200, NAMED, 5.0)).unwrap();
    group.bench_function("to_text/200", |b| {
        b.iter(|| black_box(furtive_json::write::to_text(&effects).unwrap()))
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
