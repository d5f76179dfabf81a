//! Exact segment tests with the shift rule, heights and floors (B5), and
//! the uniform-grid wall index.
//!
//! Every orientation is the exact sign of `robust::orient2d` (positive when
//! the three points turn counter-clockwise in y-up axes, which is clockwise
//! on the y-down canvas). The sight segment is treated as moved by
//! `(ε, ε²)` for an infinitely small `ε > 0` (the shift rule of `docs/scene.md`):
//! each orientation that is exactly 0 is replaced by the sign of its first
//! non-zero term in `ε`, so no test ever returns "touching".
//!
//! Heights are decided exactly too: the elevation of the sight line where
//! it crosses a wall, compared with the wall's bottom or top, is the sign
//! of one `robust::orient3d`; where it crosses a floor's plane, compared
//! with the floor's edges, the sign of one `robust::orient2d` in a
//! vertical plane (see [`crossing_height_vs`] and [`FloorPlane`]).

use std::cmp::Ordering;

use robust::{orient2d, orient3d, Coord, Coord3D};

use super::{
    Blocking, Floor, Hole, HoleShape, Point, Scene, Sense, SightLine, SightRestriction, Wall,
    WallDirection,
};

fn orient(a: Point, b: Point, c: Point) -> f64 {
    orient2d(
        Coord { x: a.x, y: a.y },
        Coord { x: b.x, y: b.y },
        Coord { x: c.x, y: c.y },
    )
}

fn coord3(p: Point) -> Coord3D<f64> {
    Coord3D {
        x: p.x,
        y: p.y,
        z: p.elevation,
    }
}

fn sign(value: f64) -> Ordering {
    if value > 0.0 {
        Ordering::Greater
    } else if value < 0.0 {
        Ordering::Less
    } else {
        Ordering::Equal
    }
}

/// The sign of `z(X) - h`, where `X` is the point where the sight line
/// `o → t` crosses the (infinite) line through the wall `a`, `b`, and
/// `z(X) = o.z + s (t.z - o.z)` for `X = o + s (t - o)`: the elevation of
/// the sight line at the crossing, linear in the parameter `s` along it.
/// Call only when the line crosses the wall.
///
/// Exact: with `A`, `B` the wall's ends raised to height `h`,
/// `orient3d(A, B, o, t)` is `c · (z(X) - h)` with `c` of the sign of
/// `orient2d(a, b, t) / (1 - s)`, so of `orient2d(a, b, t)` (its derivative
/// in `o.z` is `orient2d(a, b, t)`, and `1 - s > 0`). When `o` (or `t`)
/// lies on the wall's line, `X` is that end and `z(X)` its elevation.
pub(super) fn crossing_height_vs(o: Point, t: Point, a: Point, b: Point, h: f64) -> Ordering {
    let at_o = orient(a, b, o);
    if at_o == 0.0 {
        return o.elevation.partial_cmp(&h).unwrap_or(Ordering::Equal);
    }
    let at_t = orient(a, b, t);
    if at_t == 0.0 {
        return t.elevation.partial_cmp(&h).unwrap_or(Ordering::Equal);
    }
    let volume = orient3d(coord3(a.at(h)), coord3(b.at(h)), coord3(o), coord3(t));
    match sign(at_t) {
        Ordering::Greater => sign(volume),
        _ => sign(volume).reverse(),
    }
}

/// Side of the wall endpoint `p` relative to the shifted sight line `o → t`
/// (+1 or -1). `orient(o + δ, t + δ, p) = orient(o, t, p) + Dy·ε - Dx·ε²`
/// with `D = t - o`.
fn endpoint_side(o: Point, t: Point, p: Point) -> i8 {
    let s = orient(o, t, p);
    if s > 0.0 {
        1
    } else if s < 0.0 {
        -1
    } else if t.y != o.y {
        if t.y > o.y {
            1
        } else {
            -1
        }
    } else if t.x > o.x {
        -1
    } else {
        1
    }
}

/// Side of the shifted sight point `p + δ` relative to the wall line `a → b`
/// (+1 or -1). `orient(a, b, p + δ) = orient(a, b, p) - Ey·ε + Ex·ε²` with
/// `E = b - a`.
fn shifted_side(a: Point, b: Point, p: Point) -> i8 {
    let s = orient(a, b, p);
    if s > 0.0 {
        1
    } else if s < 0.0 {
        -1
    } else if b.y != a.y {
        if b.y > a.y {
            -1
        } else {
            1
        }
    } else if b.x > a.x {
        1
    } else {
        -1
    }
}

