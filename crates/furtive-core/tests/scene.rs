//! Clear view from Foundry scenes (`furtive_core::scene`, `api::parse_scene`,
//! `api::clear_view`, `api::clear_view_matrix`).
//!
//! Coordinates are canvas pixels, y down. "Left" of a wall is the viewer's
//! left hand when standing on `c[0..2]` facing `c[2..4]` on the screen.
//! Real scenes are read from `shared/fixtures/` beside the repository
//! (`CARGO_MANIFEST_DIR/../../../shared/fixtures`), or from the directory
//! in `FURTIVE_FIXTURES`.

use std::path::PathBuf;

use furtive_core::scene::{
    DoorKind, DoorState, LitBy, Point, Scene, SceneLayout, SceneSight, SightRestriction, Token,
    Wall, WallDirection,
};
use furtive_core::Error;
use furtive_json::functions as api;
use proptest::prelude::*;
use serde_json::{json, Value};

fn fixture(name: &str) -> Value {
    let dir = std::env::var_os("FURTIVE_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/fixtures")
        });
    let path = dir.join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read fixture {} ({e}); put shared/ beside the repository or set FURTIVE_FIXTURES",
            path.display()
        )
    });
    serde_json::from_str(&text).unwrap()
}

/// A v10-layout scene (grid 100 px = 5 ft) with these walls, in broad
/// daylight (global illumination on), so that only walls decide.
fn scene(walls: Value) -> Scene {
    Scene::from_value(json!({
        "grid": {"size": 100, "distance": 5, "units": "ft", "type": 1},
        "globalLight": true,
        "walls": walls,
    }))
    .unwrap()
}

fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

fn sees(scene: &Scene, from: (f64, f64), to: (f64, f64)) -> bool {
    scene.has_clear_view(p(from.0, from.1), p(to.0, to.1))
}

/// Clear view both ways, and the same answer from the indexed matrix path.
fn both_ways(scene: &Scene, a: (f64, f64), b: (f64, f64)) -> (bool, bool) {
    let forward = sees(scene, a, b);
    let backward = sees(scene, b, a);
    let index = scene.sight_index();
    let mut scratch = index.scratch();
    assert_eq!(
        index.clear_both_ways(p(a.0, a.1), p(b.0, b.1), &mut scratch),
        (forward, backward),
        "index and brute force disagree for {a:?} <-> {b:?}"
    );
    (forward, backward)
}

fn scene_error(value: Value) -> (String, String) {
    match Scene::from_value(value) {
        Err(Error::InvalidScene { field, message }) => (field, message),
        other => panic!("expected invalid_scene, got {other:?}"),
    }
}

const WEST: (f64, f64) = (0.0, 100.0);
const EAST: (f64, f64) = (200.0, 100.0);
/// A vertical wall between WEST and EAST, drawn north to south.
const SPLIT: [f64; 4] = [100.0, 0.0, 100.0, 200.0];

// ---------------------------------------------------------------- wall kinds

#[test]
fn a_normal_wall_blocks_both_ways() {
    let scene = scene(json!([{"c": SPLIT, "sight": 20}]));
    assert_eq!(both_ways(&scene, WEST, EAST), (false, false));
    assert_eq!(
        scene.sight_line(p(0.0, 100.0), p(200.0, 100.0)).blocking,
        vec![0]
    );
}

#[test]
fn a_wall_with_sight_none_does_not_block() {
    let scene = scene(json!([{"c": SPLIT, "sight": 0, "move": 20}]));
    assert_eq!(both_ways(&scene, WEST, EAST), (true, true));
}

#[test]
fn a_missing_sight_field_is_a_normal_wall() {
    let scene = scene(json!([{"c": SPLIT}]));
    assert_eq!(scene.walls[0].sight, SightRestriction::Normal);
    assert_eq!(both_ways(&scene, WEST, EAST), (false, false));
}

#[test]
fn one_limited_wall_does_not_block() {
    let scene = scene(json!([{"c": SPLIT, "sight": 10}]));
    assert_eq!(both_ways(&scene, WEST, EAST), (true, true));
    let line = scene.sight_line(p(0.0, 100.0), p(200.0, 100.0));
    assert_eq!((line.blocking.len(), line.limited.clone()), (0, vec![0]));
}

#[test]
fn two_limited_walls_block() {
    let scene = scene(json!([
        {"c": [50, 0, 50, 200], "sight": 10},
        {"c": [150, 0, 150, 200], "sight": 10},
    ]));
    assert_eq!(both_ways(&scene, WEST, EAST), (false, false));
    // Only the first one lies between WEST and the midpoint.
    assert_eq!(both_ways(&scene, WEST, (100.0, 100.0)), (true, true));
}

#[test]
fn a_limited_wall_and_a_sight_none_wall_do_not_block() {
    let scene = scene(json!([
        {"c": [50, 0, 50, 200], "sight": 10},
        {"c": [150, 0, 150, 200], "sight": 0},
    ]));
    assert_eq!(both_ways(&scene, WEST, EAST), (true, true));
}

/// A proximity wall (sight 30): grid 100 px = 5 ft,
/// `threshold.sight` 10 ft. Foundry's `WallThresholdData.sight` is the
/// "minimum distance from a vision source for which this wall blocks
/// vision", and `WALL_SENSE_TYPES.PROXIMITY` "senses bypass the wall within
/// a certain proximity threshold". Expected: from (400, 500), 5 ft from the
/// wall (< 10 ft), the wall does not block: clear view. From (900, 500),
/// 20 ft away (>= 10 ft), it blocks.
#[test]
fn b5_a_proximity_wall_blocks_only_sources_at_or_beyond_its_threshold() {
    let scene = scene(json!([{"c": [500, 0, 500, 1000], "sight": 30, "threshold": {"sight": 10}}]));
    assert_eq!(
        both_ways(&scene, (400.0, 500.0), (900.0, 500.0)),
        (true, false)
    );
    // Exactly at the threshold (10 ft = 200 px): "minimum distance ... for
    // which this wall blocks" includes it.
    assert_eq!(
        both_ways(&scene, (300.0, 500.0), (900.0, 500.0)),
        (false, false)
    );
}

/// A distance wall (sight 40, "reverse proximity"): `WALL_SENSE_TYPES.
/// DISTANCE` "senses bypass the wall outside a certain proximity
/// threshold". Expected, the mirror of the proximity case: from (400, 500),
/// 5 ft away, it blocks; from (900, 500), 20 ft away, clear view.
#[test]
fn b5_a_distance_wall_blocks_only_sources_closer_than_its_threshold() {
    let scene = scene(json!([{"c": [500, 0, 500, 1000], "sight": 40, "threshold": {"sight": 10}}]));
    assert_eq!(
        both_ways(&scene, (400.0, 500.0), (900.0, 500.0)),
        (false, true)
    );
}

/// Without a threshold (missing or `null`: 0 ft), every source is at or
/// beyond it. Expected: a proximity wall blocks like a normal wall, a
/// distance wall never blocks.
#[test]
fn b5_threshold_walls_without_a_threshold() {
    let proximity = scene(json!([{"c": SPLIT, "sight": 30}]));
    assert_eq!(both_ways(&proximity, WEST, EAST), (false, false));
    let distance = scene(json!([{"c": SPLIT, "sight": 40, "threshold": {"sight": null}}]));
    assert_eq!(both_ways(&distance, WEST, EAST), (true, true));
}

#[test]
fn doors_block_closed_or_locked_and_not_open() {
    // (door, ds, clear view)
    let cases = [
        (1, 0, false), // door, closed
        (1, 1, true),  // door, open
        (1, 2, false), // door, locked
        (2, 0, false), // secret door, closed
        (2, 1, true),  // secret door, open
        (2, 2, false), // secret door, locked
        (0, 1, false), // not a door: `ds` is ignored
    ];
    for (door, ds, clear) in cases {
        let scene = scene(json!([{"c": SPLIT, "sight": 20, "door": door, "ds": ds}]));
        assert_eq!(
            both_ways(&scene, WEST, EAST),
            (clear, clear),
            "door {door} ds {ds}"
        );
    }
}

#[test]
fn a_closed_limited_door_counts_as_a_limited_wall_and_an_open_one_not_at_all() {
    let walls = |ds: u8| {
        json!([
            {"c": [50, 0, 50, 200], "sight": 10, "door": 1, "ds": ds},
            {"c": [150, 0, 150, 200], "sight": 10},
        ])
    };
    assert_eq!(both_ways(&scene(walls(0)), WEST, EAST), (false, false));
    assert_eq!(both_ways(&scene(walls(1)), WEST, EAST), (true, true));
}

// ------------------------------------------------------------ one-way walls

#[test]
fn a_left_wall_drawn_west_to_east_blocks_observers_north_of_it() {
    // Facing east along the wall, the left hand points north (smaller y).
    let scene = scene(json!([{"c": [0, 100, 200, 100], "dir": 1}]));
    let north = (100.0, 0.0);
    let south = (100.0, 200.0);
    assert_eq!(both_ways(&scene, north, south), (false, true));
}

#[test]
fn a_right_wall_drawn_west_to_east_blocks_observers_south_of_it() {
    let scene = scene(json!([{"c": [0, 100, 200, 100], "dir": 2}]));
    assert_eq!(
        both_ways(&scene, (100.0, 0.0), (100.0, 200.0)),
        (true, false)
    );
}

#[test]
fn drawing_a_one_way_wall_the_other_way_swaps_its_sides() {
    // Drawn east to west, left is south.
    let left = scene(json!([{"c": [200, 100, 0, 100], "dir": 1}]));
    assert_eq!(
        both_ways(&left, (100.0, 0.0), (100.0, 200.0)),
        (true, false)
    );
    // Drawn north to south, left is east (facing down the screen).
    let left = scene(json!([{"c": SPLIT, "dir": 1}]));
    assert_eq!(both_ways(&left, EAST, WEST), (false, true));
    let right = scene(json!([{"c": SPLIT, "dir": 2}]));
    assert_eq!(both_ways(&right, EAST, WEST), (true, false));
}

#[test]
fn a_one_way_wall_seen_from_its_open_side_is_not_counted_as_limited() {
    // Two limited walls; the first is one-way (left of north-to-south = east).
    let scene = scene(json!([
        {"c": [50, 0, 50, 200], "sight": 10, "dir": 1},
        {"c": [150, 0, 150, 200], "sight": 10},
    ]));
    // From the east the one-way wall counts: two limited walls.
    // From the west it does not: one limited wall.
    assert_eq!(both_ways(&scene, EAST, WEST), (false, true));
}

#[test]
fn the_matrix_is_asymmetric_across_one_way_walls() {
    let scene = scene(json!([{"c": [0, 100, 300, 100], "dir": 1}]));
    let tokens = vec![
        token("north", 50.0, -50.0),   // centre (100, 0)
        token("south", 50.0, 150.0),   // centre (100, 200)
        token("south2", 150.0, 150.0), // centre (200, 200)
    ];
    let matrix = scene.clear_view_matrix(&tokens);
    assert_eq!(matrix.ids, vec!["north", "south", "south2"]);
    assert_eq!(
        matrix.clear_view,
        vec![
            vec![true, false, false],
            vec![true, true, true],
            vec![true, true, true],
        ]
    );
    assert_eq!(matrix.distance[0][1], 10.0); // 200 px at 5 ft per 100 px
    assert_eq!(matrix.distance[1][2], 5.0);
    assert_eq!(matrix.distance[1][0], matrix.distance[0][1]);
    assert_eq!(matrix.units, "ft");
}

fn token(id: &str, x: f64, y: f64) -> Token {
    Token {
        id: id.into(),
        name: None,
        x,
        y,
        width: 1.0,
        height: 1.0,
        elevation: 0.0,
        darkvision: 0.0,
        light: None,
    }
}

// ------------------------------------------------- exact contacts (shift rule)

#[test]
fn a_target_exactly_on_a_wall_counts_as_just_right_of_it() {
    // The shift moves the sight line toward +x: a point on a vertical wall
    // stands just east of it.
    let scene = scene(json!([{"c": SPLIT}]));
    let on_wall = (100.0, 100.0);
    assert_eq!(both_ways(&scene, WEST, on_wall), (false, false));
    assert_eq!(both_ways(&scene, EAST, on_wall), (true, true));
}

#[test]
fn a_line_through_the_joint_of_a_straight_wall_is_blocked_by_exactly_one_segment() {
    // Two collinear segments meeting at (100, 100); the horizontal sight line
    // passes through the joint. Shifted down (+y), it crosses the lower one.
    let scene = scene(json!([
        {"_id": "upper", "c": [100, 0, 100, 100]},
        {"_id": "lower", "c": [100, 100, 100, 200]},
    ]));
    assert_eq!(both_ways(&scene, WEST, EAST), (false, false));
    assert_eq!(
        scene.sight_line(p(0.0, 100.0), p(200.0, 100.0)).blocking,
        vec![1]
    );
}

