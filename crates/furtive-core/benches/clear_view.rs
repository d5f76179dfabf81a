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
//!   out, parsing the scene included.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion};
use furtive_core::api;
use furtive_core::scene::{Point, Scene, Token};
use serde_json::Value;

fn nort_gate() -> Value {
    let dir = std::env::var_os("FURTIVE_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/fixtures")
        });
    let path = dir.join("scene-ocd-nort-gate.json");
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

    let tokens = open_floor_tokens(&all_walls, 50);
    let tokens_json = serde_json::to_value(&tokens).unwrap();
    c.bench_function("api/all_walls/50", |b| {
        b.iter_batched(
            || (all_walls_json.clone(), tokens_json.clone()),
            |(scene, tokens)| black_box(api::clear_view_matrix(scene, tokens).unwrap()),
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