/// The canvas side of a wall, as Foundry's `WALL_DIRECTIONS` name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    /// `orient2dFast(a, b, p) > 0` in Foundry's docs; `robust` sign < 0.
    Left,
    Right,
}

impl Side {
    fn from_robust_sign(sign: i8) -> Side {
        if sign < 0 {
            Side::Left
        } else {
            Side::Right
        }
    }

    fn opposite(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }
}

fn blocks_from(direction: WallDirection, observer: Side) -> bool {
    match direction {
        WallDirection::Both => true,
        WallDirection::Left => observer == Side::Left,
        WallDirection::Right => observer == Side::Right,
    }
}

/// A proximity (30) or distance (40) wall's threshold, in pixels.
#[derive(Debug, Clone, Copy)]
struct Threshold {
    /// Proximity: blocks sources at or beyond the radius; distance
    /// (reverse): blocks sources closer than it.
    reverse: bool,
    radius: f64,
}

/// A wall that restricts a sense, prepared for tests.
#[derive(Debug, Clone)]
struct SightWall {
    index: usize,
    a: Point,
    b: Point,
    min: Point,
    max: Point,
    blocking: Blocking,
    direction: WallDirection,
    /// Wall Height bounds; unbounded walls have -inf / +inf.
    bottom: f64,
    top: f64,
    threshold: Option<Threshold>,
    /// An open door: indexed (so that closing it costs nothing) but skipped.
    open: bool,
}

impl SightWall {
    /// `pixels_per_unit` converts thresholds (scene units) to pixels.
    fn new(index: usize, wall: &Wall, sense: Sense, pixels_per_unit: f64) -> Option<SightWall> {
        let blocking = wall.restricts(sense)?;
        let [x0, y0, x1, y1] = wall.c;
        let threshold = match wall.restriction(sense) {
            kind @ (SightRestriction::Proximity | SightRestriction::Distance) => {
                let units = wall
                    .threshold
                    .and_then(|t| match sense {
                        Sense::Sight => t.sight,
                        Sense::Light => t.light,
                    })
                    .unwrap_or(0.0);
                Some(Threshold {
                    reverse: kind == SightRestriction::Distance,
                    radius: units * pixels_per_unit,
                })
            }
            _ => None,
        };
        Some(SightWall {
            index,
            a: Point::new(x0, y0),
            b: Point::new(x1, y1),
            min: Point::new(x0.min(x1), y0.min(y1)),
            max: Point::new(x0.max(x1), y0.max(y1)),
            blocking,
            direction: wall.direction,
            bottom: wall
                .height
                .and_then(|h| h.bottom)
                .unwrap_or(f64::NEG_INFINITY),
            top: wall.height.and_then(|h| h.top).unwrap_or(f64::INFINITY),
            threshold,
            open: wall.is_open(),
        })
    }

    /// When the shifted segment `o → t` crosses this wall within its
    /// height, the side the observer `o` stands on. `o` and `t` are at
    /// different positions.
    fn crossing(&self, o: Point, t: Point) -> Option<Side> {
        if self.open {
            return None;
        }
        // Wall Height: quick rejection when no point of the line can be in range.
        if self.bottom > o.elevation.max(t.elevation) || self.top < o.elevation.min(t.elevation) {
            return None;
        }
        // Strict bounding-box rejection: a touching box goes to the exact test.
        if o.x.max(t.x) < self.min.x
            || o.x.min(t.x) > self.max.x
            || o.y.max(t.y) < self.min.y
            || o.y.min(t.y) > self.max.y
        {
            return None;
        }
        let observer = shifted_side(self.a, self.b, o);
        if observer == shifted_side(self.a, self.b, t) {
            return None;
        }
        if endpoint_side(o, t, self.a) == endpoint_side(o, t, self.b) {
            return None;
        }
        // B5: the line's elevation at the crossing must lie in [bottom, top].
        if o.elevation != t.elevation {
            if self.bottom.is_finite()
                && crossing_height_vs(o, t, self.a, self.b, self.bottom) == Ordering::Less
            {
                return None;
            }
            if self.top.is_finite()
                && crossing_height_vs(o, t, self.a, self.b, self.top) == Ordering::Greater
            {
                return None;
            }
        }
        Some(Side::from_robust_sign(observer))
    }