#[test]
fn a_chain_of_limited_walls_crossed_at_its_joint_counts_once() {
    let scene = scene(json!([
        {"c": [100, 0, 100, 100], "sight": 10},
        {"c": [100, 100, 100, 200], "sight": 10},
    ]));
    assert_eq!(both_ways(&scene, WEST, EAST), (true, true));
    assert_eq!(
        scene
            .sight_line(p(0.0, 100.0), p(200.0, 100.0))
            .limited
            .len(),
        1
    );
}

#[test]
fn a_line_through_the_bend_of_a_wall_is_blocked() {
    // An L: up from (100, 100) and east from (100, 100). The diagonal from
    // (0, 200) to (200, 0) passes through the bend between the two arms.
    let scene = scene(json!([
        {"c": [100, 0, 100, 100]},
        {"c": [100, 100, 200, 100]},
    ]));
    assert_eq!(
        both_ways(&scene, (0.0, 200.0), (200.0, 0.0)),
        (false, false)
    );
    // Shifted toward +x, the line meets the east arm just right of the bend.
    assert_eq!(
        scene.sight_line(p(0.0, 200.0), p(200.0, 0.0)).blocking,
        vec![1]
    );
}

#[test]
fn a_line_grazing_a_corner_is_blocked_only_when_the_corner_lies_on_the_shift_side() {
    // Both arms to the right (+x) of the diagonal (0,0)-(200,200): blocked.
    let right = scene(json!([
        {"c": [100, 0, 100, 100]},
        {"c": [100, 100, 200, 100]},
    ]));
    assert_eq!(
        both_ways(&right, (0.0, 0.0), (200.0, 200.0)),
        (false, false)
    );
    assert_eq!(
        right.sight_line(p(0.0, 0.0), p(200.0, 200.0)).blocking,
        vec![0, 1]
    );
    // Both arms to the left: clear.
    let left = scene(json!([
        {"c": [100, 100, 100, 200]},
        {"c": [0, 100, 100, 100]},
    ]));
    assert_eq!(both_ways(&left, (0.0, 0.0), (200.0, 200.0)), (true, true));
}

#[test]
fn a_horizontal_line_touching_a_wall_end_is_shifted_down() {
    let below = scene(json!([{"c": [100, 100, 100, 200]}]));
    assert_eq!(both_ways(&below, WEST, EAST), (false, false));
    let above = scene(json!([{"c": [100, 0, 100, 100]}]));
    assert_eq!(both_ways(&above, WEST, EAST), (true, true));
}

#[test]
fn a_vertical_line_touching_a_wall_end_is_shifted_right() {
    let north = (100.0, 0.0);
    let south = (100.0, 200.0);
    let east = scene(json!([{"c": [100, 100, 200, 100]}]));
    assert_eq!(both_ways(&east, north, south), (false, false));
    let west = scene(json!([{"c": [0, 100, 100, 100]}]));
    assert_eq!(both_ways(&west, north, south), (true, true));
}

#[test]
fn an_observer_exactly_on_a_one_way_wall_stands_on_its_shift_side() {
    // A left wall drawn west to east blocks observers to its north. An
    // observer on the wall is shifted by (ε, ε²): just south of it.
    let scene = scene(json!([{"c": [0, 100, 200, 100], "dir": 1}]));
    assert_eq!(
        both_ways(&scene, (100.0, 100.0), (100.0, 0.0)),
        (true, false)
    );
}

#[test]
fn collinear_and_parallel_walls_do_not_block() {
    let line = ((0.0, 100.0), (300.0, 100.0));
    for c in [
        json!([100, 100, 200, 100]),  // along the line, inside it
        json!([250, 100, 400, 100]),  // along the line, overlapping its end
        json!([-100, 100, 400, 100]), // along the line, past both ends
        json!([300, 100, 400, 100]),  // collinear, touching end to end
        json!([0, 101, 300, 101]),    // parallel, one pixel away
        json!([0, 99, 300, 99]),      // parallel on the other side
    ] {
        let scene = scene(json!([{"c": c}]));
        assert_eq!(both_ways(&scene, line.0, line.1), (true, true), "wall {c}");
    }
}

#[test]
fn a_wall_crossing_in_an_x_and_a_t_junction_block() {
    let x = scene(json!([{"c": [50, 50, 150, 150]}]));
    assert_eq!(both_ways(&x, WEST, EAST), (false, false));
    // A T: the stem (100,100)-(200,100) ends on the bar (100,0)-(100,200).
    // A line across the stem is blocked by the stem alone.
    let t = scene(json!([{"c": [100, 0, 100, 200]}, {"c": [100, 100, 200, 100]}]));
    assert_eq!(both_ways(&t, (150.0, 50.0), (150.0, 150.0)), (false, false));
    assert_eq!(
        t.sight_line(p(150.0, 50.0), p(150.0, 150.0)).blocking,
        vec![1]
    );
}

#[test]
fn zero_length_walls_and_shared_centres_never_block() {
    let scene = scene(json!([{"c": [100, 100, 100, 100]}, {"c": SPLIT}]));
    assert_eq!(both_ways(&scene, WEST, EAST), (false, false));
    let dot = self::scene(json!([{"c": [100, 100, 100, 100]}]));
    assert_eq!(both_ways(&dot, WEST, EAST), (true, true));
    assert_eq!(
        both_ways(&scene, (100.0, 100.0), (100.0, 100.0)),
        (true, true)
    );
}

#[test]
fn orientation_is_exact_where_a_plain_float_formula_sees_a_collinear_point() {
    // A wall from p to q; p lies 3/|t-o| of a pixel on one side of the
    // sight line o -> t (exact integer orientation -3, below), q far on
    // the other side, so the wall crosses the line. All eight coordinates
    // are integers below 2^41, exact in f64, but the products reach 2^80.
    let o = (502_267_331_504i64, 464_037_853_057i64);
    let t = (1_557_999_327_560i64, 1_892_701_171_480i64);
    let wall_p = (932_689_281_965i64, 1_046_503_909_182i64);
    let wall_q = (932_689_281_522i64, 1_046_503_909_509i64);
    let exact = |a: (i64, i64), b: (i64, i64), c: (i64, i64)| {
        let (a, b, c) = (
            (a.0 as i128, a.1 as i128),
            (b.0 as i128, b.1 as i128),
            (c.0 as i128, c.1 as i128),
        );
        (a.0 - c.0) * (b.1 - c.1) - (a.1 - c.1) * (b.0 - c.0)
    };
    let float = |a: (i64, i64), b: (i64, i64), c: (i64, i64)| {
        let (a, b, c) = (
            (a.0 as f64, a.1 as f64),
            (b.0 as f64, b.1 as f64),
            (c.0 as f64, c.1 as f64),
        );
        (a.0 - c.0) * (b.1 - c.1) - (a.1 - c.1) * (b.0 - c.0)
    };
    assert_eq!(exact(o, t, wall_p), -3);
    assert_eq!(float(o, t, wall_p), 0.0, "the float formula cannot tell");
    assert!(exact(o, t, wall_q) > 0);
    assert!(exact(wall_p, wall_q, o).signum() != exact(wall_p, wall_q, t).signum());
    // A float "0" would be settled by the shift rule (same side as q): clear.
    // The exact sign puts p opposite q: the wall is crossed.
    let scene = scene(json!([{
        "c": [wall_p.0, wall_p.1, wall_q.0, wall_q.1]
    }]));
    let (o, t) = ((o.0 as f64, o.1 as f64), (t.0 as f64, t.1 as f64));
    assert_eq!(both_ways(&scene, o, t), (false, false));
}

// ------------------------------------------------------------ wall height

#[test]
fn wall_height_flags_limit_a_wall_to_its_elevations() {
    let scene = scene(json!([{
        "c": SPLIT, "flags": {"wall-height": {"bottom": 10, "top": 20}}
    }]));
    let line = |a: f64, b: f64| scene.has_clear_view(p(0.0, 100.0).at(a), p(200.0, 100.0).at(b));
    assert!(line(0.0, 0.0), "below the wall");
    assert!(!line(15.0, 15.0), "within it");
    assert!(!line(10.0, 10.0), "at its bottom");
    assert!(!line(0.0, 30.0), "elevations 0..30 meet 10..20");
    assert!(line(21.0, 30.0), "above it");
    let unbounded_top = self::scene(json!([{
        "c": SPLIT, "flags": {"wall-height": {"bottom": 10, "top": null}}
    }]));
    assert!(!unbounded_top.has_clear_view(p(0.0, 100.0).at(500.0), p(200.0, 100.0).at(500.0)));
    assert!(unbounded_top.has_clear_view(p(0.0, 100.0), p(200.0, 100.0)));
}

/// A low wall: grid 100 px = 5 ft, a wall 0-5 ft high, an
/// observer on the ground (elevation 0) and a target at elevation 30 ft,
/// 40 ft (800 px) apart. B5: "the sight line is tested in three dimensions
/// ... a line passing above a low wall is clear". With the wall half way,
/// the line is at 0 + 0.5 * 30 = 15 ft where it crosses the wall, above its
/// top (5 ft). Expected: clear view both ways.
#[test]
fn b5_a_sight_line_passing_above_a_low_wall_is_clear() {
    let low = |x: f64| {
        scene(json!([{"c": [x, 0, x, 1000], "flags": {"wall-height": {"bottom": 0, "top": 5}}}]))
    };
    let ground = p(0.0, 500.0);
    let high = p(800.0, 500.0).at(30.0);
    let scene = low(400.0);
    assert!(scene.has_clear_view(ground, high));
    assert!(scene.has_clear_view(high, ground));
    let index = scene.sight_index();
    assert_eq!(
        index.clear_both_ways(ground, high, &mut index.scratch()),
        (true, true)
    );
    // The same wall 50 px from the observer: the line is at 30 * 50 / 800
    // = 1.875 ft there, below the top: blocked both ways.
    let near = low(50.0);
    assert!(!near.has_clear_view(ground, high));
    assert!(!near.has_clear_view(high, ground));
    // The matrix (indexed path) says the same for tokens.
    let mut observer = token("observer", -50.0, 450.0);
    let mut target = token("target", 750.0, 450.0);
    target.elevation = 30.0;
    let matrix = scene.clear_view_matrix(&[observer.clone(), target.clone()]);
    assert_eq!(matrix.clear_view, vec![vec![true, true], vec![true, true]]);
    observer.elevation = 0.0;
    target.elevation = 0.0;
    let flat = scene.clear_view_matrix(&[observer, target]);
    assert_eq!(flat.clear_view, vec![vec![true, false], vec![false, true]]);
}

/// B5 at the exact top: the line's elevation where it crosses the wall is
/// `z(s) = z0 + s (z1 - z0)`, `s` the crossing's parameter along the line,
/// and the wall counts when `bottom <= z(s) <= top`. Expected: observer at
/// 0 ft, target at 10 ft, wall half way, so `z = 5` exactly: a wall 0-5
/// blocks (the top is included), a wall whose top is 4.999999 does not, and
/// a wall from 5.000001 up does not.
#[test]
fn b5_the_line_elevation_at_the_crossing_is_compared_exactly() {
    let with = |bottom: Value, top: Value| {
        scene(json!([{"c": SPLIT, "flags": {"wall-height": {"bottom": bottom, "top": top}}}]))
    };
    let (o, t) = (p(0.0, 100.0), p(200.0, 100.0).at(10.0));
    assert!(!with(json!(0), json!(5)).has_clear_view(o, t));
    assert!(with(json!(0), json!(4.999999)).has_clear_view(o, t));
    assert!(with(json!(5.000001), json!(null)).has_clear_view(o, t));
    assert!(!with(json!(5), json!(null)).has_clear_view(t, o));
}

/// Wall Height before 4.0 stored `flags.wallHeight = {wallHeightBottom,
/// wallHeightTop}`. Expected: read as the same bounds, with the same
/// answers as the 4.0 flags (the low wall: clear over it, blocked
/// along the ground).
#[test]
fn b5_wall_height_flags_written_before_4_0_are_read() {
    let scene = scene(json!([{"c": [400, 0, 400, 1000],
        "flags": {"wallHeight": {"wallHeightBottom": 0, "wallHeightTop": 5}}}]));
    let height = scene.walls[0].height.unwrap();
    assert_eq!((height.bottom, height.top), (Some(0.0), Some(5.0)));
    assert!(scene.has_clear_view(p(0.0, 500.0), p(800.0, 500.0).at(30.0)));
    assert!(!scene.has_clear_view(p(0.0, 500.0), p(800.0, 500.0)));
}

