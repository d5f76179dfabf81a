//! Clear view from real Foundry scenes, without a Foundry canvas.
//!
//! [`Scene::from_value`] reads a Foundry VTT Scene document as exported (a
//! compendium line, `scene.toObject()`, "Export Data": the v10+, 0.8/v9 and
//! 0.7 layouts) or this module's normalized form (`furtiveScene: 1`), and
//! answers, for callers without a canvas (the npm package, the demo,
//! tests), who has clear view of whom and how far apart they stand: what
//! the engine's [`crate::ViewEntry`] takes (`clearView`, and `distance` for
//! enhanced senses, O13).
//!
//! Clear view is B5's "a sight line and no concealment": a sight line in
//! three dimensions, centre to centre, through walls by their sight type,
//! doors, directions, Wall Height ranges and thresholds, Levels floors and
//! holes, decided with exact orientation tests ([`Scene::sight_line`],
//! [`Scene::has_clear_view`]); then light ([`Lighting`]): a target in
//! darkness is concealed from an observer whose darkvision does not reach
//! it. [`Scene::clear_view_matrix`], [`Scene::answer`] and [`SceneSight`]
//! answer clear view; [`SceneSight`] keeps the scene and its
//! [`SightIndex`] between questions and takes updates.
//!
//! Unknown fields are ignored (real exports carry many); missing optional
//! fields take Foundry's documented defaults; malformed data is refused
//! with [`Error::InvalidScene`] naming the path inside the scene document
//! (`walls[12].c`); nothing panics.
//!
//! `docs/scene.md` is the full reading, with its Foundry sources: the
//! formats, the wall rules, heights, one-way walls, the shift rule for
//! exact contacts, light and darkness, and the measurements.

mod foundry;
mod geometry;
mod light;
mod sight;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::Error;

/// A token's id in a scene: a Foundry document id, text as it came (a
/// scene owns its ids; the engine's state has `state::TokenId`).
pub type TokenId = String;

pub use geometry::{SightIndex, SightScratch};
pub use light::{concealed, Lighting, LitBy};
pub use sight::{ClearViewFrom, SceneSight, SceneUpdate, View};

/// The version of the normalized scene form, stored in its `furtiveScene` field.
pub const SCENE_FORMAT: u32 = 1;

/// A point on the canvas: `x`, `y` in pixels (`x` grows rightward, `y`
/// downward) and an `elevation` in scene distance units (default 0), which
/// matters against walls with a height ([`WallHeight`]) and floors ([`Floor`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Point {
    pub x: f64,
    pub y: f64,
    #[serde(default)]
    pub elevation: f64,
}

impl Point {
    /// A point at elevation 0.
    pub const fn new(x: f64, y: f64) -> Self {
        Point {
            x,
            y,
            elevation: 0.0,
        }
    }

    /// The same point at `elevation`.
    pub const fn at(self, elevation: f64) -> Self {
        Point { elevation, ..self }
    }

    /// Same canvas position (elevation ignored).
    pub fn same_position(&self, other: &Point) -> bool {
        self.x == other.x && self.y == other.y
    }
}

/// Which Foundry layout a scene was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum SceneLayout {
    /// Foundry v10 to v13: `grid` is an object.
    #[serde(rename = "v10")]
    V10,
    /// Foundry 0.8 and v9: `grid` is a number, walls use `sight`.
    #[serde(rename = "v0.8")]
    V08,
    /// Foundry 0.7: `grid` is a number, walls use `sense`.
    #[serde(rename = "v0.7")]
    V07,
}

/// The scene grid (Foundry `GridData`; `grid`, `gridDistance`, `gridUnits`
/// and `gridType` before v10).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Grid {
    /// Pixels per grid space, > 0 (Foundry `grid.size`, default 100).
    pub size: f64,
    /// Scene distance units per grid space, > 0 (`grid.distance`, default 1).
    pub distance: f64,
    /// Label of the distance unit, e.g. `"ft"` (`grid.units`, default `""`).
    #[serde(default)]
    pub units: String,
    /// `CONST.GRID_TYPES`: 0 gridless, 1 square, 2-5 hexagonal; kept, not used.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub grid_type: Option<u32>,
}

impl Default for Grid {
    fn default() -> Self {
        Grid {
            size: 100.0,
            distance: 1.0,
            units: String::new(),
            grid_type: None,
        }
    }
}

/// How a wall restricts sight (`CONST.WALL_SENSE_TYPES`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum SightRestriction {
    /// 0: sight passes.
    None,
    /// 10 (0.7: `sense` 2): a sight line is blocked by its second limited wall.
    Limited,
    /// 20 (0.7: `sense` 1): blocks.
    Normal,
    /// 30 (v11+): blocks sources at or beyond its threshold distance (see [`WallThreshold`]).
    Proximity,
    /// 40 (v11+): blocks sources closer than its threshold distance (see [`WallThreshold`]).
    Distance,
}

