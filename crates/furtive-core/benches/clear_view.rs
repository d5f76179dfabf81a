//! Clear-view matrix on the Nort Gate fixture (443 walls), for 10, 50 and
//! 200 tokens placed deterministically on open floor.
//!
//! Run: `cargo bench -p furtive-core --bench clear_view` (set
//! `FURTIVE_FIXTURES` when `shared/` is not beside the repository).
//!
//! Groups:
//! - `matrix/all_walls`: the wall-height flags removed, so all 366 walls
//!   that restrict sight count, as core Foundry without Wall Height sees
//!   the scene (the heaviest case);
//! - `matrix/ground_floor`: the scene as exported, tokens at elevation 0:
//!   only the ground floor's walls block, the others are skipped by height;
//! - `brute_force/all_walls`: the same matrix from single sight lines over
//!   every wall, without the index (the reference the index must beat);
//! - `api/all_walls`: `api::clear_view_matrix` with 50 tokens, JSON in and
//!   out, parsing the scene included;
//! - `pair`: one pair on Nort Gate as exported (all five floors of walls,
//!   Levels floors): `api/clear_view` (JSON, the scene read for the call:
//!   the old way) against `SceneSight::clear_view` on a handle (the scene
//!   read once), the same for the longest pair of the 50 with clear view
//!   (no early exit), and `SceneSight` after a door toggle (an O(1)
//!   update);
//! - `handle/matrix`: `SceneSight::clear_view_matrix` on Nort Gate as
//!   exported, 10, 50 and 200 tokens, against `Scene::clear_view_matrix`
//!   (indexes built per call);
//! - `light`: the Warning Sign cave (darkness 1, 45 lights, 379 walls):
//!   the lighting of one point, and one token moved then
//!   `clear_view_from` it to 50 tokens (the cost of a move with light).

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion};
use furtive_core::scene::{Point, Scene, SceneSight, SceneUpdate, Token};
use furtive_json::functions as api;
use serde_json::Value;

fn nort_gate() -> Value {
    fixture("scene-ocd-nort-gate.json")
}

fn fixture(name: &str) -> Value {
    let dir = std::env::var_os("FURTIVE_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/fixtures")
        });
    let path = dir.join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {} ({e}); set FURTIVE_FIXTURES", path.display()));
    serde_json::from_str(&text).unwrap()
}

fn without_wall_heights(mut scene: Value) -> Value {
    for wall in scene["walls"].as_array_mut().unwrap() {
        wall.as_object_mut().unwrap().remove("flags");
    }
    scene
}

/// Distance from `p` to the segment `c`.
fn distance_to_wall(p: Point, c: [f64; 4]) -> f64 {
    let (dx, dy) = (c[2] - c[0], c[3] - c[1]);
    let length = dx * dx + dy * dy;
    let t = if length == 0.0 {
        0.0
    } else {
        (((p.x - c[0]) * dx + (p.y - c[1]) * dy) / length).clamp(0.0, 1.0)
    };
    (p.x - (c[0] + t * dx)).hypot(p.y - (c[1] + t * dy))
}

/// `n` one-square tokens on grid squares whose centre is at least 10 px
/// from every wall, visited in a fixed scrambled order (square `k * 97 mod
/// count`, 97 being prime to the 21 x 38 = 798 squares) so they spread
/// over the whole map.
fn open_floor_tokens(scene: &Scene, n: usize) -> Vec<Token> {
    let size = scene.grid.size;
    let columns = (scene.width.unwrap() / size) as usize;
    let rows = (scene.height.unwrap() / size) as usize;
    let count = columns * rows;
    let mut tokens = Vec::with_capacity(n);
    for k in 0..count {
        let square = k * 97 % count;
        let (x, y) = (
            (square % columns) as f64 * size,
            (square / columns) as f64 * size,
        );
        let centre = Point::new(x + size / 2.0, y + size / 2.0);
        if scene
            .walls
            .iter()
            .all(|wall| distance_to_wall(centre, wall.c) >= 10.0)
        {
            tokens.push(Token {
                id: format!("t{k}"),
                name: None,
                x,
                y,
                width: 1.0,
                height: 1.0,
                elevation: 0.0,
                darkvision: 0.0,
                light: None,
            });
            if tokens.len() == n {
                return tokens;
            }
        }
    }
    panic!("only {} open squares, {n} wanted", tokens.len());
}

fn brute_force(scene: &Scene, tokens: &[Token]) -> usize {
    let centres: Vec<Point> = tokens.iter().map(|t| scene.token_center(t)).collect();
    let mut clear = 0;
    for a in &centres {
        for b in &centres {
            clear += usize::from(scene.has_clear_view(*a, *b));
        }
    }
    clear
}