/// Nort Gate stores its floors as the Levels module does: four full-map
/// tiles with `flags.levels.rangeBottom` 10, 20, 30 and 40 (its
/// `flags.levels.sceneLevels` is the Levels UI's list of levels, with no
/// area: not a floor), and one Levels hole (a polygon drawing with
/// `drawingMode` 1, range 0-600) covering everything outside the building.
/// B5: "floors of a multi-level map (Levels) block between levels". At
/// (1350, 950), a room inside the building walled on the ground floor
/// (walls 0-9 ft) and on the second floor (10-19 ft), one token at 0 ft and
/// one 15 ft above it. Expected: the line crosses the floor at 10 ft inside
/// its tile and outside the hole: blocked both ways (today clear). Two
/// tokens at 10 and 15 ft, both on the second floor: clear. At 0 and 9 ft:
/// clear.
#[test]
fn b5_a_levels_floor_blocks_between_floors_on_nort_gate() {
    let scene = Scene::from_value(fixture("scene-ocd-nort-gate.json")).unwrap();
    let floors: Vec<_> = scene.floors.iter().map(|f| f.elevation).collect();
    assert_eq!(floors, vec![10.0, 20.0, 30.0, 40.0]);
    let ground = p(1350.0, 950.0);
    let above = ground.at(15.0);
    let line = scene.sight_line(ground, above);
    assert_eq!(line.floors, vec![0]);
    assert!(!scene.has_clear_view(ground, above));
    assert!(!scene.has_clear_view(above, ground));
    assert!(scene.has_clear_view(ground.at(10.0), above));
    assert!(scene.has_clear_view(ground, ground.at(9.0)));
    let mut low = token("low", 1300.0, 900.0);
    let mut high = token("high", 1300.0, 900.0);
    high.elevation = 15.0;
    let matrix = scene.clear_view_matrix(&[low.clone(), high.clone()]);
    assert_eq!(
        matrix.clear_view,
        vec![vec![true, false], vec![false, true]]
    );
    // The JSON answer names the floor tile.
    let answer = api::clear_view::<Value>(
        fixture("scene-ocd-nort-gate.json"),
        json!({"from": {"x": 1350, "y": 950}, "to": {"x": 1350, "y": 950, "elevation": 15}}),
    )
    .unwrap();
    assert_eq!(answer["clearView"], json!(false));
    assert_eq!(
        answer["blockingFloors"],
        json!([{"index": 0, "id": "g3ZzeJIws14dxwRe"}])
    );
    low.elevation = 12.0;
    high.x += 100.0;
    let same_floor = scene.clear_view_matrix(&[low, high]);
    assert_eq!(same_floor.clear_view[0][1], same_floor.clear_view[1][0]);
}

/// Outside Nort Gate's building the Levels hole opens every floor (the
/// open sky): at (250, 250), tokens at 0 and 15 ft. Expected: clear both
/// ways; inside the building at (1250, 2350), blocked.
#[test]
fn b5_a_levels_hole_opens_the_floors_outside_the_building_on_nort_gate() {
    let scene = Scene::from_value(fixture("scene-ocd-nort-gate.json")).unwrap();
    assert_eq!(scene.holes.len(), 1);
    assert_eq!(scene.holes[0].id.as_deref(), Some("rOLSG4eE3EIKALgA"));
    let outside = p(250.0, 250.0);
    assert!(scene.has_clear_view(outside, outside.at(15.0)));
    assert!(scene.has_clear_view(outside.at(15.0), outside));
    let inside = p(1250.0, 2350.0);
    assert!(!scene.has_clear_view(inside, inside.at(15.0)));
    // A slanted line from (0, 1000) at 0 ft to (1000, 1000) at 25 ft meets
    // 10 ft at x = 400, outside the building (open), and 20 ft at x = 800,
    // inside it: blocked by the floor at 20 ft only.
    let line = scene.sight_line(p(0.0, 1000.0), p(1000.0, 1000.0).at(25.0));
    assert_eq!(line.floors, vec![1]);
}

/// A Levels hole opens a floor where the line meets it, for the floors in
/// the hole's range; a tile with Levels' "Allow Sight" (`noCollision`) is
/// no floor. A full-map floor at 10 ft with a 200 x 200 px rectangular hole
/// (v10 `shape`) at (400..600, 400..600), range 0-15. Expected: a vertical
/// line at (500, 500) from 0 to 15 ft clear; at (300, 300) blocked; with the
/// hole's range 12-20 (not the floor's 10 ft) blocked; a slanted line from
/// (300, 500) at 0 ft to (700, 500) at 20 ft meets 10 ft at x = 500: clear.
#[test]
fn b5_a_levels_hole_opens_the_floor_in_its_range() {
    let with = |bottom: f64, top: f64, no_collision: bool| {
        Scene::from_value(json!({
            "grid": {"size": 100, "distance": 5},
            "walls": [],
            "tiles": [{"x": 0, "y": 0, "width": 1000, "height": 1000,
                       "flags": {"levels": {"rangeBottom": 10, "rangeTop": 19, "noCollision": no_collision}}}],
            "drawings": [{"_id": "hole", "x": 400, "y": 400, "shape": {"type": "r", "width": 200, "height": 200},
                          "flags": {"levels": {"drawingMode": 1, "rangeBottom": bottom, "rangeTop": top}}},
                         {"x": 0, "y": 0, "shape": {"type": "r", "width": 1000, "height": 1000},
                          "flags": {"levels": {"drawingMode": 2, "rangeBottom": 0, "rangeTop": 9}}}],
        }))
        .unwrap()
    };
    let scene = with(0.0, 15.0, false);
    assert_eq!(scene.holes.len(), 1, "a stair (mode 2) is no hole");
    assert!(scene.has_clear_view(p(500.0, 500.0), p(500.0, 500.0).at(15.0)));
    assert!(!scene.has_clear_view(p(300.0, 300.0), p(300.0, 300.0).at(15.0)));
    assert!(!with(12.0, 20.0, false).has_clear_view(p(500.0, 500.0), p(500.0, 500.0).at(15.0)));
    assert!(scene.has_clear_view(p(300.0, 500.0), p(700.0, 500.0).at(20.0)));
    // The hole's edge belongs to it: x = 600 exactly.
    assert!(scene.has_clear_view(p(400.0, 500.0), p(800.0, 500.0).at(20.0)));
    assert!(!scene.has_clear_view(p(410.0, 500.0), p(810.0, 500.0).at(20.0)));
    assert!(with(12.0, 20.0, true).floors.is_empty());
}

/// A floor blocks only where the line meets its plane inside the tile.
/// Expected: a 100 x 100 px tile at 10 ft under the middle of a line from
/// (0, 0) at 0 ft to (400, 0) at 20 ft (which meets 10 ft at x = 200):
/// blocked when the tile spans x 150..250, clear when it spans 250..350,
/// blocked on its edge (x 200..300, the edge is part of the tile), and
/// turned 90° about its centre a 400 x 20 tile still covers x = 200.
#[test]
fn b5_a_floor_blocks_only_inside_its_tile() {
    let with = |x: f64, width: f64, height: f64, rotation: f64| {
        Scene::from_value(json!({
            "grid": {"size": 100, "distance": 5},
            "walls": [],
            "tiles": [{"x": x, "y": -height / 2.0, "width": width, "height": height,
                       "rotation": rotation, "flags": {"levels": {"rangeBottom": 10, "rangeTop": 19}}}],
        }))
        .unwrap()
    };
    let (o, t) = (p(0.0, 0.0), p(400.0, 0.0).at(20.0));
    assert!(!with(150.0, 100.0, 100.0, 0.0).has_clear_view(o, t));
    assert!(with(250.0, 100.0, 100.0, 0.0).has_clear_view(o, t));
    assert!(!with(200.0, 100.0, 100.0, 0.0).has_clear_view(t, o));
    // 400 x 20 centred on x = 200, turned 90°: 20 x 400, still over x = 200.
    assert!(!with(0.0, 400.0, 20.0, 90.0).has_clear_view(o, t));
    // Centred on x = 300 and turned 90°: spans x 290..310, misses x = 200.
    assert!(with(100.0, 400.0, 20.0, 90.0).has_clear_view(o, t));
    // Turned 45°: the 400 x 20 strip centred on (200, 0) still covers its centre.
    assert!(!with(0.0, 400.0, 20.0, 45.0).has_clear_view(o, t));
}

// --------------------------------------------------------------- parsing

#[test]
fn the_v10_layout_is_read() {
    let scene = Scene::from_value(json!({
        "_id": "s1", "name": "Vault", "width": 1000, "height": 800,
        "grid": {"size": 50, "distance": 1.5, "units": "m", "type": 1, "style": "solidLines"},
        "environment": {"darknessLevel": 0.75, "globalLight": {"enabled": true}},
        "walls": [
            {"_id": "w0", "c": [0, 0, 100, 0], "sight": 0, "light": 20, "move": 20, "sound": 20,
             "dir": 0, "door": 0, "ds": 0, "threshold": {"sight": null}, "flags": {}},
            {"_id": "w1", "c": [0, 0, 0, 100], "sight": 10, "dir": 1},
            {"_id": "w2", "c": [0, 0, 0, 100], "sight": 20, "dir": 2, "door": 2, "ds": 2},
            {"_id": "w3", "c": [0, 0, 0, 100], "sight": 30, "door": 1, "ds": 1},
            {"_id": "w4", "c": [0, 0, 0, 100], "sight": 40},
        ],
        "tokens": [{"_id": "t1", "name": "Rogue", "x": 100, "y": 150, "width": 2, "height": 2,
                    "elevation": 5, "sight": {"enabled": true}, "detectionModes": []}],
        "lights": [{"_id": "l1", "x": 10, "y": 20, "config": {"dim": 30, "bright": 15}},
                   {"_id": "l2", "x": 30, "y": 40, "config": {"dim": 10, "bright": 5, "negative": true}, "hidden": true}],
    }))
    .unwrap();
    assert_eq!(scene.layout, SceneLayout::V10);
    assert_eq!(scene.grid.size, 50.0);
    assert_eq!(scene.grid.distance, 1.5);
    assert_eq!(scene.grid.units, "m");
    assert_eq!((scene.darkness, scene.global_light), (0.75, true));
    let sights: Vec<_> = scene.walls.iter().map(|w| w.sight).collect();
    use SightRestriction::*;
    assert_eq!(sights, vec![None, Limited, Normal, Proximity, Distance]);
    assert_eq!(scene.walls[1].direction, WallDirection::Left);
    assert_eq!(
        (
            scene.walls[2].direction,
            scene.walls[2].door,
            scene.walls[2].door_state
        ),
        (WallDirection::Right, DoorKind::Secret, DoorState::Locked)
    );
    assert_eq!(
        (scene.walls[3].door, scene.walls[3].door_state),
        (DoorKind::Door, DoorState::Open)
    );
    assert_eq!(scene.walls[4].id.as_deref(), Some("w4"));
    let rogue = scene.token("t1").unwrap();
    assert_eq!((rogue.width, rogue.elevation), (2.0, 5.0));
    // Centre: 100 + 2 * 50 / 2, 150 + 2 * 50 / 2.
    assert_eq!(scene.token_center(rogue), p(150.0, 200.0).at(5.0));
    assert_eq!(
        (
            scene.lights[0].dim,
            scene.lights[0].bright,
            scene.lights[0].darkness
        ),
        (30.0, 15.0, false)
    );
    assert!(scene.lights[1].darkness && scene.lights[1].hidden);
    // 100 px at 1.5 m per 50 px.
    assert_eq!(scene.distance(p(0.0, 0.0), p(60.0, 80.0)), 3.0);
}

#[test]
fn legacy_codes_in_a_sight_field_and_0_7_sense_codes_are_read() {
    let legacy = Scene::from_value(json!({
        "grid": 100, "gridDistance": 5, "gridUnits": "ft",
        "walls": [{"c": [0, 0, 1, 1], "sense": 2}, {"c": [0, 0, 1, 1], "sense": 1}, {"c": [0, 0, 1, 1], "sense": 0}],
    }))
    .unwrap();
    assert_eq!(legacy.layout, SceneLayout::V07);
    use SightRestriction::*;
    assert_eq!(
        legacy.walls.iter().map(|w| w.sight).collect::<Vec<_>>(),
        vec![Limited, Normal, None]
    );
    let coded = Scene::from_value(json!({
        "grid": 100, "walls": [{"c": [0, 0, 1, 1], "sight": 2}, {"c": [0, 0, 1, 1], "sight": 1}],
    }))
    .unwrap();
    assert_eq!(coded.layout, SceneLayout::V08);
    assert_eq!(
        coded.walls.iter().map(|w| w.sight).collect::<Vec<_>>(),
        vec![Limited, Normal]
    );
    // Two 0.7 limited walls block like two v10 limited walls.
    let two = Scene::from_value(json!({
        "grid": 100,
        "walls": [{"c": [50, 0, 50, 200], "sense": 2}, {"c": [150, 0, 150, 200], "sense": 2}],
    }))
    .unwrap();
    assert_eq!(both_ways(&two, WEST, EAST), (false, false));
}

#[test]
fn missing_optional_fields_take_foundry_defaults() {
    let scene = Scene::from_value(json!({
        "walls": [{"c": [0, 0, 10, 0]}],
        "tokens": [{"id": "a", "x": 0, "y": 0}],
    }))
    .unwrap();
    assert_eq!(
        (
            scene.grid.size,
            scene.grid.distance,
            scene.grid.units.as_str()
        ),
        (100.0, 1.0, "")
    );
    let wall = &scene.walls[0];
    assert_eq!(
        (
            wall.sight,
            wall.door,
            wall.door_state,
            wall.direction,
            wall.height
        ),
        (
            SightRestriction::Normal,
            DoorKind::None,
            DoorState::Closed,
            WallDirection::Both,
            None
        )
    );
    let token = &scene.tokens[0];
    assert_eq!(
        (token.width, token.height, token.elevation),
        (1.0, 1.0, 0.0)
    );
    assert_eq!((scene.darkness, scene.global_light), (0.0, false));
}