    /// Whether the wall's threshold lets it block for a source at `source`
    /// (always, without a threshold). Distances in pixels, to the nearest
    /// point of the wall segment, compared squared in floating point.
    fn blocks_source(&self, source: Point) -> bool {
        let Some(threshold) = self.threshold else {
            return true;
        };
        let beyond = squared_distance_to_segment(source, self.a, self.b)
            >= threshold.radius * threshold.radius;
        beyond != threshold.reverse
    }
}

fn squared_distance_to_segment(p: Point, a: Point, b: Point) -> f64 {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let (px, py) = (p.x - a.x, p.y - a.y);
    let along = px * dx + py * dy;
    let length = dx * dx + dy * dy;
    if along <= 0.0 || length == 0.0 {
        px * px + py * py
    } else if along >= length {
        let (qx, qy) = (p.x - b.x, p.y - b.y);
        qx * qx + qy * qy
    } else {
        let cross = px * dy - py * dx;
        cross * cross / length
    }
}

/// A Levels floor prepared for tests: a plane at `elevation` over a
/// rectangle, axis-aligned in its own frame.
#[derive(Debug, Clone)]
pub(super) struct FloorPlane {
    index: usize,
    elevation: f64,
    min: Point,
    max: Point,
    /// For a rotation that is not a multiple of 90°: (centre, cos, sin) of
    /// the frame the rectangle is axis-aligned in.
    frame: Option<(Point, f64, f64)>,
}

impl FloorPlane {
    pub(super) fn new(index: usize, floor: &Floor) -> FloorPlane {
        let turn = floor.rotation.rem_euclid(360.0);
        let centre = Point::new(floor.x + floor.width / 2.0, floor.y + floor.height / 2.0);
        let (half_w, half_h) = (floor.width / 2.0, floor.height / 2.0);
        let quarter = turn % 90.0 == 0.0;
        let (min, max, frame) = if turn == 0.0 || turn == 180.0 {
            (
                Point::new(floor.x, floor.y),
                Point::new(floor.x + floor.width, floor.y + floor.height),
                None,
            )
        } else if quarter {
            // 90° or 270°: the same rectangle with its sides swapped about the centre.
            (
                Point::new(centre.x - half_h, centre.y - half_w),
                Point::new(centre.x + half_h, centre.y + half_w),
                None,
            )
        } else {
            let radians = turn.to_radians();
            (
                Point::new(-half_w, -half_h),
                Point::new(half_w, half_h),
                Some((centre, radians.cos(), radians.sin())),
            )
        };
        FloorPlane {
            index,
            elevation: floor.elevation,
            min,
            max,
            frame,
        }
    }

    /// Whether the line `o → t` passes through this floor: one end below
    /// the plane (`z < elevation`), the other at or above it, and the point
    /// where the line meets the plane inside the closed rectangle.
    fn blocks(&self, o: Point, t: Point) -> bool {
        let h = self.elevation;
        let (low, high) = if o.elevation <= t.elevation {
            (o.elevation, t.elevation)
        } else {
            (t.elevation, o.elevation)
        };
        if !(low < h && h <= high) {
            return false;
        }
        let (o, t) = match self.frame {
            None => (o, t),
            Some((centre, cos, sin)) => {
                // Into the tile's frame: translate, then turn by -rotation.
                let local = |p: Point| {
                    let (x, y) = (p.x - centre.x, p.y - centre.y);
                    Point {
                        x: x * cos + y * sin,
                        y: -x * sin + y * cos,
                        elevation: p.elevation,
                    }
                };
                (local(o), local(t))
            }
        };
        let x = PlaneCrossing { o, t, h };
        x.cmp_x(self.min.x) != Ordering::Less
            && x.cmp_x(self.max.x) != Ordering::Greater
            && x.cmp_y(self.min.y) != Ordering::Less
            && x.cmp_y(self.max.y) != Ordering::Greater
    }
}

/// The point `X` where the line `o → t` meets the plane `z = h`, known
/// implicitly (`o.z != t.z`, `h` between them): every comparison is exact.
#[derive(Debug, Clone, Copy)]
struct PlaneCrossing {
    o: Point,
    t: Point,
    h: f64,
}