/// The door a wall contains (`CONST.WALL_DOOR_TYPES`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum DoorKind {
    /// 0: a plain wall.
    None,
    /// 1: a door.
    Door,
    /// 2: a secret door; blocks exactly like a door.
    Secret,
}

/// The state of a door (`CONST.WALL_DOOR_STATES`); ignored on plain walls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum DoorState {
    /// 0: closed, blocks.
    Closed,
    /// 1: open, sight passes.
    Open,
    /// 2: locked (closed), blocks.
    Locked,
}

/// Which side a wall blocks from (`CONST.WALL_DIRECTIONS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum WallDirection {
    /// 0: blocks from both sides.
    Both,
    /// 1: blocks only observers on its left (`docs/scene.md`, "One-way walls").
    Left,
    /// 2: blocks only observers on its right.
    Right,
}

/// A wall segment (Foundry `WallData`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Wall {
    /// Foundry `_id`, when the export has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// `[x0, y0, x1, y1]` in canvas pixels; direction matters for `dir`.
    pub c: [f64; 4],
    pub sight: SightRestriction,
    pub door: DoorKind,
    pub door_state: DoorState,
    pub direction: WallDirection,
    /// Vertical extent from the Wall Height module; absent: unbounded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<WallHeight>,
    /// How the wall restricts light (`light`, same codes as `sight`; 0.7:
    /// `sense`); absent: like `sight`. Used by the light model only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub light: Option<SightRestriction>,
    /// Proximity thresholds of a proximity (30) or distance (40) wall
    /// (Foundry `WallData.threshold`, v11+); absent: no threshold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threshold: Option<WallThreshold>,
}

/// The thresholds of a proximity or distance wall (Foundry
/// `WallThresholdData`), in scene distance units ("grid units" in the v14
/// API docs). `sight` (`light`) is the "minimum distance from a vision
/// (light) source for which this wall blocks vision (light)"; a missing
/// value is 0. `CONST.WALL_SENSE_TYPES`: a PROXIMITY wall is bypassed by
/// senses "within a certain proximity threshold", a DISTANCE wall "outside
/// a certain proximity threshold". So, with `d` the distance from the
/// source (the observer, or the light) to the nearest point of the wall:
/// a proximity wall blocks when `d >= threshold`, a distance wall when
/// `d < threshold`. Ignored on walls of other types.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WallThreshold {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sight: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub light: Option<f64>,
    /// "Whether to attenuate the source radius when passing through the
    /// wall": kept, not used (a sight line has no radius; see docs/scene.md).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub attenuation: bool,
}

/// The vertical extent of a wall, from the Wall Height module's
/// `flags["wall-height"] = {bottom, top}` (4.0 and later; used by Levels
/// scenes such as the Nort Gate fixture) or, before 4.0,
/// `flags.wallHeight = {wallHeightBottom, wallHeightTop}`, in scene
/// distance units; a missing or `null` bound is unbounded. Core Foundry
/// walls have no height.
///
/// B5: the sight line is a segment in three dimensions; a wall with a
/// height counts only when the line's elevation where it crosses the wall
/// lies in `[bottom, top]` (`docs/scene.md`, "Height").
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WallHeight {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bottom: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top: Option<f64>,
}

impl Wall {
    /// A plain two-way wall with the given sight restriction.
    pub fn new(c: [f64; 4], sight: SightRestriction) -> Self {
        Wall {
            id: None,
            c,
            sight,
            door: DoorKind::None,
            door_state: DoorState::Closed,
            direction: WallDirection::Both,
            height: None,
            light: None,
            threshold: None,
        }
    }

    /// Whether this wall is a door (or secret door) standing open.
    pub fn is_open(&self) -> bool {
        self.door != DoorKind::None && self.door_state == DoorState::Open
    }

    /// How this wall restricts `sense` when closed: `None` when the sense
    /// always passes (restriction none, zero length), else whether it is
    /// limited. Proximity and distance walls are `Normal` here; their
    /// threshold is applied per source.
    pub fn restricts(&self, sense: Sense) -> Option<Blocking> {
        let [x0, y0, x1, y1] = self.c;
        if x0 == x1 && y0 == y1 {
            return None;
        }
        match self.restriction(sense) {
            SightRestriction::None => None,
            SightRestriction::Limited => Some(Blocking::Limited),
            SightRestriction::Normal | SightRestriction::Proximity | SightRestriction::Distance => {
                Some(Blocking::Normal)
            }
        }
    }

    /// The wall's restriction type for `sense` (`light` falls back to `sight`).
    pub fn restriction(&self, sense: Sense) -> SightRestriction {
        match sense {
            Sense::Sight => self.sight,
            Sense::Light => self.light.unwrap_or(self.sight),
        }
    }
}

/// What travels along a line: a sight line (walls' `sight`, thresholds
/// `threshold.sight`) or light (walls' `light`, `threshold.light`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sense {
    Sight,
    Light,
}