#[test]
fn the_0_8_fixture_nort_gate_is_read() {
    let scene = Scene::from_value(fixture("scene-ocd-nort-gate.json")).unwrap();
    assert_eq!(scene.layout, SceneLayout::V08);
    assert_eq!(scene.id.as_deref(), Some("emEWRUvQRVAolFwY"));
    assert_eq!(
        (
            scene.grid.size,
            scene.grid.distance,
            scene.grid.units.as_str()
        ),
        (100.0, 5.0, "ft")
    );
    assert_eq!(scene.walls.len(), 443);
    let count = |f: &dyn Fn(&Wall) -> bool| scene.walls.iter().filter(|w| f(w)).count();
    assert_eq!(count(&|w| w.sight == SightRestriction::None), 77);
    assert_eq!(count(&|w| w.door == DoorKind::Door), 52);
    assert_eq!(count(&|w| w.door_state == DoorState::Open), 4);
    assert_eq!(count(&|w| w.height.is_some()), 443);
    assert!(scene.tokens.is_empty() && scene.lights.is_empty());
    assert_eq!((scene.darkness, scene.global_light), (0.0, true));
}

#[test]
fn the_0_7_fixture_warning_sign_is_read() {
    let scene = Scene::from_value(fixture("scene-zahi-oota-warning-sign.json")).unwrap();
    assert_eq!(scene.layout, SceneLayout::V07);
    assert_eq!(
        (
            scene.grid.size,
            scene.grid.distance,
            scene.grid.units.as_str()
        ),
        (128.0, 5.0, "ft")
    );
    assert_eq!(scene.walls.len(), 379);
    let limited = scene
        .walls
        .iter()
        .filter(|w| w.sight == SightRestriction::Limited)
        .count();
    assert_eq!(limited, 21);
    assert!(scene
        .walls
        .iter()
        .all(|w| w.direction == WallDirection::Both && w.door == DoorKind::None));
    assert_eq!(scene.tokens.len(), 1);
    let beiro = &scene.tokens[0];
    assert_eq!(
        (beiro.id.as_str(), beiro.name.as_deref()),
        ("cal7lKu9XSoa4Giw", Some("Beiro"))
    );
    // (1024 + 128 / 2, 1920 + 128 / 2)
    assert_eq!(scene.token_center(beiro), p(1088.0, 1984.0));
    assert_eq!(scene.lights.len(), 45);
    assert_eq!(
        (
            scene.lights[0].x,
            scene.lights[0].dim,
            scene.lights[0].bright
        ),
        (284.0, 2.5, 1.0)
    );
    assert_eq!((scene.darkness, scene.global_light), (1.0, false));
}

#[test]
fn a_normalized_scene_reads_back_unchanged() {
    for name in [
        "scene-ocd-nort-gate.json",
        "scene-zahi-oota-warning-sign.json",
    ] {
        let normalized = api::parse_scene::<Value>(fixture(name)).unwrap();
        assert_eq!(normalized["furtiveScene"], 1);
        assert_eq!(
            api::parse_scene::<Value>(normalized.clone()).unwrap(),
            normalized,
            "{name}"
        );
    }
}

// ------------------------------------------------------------- malformed input

#[test]
fn malformed_walls_are_refused_naming_the_field() {
    let walls = |wall: Value| {
        let mut walls = vec![json!({"c": [0, 0, 1, 1]}); 13];
        walls[12] = wall;
        json!({"grid": 100, "walls": walls})
    };
    let cases = [
        (json!({"c": [0, 0, 1]}), "walls[12].c"),
        (json!({"c": [0, 0, 1, 1, 2]}), "walls[12].c"),
        (json!({"c": "0,0,1,1"}), "walls[12].c"),
        (json!({}), "walls[12].c"),
        (json!({"c": [0, 0, "1", 1]}), "walls[12].c[2]"),
        (json!({"c": [0, 0, null, 1]}), "walls[12].c[2]"),
        (json!({"c": [0, 0, 1, 1], "sight": 15}), "walls[12].sight"),
        (
            json!({"c": [0, 0, 1, 1], "sight": "normal"}),
            "walls[12].sight",
        ),
        (json!({"c": [0, 0, 1, 1], "sense": 3}), "walls[12].sense"),
        (json!({"c": [0, 0, 1, 1], "door": 3}), "walls[12].door"),
        (json!({"c": [0, 0, 1, 1], "ds": 1.5}), "walls[12].ds"),
        (json!({"c": [0, 0, 1, 1], "dir": -1}), "walls[12].dir"),
        (json!({"c": [0, 0, 1, 1], "_id": 7}), "walls[12]._id"),
        (
            json!({"c": [0, 0, 1, 1], "flags": {"wall-height": {"top": "9"}}}),
            "walls[12].flags.wall-height.top",
        ),
        (
            json!({"c": [0, 0, 1, 1], "flags": {"wall-height": {"bottom": 9, "top": 0}}}),
            "walls[12].height",
        ),
        (json!([0, 0, 1, 1]), "walls[12]"),
    ];
    for (wall, field) in cases {
        let (got, message) = scene_error(walls(wall.clone()));
        assert_eq!(got, field, "{wall} -> {message}");
    }
}

#[test]
fn malformed_scene_fields_are_refused_naming_the_field() {
    let cases = [
        (json!([]), "scene"),
        (json!({"walls": {}}), "walls"),
        (json!({"tokens": "none"}), "tokens"),
        (json!({"grid": "100"}), "grid"),
        (json!({"grid": 0}), "grid.size"),
        (json!({"grid": {"size": -50}}), "grid.size"),
        (
            json!({"grid": {"size": 100, "distance": 0}}),
            "grid.distance",
        ),
        (json!({"grid": 100, "gridDistance": "5"}), "gridDistance"),
        (json!({"grid": {"size": 100, "type": 9}}), "grid.type"),
        (json!({"darkness": 2}), "darkness"),
        (
            json!({"environment": {"darknessLevel": -0.5}}),
            "environment.darknessLevel",
        ),
        (json!({"globalLight": 1}), "globalLight"),
        (
            json!({"tokens": [{"_id": "a", "x": 0, "y": 0, "width": 0}]}),
            "tokens[0].width",
        ),
        (json!({"tokens": [{"_id": "a", "y": 0}]}), "tokens[0].x"),
        (json!({"tokens": [{"x": 0, "y": 0}]}), "tokens[0]._id"),
        (
            json!({"tokens": [{"_id": "a", "x": 0, "y": 0, "elevation": true}]}),
            "tokens[0].elevation",
        ),
        (
            json!({"lights": [{"y": 0, "config": {"dim": 1}}]}),
            "lights[0].x",
        ),
        (
            json!({"lights": [{"x": 0, "y": 0, "config": {"dim": "far"}}]}),
            "lights[0].config.dim",
        ),
        (
            json!({"furtiveScene": 2, "layout": "v10", "grid": {"size": 100, "distance": 1}}),
            "furtiveScene",
        ),
        (
            json!({"furtiveScene": 1, "layout": "v10", "grid": {"size": 100, "distance": 1},
                   "walls": [{"c": [0, 0, 1, 1], "sight": "opaque", "door": "none",
                              "doorState": "closed", "direction": "both"}]}),
            "walls[0].sight",
        ),
        (
            json!({"furtiveScene": 1, "layout": "v10", "grid": {"size": 100, "distance": 1}, "colour": 1}),
            "colour",
        ),
    ];
    for (mut value, field) in cases {
        // A Foundry export always carries `walls`; the cases above test other fields.
        if value.is_object() && value.get("furtiveScene").is_none() && value.get("walls").is_none()
        {
            value["walls"] = json!([]);
        }
        let (got, message) = scene_error(value.clone());
        assert_eq!(got, field, "{value} -> {message}");
    }
    // An object without `walls` is not a Scene export.
    let (got, _) = scene_error(json!({"name": "not a scene"}));
    assert_eq!(got, "walls");
}

#[test]
fn duplicate_token_ids_are_refused() {
    let error = Scene::from_value(json!({
        "walls": [],
        "tokens": [{"_id": "a", "x": 0, "y": 0}, {"_id": "a", "x": 1, "y": 1}]
    }))
    .unwrap_err();
    assert_eq!(error.code(), "duplicate_token");
    assert!(error.to_string().starts_with("tokens[1].id"), "{error}");
}

#[test]
fn non_finite_numbers_in_a_scene_built_in_rust_are_refused() {
    // JSON cannot carry NaN or infinity; a scene built or edited in Rust can.
    let mut scene = scene(json!([{"c": SPLIT}]));
    scene.walls[0].c[2] = f64::NAN;
    assert!(
        matches!(scene.validate(), Err(Error::InvalidScene { field, .. }) if field == "walls[0].c")
    );
    let mut scene = self::scene(json!([]));
    scene.tokens.push(token("a", f64::INFINITY, 0.0));
    assert!(
        matches!(scene.validate(), Err(Error::InvalidScene { field, .. }) if field == "tokens[0].x")
    );
    let mut scene = self::scene(json!([]));
    scene.grid.size = f64::NAN;
    assert!(
        matches!(scene.validate(), Err(Error::InvalidScene { field, .. }) if field == "grid.size")
    );
}

/// Sight codes for generated walls: limited twice as likely, to get pairs;
/// proximity and distance walls get random thresholds.
const SIGHT_CODES: [u8; 6] = [0, 10, 20, 10, 30, 40];