impl PlaneCrossing {
    fn rising(&self) -> bool {
        self.t.elevation > self.o.elevation
    }

    /// Sign of `X.x - bound`: `orient2d` in the vertical (x, z) plane of
    /// `(o.x, o.z)`, `(t.x, t.z)`, `(bound, h)` is `(X.x - bound)(t.z - o.z)`.
    fn cmp_axis(&self, oa: f64, ta: f64, bound: f64) -> Ordering {
        let s = sign(orient2d(
            Coord {
                x: oa,
                y: self.o.elevation,
            },
            Coord {
                x: ta,
                y: self.t.elevation,
            },
            Coord {
                x: bound,
                y: self.h,
            },
        ));
        if self.rising() {
            s
        } else {
            s.reverse()
        }
    }

    fn cmp_x(&self, bound: f64) -> Ordering {
        self.cmp_axis(self.o.x, self.t.x, bound)
    }

    fn cmp_y(&self, bound: f64) -> Ordering {
        self.cmp_axis(self.o.y, self.t.y, bound)
    }

    /// Sign of `orient2d(p, q, X)`. With `A`, `B` the orientations of `o`
    /// and `t`, it is that of `(1 - s) A + s B`, `s` the parameter of `X`:
    /// when `A` and `B` differ in sign, `X` lies past the point where the
    /// line crosses the line `pq` exactly when the line's elevation there
    /// is on `o`'s side of `h` ([`crossing_height_vs`]).
    fn side(&self, p: Point, q: Point) -> Ordering {
        let a = sign(orient(p, q, self.o));
        let b = sign(orient(p, q, self.t));
        if a == b || a == Ordering::Equal {
            return b;
        }
        if b == Ordering::Equal {
            // X before t, t on the line: X on o's side, unless X is t.
            return if self.h == self.t.elevation {
                Ordering::Equal
            } else {
                a
            };
        }
        let at_crossing = crossing_height_vs(self.o, self.t, p, q, self.h);
        let past = if self.rising() {
            at_crossing == Ordering::Less
        } else {
            at_crossing == Ordering::Greater
        };
        match at_crossing {
            Ordering::Equal => Ordering::Equal,
            _ if past => b,
            _ => a,
        }
    }

    /// Inside a polygon by the even-odd rule, edges included.
    fn in_polygon(&self, points: &[[f64; 2]]) -> bool {
        let n = points.len();
        if n < 3 {
            return false;
        }
        let mut inside = false;
        for k in 0..n {
            let p = Point::new(points[k][0], points[k][1]);
            let q = Point::new(points[(k + 1) % n][0], points[(k + 1) % n][1]);
            // On the edge: inside.
            if self.side(p, q) == Ordering::Equal
                && self.cmp_x(p.x.min(q.x)) != Ordering::Less
                && self.cmp_x(p.x.max(q.x)) != Ordering::Greater
                && self.cmp_y(p.y.min(q.y)) != Ordering::Less
                && self.cmp_y(p.y.max(q.y)) != Ordering::Greater
            {
                return true;
            }
            // Half-open rule: the edge spans X.y when exactly one end is above it.
            let p_above = self.cmp_y(p.y) == Ordering::Less;
            let q_above = self.cmp_y(q.y) == Ordering::Less;
            if p_above != q_above {
                // X left of the edge's point at X.y: sign(orient) * sign(q.y - p.y) > 0.
                let side = self.side(p, q);
                let left = if q.y > p.y {
                    side == Ordering::Greater
                } else {
                    side == Ordering::Less
                };
                if left {
                    inside = !inside;
                }
            }
        }
        inside
    }

    /// Inside an ellipse (floating point: the crossing is computed).
    fn in_ellipse(&self, cx: f64, cy: f64, rx: f64, ry: f64, rotation: f64) -> bool {
        if rx <= 0.0 || ry <= 0.0 {
            return false;
        }
        let s = (self.h - self.o.elevation) / (self.t.elevation - self.o.elevation);
        let x = self.o.x + s * (self.t.x - self.o.x) - cx;
        let y = self.o.y + s * (self.t.y - self.o.y) - cy;
        let (sin, cos) = rotation.to_radians().sin_cos();
        let (u, v) = (x * cos + y * sin, -x * sin + y * cos);
        (u / rx).powi(2) + (v / ry).powi(2) <= 1.0
    }