/// How a wall that restricts sight counts on a sight line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Blocking {
    /// Blocks on its own.
    Normal,
    /// Blocks only with another limited wall on the same sight line.
    Limited,
}

/// A token on the scene (Foundry `TokenData`), or a placement given by the caller.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Token {
    /// Foundry `_id` (or the caller's id).
    pub id: TokenId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Left edge, canvas pixels.
    pub x: f64,
    /// Top edge, canvas pixels.
    pub y: f64,
    /// Width in grid spaces, > 0 (default 1).
    #[serde(default = "one")]
    pub width: f64,
    /// Height in grid spaces, > 0 (default 1).
    #[serde(default = "one")]
    pub height: f64,
    /// Elevation in scene distance units (default 0): the height of the
    /// token's eye and of its body for sight lines (B5, `docs/scene.md`).
    #[serde(default)]
    pub elevation: f64,
    /// Range in scene distance units within which this token, as an
    /// observer, sees in darkness (darkvision, blindsight, a configured
    /// attribute); 0 (the default) when it needs light. Read from the
    /// export as pre-v10 `dimSight`, or v10+ `sight.range` when
    /// `sight.visionMode` is `"darkvision"`; callers may set it.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub darkvision: f64,
    /// The light the token carries (a torch, a lantern), centred on the
    /// token and moving with it; absent: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub light: Option<TokenLight>,
}

/// A light carried by a token (v10+ `light` = `LightData`: `dim`,
/// `bright`, `angle`, `negative`, `darkness`; 0.7 to v9 `dimLight`,
/// `brightLight`, `lightAngle`, a negative radius making darkness), emitted
/// from the token's centre at its elevation, turned with the token's
/// `rotation`. It lights like an ambient [`Light`] with `walls: true`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TokenLight {
    /// Dim radius, >= 0, scene distance units.
    pub dim: f64,
    /// Bright radius, >= 0, scene distance units.
    pub bright: f64,
    /// Emission angle in degrees, `0..=360` (default 360).
    #[serde(default = "full_circle", skip_serializing_if = "is_full_circle")]
    pub angle: f64,
    /// The token's rotation, degrees (0 faces down the screen).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rotation: f64,
    /// A darkness source.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub darkness: bool,
    /// Darkness levels at which it is on; absent: always.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<DarknessRange>,
}

impl Token {
    /// The light this token carries, as an ambient light at its centre
    /// (id `None`), when it has one with a radius.
    pub fn carried_light(&self, grid: &Grid) -> Option<Light> {
        let light = self.light.as_ref()?;
        if light.dim.max(light.bright) <= 0.0 {
            return None;
        }
        Some(Light {
            id: None,
            x: self.x + self.width * grid.size / 2.0,
            y: self.y + self.height * grid.size / 2.0,
            dim: light.dim,
            bright: light.bright,
            darkness: light.darkness,
            hidden: false,
            elevation: self.elevation,
            angle: light.angle,
            rotation: light.rotation,
            walls: true,
            active: light.active,
        })
    }
}

fn one() -> f64 {
    1.0
}

fn is_zero(value: &f64) -> bool {
    *value == 0.0
}

fn is_true(value: &bool) -> bool {
    *value
}

fn yes() -> bool {
    true
}

fn full_circle() -> f64 {
    360.0
}

fn is_full_circle(value: &f64) -> bool {
    *value == 360.0
}

/// A range of scene darkness levels, `min..=max` within 0..=1: when a light
/// is active (v9+ `config.darkness`, v8 `darknessThreshold` as `{min:
/// threshold, max: 1}`), or when global illumination applies (v12+
/// `environment.globalLight.darkness`, v9 to v11 `globalLightThreshold` as
/// `{min: 0, max: threshold}`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct DarknessRange {
    pub min: f64,
    pub max: f64,
}

impl DarknessRange {
    /// Whether `level` lies in `min..=max`.
    pub fn contains(&self, level: f64) -> bool {
        self.min <= level && level <= self.max
    }
}

/// A Levels hole: a drawing with `flags.levels.drawingMode` 1 ("Hole" in
/// the Levels drawing config; 2 stair and 3 elevator are not holes), an
/// area where the floors whose elevation lies in `bottom..=top` (its
/// `rangeBottom`, `rangeTop`; missing: unbounded) are open, like a
/// balcony's opening or the open sky around a building.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Hole {
    /// The drawing's Foundry `_id`, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bottom: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top: Option<f64>,
    /// The area, canvas pixels, turned as the drawing was.
    pub shape: HoleShape,
}

/// The area of a [`Hole`]. JSON: `{"polygon": [[x, y], ...]}` or
/// `{"ellipse": {"x", "y", "radiusX", "radiusY", "rotation"}}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum HoleShape {
    /// A polygon (a drawn rectangle, polygon or freehand shape), absolute
    /// canvas points; inside by the even-odd rule, edges included.
    Polygon(Vec<[f64; 2]>),
    /// An ellipse: centre, radii (pixels), rotation (degrees clockwise).
    Ellipse {
        x: f64,
        y: f64,
        radius_x: f64,
        radius_y: f64,
        rotation: f64,
    },
}