fn arbitrary_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i32>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        Just(json!(10)),
        Just(json!(20)),
        "[a-z]{0,3}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::from),
            prop::collection::btree_map(
                prop_oneof![
                    Just("c".to_owned()),
                    Just("sight".to_owned()),
                    Just("sense".to_owned()),
                    Just("door".to_owned()),
                    Just("ds".to_owned()),
                    Just("dir".to_owned()),
                    Just("x".to_owned()),
                    Just("y".to_owned()),
                    Just("_id".to_owned()),
                    Just("size".to_owned()),
                    Just("flags".to_owned()),
                    Just("wall-height".to_owned()),
                    Just("config".to_owned()),
                    prop::sample::select(vec![
                        "wallHeight",
                        "wallHeightTop",
                        "threshold",
                        "light",
                        "levels",
                        "rangeBottom",
                        "width",
                        "height",
                        "rotation",
                        "angle",
                        "dim",
                        "negative",
                        "darkness",
                        "wallId",
                        "tokenId",
                        "lightId",
                        "state",
                        "hidden",
                        "darkvision",
                        "elevation",
                        "wall",
                        "token",
                        "walls",
                        "darknessThreshold",
                        "dimSight",
                    ])
                    .prop_map(str::to_owned),
                ],
                inner,
                0..5,
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    /// Updates through a [`SceneSight`] answer like a handle built fresh
    /// from the updated scene: door toggles, token moves, walls added and
    /// removed, lights toggled and moved, the darkness level.
    #[test]
    fn handle_updates_match_a_fresh_handle(
        steps in prop::collection::vec((0u8..7, 0i32..9, 0i32..9, 0u8..4), 1..12),
    ) {
        let scene = Scene::from_value(json!({
            "grid": {"size": 100, "distance": 5, "units": "ft"},
            "darkness": 0.6, "globalLight": true, "globalLightThreshold": 0.5,
            "walls": [
                {"_id": "d0", "c": [200, 0, 200, 400], "door": 1},
                {"_id": "d1", "c": [0, 200, 400, 200], "door": 2, "ds": 1, "sight": 10},
                {"_id": "w0", "c": [100, 100, 300, 300], "light": 0},
                {"_id": "w1", "c": [0, 300, 400, 0], "flags": {"wall-height": {"bottom": 5, "top": 12}}},
            ],
            "tiles": [{"x": 150, "y": 0, "width": 200, "height": 400, "flags": {"levels": {"rangeBottom": 10}}}],
            "lights": [{"_id": "l0", "x": 100, "y": 100, "config": {"dim": 10}},
                       {"_id": "l1", "x": 300, "y": 300, "config": {"dim": 5, "negative": true}}],
            "tokens": [
                {"_id": "t0", "x": 0, "y": 0, "light": {"dim": 5}},
                {"_id": "t1", "x": 300, "y": 300, "darkvision": 10},
                {"_id": "t2", "x": 300, "y": 0}, {"_id": "t3", "x": 0, "y": 300, "elevation": 10},
            ],
        }))
        .unwrap();
        let mut sight = SceneSight::new(scene);
        let mut added = 0;
        for &(kind, x, y, which) in &steps {
            let (x, y) = (f64::from(x) * 50.0, f64::from(y) * 50.0);
            let update = match kind {
                0 => json!({"type": "door", "wallId": format!("d{}", which % 2), "state": which % 3}),
                1 => json!({"type": "tokenMoved", "tokenId": format!("t{which}"), "x": x, "y": y,
                            "elevation": f64::from(y as i32 % 4) * 5.0}),
                2 => {
                    added += 1;
                    json!({"type": "wall", "wall": {"_id": format!("n{added}"), "c": [x, y, y, x], "sight": 20}})
                }
                3 => json!({"type": "wallRemoved", "wallId": "w0"}),
                4 => json!({"type": "lightHidden", "lightId": format!("l{}", which % 2), "hidden": which >= 2}),
                5 => json!({"type": "light", "light": {"_id": "l0", "x": x, "y": y, "config": {"dim": 10}}}),
                _ => json!({"type": "darkness", "darkness": f64::from(which) / 4.0}),
            };
            // Removing w0 twice is refused; either way the handle stays consistent.
            let _ = sight.update_json(update);
            let matrix = sight.clear_view_matrix();
            let mut fresh = SceneSight::new(sight.scene().clone());
            prop_assert_eq!(&matrix, &fresh.clear_view_matrix());
            prop_assert_eq!(sight.clear_view_from("t1").unwrap().clear_view, matrix.clear_view[1].clone());
            // A point query between two tokens' elevations, on the index as it stands.
            let answer = sight.answer(&serde_json::from_value(json!({
                "from": {"tokenId": "t0"}, "to": {"x": x, "y": y, "elevation": f64::from(which % 3) * 5.0}}))
                .unwrap()).unwrap();
            let expected = SceneSight::new(sight.scene().clone()).answer(&serde_json::from_value(json!({
                "from": {"tokenId": "t0"}, "to": {"x": x, "y": y, "elevation": f64::from(which % 3) * 5.0}}))
                .unwrap()).unwrap();
            prop_assert_eq!(answer, expected);

        }
    }

    /// Whatever an update holds, the handle answers Ok or an error; it never panics.
    #[test]
    fn handle_updates_never_panic(update in arbitrary_json(), kind in 0usize..12) {
        let kinds = ["door", "wall", "wallRemoved", "token", "tokenMoved", "tokenRemoved",
                     "darkvision", "light", "lightRemoved", "lightHidden", "darkness", "other"];
        let mut sight = SceneSight::new(lit_scene(json!({"tokens": [one_token("a", 0.0, 0.0, 0.0)]})));
        let mut value = json!({"type": kinds[kind]});
        if let Value::Object(fields) = &update {
            for (key, field) in fields {
                value[key] = field.clone();
            }
        }
        for candidate in [update, value] {
            if let Err(error) = sight.update_json(candidate) {
                prop_assert!(matches!(error.code(), "invalid_input" | "unknown_token"), "{error}");
            }
            let _ = sight.clear_view_matrix();
        }
    }

    /// Whatever the scene JSON holds, parsing answers Ok or an error; it never panics.
    #[test]
    fn scene_parsing_never_panics(
        grid in arbitrary_json(),
        walls in prop::collection::vec(arbitrary_json(), 0..4),
        tokens in prop::collection::vec(arbitrary_json(), 0..3),
        lights in prop::collection::vec(arbitrary_json(), 0..3),
        tiles in prop::collection::vec(arbitrary_json(), 0..3),
        drawings in prop::collection::vec(arbitrary_json(), 0..3),
    ) {
        let value = json!({"grid": grid, "walls": walls, "tokens": tokens, "lights": lights,
                           "tiles": tiles, "drawings": drawings});
        match Scene::from_value(value) {
            Err(error) => {
                prop_assert!(matches!(error.code(), "invalid_scene" | "duplicate_token"), "{error}");
            }
            // Whatever was read, the questions answer without panicking.
            Ok(scene) => {
                let mut sight = SceneSight::new(scene.clone());
                let matrix = sight.clear_view_matrix();
                prop_assert_eq!(matrix.ids.len(), scene.tokens.len());
                let _ = sight.lighting_at(p(1.0, 2.0).at(3.0));
                let _ = scene.clear_view_matrix(&scene.tokens);
            }
        }
    }

    /// The indexed matrix agrees with the brute-force sight line on small
    /// integer maps, where touching, collinear and joint cases are common.
    #[test]
    fn the_indexed_matrix_matches_brute_force(
        walls in prop::collection::vec(
            ((0i32..9, 0i32..9, 0i32..9, 0i32..9), 0usize..6, 0u8..3, 0u8..3, 0u8..3),
            0..14,
        ),
        points in prop::collection::vec((0i32..17, 0i32..17, 0u8..3), 2..7),
        tiles in prop::collection::vec((0i32..9, 0i32..9, 0i32..9, 0i32..9, 0u8..3), 0..3),
    ) {
        let walls: Vec<Value> = walls
            .iter()
            .map(|&((x0, y0, x1, y1), sight, door, dir, floor)| {
                let mut wall = json!({
                    "c": [x0 * 50, y0 * 50, x1 * 50, y1 * 50],
                    "sight": SIGHT_CODES[sight],
                    "door": u8::from(door == 2),
                    "ds": u8::from(door == 1),
                    "dir": dir,
                });
                // Floor 0: no height; floors 1 and 2: Wall Height 0..9 and
                // 10..19, or 0..5 and 3..25 (lines pass above and below).
                if floor > 0 {
                    let (bottom, top) = match (floor, x0 % 2) {
                        (1, 0) => (0, 9),
                        (_, 0) => (10, 19),
                        (1, _) => (0, 5),
                        _ => (3, 25),
                    };
                    wall["flags"] = json!({"wall-height": {"bottom": bottom, "top": top}});
                }
                // Proximity and distance walls get a threshold of 0, 5 or 10 ft.
                wall["threshold"] = json!({"sight": (y1 % 3) * 5});
                wall
            })
            .collect();
        // A Levels hole: a triangle over part of the map, for floors at 5 ft.
        let holes: Vec<Value> = tiles
            .iter()
            .take(1)
            .map(|&(x, y, w, h, _)| json!({
                "x": 0, "y": 0, "shape": {"type": "p", "points": [x * 50, y * 50, w * 50, h * 50, x * 50, h * 50]},
                "flags": {"levels": {"drawingMode": 1, "rangeBottom": 0, "rangeTop": 5}},
            }))
            .collect();
        // Levels floors at 5 or 10 ft (tokens stand at 0, 10 and 20).
        let tiles: Vec<Value> = tiles
            .iter()
            .map(|&(x, y, w, h, level)| json!({
                "x": x * 50 - 50, "y": y * 50 - 50, "width": w * 50, "height": h * 50,
                "flags": {"levels": {"rangeBottom": 5 + 5 * i32::from(level % 2), "rangeTop": 30}},
            }))
            .collect();
        let scene = Scene::from_value(json!({
            "grid": {"size": 100, "distance": 5, "units": "ft"},
            "globalLight": true,
            "walls": walls,
            "tiles": tiles,
            "drawings": holes,
        }))
        .unwrap();
        // Token centres land on multiples of 25 px, half of them on wall
        // lines, at elevations 0, 10 or 20.
        let tokens: Vec<Token> = points
            .iter()
            .enumerate()
            .map(|(i, &(x, y, level))| Token {
                elevation: f64::from(level) * 10.0,
                ..token(&format!("t{i}"), f64::from(x) * 25.0 - 50.0, f64::from(y) * 25.0 - 50.0)
            })
            .collect();
        let matrix = scene.clear_view_matrix(&tokens);
        for (i, a) in tokens.iter().enumerate() {
            for (j, b) in tokens.iter().enumerate() {
                let expected = scene.has_clear_view(scene.token_center(a), scene.token_center(b));
                prop_assert_eq!(matrix.clear_view[i][j], expected, "{} -> {}", i, j);
            }
        }
    }
}

// ------------------------------------------------------------- JSON facade

fn warning_sign() -> Value {
    fixture("scene-zahi-oota-warning-sign.json")
}

#[test]
fn clear_view_answers_with_the_deciding_walls() {
    let answer = api::clear_view::<Value>(
        warning_sign(),
        json!({"from": {"tokenId": "cal7lKu9XSoa4Giw"}, "to": {"x": 1827, "y": 2250}}),
    )
    .unwrap();
    assert_eq!(answer["clearView"], false);
    assert_eq!(
        answer["from"],
        json!({"x": 1088.0, "y": 1984.0, "elevation": 0.0})
    );
    assert_eq!(answer["units"], "ft");
    assert_eq!(answer["blockingWalls"], json!([]));
    assert_eq!(
        answer["limitedWalls"],
        json!([{"index": 358, "id": "gkjnl5lUmwIUqsYO"}, {"index": 364, "id": "qcnu2Q7SJaIqtAcr"}])
    );
}

#[test]
fn clear_view_takes_token_placements() {
    // A 1x1 placement at (1472, 2086) has its centre at (1536, 2150), inside
    // the limited-wall ring; only the ring's wall 358 lies between.
    // The cave is dark (darkness 1, no global light) and no light reaches
    // Beiro: the placement sees Beiro only with darkvision reaching the
    // 22.6 ft between them (B5).
    let answer = api::clear_view::<Value>(
        warning_sign(),
        json!({"from": {"token": {"x": 1472, "y": 2086}}, "to": {"tokenId": "cal7lKu9XSoa4Giw"},
               "darkvision": 60}),
    )
    .unwrap();
    assert_eq!(
        answer["to"],
        json!({"x": 1088.0, "y": 1984.0, "elevation": 0.0})
    );
    assert_eq!(answer["clearView"], true);
    assert_eq!(answer["sightLine"], true);
    assert_eq!(
        answer["targetLighting"],
        json!({"dark": true, "by": "noLight"})
    );
    let without = api::clear_view::<Value>(
        warning_sign(),
        json!({"from": {"token": {"x": 1472, "y": 2086}}, "to": {"tokenId": "cal7lKu9XSoa4Giw"}}),
    )
    .unwrap();
    assert_eq!(
        (without["clearView"].clone(), without["sightLine"].clone()),
        (json!(false), json!(true))
    );
    assert_eq!(
        answer["limitedWalls"],
        json!([{"index": 358, "id": "gkjnl5lUmwIUqsYO"}])
    );
}

#[test]
fn clear_view_accepts_a_normalized_scene() {
    let normalized = api::parse_scene::<Value>(warning_sign()).unwrap();
    let query = json!({"from": {"tokenId": "cal7lKu9XSoa4Giw"}, "to": {"x": 1827, "y": 2250}});
    assert_eq!(
        api::clear_view::<Value>(normalized, query.clone()).unwrap(),
        api::clear_view::<Value>(warning_sign(), query).unwrap()
    );
}

#[test]
fn clear_view_refuses_bad_queries() {
    let error = api::clear_view::<Value>(
        warning_sign(),
        json!({"from": {"tokenId": "nobody"}, "to": {"x": 0, "y": 0}}),
    )
    .unwrap_err();
    assert_eq!(error.code(), "unknown_token");
    assert!(
        error.to_string().starts_with("query.from.tokenId"),
        "{error}"
    );

    for (query, field) in [
        (
            json!({"from": {"x": 0}, "to": {"x": 0, "y": 0}}),
            "query.from",
        ),
        (
            json!({"from": {"x": 0, "y": 0}, "to": {"x": 0, "y": 0, "width": 1}}),
            "query.to",
        ),
        (
            json!({"from": "cal7lKu9XSoa4Giw", "to": {"x": 0, "y": 0}}),
            "query.from",
        ),
        (json!({"from": {"x": 0, "y": 0}}), "query"),
    ] {
        let error = api::clear_view::<Value>(warning_sign(), query.clone()).unwrap_err();
        assert_eq!(error.code(), "invalid_input", "{query}");
        assert!(error.to_string().starts_with(field), "{query}: {error}");
    }
    let error = api::clear_view::<Value>(
        warning_sign(),
        json!({"from": {"token": {"x": 0, "y": 0, "width": -1}}, "to": {"x": 0, "y": 0}}),
    )
    .unwrap_err();
    assert_eq!(error.code(), "invalid_input");
    assert!(
        error.to_string().starts_with("query.from.token.width"),
        "{error}"
    );

    let error =
        api::clear_view::<Value>(json!({"walls": [{"c": [1, 2, 3]}]}), json!({})).unwrap_err();
    assert_eq!(error.code(), "invalid_scene");
    assert!(error.to_string().starts_with("walls[0].c:"), "{error}");
}

#[test]
fn clear_view_matrix_uses_the_scene_tokens_when_none_are_given() {
    let matrix = api::clear_view_matrix::<Value>(warning_sign(), Value::Null).unwrap();
    assert_eq!(
        matrix,
        json!({"ids": ["cal7lKu9XSoa4Giw"], "clearView": [[true]], "distance": [[0.0]],
               "inDarkness": [true], "units": "ft"})
    );
}