    fn in_hole(&self, hole: &Hole) -> bool {
        if hole.bottom.is_some_and(|b| self.h < b) || hole.top.is_some_and(|t| self.h > t) {
            return false;
        }
        match &hole.shape {
            HoleShape::Polygon(points) => self.in_polygon(points),
            HoleShape::Ellipse {
                x,
                y,
                radius_x,
                radius_y,
                rotation,
            } => self.in_ellipse(*x, *y, *radius_x, *radius_y, *rotation),
        }
    }
}

/// Whether a floor blocks `o → t`: it meets the line inside its tile and
/// no Levels hole open at its elevation contains that point.
fn floor_blocks(floor: &FloorPlane, holes: &[Hole], o: Point, t: Point) -> bool {
    floor.blocks(o, t)
        && !holes.iter().any(|hole| {
            PlaneCrossing {
                o,
                t,
                h: floor.elevation,
            }
            .in_hole(hole)
        })
}

fn pixels_per_unit(scene: &Scene) -> f64 {
    scene.grid.size / scene.grid.distance
}

/// The brute-force answer over all walls and floors: the reference for [`SightIndex`].
pub(super) fn sight_line(scene: &Scene, sense: Sense, observer: Point, target: Point) -> SightLine {
    let mut line = SightLine::default();
    let scale = pixels_per_unit(scene);
    if !observer.same_position(&target) {
        for (index, wall) in scene.walls.iter().enumerate() {
            if let Some(wall) = SightWall::new(index, wall, sense, scale) {
                record(&wall, observer, target, &mut line);
            }
        }
    }
    for (index, floor) in scene.floors.iter().enumerate() {
        if floor_blocks(
            &FloorPlane::new(index, floor),
            &scene.holes,
            observer,
            target,
        ) {
            line.floors.push(index);
        }
    }
    line
}

fn record(wall: &SightWall, observer: Point, target: Point, line: &mut SightLine) {
    if let Some(side) = wall.crossing(observer, target) {
        if blocks_from(wall.direction, side) && wall.blocks_source(observer) {
            match wall.blocking {
                Blocking::Normal => line.blocking.push(wall.index),
                Blocking::Limited => line.limited.push(wall.index),
            }
        }
    }
}

/// The walls of a scene that restrict one sense (sight or light), bucketed
/// in a uniform grid of about one wall per cell, and its floors, for many
/// lines on the same scene.
///
/// Each wall is stored in every cell its bounding box touches; a line
/// visits, column by column, the cells its own extent touches (widened by
/// a relative 1e-9 so rounding never skips a cell), and tests each wall
/// once, exactly. Doors are indexed open or closed, so opening or closing
/// one ([`SightIndex::set_door_open`]) costs O(1). Answers equal
/// [`super::Scene::sight_line`]'s.
#[derive(Debug, Clone)]
pub struct SightIndex {
    walls: Vec<SightWall>,
    floors: Vec<FloorPlane>,
    holes: Vec<Hole>,
    /// Position in `walls` of each scene wall (`u32::MAX`: not indexed).
    positions: Vec<u32>,
    origin: Point,
    cell: f64,
    columns: usize,
    rows: usize,
    /// Wall positions in `walls` for cell `k` are `items[starts[k]..starts[k + 1]]`.
    starts: Vec<u32>,
    items: Vec<u32>,
    /// Bounds of all indexed walls.
    max: Point,
}

/// Per-caller scratch space for [`SightIndex`] queries (which walls were
/// already tested on the current sight line).
#[derive(Debug, Clone, Default)]
pub struct SightScratch {
    stamp: Vec<u32>,
    epoch: u32,
}

impl SightScratch {
    fn next(&mut self, walls: usize) -> u32 {
        if self.stamp.len() < walls {
            self.stamp.resize(walls, 0);
        }
        if self.epoch == u32::MAX {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.epoch = 0;
        }
        self.epoch += 1;
        self.epoch
    }
}

const MAX_CELLS_PER_AXIS: f64 = 1024.0;

impl SightIndex {
    /// Indexes the walls of `scene` that restrict sight when closed (see
    /// [`Wall::restricts`]) and its floors.
    pub fn new(scene: &Scene) -> SightIndex {
        SightIndex::build(scene, Sense::Sight, f64::NEG_INFINITY, f64::INFINITY)
    }