/// A Levels floor: a tile with `flags.levels.rangeBottom` (the Levels
/// module by theripper93), a horizontal plane at `elevation` (that bottom,
/// scene distance units) over the tile's rectangle (`x`, `y`, `width`,
/// `height` in canvas pixels, turned by `rotation` degrees clockwise about
/// its centre). B5: it blocks a line that crosses its plane inside the
/// rectangle (`docs/scene.md`, "Height").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Floor {
    /// The tile's Foundry `_id`, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub x: f64,
    pub y: f64,
    /// Pixels, >= 0.
    pub width: f64,
    /// Pixels, >= 0.
    pub height: f64,
    /// Degrees, clockwise on the canvas (default 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rotation: f64,
    /// The floor's elevation (`rangeBottom`), scene distance units.
    pub elevation: f64,
}

/// An ambient light or darkness source (Foundry `AmbientLightData`); see
/// `docs/scene.md`, "Light and darkness", for what it lights.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Light {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Origin, canvas pixels.
    pub x: f64,
    pub y: f64,
    /// Dim radius, >= 0, scene distance units (AmbientLightData v8: "in
    /// distance units"; v9+ `config.dim`).
    pub dim: f64,
    /// Bright radius, >= 0, same unit as `dim`.
    pub bright: f64,
    /// A darkness source: v12+ `config.negative`, or a negative radius (0.8).
    #[serde(default)]
    pub darkness: bool,
    /// Hidden lights are off.
    #[serde(default)]
    pub hidden: bool,
    /// Elevation of the origin, scene distance units: v12+ `elevation`, else
    /// the Levels `flags.levels.rangeBottom`, else 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub elevation: f64,
    /// Emission angle in degrees, `0..=360` (`config.angle`, 0.8 `angle`;
    /// default 360), centred on `rotation`.
    #[serde(default = "full_circle", skip_serializing_if = "is_full_circle")]
    pub angle: f64,
    /// Degrees; 0 faces down the screen (+y), growing clockwise (Foundry's
    /// token and light rotation).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rotation: f64,
    /// Whether walls constrain the light (`walls`, default true).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub walls: bool,
    /// Darkness levels at which the light is on; absent: always.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<DarknessRange>,
}

/// A scene normalized from any supported layout (`parseScene` returns it as JSON).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Scene {
    /// Always [`SCENE_FORMAT`]; marks a JSON value as a normalized scene.
    pub furtive_scene: u32,
    /// The layout the scene was read from.
    pub layout: SceneLayout,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Scene width and height in pixels, when the export has them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<f64>,
    pub grid: Grid,
    #[serde(default)]
    pub walls: Vec<Wall>,
    #[serde(default)]
    pub tokens: Vec<Token>,
    #[serde(default)]
    pub lights: Vec<Light>,
    /// Levels floors (tiles with `flags.levels.rangeBottom`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub floors: Vec<Floor>,
    /// Levels holes (drawings with `flags.levels.drawingMode` 1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub holes: Vec<Hole>,
    /// Scene darkness level 0..=1 (`darkness`, v12+ `environment.darknessLevel`).
    #[serde(default)]
    pub darkness: f64,
    /// Global illumination (`globalLight`, v12+ `environment.globalLight.enabled`).
    #[serde(default)]
    pub global_light: bool,
    /// Darkness levels at which global illumination applies (v9 to v11
    /// `globalLightThreshold`, v12+ `environment.globalLight.darkness`);
    /// absent: all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub global_light_darkness: Option<DarknessRange>,
}

/// The walls and floors that decide one sight line, by index in
/// [`Scene::walls`] and [`Scene::floors`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SightLine {
    /// Normal walls (and closed doors) that block this line from this observer.
    pub blocking: Vec<usize>,
    /// Limited walls this line crosses and that count from this observer.
    pub limited: Vec<usize>,
    /// Levels floors this line passes through.
    pub floors: Vec<usize>,
}

impl SightLine {
    /// A sight line: no blocking wall or floor and fewer than two limited walls.
    pub fn clear(&self) -> bool {
        self.blocking.is_empty() && self.limited.len() < 2 && self.floors.is_empty()
    }
}

/// Clear view and distances between every pair of tokens.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ClearViewMatrix {
    /// Token ids; row and column `i` are `ids[i]`.
    pub ids: Vec<TokenId>,
    /// `clear_view[i][j]`: observer `ids[i]` has clear view of `ids[j]`.
    /// Symmetric except across one-way walls; the diagonal is `true`.
    pub clear_view: Vec<Vec<bool>>,
    /// Centre-to-centre distance in scene units (`grid.distance` per
    /// `grid.size` pixels), symmetric, diagonal 0.
    pub distance: Vec<Vec<f64>>,
    /// `in_darkness[i]`: `ids[i]` stands in darkness (see [`Lighting`]).
    pub in_darkness: Vec<bool>,
    /// The unit of `distance` (`grid.units`).
    pub units: String,
}