#[test]
fn clear_view_matrix_takes_placements() {
    // Beiro's square, a square 2 grid spaces east of it (centre (1344, 1984),
    // open cave floor), and a 2x2 token whose centre (1536, 2150) is inside
    // the limited ring: Beiro and the east token each cross one ring wall.
    // The cave is dark: with 60 ft of darkvision each, they see each other.
    let matrix = api::clear_view_matrix::<Value>(
        warning_sign(),
        json!([
            {"id": "beiro", "x": 1024, "y": 1920, "darkvision": 60},
            {"id": "east", "x": 1280, "y": 1920, "elevation": 0, "darkvision": 60},
            {"id": "ring", "x": 1408, "y": 2022, "width": 2, "height": 2, "darkvision": 60},
        ]),
    )
    .unwrap();
    assert_eq!(matrix["inDarkness"], json!([true, true, true]));
    assert_eq!(matrix["ids"], json!(["beiro", "east", "ring"]));
    assert_eq!(
        matrix["clearView"],
        json!([[true, true, true], [true, true, true], [true, true, true]])
    );
    // 256 px at 5 ft per 128 px.
    assert_eq!(matrix["distance"][0][1], 10.0);
    assert_eq!(matrix["distance"][1][0], 10.0);
}

#[test]
fn clear_view_matrix_refuses_bad_tokens() {
    let error = api::clear_view_matrix::<Value>(
        warning_sign(),
        json!([{"id": "a", "x": 0, "y": 0}, {"id": "a", "x": 5, "y": 5}]),
    )
    .unwrap_err();
    assert_eq!(error.code(), "duplicate_token");
    assert!(error.to_string().starts_with("tokens[1].id"), "{error}");
    let error = api::clear_view_matrix::<Value>(
        warning_sign(),
        json!([{"id": "a", "x": 0, "y": 0, "height": 0}]),
    )
    .unwrap_err();
    assert_eq!(error.code(), "invalid_input");
    assert!(error.to_string().starts_with("tokens[0].height"), "{error}");
    let error =
        api::clear_view_matrix::<Value>(warning_sign(), json!([{"x": 0, "y": 0}])).unwrap_err();
    assert_eq!(error.code(), "invalid_input");
    assert!(error.to_string().starts_with("tokens[0]"), "{error}");
}

// ------------------------------------------------- real scenes, worked by hand

/// Nort Gate, ground floor (tokens at elevation 0: only walls with
/// wall-height 0..9 count). Tokens are 1x1, grid 100 px = 5 ft.
fn nort_gate_view(from: (f64, f64), to: (f64, f64), elevation: f64) -> Value {
    api::clear_view::<Value>(
        fixture("scene-ocd-nort-gate.json"),
        json!({
            "from": {"x": from.0, "y": from.1, "elevation": elevation},
            "to": {"x": to.0, "y": to.1, "elevation": elevation},
        }),
    )
    .unwrap()
}