fn bench(c: &mut Criterion) {
    let raw = nort_gate();
    let ground_floor = Scene::from_value(raw.clone()).unwrap();
    let all_walls_json = without_wall_heights(raw);
    let all_walls = Scene::from_value(all_walls_json.clone()).unwrap();
    assert_eq!(all_walls.walls.len(), 443);

    let mut group = c.benchmark_group("matrix");
    for n in [10, 50, 200] {
        let tokens = open_floor_tokens(&all_walls, n);
        for (name, scene) in [("all_walls", &all_walls), ("ground_floor", &ground_floor)] {
            group.bench_with_input(BenchmarkId::new(name, n), &tokens, |b, tokens| {
                b.iter(|| black_box(scene.clear_view_matrix(black_box(tokens))))
            });
        }
    }
    group.finish();

    let mut group = c.benchmark_group("brute_force");
    for n in [50, 200] {
        let tokens = open_floor_tokens(&all_walls, n);
        group.bench_with_input(BenchmarkId::new("all_walls", n), &tokens, |b, tokens| {
            b.iter(|| black_box(brute_force(&all_walls, black_box(tokens))))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("pair");
    let tokens = open_floor_tokens(&all_walls, 50);
    // The pair: the first two open-floor tokens (squares far apart on the map).
    let (a, b) = (&tokens[0], &tokens[1]);
    let mut with_tokens = nort_gate();
    with_tokens["tokens"] = serde_json::to_value(&tokens).unwrap();
    let query = serde_json::json!({"from": {"tokenId": a.id}, "to": {"tokenId": b.id}});
    group.bench_function("api/clear_view", |bench| {
        bench.iter_batched(
            || (with_tokens.clone(), query.clone()),
            |(scene, query)| black_box(api::clear_view::<Value>(scene, query).unwrap()),
            BatchSize::SmallInput,
        )
    });
    let mut sight = SceneSight::from_value(with_tokens.clone()).unwrap();
    sight.clear_view(&a.id, &b.id).unwrap();
    group.bench_function("handle/clear_view", |bench| {
        bench.iter(|| {
            black_box(
                sight
                    .clear_view(black_box(&a.id), black_box(&b.id))
                    .unwrap(),
            )
        })
    });
    // The worst case: the longest pair with clear view (every wall near
    // the line is tested, no early exit).
    let matrix = sight.clear_view_matrix();
    let (mut far, mut best) = ((0, 0), -1.0);
    for i in 0..tokens.len() {
        for j in 0..tokens.len() {
            if matrix.clear_view[i][j] && matrix.distance[i][j] > best {
                (far, best) = ((i, j), matrix.distance[i][j]);
            }
        }
    }
    let (from, to) = (&tokens[far.0], &tokens[far.1]);
    println!("longest clear pair: {} -> {}, {best} ft", from.id, to.id);
    group.bench_function("handle/clear_view_longest_clear", |bench| {
        bench.iter(|| {
            black_box(
                sight
                    .clear_view(black_box(&from.id), black_box(&to.id))
                    .unwrap(),
            )
        })
    });
    let door = sight
        .scene()
        .walls
        .iter()
        .find(|wall| wall.door != furtive_core::scene::DoorKind::None)
        .and_then(|wall| wall.id.clone())
        .unwrap();
    let mut open = false;
    group.bench_function("handle/door_then_clear_view", |bench| {
        bench.iter(|| {
            open = !open;
            let state = if open {
                furtive_core::scene::DoorState::Open
            } else {
                furtive_core::scene::DoorState::Closed
            };
            sight
                .update(SceneUpdate::Door {
                    wall_id: door.clone(),
                    state,
                })
                .unwrap();
            black_box(sight.clear_view(&a.id, &b.id).unwrap())
        })
    });
    group.finish();

    let mut group = c.benchmark_group("handle/matrix");
    for n in [10, 50, 200] {
        let tokens = open_floor_tokens(&all_walls, n);
        let mut scene = ground_floor.clone();
        scene.tokens = tokens.clone();
        let mut sight = SceneSight::new(scene);
        sight.clear_view_matrix();
        group.bench_function(BenchmarkId::new("scene_sight", n), |bench| {
            bench.iter(|| black_box(sight.clear_view_matrix()))
        });
        group.bench_function(BenchmarkId::new("scene", n), |bench| {
            bench.iter(|| black_box(ground_floor.clear_view_matrix(black_box(&tokens))))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("light");
    let cave = Scene::from_value(fixture("scene-zahi-oota-warning-sign.json")).unwrap();
    let mut cave_tokens = open_floor_tokens(&cave, 50);
    for token in &mut cave_tokens {
        token.darkvision = 30.0;
    }
    let mut scene = cave.clone();
    scene.tokens = cave_tokens.clone();
    let mut sight = SceneSight::new(scene);
    sight.clear_view_matrix();
    let spot = cave.token_center(&cave_tokens[3]);
    group.bench_function("lighting_at", |bench| {
        bench.iter(|| black_box(sight.lighting_at(black_box(spot))))
    });
    let (mover, places) = (
        cave_tokens[0].id.clone(),
        [cave_tokens[0].clone(), cave_tokens[1].clone()],
    );
    let mut step = 0usize;
    group.bench_function("move_then_clear_view_from/50", |bench| {
        bench.iter(|| {
            step += 1;
            let place = &places[step % 2];
            sight
                .update(SceneUpdate::TokenMoved {
                    token_id: mover.clone(),
                    x: place.x,
                    y: place.y,
                    elevation: None,
                })
                .unwrap();
            black_box(sight.clear_view_from(&mover).unwrap())
        })
    });
    group.finish();

    let tokens_json = serde_json::to_value(&tokens).unwrap();
    c.bench_function("api/all_walls/50", |b| {
        b.iter_batched(
            || (all_walls_json.clone(), tokens_json.clone()),
            |(scene, tokens)| black_box(api::clear_view_matrix::<Value>(scene, tokens).unwrap()),
            BatchSize::SmallInput,
        )
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