pub(crate) fn invalid(field: impl Into<String>, message: impl Into<String>) -> Error {
    Error::InvalidScene {
        field: field.into(),
        message: message.into(),
    }
}

impl Scene {
    /// Reads a scene: a Foundry Scene export in any layout of the module
    /// docs, or a normalized scene (an object with `furtiveScene: 1`).
    ///
    /// Errors: [`Error::InvalidScene`] naming the field path inside the
    /// scene; [`Error::DuplicateToken`] when two tokens share an id.
    pub fn from_value(value: Value) -> Result<Scene, Error> {
        let normalized = value
            .as_object()
            .is_some_and(|object| object.contains_key("furtiveScene"));
        if !normalized {
            return foundry::read_scene(&value);
        }
        let scene: Scene = serde_path_to_error::deserialize(&value).map_err(|error| {
            let path = error.path().to_string();
            let field = if path == "." { "scene".into() } else { path };
            invalid(field, error.into_inner().to_string())
        })?;
        scene.validate()?;
        Ok(scene)
    }

    /// Checks what the type system cannot: finite numbers, positive grid
    /// and token sizes, radii >= 0, darkness 0..=1, unique token ids, the
    /// format version. Every parse path calls it; call it after building or
    /// editing a scene by hand.
    pub fn validate(&self) -> Result<(), Error> {
        if self.furtive_scene != SCENE_FORMAT {
            return Err(invalid(
                "furtiveScene",
                format!(
                    "normalized scene format {} is not supported (this engine reads {SCENE_FORMAT})",
                    self.furtive_scene
                ),
            ));
        }
        positive("grid.size", self.grid.size)?;
        positive("grid.distance", self.grid.distance)?;
        for (field, value) in [("width", self.width), ("height", self.height)] {
            if let Some(value) = value {
                finite(field, value)?;
            }
        }
        if !(0.0..=1.0).contains(&self.darkness) {
            return Err(invalid(
                "darkness",
                format!("must be a number from 0 to 1, got {}", self.darkness),
            ));
        }
        for (i, wall) in self.walls.iter().enumerate() {
            validate_wall(wall, &format!("walls[{i}]"))?;
        }
        let mut seen = std::collections::BTreeSet::new();
        for (i, token) in self.tokens.iter().enumerate() {
            validate_token(token, &format!("tokens[{i}]"))?;
            if !seen.insert(token.id.as_str()) {
                return Err(Error::DuplicateToken {
                    field: format!("tokens[{i}].id"),
                    id: token.id.clone(),
                });
            }
        }
        for (i, light) in self.lights.iter().enumerate() {
            validate_light(light, &format!("lights[{i}]"))?;
        }
        for (i, floor) in self.floors.iter().enumerate() {
            let path = format!("floors[{i}]");
            finite(&format!("{path}.x"), floor.x)?;
            finite(&format!("{path}.y"), floor.y)?;
            non_negative(&format!("{path}.width"), floor.width)?;
            non_negative(&format!("{path}.height"), floor.height)?;
            finite(&format!("{path}.rotation"), floor.rotation)?;
            finite(&format!("{path}.elevation"), floor.elevation)?;
        }
        if let Some(range) = self.global_light_darkness {
            validate_range("globalLightDarkness", range)?;
        }
        for (i, hole) in self.holes.iter().enumerate() {
            let path = format!("holes[{i}]");
            for (name, bound) in [("bottom", hole.bottom), ("top", hole.top)] {
                if let Some(bound) = bound {
                    finite(&format!("{path}.{name}"), bound)?;
                }
            }
            match &hole.shape {
                HoleShape::Polygon(points) => {
                    if points.iter().flatten().any(|v| !in_scene_range(*v)) {
                        return Err(invalid(
                            format!("{path}.shape"),
                            "polygon points must be finite numbers from -1e15 to 1e15",
                        ));
                    }
                }
                HoleShape::Ellipse {
                    x,
                    y,
                    radius_x,
                    radius_y,
                    rotation,
                } => {
                    finite(&format!("{path}.shape.x"), *x)?;
                    finite(&format!("{path}.shape.y"), *y)?;
                    non_negative(&format!("{path}.shape.radiusX"), *radius_x)?;
                    non_negative(&format!("{path}.shape.radiusY"), *radius_y)?;
                    finite(&format!("{path}.shape.rotation"), *rotation)?;
                }
            }
        }
        Ok(())
    }

    /// The scene token with this id.
    pub fn token(&self, id: &str) -> Option<&Token> {
        self.tokens.iter().find(|token| token.id == id)
    }