    /// Like [`SightIndex::new`] for `sense`, keeping only the walls whose
    /// Wall Height range meets `low..=high` and the floors inside it:
    /// enough for lines whose ends all lie at elevations within that range.
    pub fn build(scene: &Scene, sense: Sense, low: f64, high: f64) -> SightIndex {
        let scale = pixels_per_unit(scene);
        let walls: Vec<SightWall> = scene
            .walls
            .iter()
            .enumerate()
            .filter_map(|(index, wall)| SightWall::new(index, wall, sense, scale))
            .filter(|wall| wall.bottom <= high && wall.top >= low)
            .collect();
        let floors = scene
            .floors
            .iter()
            .enumerate()
            .filter(|(_, floor)| low < floor.elevation && floor.elevation <= high)
            .map(|(index, floor)| FloorPlane::new(index, floor))
            .collect();
        let mut positions = vec![u32::MAX; scene.walls.len()];
        for (position, wall) in walls.iter().enumerate() {
            positions[wall.index] = position as u32;
        }
        let mut origin = Point::new(f64::INFINITY, f64::INFINITY);
        let mut max = Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
        for wall in &walls {
            origin = Point::new(origin.x.min(wall.min.x), origin.y.min(wall.min.y));
            max = Point::new(max.x.max(wall.max.x), max.y.max(wall.max.y));
        }
        if walls.is_empty() {
            origin = Point::new(0.0, 0.0);
            max = origin;
        }
        let width = max.x - origin.x;
        let height = max.y - origin.y;
        let area = width.max(1.0) * height.max(1.0);
        let cell = (area / walls.len().max(1) as f64)
            .sqrt()
            .max(width / (MAX_CELLS_PER_AXIS - 1.0))
            .max(height / (MAX_CELLS_PER_AXIS - 1.0))
            .max(f64::MIN_POSITIVE);
        let mut index = SightIndex {
            walls,
            floors,
            holes: scene.holes.clone(),
            positions,
            origin,
            cell,
            columns: 1,
            rows: 1,
            starts: Vec::new(),
            items: Vec::new(),
            max,
        };
        index.columns = (width / cell).floor() as usize + 1;
        index.rows = (height / cell).floor() as usize + 1;

        // Two passes (count, then fill) into one flat array.
        let cells = index.columns * index.rows;
        let mut counts = vec![0u32; cells + 1];
        for wall in &index.walls {
            index.for_cells_of_box(wall.min, wall.max, |k| counts[k] += 1);
        }
        let mut starts = vec![0u32; cells + 1];
        for k in 0..cells {
            starts[k + 1] = starts[k] + counts[k];
        }
        let mut fill = starts.clone();
        let mut items = vec![0u32; starts[cells] as usize];
        for (position, wall) in index.walls.iter().enumerate() {
            index.for_cells_of_box(wall.min, wall.max, |k| {
                items[fill[k] as usize] = position as u32;
                fill[k] += 1;
            });
        }
        index.starts = starts;
        index.items = items;
        index
    }

    /// Fresh scratch space sized for this index.
    pub fn scratch(&self) -> SightScratch {
        SightScratch {
            stamp: vec![0; self.walls.len()],
            epoch: 0,
        }
    }

    /// Opens or closes the door that is scene wall `wall` in this index, in
    /// O(1). Returns `false` when that wall is not indexed (it never
    /// restricts this sense, or lies outside the indexed elevations), which
    /// changes nothing.
    pub fn set_door_open(&mut self, wall: usize, open: bool) -> bool {
        match self.positions.get(wall) {
            Some(&position) if position != u32::MAX => {
                self.walls[position as usize].open = open;
                true
            }
            _ => false,
        }
    }

    fn column(&self, x: f64) -> usize {
        let c = ((x - self.origin.x) / self.cell).floor();
        if c.is_nan() || c <= 0.0 {
            0
        } else {
            (c as usize).min(self.columns - 1)
        }
    }

    fn row(&self, y: f64) -> usize {
        let r = ((y - self.origin.y) / self.cell).floor();
        if r.is_nan() || r <= 0.0 {
            0
        } else {
            (r as usize).min(self.rows - 1)
        }
    }

    fn for_cells_of_box(&self, min: Point, max: Point, mut visit: impl FnMut(usize)) {
        for column in self.column(min.x)..=self.column(max.x) {
            for row in self.row(min.y)..=self.row(max.y) {
                visit(row * self.columns + column);
            }
        }
    }

