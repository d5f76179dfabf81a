//! Exact segment tests with the shift rule, and the uniform-grid wall index.
//!
//! Every orientation is the exact sign of `robust::orient2d` (positive when
//! the three points turn counter-clockwise in y-up axes, which is clockwise
//! on the y-down canvas). The sight segment is treated as moved by
//! `(ε, ε²)` for an infinitely small `ε > 0` (the module docs' shift rule):
//! each orientation that is exactly 0 is replaced by the sign of its first
//! non-zero term in `ε`, so no test ever returns "touching".

use robust::{orient2d, Coord};

use super::{Blocking, Point, SightLine, Wall, WallDirection};

fn orient(a: Point, b: Point, c: Point) -> f64 {
    orient2d(
        Coord { x: a.x, y: a.y },
        Coord { x: b.x, y: b.y },
        Coord { x: c.x, y: c.y },
    )
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

/// A wall that restricts sight, prepared for tests.
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
}

impl SightWall {
    fn new(index: usize, wall: &Wall) -> Option<SightWall> {
        let blocking = wall.blocks_as()?;
        let [x0, y0, x1, y1] = wall.c;
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
        })
    }

    /// When the shifted segment `o → t` crosses this wall (and the wall's
    /// height meets the segment's elevations), the side the observer `o`
    /// stands on. `o` and `t` are at different positions.
    fn crossing(&self, o: Point, t: Point) -> Option<Side> {
        // Wall Height: the wall must meet the elevations between the ends.
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
        Some(Side::from_robust_sign(observer))
    }
}

/// The brute-force answer over all walls: the reference for [`SightIndex`].
pub(super) fn sight_line(walls: &[Wall], observer: Point, target: Point) -> SightLine {
    let mut line = SightLine::default();
    if observer.same_position(&target) {
        return line;
    }
    for (index, wall) in walls.iter().enumerate() {
        if let Some(wall) = SightWall::new(index, wall) {
            record(&wall, observer, target, &mut line);
        }
    }
    line
}

fn record(wall: &SightWall, observer: Point, target: Point, line: &mut SightLine) {
    if let Some(side) = wall.crossing(observer, target) {
        if blocks_from(wall.direction, side) {
            match wall.blocking {
                Blocking::Normal => line.blocking.push(wall.index),
                Blocking::Limited => line.limited.push(wall.index),
            }
        }
    }
}

/// The walls of a scene that restrict sight, bucketed in a uniform grid of
/// about one wall per cell, for many sight lines on the same walls.
///
/// Each wall is stored in every cell its bounding box touches; a sight line
/// visits, column by column, the cells its own extent touches (widened by
/// a relative 1e-9 so rounding never skips a cell), and tests each wall
/// once, exactly. Answers equal [`super::Scene::sight_line`]'s.
#[derive(Debug, Clone)]
pub struct SightIndex {
    walls: Vec<SightWall>,
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
#[derive(Debug, Clone)]
pub struct SightScratch {
    stamp: Vec<u32>,
    epoch: u32,
}

impl SightScratch {
    fn next(&mut self) -> u32 {
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
    /// Indexes the walls that restrict sight right now (see [`Wall::blocks_as`]).
    pub fn new(walls: &[Wall]) -> SightIndex {
        SightIndex::for_elevations(walls, f64::NEG_INFINITY, f64::INFINITY)
    }

    /// Like [`SightIndex::new`], keeping only the walls whose Wall Height
    /// range meets `low..=high`: enough for sight lines whose ends all lie
    /// at elevations within that range.
    pub fn for_elevations(walls: &[Wall], low: f64, high: f64) -> SightIndex {
        let walls: Vec<SightWall> = walls
            .iter()
            .enumerate()
            .filter_map(|(index, wall)| SightWall::new(index, wall))
            .filter(|wall| wall.bottom <= high && wall.top >= low)
            .collect();
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
        let epoch = scratch.next();
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

    /// The walls that decide the sight line `observer → target`, like
    /// [`super::Scene::sight_line`] (indices sorted ascending).
    pub fn sight_line(
        &self,
        observer: Point,
        target: Point,
        scratch: &mut SightScratch,
    ) -> SightLine {
        let mut line = SightLine::default();
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

    /// Clear view both ways along one segment: `(a sees b, b sees a)`.
    /// The two differ only across one-way walls.
    pub fn clear_both_ways(&self, a: Point, b: Point, scratch: &mut SightScratch) -> (bool, bool) {
        if a.same_position(&b) {
            return (true, true);
        }
        let (mut forward_blocked, mut backward_blocked) = (false, false);
        let (mut forward_limited, mut backward_limited) = (0u32, 0u32);
        self.for_candidates(a, b, scratch, |wall| {
            if let Some(side) = wall.crossing(a, b) {
                let forward = blocks_from(wall.direction, side);
                let backward = blocks_from(wall.direction, side.opposite());
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