    /// A token's centre in canvas pixels,
    /// `(x + width * grid.size / 2, y + height * grid.size / 2)`, at the
    /// token's elevation.
    pub fn token_center(&self, token: &Token) -> Point {
        Point {
            x: token.x + token.width * self.grid.size / 2.0,
            y: token.y + token.height * self.grid.size / 2.0,
            elevation: token.elevation,
        }
    }

    /// Straight-line distance between two canvas points, in scene distance
    /// units (`grid.distance` per `grid.size` pixels). Euclidean and flat:
    /// elevation and Foundry's diagonal measurement rules are not applied.
    ///
    /// A square root of the sum of squares, not `f64::hypot`: `hypot` is
    /// the platform's (glibc natively, Rust's libm port in wasm) and the two
    /// round some distances differently, while `+`, `*` and `sqrt` are
    /// IEEE 754 exact-rounded everywhere, so napi and wasm answer the same
    /// number to the last bit (canvas coordinates stay far from overflow).
    pub fn distance(&self, a: Point, b: Point) -> f64 {
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        (dx * dx + dy * dy).sqrt() * self.grid.distance / self.grid.size
    }

    /// The walls that decide the sight line from `observer` to `target`
    /// (all of them, no early exit). Clear view is [`SightLine::clear`].
    pub fn sight_line(&self, observer: Point, target: Point) -> SightLine {
        geometry::sight_line(self, Sense::Sight, observer, target)
    }

    /// Whether `observer` has a sight line to `target` (walls and floors
    /// only, no light; `docs/scene.md`).
    pub fn has_clear_view(&self, observer: Point, target: Point) -> bool {
        self.sight_line(observer, target).clear()
    }

    /// Builds the wall index used for many sight lines on this scene.
    pub fn sight_index(&self) -> SightIndex {
        SightIndex::new(self)
    }

    /// [`Scene::clear_view_matrix`] of tokens given apart from the scene,
    /// checked first: each token's numbers, and ids once each
    /// (`duplicate_token` naming `what[i].id`).
    pub fn clear_view_matrix_of(
        &self,
        what: &str,
        tokens: &[Token],
    ) -> Result<ClearViewMatrix, Error> {
        let mut seen = std::collections::BTreeSet::new();
        for (i, token) in tokens.iter().enumerate() {
            validate_token(token, &format!("{what}[{i}]")).map_err(as_input)?;
            if !seen.insert(token.id.as_str()) {
                return Err(Error::DuplicateToken {
                    field: format!("{what}[{i}].id"),
                    id: token.id.clone(),
                });
            }
        }
        Ok(self.clear_view_matrix(tokens))
    }

    /// Clear view (B5: sight line and no concealment by darkness) and
    /// distance between every pair of `tokens` (centre to centre). Pass
    /// `&scene.tokens` for the scene's own tokens. Ids are not checked for
    /// uniqueness here ([`Scene::clear_view_matrix_of`] checks them).
    /// Builds its indexes for this call; [`SceneSight`] keeps them between
    /// calls.
    pub fn clear_view_matrix(&self, tokens: &[Token]) -> ClearViewMatrix {
        let (low, high) = tokens
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(low, high), t| {
                (low.min(t.elevation), high.max(t.elevation))
            });
        let index = SightIndex::build(self, Sense::Sight, low, high);
        let mut scratch = index.scratch();
        let lighting = self.lighting_of_all(tokens, &mut scratch);
        sight::matrix(self, tokens, &index, &lighting, &mut scratch)
    }

    /// The lighting at each token's centre (one light index for the call,
    /// none when the scene is lit everywhere).
    fn lighting_of_all(&self, tokens: &[Token], scratch: &mut SightScratch) -> Vec<Lighting> {
        if self.lit_everywhere() {
            return vec![Lighting::everywhere(); tokens.len()];
        }
        let index = self.light_index();
        tokens
            .iter()
            .map(|token| self.lighting(&index, self.token_center(token), scratch))
            .collect()
    }
}

/// Checks one token's numbers; `path` prefixes field names (`tokens[3]`).
pub(crate) fn validate_token(token: &Token, path: &str) -> Result<(), Error> {
    finite(&format!("{path}.x"), token.x)?;
    finite(&format!("{path}.y"), token.y)?;
    positive(&format!("{path}.width"), token.width)?;
    positive(&format!("{path}.height"), token.height)?;
    finite(&format!("{path}.elevation"), token.elevation)?;
    non_negative(&format!("{path}.darkvision"), token.darkvision)?;
    if let Some(light) = &token.light {
        let path = format!("{path}.light");
        non_negative(&format!("{path}.dim"), light.dim)?;
        non_negative(&format!("{path}.bright"), light.bright)?;
        validate_cone(&path, light.rotation, light.angle, light.active)?;
    }
    Ok(())
}