fn ids(answer: &Value, key: &str) -> Vec<String> {
    answer[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|wall| wall["id"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn nort_gate_an_open_door_lets_sight_through() {
    // (850, 1900) -> (1050, 1900) crosses x = 950 at y = 1900, inside door
    // kv3XzwiLDsuIK61t (950,1850)-(950,1950), door 1 ds 1 (open). No other
    // ground-floor wall lies on y = 1900 between x 850 and 1050.
    let answer = nort_gate_view((850.0, 1900.0), (1050.0, 1900.0), 0.0);
    assert_eq!(answer["clearView"], true);
    assert_eq!(answer["distance"], 10.0);
    assert!(ids(&answer, "blockingWalls").is_empty());
}

#[test]
fn nort_gate_a_closed_door_blocks() {
    // (750, 850) -> (750, 950) crosses y = 900 at x = 750, inside door
    // YRf3yTCjvueIF7tW (700,900)-(800,900), door 1 ds 0 (closed).
    let answer = nort_gate_view((750.0, 850.0), (750.0, 950.0), 0.0);
    assert_eq!(answer["clearView"], false);
    assert_eq!(ids(&answer, "blockingWalls"), ["YRf3yTCjvueIF7tW"]);
}

#[test]
fn nort_gate_a_sight_none_wall_is_a_window() {
    // (450, 600) outside -> (550, 600) inside crosses x = 500 at y = 600,
    // inside sVZfHGsxhHyZH0on (500,637)-(500,562): sight 0, move 20.
    let answer = nort_gate_view((450.0, 600.0), (550.0, 600.0), 0.0);
    assert_eq!(answer["clearView"], true);
}

#[test]
fn nort_gate_a_normal_wall_blocks() {
    // (850, 700) -> (950, 700) crosses CHXgpSRfPw1bpRHX (900,500)-(900,900).
    let answer = nort_gate_view((850.0, 700.0), (950.0, 700.0), 0.0);
    assert_eq!(ids(&answer, "blockingWalls"), ["CHXgpSRfPw1bpRHX"]);
}

#[test]
fn nort_gate_a_diagonal_through_a_wall_junction_is_blocked() {
    // (850, 850) -> (950, 950) passes exactly through (900, 900), where
    // CHXgpSRfPw1bpRHX comes down from (900,500), dSStAgxFJRVue5Vx comes from
    // (800,900) and C4DokRNTyEiOFsJF leaves to (1200,900). The first and
    // last lie right of the line (x > y), the second left: the line passes
    // between them. Shifted right, it crosses the two on the right.
    for (from, to) in [
        ((850.0, 850.0), (950.0, 950.0)),
        ((950.0, 950.0), (850.0, 850.0)),
    ] {
        let answer = nort_gate_view(from, to, 0.0);
        assert_eq!(answer["clearView"], false);
        assert_eq!(
            ids(&answer, "blockingWalls"),
            ["CHXgpSRfPw1bpRHX", "C4DokRNTyEiOFsJF"]
        );
    }
}

#[test]
fn nort_gate_grazing_a_corner_depends_on_the_side_of_the_corner() {
    // Corner (1300, 800): Pbelwqu6OMRlIkxv goes west to (1200,800) and
    // xNAyFj9vykbvtc3N goes diagonally to (1400,900). The line (1220,760)-(1500,900),
    // slope 1/2, touches the corner with both walls below it (larger y);
    // shifted right (= up for this slope) it misses both: clear.
    let answer = nort_gate_view((1220.0, 760.0), (1500.0, 900.0), 0.0);
    assert_eq!(answer["clearView"], true);
    // Corner (1500, 1300): door hRpqWpDwMVoRHSdt comes from (1400,1200),
    // 6W9RCc7RJxTqyZpm leaves east to (1600,1300). The line
    // (1300,1200)-(1580,1340), slope 1/2, touches the corner with both walls
    // above it: shifted up, it crosses both.
    let answer = nort_gate_view((1300.0, 1200.0), (1580.0, 1340.0), 0.0);
    assert_eq!(answer["clearView"], false);
    assert_eq!(
        ids(&answer, "blockingWalls"),
        ["6W9RCc7RJxTqyZpm", "hRpqWpDwMVoRHSdt"]
    );
}

#[test]
fn nort_gate_walls_of_other_floors_count_only_at_their_elevations() {
    // (1250, 1950) -> (1250, 2050) crosses y = 2000, where first-floor wall
    // fbwT8yY9foEDxtdH (950,2000)-(1600,2000) has wall-height 10..19; no
    // ground-floor wall lies there, and the second floor's
    // UBuCauwj0fE0sWYL on the same line has sight 0.
    let view = |elevation| nort_gate_view((1250.0, 1950.0), (1250.0, 2050.0), elevation);
    assert_eq!(view(0.0)["clearView"], true);
    let first_floor = view(10.0);
    assert_eq!(first_floor["clearView"], false);
    assert_eq!(ids(&first_floor, "blockingWalls"), ["fbwT8yY9foEDxtdH"]);
    assert_eq!(view(20.0)["clearView"], true);
}

#[test]
fn warning_sign_limited_rings_block_only_when_crossed_through() {
    let scene = Scene::from_value(warning_sign()).unwrap();
    let beiro = scene.token_center(scene.token("cal7lKu9XSoa4Giw").unwrap());
    let line = |from: Point, to: Point| {
        let line = scene.sight_line(from, to);
        let id = |i: &usize| scene.walls[*i].id.clone().unwrap();
        (
            line.clear(),
            line.blocking.iter().map(id).collect::<Vec<_>>(),
            line.limited.iter().map(id).collect::<Vec<_>>(),
        )
    };
    // Beiro (1088,1984) -> (1827,2250) goes through the limited ring near
    // (1550,2150): in through gkjnl5lUmwIUqsYO (1496,2096)-(1472,2128) at
    // (1475.4,2123.4), out through qcnu2Q7SJaIqtAcr (1616,2224)-(1616,2144)
    // at (1616,2174.1). Two limited walls: blocked.
    assert_eq!(
        line(beiro, p(1827.0, 2250.0)),
        (
            false,
            vec![],
            vec!["gkjnl5lUmwIUqsYO".into(), "qcnu2Q7SJaIqtAcr".into()]
        )
    );
    // To the ring's centre (1550,2150): only gkjnl5lUmwIUqsYO: clear, both ways.
    let centre = p(1550.0, 2150.0);
    assert_eq!(
        line(beiro, centre),
        (true, vec![], vec!["gkjnl5lUmwIUqsYO".into()])
    );
    assert!(line(centre, beiro).0);
    // Through the western ring near (840,1150): (600,1150) -> (1000,1150)
    // crosses Ffo3SUYVT6goZeI1 (744,1120)-(752,1184) at x 747.8 and
    // syb2Pd41GnP8CVyN (920,1176)-(936,1112) at x 926.5: blocked.
    assert_eq!(
        line(p(600.0, 1150.0), p(1000.0, 1150.0)),
        (
            false,
            vec![],
            vec!["Ffo3SUYVT6goZeI1".into(), "syb2Pd41GnP8CVyN".into()]
        )
    );
    // Beiro -> (1500,1800) over open cave floor: nothing in between.
    assert_eq!(line(beiro, p(1500.0, 1800.0)), (true, vec![], vec![]));
}

#[test]
fn warning_sign_a_line_through_a_rock_outline_joint_is_blocked_once() {
    // Beiro (1088,1984) -> (1472,1408), direction 128 * (3, -4.5), passes
    // exactly through (1344,1600) = Beiro + 128 * (2, -3): the joint of the
    // rock outline walls 3Tnkl9BagQzWt1W1 (1368,1640)-(1344,1600) and
    // dBgycjulc9fPBrXe (1344,1600)-(1312,1552), which continue on opposite
    // sides of the line. Shifted right, the line crosses only the first
    // (its far end (1368,1640) lies right of the line, where x = 1317.3 at
    // y = 1640). The target is inside the rock.
    let scene = Scene::from_value(warning_sign()).unwrap();
    let line = scene.sight_line(p(1088.0, 1984.0), p(1472.0, 1408.0));
    let blocking: Vec<_> = line
        .blocking
        .iter()
        .map(|&i| scene.walls[i].id.clone().unwrap())
        .collect();
    assert_eq!(blocking, ["3Tnkl9BagQzWt1W1"]);
    assert!(!line.clear());
}

#[test]
fn nort_gate_matrix_matches_single_queries() {
    // Ten tokens on the ground floor around the central hall and rooms.
    let scene = Scene::from_value(fixture("scene-ocd-nort-gate.json")).unwrap();
    let tokens: Vec<Token> = [
        (800.0, 1850.0),
        (1000.0, 1850.0),
        (700.0, 800.0),
        (700.0, 900.0),
        (400.0, 550.0),
        (1200.0, 1900.0),
        (1400.0, 2100.0),
        (600.0, 3000.0),
        (1300.0, 700.0),
        (1450.0, 1100.0),
    ]
    .iter()
    .enumerate()
    .map(|(i, &(x, y))| token(&format!("t{i}"), x, y))
    .collect();
    let matrix = scene.clear_view_matrix(&tokens);
    for (i, a) in tokens.iter().enumerate() {
        for (j, b) in tokens.iter().enumerate() {
            let (a, b) = (scene.token_center(a), scene.token_center(b));
            assert_eq!(
                matrix.clear_view[i][j],
                scene.has_clear_view(a, b),
                "{i} -> {j}"
            );
            assert_eq!(matrix.distance[i][j], scene.distance(a, b));
        }
    }
    // The pair through the open door (t0, t1) sees each other; the pair
    // across the closed door (t2, t3) does not.
    assert!(matrix.clear_view[0][1] && matrix.clear_view[1][0]);
    assert!(!matrix.clear_view[2][3] && !matrix.clear_view[3][2]);
}

// ------------------------------------------------------- light and darkness

/// A 1000 x 1000 px scene, grid 100 px = 5 ft, with these extra fields.
fn lit_scene(extra: Value) -> Scene {
    let mut scene = json!({
        "grid": {"size": 100, "distance": 5, "units": "ft"},
        "walls": [],
    });
    for (key, value) in extra.as_object().unwrap() {
        scene[key] = value.clone();
    }
    Scene::from_value(scene).unwrap()
}

fn one_token(id: &str, x: f64, y: f64, darkvision: f64) -> Value {
    json!({"_id": id, "x": x - 50.0, "y": y - 50.0, "width": 1, "height": 1, "darkvision": darkvision})
}

/// B5: "a hider in darkness (no light reaching its position ...) is not in
/// clear view of an observer whose senses do not see in darkness at that
/// distance". A scene at darkness 1 without global light or lights, an
/// observer at (100, 500) and a hider 40 ft east at (900, 500), no wall.
/// Expected: a sight line, but no clear view without darkvision or with
/// 30 ft of it; clear view with 40 ft (the distance itself) or 60 ft.
#[test]
fn b5_a_hider_in_darkness_is_not_in_clear_view_of_an_observer_without_darkvision() {
    for (darkvision, expected) in [(0.0, false), (30.0, false), (40.0, true), (60.0, true)] {
        let scene = lit_scene(json!({"darkness": 1, "globalLight": false, "tokens": [
            one_token("observer", 100.0, 500.0, darkvision), one_token("hider", 900.0, 500.0, 0.0),
        ]}));
        let mut sight = SceneSight::new(scene.clone());
        let view = sight.view("observer", "hider").unwrap();
        assert_eq!(view.distance, 40.0);
        assert!(view.sight_line && view.target_in_darkness);
        assert_eq!(view.clear_view, expected, "darkvision {darkvision}");
        assert_eq!(
            scene.clear_view_matrix(&scene.tokens).clear_view[0][1],
            expected
        );
    }
}

/// Global illumination per the Foundry docs: v9 to v11 `globalLight` with
/// `globalLightThreshold`, "a darkness level between 0 and 1, beyond which
/// point global illumination is temporarily disabled"; v12+
/// `environment.globalLight.enabled` with its `darkness` range. Expected at
/// darkness 0.5: threshold 0.4 or range max 0.4, dark; threshold 0.6 or no
/// threshold, lit; `globalLight` off, dark.
#[test]
fn b5_global_illumination_lights_every_position_up_to_its_darkness_threshold() {
    let point = p(500.0, 500.0);
    let dark = |extra: Value| {
        let scene = lit_scene(extra);
        SceneSight::new(scene).in_darkness(point)
    };
    assert!(dark(
        json!({"darkness": 0.5, "globalLight": true, "globalLightThreshold": 0.4})
    ));
    assert!(!dark(
        json!({"darkness": 0.5, "globalLight": true, "globalLightThreshold": 0.6})
    ));
    assert!(!dark(
        json!({"darkness": 0.5, "globalLight": true, "globalLightThreshold": null})
    ));
    assert!(dark(json!({"darkness": 0.5, "globalLight": false})));
    assert!(dark(json!({"environment": {"darknessLevel": 0.5,
        "globalLight": {"enabled": true, "darkness": {"min": 0, "max": 0.4}}}})));
    assert!(!dark(json!({"environment": {"darknessLevel": 0.5,
        "globalLight": {"enabled": true, "darkness": {"min": 0, "max": 1}}}})));
}

/// An ambient light lights what lies within its dim radius (scene units,
/// `AmbientLightData`) unless a wall that restricts light stands between.
/// A light at (500, 500) with dim 10 ft (200 px) in a dark scene. Expected:
/// (650, 500), 7.5 ft away: lit by it; (750, 500), 12.5 ft: dark; (650,
/// 500) behind a wall at x = 600: dark; behind a wall that blocks sight but
/// not light (`light: 0`): lit; with the light's `walls: false`: lit.
#[test]
fn b5_an_ambient_light_lights_within_its_radius_unless_a_wall_stops_it() {
    let light = json!({"_id": "torch", "x": 500, "y": 500, "config": {"dim": 10, "bright": 5}});
    let dark_at = |walls: Value, light: Value, x: f64| {
        let scene = lit_scene(json!({"darkness": 1, "walls": walls, "lights": [light]}));
        SceneSight::new(scene).lighting_at(p(x, 500.0))
    };
    let lit = dark_at(json!([]), light.clone(), 650.0);
    assert_eq!(
        serde_json::to_value(&lit).unwrap(),
        json!({"dark": false, "by": "light", "source": {"index": 0, "id": "torch"}})
    );
    assert!(dark_at(json!([]), light.clone(), 750.0).dark);
    let wall = json!([{"c": [600, 0, 600, 1000], "sight": 20, "light": 20}]);
    assert!(dark_at(wall, light.clone(), 650.0).dark);
    let window = json!([{"c": [600, 0, 600, 1000], "sight": 20, "light": 0}]);
    assert!(!dark_at(window, light.clone(), 650.0).dark);
    let mut unbounded = light;
    unbounded["walls"] = json!(false);
    let wall = json!([{"c": [600, 0, 600, 1000]}]);
    assert!(!dark_at(wall, unbounded, 650.0).dark);
}

/// B5: "inside a darkness source" is darkness, whatever other light there
/// is. A scene in broad daylight (global illumination) with a darkness
/// source (v12+ `config.negative`) of 10 ft at (500, 500), a hider at its
/// centre and an observer 20 ft west. Expected: the hider is in darkness;
/// no clear view without darkvision, clear view with 20 ft of it; outside
/// the source (15 ft from it) it is lit.
#[test]
fn b5_inside_a_darkness_source_is_dark() {
    for (darkvision, expected) in [(0.0, false), (20.0, true)] {
        let scene = lit_scene(json!({"globalLight": true, "lights": [
            {"_id": "gloom", "x": 500, "y": 500, "config": {"dim": 10, "negative": true}}],
            "tokens": [one_token("observer", 100.0, 500.0, darkvision), one_token("hider", 500.0, 500.0, 0.0)]}));
        let mut sight = SceneSight::new(scene);
        let lighting = sight.lighting_of("hider").unwrap();
        assert_eq!((lighting.dark, lighting.by), (true, LitBy::DarknessSource));
        assert_eq!(sight.clear_view("observer", "hider").unwrap(), expected);
        assert!(!sight.in_darkness(p(800.0, 500.0)));
    }
}

/// A light is on only at the darkness levels of its activation range
/// (v9+ `config.darkness {min, max}`; v8 `darknessThreshold`, "a value of
/// the Scene darkness level, above which this light source will be
/// active"), and only when not hidden. Expected at darkness 0.3: a light
/// active from 0.5 is off (dark), one active up to 0.4 is on (lit); a v8
/// light with threshold 0.2 is on; a hidden light is off.
#[test]
fn b5_lights_follow_their_darkness_activation_range() {
    let dark = |light: Value| {
        let scene = lit_scene(json!({"darkness": 0.3, "lights": [light]}));
        SceneSight::new(scene).in_darkness(p(500.0, 500.0))
    };
    assert!(dark(
        json!({"x": 500, "y": 500, "config": {"dim": 5, "darkness": {"min": 0.5, "max": 1}}})
    ));
    assert!(!dark(
        json!({"x": 500, "y": 500, "config": {"dim": 5, "darkness": {"min": 0, "max": 0.4}}})
    ));
    assert!(!dark(
        json!({"x": 500, "y": 500, "dim": 5, "darknessThreshold": 0.2})
    ));
    assert!(dark(json!({"x": 500, "y": 500, "dim": 5, "hidden": true})));
}

/// A light with an emission angle lights a cone centred on its rotation
/// (0 faces down the screen). Expected for a 90° cone at (500, 500),
/// rotation 0, dim 20 ft: (500, 700) below it lit, (500, 300) above it
/// dark, (700, 500) beside it (90° off its axis) dark; turned to 180°,
/// (500, 300) lit.
#[test]
fn b5_a_light_cone_lights_only_within_its_angle() {
    let dark_at = |rotation: f64, x: f64, y: f64| {
        let scene = lit_scene(json!({"darkness": 1, "lights": [
            {"x": 500, "y": 500, "rotation": rotation, "config": {"dim": 20, "angle": 90}}]}));
        SceneSight::new(scene).in_darkness(p(x, y))
    };
    assert!(!dark_at(0.0, 500.0, 700.0));
    assert!(dark_at(0.0, 500.0, 300.0));
    assert!(dark_at(0.0, 700.0, 500.0));
    assert!(!dark_at(180.0, 500.0, 300.0));
}

// ----------------------------------------------------------- scene handle

/// O4: "When an unperceiving observer gets the hider in clear view (either
/// one moved, a door opened, light changed)". Through one [`SceneSight`],
/// without re-reading the scene: a dark room, a torch off (hidden), a door
/// between observer and hider. Expected: closed door, no clear view; door
/// opened, still none (dark, no darkvision); torch lit, clear view; torch
/// moved out of reach, none; torch back and the hider steps behind a new
/// wall, none; the wall removed, clear view again.
#[test]
fn o4_doors_lights_walls_and_moves_change_clear_view_through_the_handle() {
    let scene = lit_scene(json!({"darkness": 1,
        "walls": [{"_id": "door", "c": [500, 0, 500, 1000], "door": 1, "ds": 0}],
        "lights": [{"_id": "torch", "x": 800, "y": 500, "hidden": true, "config": {"dim": 10}}],
        "tokens": [one_token("observer", 100.0, 500.0, 0.0), one_token("hider", 900.0, 500.0, 0.0)]}));
    let mut sight = SceneSight::new(scene);
    assert!(!sight.clear_view("observer", "hider").unwrap());
    sight
        .update_json(json!({"type": "door", "wallId": "door", "state": "open"}))
        .unwrap();
    let view = sight.view("observer", "hider").unwrap();
    assert!(view.sight_line && view.target_in_darkness && !view.clear_view);
    sight
        .update_json(json!({"type": "lightHidden", "lightId": "torch", "hidden": false}))
        .unwrap();
    assert!(sight.clear_view("observer", "hider").unwrap());
    sight
        .update_json(json!({"type": "light", "light":
            {"_id": "torch", "x": 100, "y": 100, "config": {"dim": 10}}}))
        .unwrap();
    assert!(!sight.clear_view("observer", "hider").unwrap());
    sight
        .update_json(json!([
            {"type": "light", "light": {"_id": "torch", "x": 800, "y": 500, "config": {"dim": 10}}},
            {"type": "wall", "wall": {"_id": "screen", "c": [850, 0, 850, 1000]}},
            {"type": "tokenMoved", "tokenId": "hider", "x": 850, "y": 450},
        ]))
        .unwrap();
    // The hider's centre (900, 500) is behind the screen, as is the torch's reach.
    assert!(!sight.clear_view("observer", "hider").unwrap());
    sight
        .update_json(json!({"type": "wallRemoved", "wallId": "screen"}))
        .unwrap();
    assert!(sight.clear_view("observer", "hider").unwrap());
    // Every answer equals a handle built fresh from the updated scene.
    let mut fresh = SceneSight::new(sight.scene().clone());
    assert_eq!(sight.clear_view_matrix(), fresh.clear_view_matrix());
}

/// The darkness level is part of the scene's light: raising it past the
/// global light's threshold darkens everything (a change of view, O4).
#[test]
fn o4_the_darkness_level_is_a_change_of_view() {
    let scene = lit_scene(
        json!({"darkness": 0.2, "globalLight": true, "globalLightThreshold": 0.5,
        "tokens": [one_token("observer", 100.0, 500.0, 0.0), one_token("hider", 900.0, 500.0, 0.0)]}),
    );
    let mut sight = SceneSight::new(scene);
    assert!(sight.clear_view("observer", "hider").unwrap());
    sight
        .update_json(json!({"type": "darkness", "darkness": 0.8}))
        .unwrap();
    assert!(!sight.clear_view("observer", "hider").unwrap());
    sight
        .update_json(json!({"type": "darkvision", "tokenId": "observer", "darkvision": 60}))
        .unwrap();
    assert!(sight.clear_view("observer", "hider").unwrap());
}

#[test]
fn the_handle_answers_one_observer_and_pairs_like_the_matrix() {
    let scene = Scene::from_value(fixture("scene-ocd-nort-gate.json")).unwrap();
    let mut raw = fixture("scene-ocd-nort-gate.json");
    raw["tokens"] = json!([
        {"_id": "a", "x": 1300, "y": 900}, {"_id": "b", "x": 1300, "y": 900, "elevation": 15},
        {"_id": "c", "x": 1000, "y": 2000}, {"_id": "d", "x": 1100, "y": 2300},
    ]);
    let mut sight = SceneSight::from_value(raw).unwrap();
    let matrix = sight.clear_view_matrix();
    assert_eq!(
        matrix,
        scene.clear_view_matrix(&sight.scene().tokens.clone())
    );
    for (i, observer) in matrix.ids.iter().enumerate() {
        let from = sight.clear_view_from(observer).unwrap();
        assert_eq!(from.clear_view, matrix.clear_view[i]);
        assert_eq!(from.distance, matrix.distance[i]);
        for (j, target) in matrix.ids.iter().enumerate() {
            assert_eq!(
                sight.clear_view(observer, target).unwrap(),
                matrix.clear_view[i][j]
            );
        }
    }
    assert!(!matrix.clear_view[0][1], "a floor between a and b");
}

#[test]
fn the_handle_refuses_bad_updates_and_changes_nothing() {
    let scene = lit_scene(json!({
        "walls": [{"_id": "w", "c": [500, 0, 500, 1000]}],
        "lights": [{"_id": "l", "x": 0, "y": 0, "config": {"dim": 5}}],
        "tokens": [one_token("a", 100.0, 500.0, 0.0)]}));
    let mut sight = SceneSight::new(scene.clone());
    for (update, code, field) in [
        (
            json!({"type": "door", "wallId": "w", "state": "open"}),
            "invalid_input",
            "updates[1].wallId",
        ),
        (
            json!({"type": "door", "wallId": "nope", "state": "open"}),
            "invalid_input",
            "updates[1].wallId",
        ),
        (
            json!({"type": "door", "wallId": "w", "state": "ajar"}),
            "invalid_input",
            "updates[1].state",
        ),
        (
            json!({"type": "tokenMoved", "tokenId": "nobody", "x": 0, "y": 0}),
            "unknown_token",
            "updates[1].tokenId",
        ),
        (
            json!({"type": "tokenMoved", "tokenId": "a", "x": "left", "y": 0}),
            "invalid_input",
            "updates[1].x",
        ),
        (
            json!({"type": "wall", "wall": {"c": [0, 0, 1, 1]}}),
            "invalid_input",
            "updates[1].wall._id",
        ),
        (
            json!({"type": "wall", "wall": {"_id": "v", "c": [0, 0, 1]}}),
            "invalid_input",
            "updates[1].wall.c",
        ),
        (
            json!({"type": "lightHidden", "lightId": "l", "hidden": 1}),
            "invalid_input",
            "updates[1].hidden",
        ),
        (
            json!({"type": "darkness", "darkness": 2}),
            "invalid_input",
            "updates[1].darkness",
        ),
        (
            json!({"type": "darkvision", "tokenId": "a", "darkvision": -5}),
            "invalid_input",
            "updates[1].darkvision",
        ),
        (
            json!({"type": "teleport"}),
            "invalid_input",
            "updates[1].type",
        ),
    ] {
        // The first update of each batch is valid; the batch is refused whole.
        let batch = json!([{"type": "tokenMoved", "tokenId": "a", "x": 300, "y": 300}, update]);
        let error = sight.update_json(batch.clone()).unwrap_err();
        assert_eq!(error.code(), code, "{batch}: {error}");
        assert!(error.to_string().starts_with(field), "{batch}: {error}");
        assert_eq!(sight.scene(), &scene, "{batch} changed the scene");
    }
}

/// B5 with a carried light: a hider carrying a lit torch is not in
/// darkness, whatever the scene's darkness; the torch moves with its
/// bearer. Dark scene (darkness 1), an observer without darkvision at
/// (100, 500), a torch-bearer at (900, 500) with dim 20 ft (v10 `light`;
/// the same with 0.7-v9 `dimLight`), a hider at (900, 700), 10 ft from it.
/// Expected: the observer has clear view of both; once the bearer walks to
/// (900, 100), 30 ft from the hider, the hider is dark and out of clear
/// view, and the bearer still in it.
#[test]
fn b5_a_light_carried_by_a_token_moves_with_it() {
    for bearer in [
        json!({"_id": "bearer", "x": 850, "y": 450, "light": {"dim": 20, "bright": 10}}),
        json!({"_id": "bearer", "x": 850, "y": 450, "dimLight": 20, "brightLight": 10}),
    ] {
        let scene = lit_scene(json!({"darkness": 1, "tokens": [
            one_token("observer", 100.0, 500.0, 0.0), bearer, one_token("hider", 900.0, 700.0, 0.0)]}));
        assert_eq!(scene.tokens[1].light.as_ref().map(|l| l.dim), Some(20.0));
        let mut sight = SceneSight::new(scene);
        assert!(sight.clear_view("observer", "bearer").unwrap());
        assert!(sight.clear_view("observer", "hider").unwrap());
        assert_eq!(
            serde_json::to_value(sight.lighting_of("hider").unwrap()).unwrap(),
            json!({"dark": false, "by": "tokenLight", "source": {"index": 1, "id": "bearer"}})
        );
        sight
            .update_json(json!({"type": "tokenMoved", "tokenId": "bearer", "x": 850, "y": 50}))
            .unwrap();
        assert!(sight.clear_view("observer", "bearer").unwrap());
        assert!(!sight.clear_view("observer", "hider").unwrap());
        let mut fresh = SceneSight::new(sight.scene().clone());
        assert_eq!(sight.clear_view_matrix(), fresh.clear_view_matrix());
    }
}

/// The normalized form keeps everything light and height need: reading it
/// back gives the same scene and the same answers.
#[test]
fn the_normalized_form_round_trips_floors_holes_thresholds_and_lights() {
    let raw = json!({
        "grid": {"size": 100, "distance": 5, "units": "ft"},
        "environment": {"darknessLevel": 0.7, "globalLight": {"enabled": true, "darkness": {"min": 0, "max": 0.5}}},
        "walls": [{"_id": "w", "c": [0, 0, 100, 0], "sight": 30, "light": 10,
                   "threshold": {"sight": 10, "light": 5, "attenuation": true},
                   "flags": {"wallHeight": {"wallHeightBottom": 0, "wallHeightTop": 5}}}],
        "tokens": [{"_id": "t", "x": 0, "y": 0, "rotation": 90,
                    "light": {"dim": 20, "bright": 10, "angle": 60, "darkness": {"min": 0.2, "max": 1}},
                    "sight": {"visionMode": "darkvision", "range": 60}}],
        "lights": [{"_id": "l", "x": 5, "y": 5, "elevation": 3, "rotation": 45, "walls": false,
                    "config": {"dim": 10, "angle": 90, "darkness": {"min": 0.1, "max": 0.9}}}],
        "tiles": [{"_id": "f", "x": 0, "y": 0, "width": 100, "height": 50, "rotation": 30,
                   "flags": {"levels": {"rangeBottom": 10, "rangeTop": 19}}}],
        "drawings": [{"_id": "e", "x": 0, "y": 0, "shape": {"type": "e", "width": 40, "height": 20},
                      "flags": {"levels": {"drawingMode": 1, "rangeBottom": 0}}}],
    });
    let scene = Scene::from_value(raw).unwrap();
    assert_eq!(scene.tokens[0].darkvision, 60.0);
    assert_eq!(scene.tokens[0].light.as_ref().unwrap().rotation, 90.0);
    assert_eq!(scene.global_light_darkness.unwrap().max, 0.5);
    let normalized = api::parse_scene::<Value>(serde_json::to_value(&scene).unwrap()).unwrap();
    assert_eq!(
        normalized["holes"][0]["shape"]["ellipse"]["radiusX"],
        json!(20.0)
    );
    assert_eq!(Scene::from_value(normalized).unwrap(), scene);
}

// ------------------------------------------- the engine fed by scene sight

/// The view entries for `hider`: one per other token of the handle, as the
/// engine's `enterStealth` / `viewChanged` take them.
fn view_of(sight: &mut SceneSight, hider: &str) -> Value {
    let ids: Vec<String> = sight.scene().tokens.iter().map(|t| t.id.clone()).collect();
    let entries: Vec<Value> = ids
        .iter()
        .filter(|id| id.as_str() != hider)
        .map(|observer| {
            let view = sight.view(observer, hider).unwrap();
            json!({"observer": observer, "clearView": view.clear_view, "distance": view.distance})
        })
        .collect();
    Value::from(entries)
}

/// O2: "at entry, every observer that has the hider in clear view (line of
/// sight and no concealment) perceives it automatically"; B5: darkness is
/// concealment. A dark courtyard (darkness 1, no global light), the rogue
/// entering stealth at (900, 500) with a torch (hidden) beside it; a guard
/// at (100, 500) without darkvision and an archer at (100, 700) with 60 ft
/// of darkvision (41 ft away). Expected: the archer watches the entry and
/// perceives the rogue; the guard, with a sight line but no light, does
/// not. O4: "when an unperceiving observer gets the hider in clear view
/// (... light changed), it makes one immediate Perception check": once the
/// torch is lit, the guard gets one O4 check and the archer none.
#[test]
fn o2_o4_darkness_hides_an_entry_and_a_lit_torch_brings_the_guard_into_view() {
    let scene = lit_scene(json!({"darkness": 1,
        "lights": [{"_id": "torch", "x": 850, "y": 500, "hidden": true, "config": {"dim": 10, "bright": 5}}],
        "tokens": [one_token("rogue", 900.0, 500.0, 0.0), one_token("guard", 100.0, 500.0, 0.0),
                   one_token("archer", 100.0, 700.0, 60.0)]}));
    let mut sight = SceneSight::new(scene);
    let state = api::create_state::<Value>(json!({"ruleset": "opposed",
        "creatures": [{"id": "rogue"}, {"id": "guard"}, {"id": "archer"}]}))
    .unwrap();
    let view = view_of(&mut sight, "rogue");
    assert_eq!(view[0]["clearView"], json!(false), "guard: {view}");
    assert_eq!(view[1]["clearView"], json!(true), "archer: {view}");
    let entered = api::apply::<Value>(
        state,
        json!({"type": "enterStealth", "hider": "rogue", "roll": 30, "moved": true, "view": view}),
    )
    .unwrap();
    let perceives = |observer: &str| {
        api::perceives::<Value>(
            entered["state"].clone(),
            json!({"observer": observer, "hider": "rogue"}),
        )
        .unwrap()["allowed"]
            .clone()
    };
    assert_eq!(perceives("archer"), json!(true));
    assert_eq!(perceives("guard"), json!(false));

    sight
        .update_json(json!({"type": "lightHidden", "lightId": "torch", "hidden": false}))
        .unwrap();
    let view = view_of(&mut sight, "rogue");
    assert_eq!(view[0]["clearView"], json!(true), "guard: {view}");
    let changed = api::apply::<Value>(
        entered["state"].clone(),
        json!({"type": "viewChanged", "hider": "rogue", "view": view}),
    )
    .unwrap();
    assert_eq!(
        changed["requests"],
        json!([{"kind": "perceptionCheck", "hider": "rogue", "observers": ["guard"], "clause": "O4"}])
    );
}

/// B5, exact contacts: sight lines are decided by exact predicates, exact
/// only while products of coordinates stay finite. Fuzzing (`fuzz/`,
/// `scene_sight`) found a scene with coordinates near 3.6e250 where the
/// line from `t3` to `t2` (ending on `w0`'s end) was clear in the matrix
/// and blocked in `clear_view_from`. Numbers beyond ±1e15 are now refused,
/// when a scene is read and in updates; 1e15 itself is accepted.
#[test]
fn b5_scene_numbers_beyond_1e15_are_refused_so_a_sight_line_is_decided_the_same_both_ways() {
    let huge = -3.571439782774524e250;
    let found = json!({
        "furtiveScene": 1, "layout": "v0.8",
        "grid": {"size": 100.0, "distance": 1.5, "units": "ft"},
        "walls": [{"id": "w0", "c": [7776.25, huge, huge, -3.48194320802929e250],
                   "sight": "normal", "door": "none", "doorState": "closed", "direction": "both",
                   "height": {"bottom": -6.5, "top": 5.0}}],
        "tokens": [
            {"id": "t2", "x": huge, "y": -3.48194320802929e250, "width": 0.5, "height": 0.5, "elevation": -6.5},
            {"id": "t3", "x": 1703.125, "y": 550.0, "elevation": 10.0}
        ],
        "globalLight": true
    });
    let (field, message) = scene_error(found);
    assert_eq!(field, "walls[0].c");
    assert!(message.contains("1e15"), "{message}");

    let mut sight = SceneSight::from_value(json!({
        "walls": [],
        "tokens": [{"_id": "a", "x": 1e15, "y": -1e15}, {"_id": "b", "x": 0, "y": 0}],
        "globalLight": true
    }))
    .expect("1e15 is accepted");
    let moved = sight.update_json(json!({"type": "tokenMoved", "tokenId": "b", "x": huge, "y": 0}));
    assert!(
        matches!(&moved, Err(Error::InvalidInput { field, .. }) if field == "updates[0].x"),
        "{moved:?}"
    );
    assert_eq!(
        sight.scene().tokens[1].x,
        0.0,
        "a refused update changes nothing"
    );
    let wall =
        sight.update_json(json!({"type": "wall", "wall": {"_id": "w", "c": [0, 0, huge, 1]}}));
    assert!(
        matches!(&wall, Err(Error::InvalidInput { field, .. }) if field == "updates[0].wall.c"),
        "{wall:?}"
    );
}

#[test]
fn b5_distance_is_the_correctly_rounded_root_on_every_platform() {
    // 98 px across and 91 down at 5 ft per 100 px: sqrt(17885) * 5 / 100.
    // The platform hypot gave 6.686740611089979 natively (glibc) and
    // 6.686740611089981 in wasm; the distance must be the same number on
    // napi and wasm (tests/js/scene-sight.test.mjs compares the two).
    let scene = Scene::from_value(json!({
        "width": 1000, "height": 1000, "grid": { "size": 100, "distance": 5 }, "walls": []
    }))
    .unwrap();
    let distance = scene.distance(p(-10.0, 79.0), p(88.0, -12.0));
    assert_eq!(distance, 17885f64.sqrt() * 5.0 / 100.0);
    assert_eq!(distance, 6.686740611089981);
}