    /// Calls `visit` once per indexed wall whose cells the segment `o → t`
    /// passes through; stops when `visit` returns `false`.
    fn for_candidates(
        &self,
        o: Point,
        t: Point,
        scratch: &mut SightScratch,
        mut visit: impl FnMut(&SightWall) -> bool,
    ) {
        let lo = Point::new(o.x.min(t.x), o.y.min(t.y));
        let hi = Point::new(o.x.max(t.x), o.y.max(t.y));
        if self.walls.is_empty()
            || hi.x < self.origin.x
            || lo.x > self.max.x
            || hi.y < self.origin.y
            || lo.y > self.max.y
        {
            return;
        }
        let epoch = scratch.next(self.walls.len());
        let scale = 1.0
            + [
                o.x,
                o.y,
                t.x,
                t.y,
                self.origin.x,
                self.origin.y,
                self.max.x,
                self.max.y,
            ]
            .iter()
            .fold(0.0f64, |m, v| m.max(v.abs()));
        let margin = scale * 1e-9;
        let slope = if t.x != o.x {
            Some((t.y - o.y) / (t.x - o.x))
        } else {
            None
        };
        for column in self.column(lo.x)..=self.column(hi.x) {
            let (y0, y1) = match slope {
                None => (lo.y, hi.y),
                Some(slope) => {
                    let left = self.origin.x + column as f64 * self.cell;
                    let xa = lo.x.max(left - margin);
                    let xb = hi.x.min(left + self.cell + margin);
                    let ya = o.y + (xa - o.x) * slope;
                    let yb = o.y + (xb - o.x) * slope;
                    (
                        (ya.min(yb) - margin).max(lo.y),
                        (ya.max(yb) + margin).min(hi.y),
                    )
                }
            };
            for row in self.row(y0)..=self.row(y1) {
                let k = row * self.columns + column;
                for &position in &self.items[self.starts[k] as usize..self.starts[k + 1] as usize] {
                    let position = position as usize;
                    if scratch.stamp[position] == epoch {
                        continue;
                    }
                    scratch.stamp[position] = epoch;
                    if !visit(&self.walls[position]) {
                        return;
                    }
                }
            }
        }
    }

    /// The walls and floors that decide the line `observer → target`, like
    /// [`super::Scene::sight_line`] (indices sorted ascending).
    pub fn sight_line(
        &self,
        observer: Point,
        target: Point,
        scratch: &mut SightScratch,
    ) -> SightLine {
        let mut line = SightLine::default();
        for floor in &self.floors {
            if floor_blocks(floor, &self.holes, observer, target) {
                line.floors.push(floor.index);
            }
        }
        if observer.same_position(&target) {
            return line;
        }
        self.for_candidates(observer, target, scratch, |wall| {
            record(wall, observer, target, &mut line);
            true
        });
        line.blocking.sort_unstable();
        line.limited.sort_unstable();
        line
    }

    /// Whether the line `source → target` is clear, for `source` only (one
    /// direction); stops at the first decisive wall.
    pub fn clear(&self, source: Point, target: Point, scratch: &mut SightScratch) -> bool {
        if self
            .floors
            .iter()
            .any(|floor| floor_blocks(floor, &self.holes, source, target))
        {
            return false;
        }
        if source.same_position(&target) {
            return true;
        }
        let mut blocked = false;
        let mut limited = 0u32;
        self.for_candidates(source, target, scratch, |wall| {
            if let Some(side) = wall.crossing(source, target) {
                if blocks_from(wall.direction, side) && wall.blocks_source(source) {
                    match wall.blocking {
                        Blocking::Normal => blocked = true,
                        Blocking::Limited => limited += 1,
                    }
                }
            }
            !(blocked || limited >= 2)
        });
        !(blocked || limited >= 2)
    }