/// Checks one wall's numbers; `path` prefixes field names (`walls[3]`).
pub(crate) fn validate_wall(wall: &Wall, path: &str) -> Result<(), Error> {
    if wall.c.iter().any(|v| !in_scene_range(*v)) {
        return Err(invalid(
            format!("{path}.c"),
            "must hold 4 finite numbers [x0, y0, x1, y1] from -1e15 to 1e15",
        ));
    }
    if let Some(threshold) = wall.threshold {
        for (name, value) in [("sight", threshold.sight), ("light", threshold.light)] {
            if let Some(value) = value {
                non_negative(&format!("{path}.threshold.{name}"), value)?;
            }
        }
    }
    if let Some(height) = wall.height {
        for (name, bound) in [("bottom", height.bottom), ("top", height.top)] {
            if let Some(bound) = bound {
                finite(&format!("{path}.height.{name}"), bound)?;
            }
        }
        if let (Some(bottom), Some(top)) = (height.bottom, height.top) {
            if bottom > top {
                return Err(invalid(
                    format!("{path}.height"),
                    format!("bottom {bottom} is above top {top}"),
                ));
            }
        }
    }
    Ok(())
}

/// Checks one light's numbers; `path` prefixes field names (`lights[3]`).
pub(crate) fn validate_light(light: &Light, path: &str) -> Result<(), Error> {
    finite(&format!("{path}.x"), light.x)?;
    finite(&format!("{path}.y"), light.y)?;
    non_negative(&format!("{path}.dim"), light.dim)?;
    non_negative(&format!("{path}.bright"), light.bright)?;
    finite(&format!("{path}.elevation"), light.elevation)?;
    validate_cone(path, light.rotation, light.angle, light.active)
}

/// Checks the `rotation`, `angle` and `active` range a token's light and a
/// light share; `path` prefixes field names.
fn validate_cone(
    path: &str,
    rotation: f64,
    angle: f64,
    active: Option<DarknessRange>,
) -> Result<(), Error> {
    finite(&format!("{path}.rotation"), rotation)?;
    if !(0.0..=360.0).contains(&angle) {
        return Err(invalid(
            format!("{path}.angle"),
            format!("must be a number of degrees from 0 to 360, got {angle}"),
        ));
    }
    if let Some(range) = active {
        validate_range(&format!("{path}.active"), range)?;
    }
    Ok(())
}

fn validate_range(field: &str, range: DarknessRange) -> Result<(), Error> {
    if !(0.0..=1.0).contains(&range.min)
        || !(0.0..=1.0).contains(&range.max)
        || range.min > range.max
    {
        return Err(invalid(
            field,
            format!(
                "must be {{min, max}} with 0 <= min <= max <= 1, got {{min: {}, max: {}}}",
                range.min, range.max
            ),
        ));
    }
    Ok(())
}

/// The largest magnitude a number of a scene may have (coordinates in
/// pixels, sizes, elevations, radii, thresholds): 1e15. Sight lines are
/// decided by exact orientation predicates, which are exact only while the
/// products of coordinate differences stay finite; with coordinates near
/// 1e250 they overflow, and the same sight line came out clear one way and
/// blocked the other. Within
/// 1e15 the products stay far from overflow (they would need about 1e100),
/// and no Foundry scene comes near 1e15 pixels.
pub const MAX_SCENE_NUMBER: f64 = 1e15;

/// A finite number within ±[`MAX_SCENE_NUMBER`].
fn in_scene_range(value: f64) -> bool {
    value.is_finite() && value.abs() <= MAX_SCENE_NUMBER
}

fn finite(field: &str, value: f64) -> Result<(), Error> {
    if in_scene_range(value) {
        Ok(())
    } else {
        Err(invalid(
            field,
            format!("must be a finite number from -1e15 to 1e15, got {value}"),
        ))
    }
}

fn positive(field: &str, value: f64) -> Result<(), Error> {
    if in_scene_range(value) && value > 0.0 {
        Ok(())
    } else {
        Err(invalid(
            field,
            format!("must be a finite number > 0, at most 1e15, got {value}"),
        ))
    }
}

fn non_negative(field: &str, value: f64) -> Result<(), Error> {
    if in_scene_range(value) && value >= 0.0 {
        Ok(())
    } else {
        Err(invalid(
            field,
            format!("must be a finite number >= 0, at most 1e15, got {value}"),
        ))
    }
}

/// One end of a sight line in a [`ClearViewQuery`]. JSON, one of:
///
/// - `{"tokenId": "abc"}`: the centre of the scene's token `abc`;
/// - `{"x": 150, "y": 250, "elevation": 0}`: a canvas point in pixels
///   (elevation optional, default 0), used as is;
/// - `{"token": {"x": 100, "y": 200, "width": 1, "height": 1}}`: a token
///   placement (top-left corner in pixels, size in grid spaces, default 1),
///   whose centre is used.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(
    untagged,
    expecting = "one of {\"tokenId\": id} (a scene token), {\"x\", \"y\"} (a canvas point in pixels) or {\"token\": {\"x\", \"y\", \"width\"?, \"height\"?}} (a token placement)"
)]
pub enum SightEnd {
    Token(TokenRef),
    Placement(PlacementRef),
    Point(Point),
}