    /// Clear view both ways along one segment: `(a sees b, b sees a)`.
    /// The two differ only across one-way walls and threshold walls.
    pub fn clear_both_ways(&self, a: Point, b: Point, scratch: &mut SightScratch) -> (bool, bool) {
        if self
            .floors
            .iter()
            .any(|floor| floor_blocks(floor, &self.holes, a, b))
        {
            return (false, false);
        }
        if a.same_position(&b) {
            return (true, true);
        }
        let (mut forward_blocked, mut backward_blocked) = (false, false);
        let (mut forward_limited, mut backward_limited) = (0u32, 0u32);
        self.for_candidates(a, b, scratch, |wall| {
            if let Some(side) = wall.crossing(a, b) {
                let forward = blocks_from(wall.direction, side) && wall.blocks_source(a);
                let backward =
                    blocks_from(wall.direction, side.opposite()) && wall.blocks_source(b);
                match wall.blocking {
                    Blocking::Normal => {
                        forward_blocked |= forward;
                        backward_blocked |= backward;
                    }
                    Blocking::Limited => {
                        forward_limited += u32::from(forward);
                        backward_limited += u32::from(backward);
                    }
                }
            }
            // Keep going until both directions are decided.
            !((forward_blocked || forward_limited >= 2)
                && (backward_blocked || backward_limited >= 2))
        });
        (
            !(forward_blocked || forward_limited >= 2),
            !(backward_blocked || backward_limited >= 2),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `crossing_height_vs` agrees with the floating-point elevation at the
    /// crossing wherever that is far from `h`.
    #[test]
    fn the_crossing_height_sign_matches_the_parameter_along_the_line() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % 2001) as f64 - 1000.0
        };
        let mut checked = 0;
        for _ in 0..20_000 {
            let o = Point::new(next(), next()).at(next() / 10.0);
            let t = Point::new(next(), next()).at(next() / 10.0);
            let (a, b) = (Point::new(next(), next()), Point::new(next(), next()));
            let h = next() / 10.0;
            let (so, st) = (orient(a, b, o), orient(a, b, t));
            let (sa, sb) = (orient(o, t, a), orient(o, t, b));
            if so * st >= 0.0 || sa * sb >= 0.0 {
                continue; // no proper crossing
            }
            let s = so / (so - st);
            let z = o.elevation + s * (t.elevation - o.elevation);
            if (z - h).abs() < 1e-6 {
                continue;
            }
            let expected = if z > h {
                Ordering::Greater
            } else {
                Ordering::Less
            };
            assert_eq!(
                crossing_height_vs(o, t, a, b, h),
                expected,
                "{o:?} {t:?} {a:?} {b:?} {h}"
            );
            checked += 1;
        }
        assert!(checked > 1000, "only {checked} crossings");
    }

    /// `PlaneCrossing::in_polygon` agrees with the even-odd rule on the
    /// floating-point crossing wherever that is far from every edge.
    #[test]
    fn the_implicit_crossing_is_located_in_polygons() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % 2001) as f64 - 1000.0
        };
        let mut checked = 0;
        for _ in 0..5_000 {
            let o = Point::new(next(), next()).at(next().abs() / 10.0);
            let t = Point::new(next(), next()).at(-next().abs() / 10.0 - 1.0);
            let h = next() / 1000.0 * 10.0;
            if !(t.elevation < h && h < o.elevation) {
                continue;
            }
            let points: Vec<[f64; 2]> = (0..6).map(|_| [next(), next()]).collect();
            let s = (h - o.elevation) / (t.elevation - o.elevation);
            let (x, y) = (o.x + s * (t.x - o.x), o.y + s * (t.y - o.y));
            let n = points.len();
            let mut inside = false;
            let mut near = false;
            for k in 0..n {
                let (p, q) = (points[k], points[(k + 1) % n]);
                let (dx, dy) = (q[0] - p[0], q[1] - p[1]);
                let length = dx.hypot(dy);
                let along = ((x - p[0]) * dx + (y - p[1]) * dy) / (length * length);
                let (cx, cy) = (
                    p[0] + along.clamp(0.0, 1.0) * dx,
                    p[1] + along.clamp(0.0, 1.0) * dy,
                );
                near |= (x - cx).hypot(y - cy) < 1e-6 || (y - p[1]).abs() < 1e-6;
                if (p[1] > y) != (q[1] > y) && x < p[0] + (y - p[1]) * dx / dy {
                    inside = !inside;
                }
            }
            if near {
                continue;
            }
            let crossing = PlaneCrossing { o, t, h };
            assert_eq!(
                crossing.in_polygon(&points),
                inside,
                "{o:?} {t:?} {h} {points:?}"
            );
            checked += 1;
        }
        assert!(checked > 1000, "only {checked} cases");
    }
}