/// `{"tokenId": id}`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TokenRef {
    pub token_id: TokenId,
}

/// `{"token": {x, y, width?, height?, elevation?}}`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct PlacementRef {
    pub token: Placement,
}

/// A token placement without an id: top-left corner in pixels, size in grid spaces.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Placement {
    pub x: f64,
    pub y: f64,
    #[serde(default = "one")]
    pub width: f64,
    #[serde(default = "one")]
    pub height: f64,
    #[serde(default)]
    pub elevation: f64,
}

/// `clearView` query: `{"from": SightEnd, "to": SightEnd, "darkvision"?:
/// number}`; `from` is the observer. `darkvision` (scene units, >= 0) is
/// how far the observer sees in darkness; absent: the observer token's
/// `darkvision` when `from` is a `tokenId`, else 0.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ClearViewQuery {
    pub from: SightEnd,
    pub to: SightEnd,
    #[serde(default)]
    pub darkvision: Option<f64>,
}

/// A wall named in a [`ClearViewAnswer`]: its index in the normalized
/// scene's `walls` and its Foundry `_id` when it has one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WallRef {
    pub index: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
}

/// The answer to a [`ClearViewQuery`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClearViewAnswer {
    /// The observer (`from`) has clear view of the target (`to`) (B5): a
    /// sight line and no concealment by darkness.
    pub clear_view: bool,
    /// No wall or floor blocks the line (light aside).
    pub sight_line: bool,
    /// The lighting at the target.
    pub target_lighting: Lighting,
    /// The observer's range of sight in darkness used, scene units.
    pub darkvision: f64,
    /// The sight line's two ends, canvas pixels.
    pub from: Point,
    pub to: Point,
    /// Distance between them in scene units.
    pub distance: f64,
    /// The unit of `distance` (`grid.units`).
    pub units: String,
    /// Walls that block this line on their own.
    pub blocking_walls: Vec<WallRef>,
    /// Limited walls crossed (blocking when there are two or more).
    pub limited_walls: Vec<WallRef>,
    /// Levels floors the line passes through (`index` in the normalized
    /// scene's `floors`, `id` the tile's).
    #[serde(default)]
    pub blocking_floors: Vec<WallRef>,
}

impl Scene {
    /// The canvas point of one end of a query; `field` names it in errors
    /// (`query.from`): [`Error::UnknownToken`] for an unknown `tokenId`,
    /// [`Error::InvalidInput`] for a bad placement.
    pub fn resolve(&self, end: &SightEnd, field: &str) -> Result<Point, Error> {
        match end {
            SightEnd::Point(point) => Ok(*point),
            SightEnd::Token(TokenRef { token_id }) => self
                .token(token_id)
                .map(|token| self.token_center(token))
                .ok_or_else(|| Error::UnknownToken {
                    field: format!("{field}.tokenId"),
                    id: token_id.clone(),
                }),
            SightEnd::Placement(PlacementRef { token }) => {
                let token = Token {
                    id: String::new(),
                    name: None,
                    x: token.x,
                    y: token.y,
                    width: token.width,
                    height: token.height,
                    elevation: token.elevation,
                    darkvision: 0.0,
                    light: None,
                };
                validate_token(&token, &format!("{field}.token")).map_err(as_input)?;
                Ok(self.token_center(&token))
            }
        }
    }

    /// Answers a `clearView` query (see [`ClearViewQuery`]) through a
    /// [`SceneSight`] built for this one query (a copy of the scene); keep
    /// a [`SceneSight`] to ask many.
    pub fn answer(&self, query: &ClearViewQuery) -> Result<ClearViewAnswer, Error> {
        SceneSight::new(self.clone()).answer(query)
    }

    /// The answer for a sight line already decided.
    pub(crate) fn answer_with(
        &self,
        from: Point,
        to: Point,
        line: &SightLine,
        target_lighting: Lighting,
        darkvision: f64,
    ) -> ClearViewAnswer {
        let refs = |indices: &[usize]| {
            indices
                .iter()
                .map(|&index| WallRef {
                    index,
                    id: self.walls[index].id.clone(),
                })
                .collect()
        };
        let distance = self.distance(from, to);
        ClearViewAnswer {
            clear_view: line.clear() && !light::concealed(&target_lighting, distance, darkvision),
            sight_line: line.clear(),
            target_lighting,
            darkvision,
            from,
            to,
            distance,
            units: self.grid.units.clone(),
            blocking_walls: refs(&line.blocking),
            limited_walls: refs(&line.limited),
            blocking_floors: line
                .floors
                .iter()
                .map(|&index| WallRef {
                    index,
                    id: self.floors[index].id.clone(),
                })
                .collect(),
        }
    }
}

/// Caller input is not scene data: report it as `invalid_input`.
pub(crate) fn as_input(error: Error) -> Error {
    match error {
        Error::InvalidScene { field, message } => Error::InvalidInput { field, message },
        other => other,
    }
}
