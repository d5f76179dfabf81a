//! Reads Foundry Scene exports (v10+, 0.8/v9, 0.7) into a [`Scene`].
//!
//! Hand-written over `serde_json::Value` rather than derived: the layouts
//! differ per field (`grid` number or object, `sight` or `sense`, light
//! radii flat or under `config`), unknown fields must be ignored, and every
//! error must name its path (`walls[12].c`).

use serde_json::{Map, Value};

use super::{
    invalid, DarknessRange, DoorKind, DoorState, Floor, Grid, Hole, HoleShape, Light, Scene,
    SceneLayout, SightRestriction, Token, TokenLight, Wall, WallDirection, WallHeight,
    WallThreshold, SCENE_FORMAT,
};
use crate::error::Error;

type Object = Map<String, Value>;

/// `object[key]`, with JSON `null` read as missing.
fn get<'a>(object: &'a Object, key: &str) -> Option<&'a Value> {
    object.get(key).filter(|value| !value.is_null())
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

pub(super) fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("boolean `{b}`"),
        Value::Number(n) => format!("number `{n}`"),
        Value::String(s) => format!("string {s:?}"),
        Value::Array(items) => format!("an array of {} items", items.len()),
        Value::Object(_) => "an object".into(),
    }
}

pub(super) fn as_object<'a>(value: &'a Value, field: &str) -> Result<&'a Object, Error> {
    value.as_object().ok_or_else(|| {
        invalid(
            field,
            format!("expected an object, got {}", describe(value)),
        )
    })
}

pub(super) fn number(value: &Value, field: &str) -> Result<f64, Error> {
    match value.as_f64() {
        Some(n) if n.is_finite() => Ok(n),
        _ => Err(invalid(
            field,
            format!("expected a finite number, got {}", describe(value)),
        )),
    }
}

fn opt_number(object: &Object, key: &str, path: &str) -> Result<Option<f64>, Error> {
    get(object, key)
        .map(|value| number(value, &join(path, key)))
        .transpose()
}

fn required_number(object: &Object, key: &str, path: &str) -> Result<f64, Error> {
    match get(object, key) {
        Some(value) => number(value, &join(path, key)),
        None => Err(invalid(join(path, key), "missing (a number is required)")),
    }
}

fn opt_string(object: &Object, key: &str, path: &str) -> Result<Option<String>, Error> {
    match get(object, key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(invalid(
            join(path, key),
            format!("expected a string, got {}", describe(other)),
        )),
    }
}

fn opt_bool(object: &Object, key: &str, path: &str) -> Result<Option<bool>, Error> {
    match get(object, key) {
        None => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(other) => Err(invalid(
            join(path, key),
            format!("expected a boolean, got {}", describe(other)),
        )),
    }
}

/// An integer code such as `door` or `dir`, looked up in `table`.
fn code<T: Copy>(
    object: &Object,
    key: &str,
    path: &str,
    table: &[(i64, T)],
    expected: &str,
) -> Result<Option<T>, Error> {
    let Some(value) = get(object, key) else {
        return Ok(None);
    };
    let field = join(path, key);
    let n = value.as_i64().or_else(|| {
        value
            .as_f64()
            .filter(|f| f.fract() == 0.0)
            .map(|f| f as i64)
    });
    n.and_then(|n| table.iter().find(|(k, _)| *k == n).map(|(_, v)| *v))
        .map(Some)
        .ok_or_else(|| {
            invalid(
                field,
                format!("must be {expected}, got {}", describe(value)),
            )
        })
}

fn array<'a>(object: &'a Object, key: &str) -> Result<&'a [Value], Error> {
    match get(object, key) {
        None => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(other) => Err(invalid(
            key,
            format!("expected an array, got {}", describe(other)),
        )),
    }
}

pub(super) fn read_scene(value: &Value) -> Result<Scene, Error> {
    let scene = as_object(value, "scene")?;
    // Every Scene export has a `walls` array (empty when it has no wall); an
    // object without one is not a scene, and reading it as an empty map
    // would make every token see every other.
    if get(scene, "walls").is_none() {
        return Err(invalid(
            "walls",
            "missing: a Foundry Scene export has a `walls` array".to_owned(),
        ));
    }
    let walls_json = array(scene, "walls")?;
    let any_sense = walls_json.iter().any(|wall| {
        wall.as_object()
            .is_some_and(|w| get(w, "sense").is_some() && get(w, "sight").is_none())
    });
    let (grid, layout) = read_grid(scene, any_sense)?;
    let walls = walls_json
        .iter()
        .enumerate()
        .map(|(i, wall)| read_wall(wall, &format!("walls[{i}]")))
        .collect::<Result<Vec<_>, _>>()?;
    let tokens = array(scene, "tokens")?
        .iter()
        .enumerate()
        .map(|(i, token)| read_token(token, &format!("tokens[{i}]")))
        .collect::<Result<Vec<_>, _>>()?;
    let lights = array(scene, "lights")?
        .iter()
        .enumerate()
        .map(|(i, light)| read_light(light, &format!("lights[{i}]")))
        .collect::<Result<Vec<_>, _>>()?;
    let mut floors = Vec::new();
    for (i, tile) in array(scene, "tiles")?.iter().enumerate() {
        if let Some(floor) = read_floor(tile, &format!("tiles[{i}]"))? {
            floors.push(floor);
        }
    }
    let mut holes = Vec::new();
    for (i, drawing) in array(scene, "drawings")?.iter().enumerate() {
        if let Some(hole) = read_hole(drawing, &format!("drawings[{i}]"))? {
            holes.push(hole);
        }
    }

    let environment = match get(scene, "environment") {
        Some(value) => Some(as_object(value, "environment")?),
        None => None,
    };
    let mut darkness = opt_number(scene, "darkness", "")?.map(|d| ("darkness", d));
    let mut global_light = opt_bool(scene, "globalLight", "")?;
    // v9 to v11: "a darkness level between 0 and 1, beyond which point
    // global illumination is temporarily disabled"; null: no threshold.
    let mut global_light_darkness =
        opt_number(scene, "globalLightThreshold", "")?.map(|max| DarknessRange { min: 0.0, max });
    if let Some(environment) = environment {
        if darkness.is_none() {
            darkness = opt_number(environment, "darknessLevel", "environment")?
                .map(|d| ("environment.darknessLevel", d));
        }
        if let Some(value) = get(environment, "globalLight") {
            let global = as_object(value, "environment.globalLight")?;
            global_light = global_light.or(opt_bool(global, "enabled", "environment.globalLight")?);
            if global_light_darkness.is_none() {
                global_light_darkness = read_range(global, "darkness", "environment.globalLight")?;
            }
        }
    }

    if let Some((field, level)) = darkness {
        if !(0.0..=1.0).contains(&level) {
            return Err(invalid(
                field,
                format!("must be a number from 0 to 1, got {level}"),
            ));
        }
    }
    let scene = Scene {
        furtive_scene: SCENE_FORMAT,
        layout,
        id: opt_string(scene, "_id", "")?,
        name: opt_string(scene, "name", "")?,
        width: opt_number(scene, "width", "")?,
        height: opt_number(scene, "height", "")?,
        grid,
        walls,
        tokens,
        lights,
        floors,
        holes,
        darkness: darkness.map_or(0.0, |(_, level)| level),
        global_light: global_light.unwrap_or(false),
        global_light_darkness,
    };
    scene.validate()?;
    Ok(scene)
}

/// `grid: {size, distance, units, type}` (v10+) or `grid`, `gridDistance`,
/// `gridUnits`, `gridType` (0.7 to v9).
fn read_grid(scene: &Object, any_sense: bool) -> Result<(Grid, SceneLayout), Error> {
    let defaults = Grid::default();
    let grid_type = |object: &Object, key: &str, path: &str| -> Result<Option<u32>, Error> {
        code(
            object,
            key,
            path,
            &[(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5)],
            "a grid type 0..=5",
        )
    };
    match get(scene, "grid") {
        Some(Value::Object(grid)) => Ok((
            Grid {
                size: opt_number(grid, "size", "grid")?.unwrap_or(defaults.size),
                distance: opt_number(grid, "distance", "grid")?.unwrap_or(defaults.distance),
                units: opt_string(grid, "units", "grid")?.unwrap_or_default(),
                grid_type: grid_type(grid, "type", "grid")?,
            },
            SceneLayout::V10,
        )),
        Some(value @ Value::Number(_)) => {
            let size = number(value, "grid")?;
            Ok((
                Grid {
                    size,
                    distance: opt_number(scene, "gridDistance", "")?.unwrap_or(defaults.distance),
                    units: opt_string(scene, "gridUnits", "")?.unwrap_or_default(),
                    grid_type: grid_type(scene, "gridType", "")?,
                },
                if any_sense {
                    SceneLayout::V07
                } else {
                    SceneLayout::V08
                },
            ))
        }
        Some(other) => Err(invalid(
            "grid",
            format!(
                "expected a number or an object {{size, distance, units}}, got {}",
                describe(other)
            ),
        )),
        None => Ok((
            Grid {
                distance: opt_number(scene, "gridDistance", "")?.unwrap_or(defaults.distance),
                units: opt_string(scene, "gridUnits", "")?.unwrap_or_default(),
                ..defaults
            },
            if any_sense {
                SceneLayout::V07
            } else if get(scene, "gridDistance").is_some() {
                SceneLayout::V08
            } else {
                SceneLayout::V10
            },
        )),
    }
}

pub(super) fn read_wall(value: &Value, path: &str) -> Result<Wall, Error> {
    let wall = as_object(value, path)?;
    let field = join(path, "c");
    let c = match get(wall, "c") {
        None => return Err(invalid(field, "missing (expected [x0, y0, x1, y1])")),
        Some(Value::Array(items)) if items.len() == 4 => {
            let mut c = [0.0; 4];
            for (k, item) in items.iter().enumerate() {
                c[k] = number(item, &format!("{field}[{k}]"))?;
            }
            c
        }
        Some(other) => {
            return Err(invalid(
                field,
                format!(
                    "expected an array of 4 numbers [x0, y0, x1, y1], got {}",
                    describe(other)
                ),
            ))
        }
    };
    use SightRestriction as S;
    let sight = if get(wall, "sight").is_some() {
        code(
            wall,
            "sight",
            path,
            &[
                (0, S::None),
                (10, S::Limited),
                (20, S::Normal),
                (30, S::Proximity),
                (40, S::Distance),
                (1, S::Normal),
                (2, S::Limited),
            ],
            "0 (none), 10 (limited), 20 (normal), 30 (proximity) or 40 (distance)",
        )?
    } else {
        code(
            wall,
            "sense",
            path,
            &[(0, S::None), (1, S::Normal), (2, S::Limited)],
            "0 (none), 1 (normal) or 2 (limited)",
        )?
    };
    // Wall Height 4.0+: `flags["wall-height"] = {bottom, top}`; before 4.0:
    // `flags.wallHeight = {wallHeightBottom, wallHeightTop}`. The newer wins.
    let flags = get(wall, "flags");
    let bounds = |key: &str, bottom: &str, top: &str| -> Result<Option<WallHeight>, Error> {
        match flags.and_then(|flags| flags.get(key)) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => {
                let field = join(path, &format!("flags.{key}"));
                let object = as_object(value, &field)?;
                let bottom = opt_number(object, bottom, &field)?;
                let top = opt_number(object, top, &field)?;
                Ok((bottom.is_some() || top.is_some()).then_some(WallHeight { bottom, top }))
            }
        }
    };
    let height = match bounds("wall-height", "bottom", "top")? {
        Some(height) => Some(height),
        None => bounds("wallHeight", "wallHeightBottom", "wallHeightTop")?,
    };
    let light = if get(wall, "sight").is_some() || get(wall, "light").is_some() {
        code(
            wall,
            "light",
            path,
            &[
                (0, S::None),
                (10, S::Limited),
                (20, S::Normal),
                (30, S::Proximity),
                (40, S::Distance),
                (1, S::Normal),
                (2, S::Limited),
            ],
            "0 (none), 10 (limited), 20 (normal), 30 (proximity) or 40 (distance)",
        )?
    } else {
        None // 0.7: `sense` restricts sight and light alike
    };
    let threshold = match get(wall, "threshold") {
        None => None,
        Some(value) => {
            let field = join(path, "threshold");
            let object = as_object(value, &field)?;
            let threshold = WallThreshold {
                sight: opt_number(object, "sight", &field)?,
                light: opt_number(object, "light", &field)?,
                attenuation: opt_bool(object, "attenuation", &field)?.unwrap_or(false),
            };
            (threshold != WallThreshold::default()).then_some(threshold)
        }
    };
    Ok(Wall {
        height,
        light,
        threshold,
        id: opt_string(wall, "_id", path)?,
        c,
        sight: sight.unwrap_or(S::Normal),
        door: code(
            wall,
            "door",
            path,
            &[
                (0, DoorKind::None),
                (1, DoorKind::Door),
                (2, DoorKind::Secret),
            ],
            "0 (none), 1 (door) or 2 (secret)",
        )?
        .unwrap_or(DoorKind::None),
        door_state: code(
            wall,
            "ds",
            path,
            &[
                (0, DoorState::Closed),
                (1, DoorState::Open),
                (2, DoorState::Locked),
            ],
            "0 (closed), 1 (open) or 2 (locked)",
        )?
        .unwrap_or(DoorState::Closed),
        direction: code(
            wall,
            "dir",
            path,
            &[
                (0, WallDirection::Both),
                (1, WallDirection::Left),
                (2, WallDirection::Right),
            ],
            "0 (both), 1 (left) or 2 (right)",
        )?
        .unwrap_or(WallDirection::Both),
    })
}

pub(super) fn read_token(value: &Value, path: &str) -> Result<Token, Error> {
    let token = as_object(value, path)?;
    let id = match opt_string(token, "_id", path)? {
        Some(id) => id,
        None => opt_string(token, "id", path)?
            .ok_or_else(|| invalid(join(path, "_id"), "missing (a token needs an id)"))?,
    };
    Ok(Token {
        id,
        name: opt_string(token, "name", path)?,
        x: required_number(token, "x", path)?,
        y: required_number(token, "y", path)?,
        width: opt_number(token, "width", path)?.unwrap_or(1.0),
        height: opt_number(token, "height", path)?.unwrap_or(1.0),
        elevation: opt_number(token, "elevation", path)?.unwrap_or(0.0),
        darkvision: match get(token, "darkvision") {
            // Not a Foundry field: a caller's own value (`SceneSight` updates).
            Some(value) => {
                let field = join(path, "darkvision");
                let range = number(value, &field)?;
                if range < 0.0 {
                    return Err(invalid(
                        field,
                        format!("must be a number >= 0, got {range}"),
                    ));
                }
                range
            }
            None => read_darkvision(token, path)?,
        },
        light: read_token_light(token, path)?,
    })
}

/// v10+ `light` (`LightData`: `dim`, `bright`, `angle`, `negative`,
/// `darkness`); 0.7 to v9 `dimLight`, `brightLight`, `lightAngle` (a
/// negative radius makes darkness). `rotation` is the token's. No radius:
/// no light.
fn read_token_light(token: &Object, path: &str) -> Result<Option<TokenLight>, Error> {
    let rotation = opt_number(token, "rotation", path)?.unwrap_or(0.0);
    let light = match get(token, "light") {
        Some(value @ Value::Object(_)) => {
            let field = join(path, "light");
            let light = as_object(value, &field)?;
            let dim = opt_number(light, "dim", &field)?.unwrap_or(0.0);
            let bright = opt_number(light, "bright", &field)?.unwrap_or(0.0);
            TokenLight {
                dim: dim.abs(),
                bright: bright.abs(),
                angle: opt_number(light, "angle", &field)?.unwrap_or(360.0),
                rotation,
                darkness: opt_bool(light, "negative", &field)?.unwrap_or(false)
                    || dim < 0.0
                    || bright < 0.0,
                active: read_range(light, "darkness", &field)?,
            }
        }
        _ => {
            let dim = opt_number(token, "dimLight", path)?.unwrap_or(0.0);
            let bright = opt_number(token, "brightLight", path)?.unwrap_or(0.0);
            TokenLight {
                dim: dim.abs(),
                bright: bright.abs(),
                angle: opt_number(token, "lightAngle", path)?.unwrap_or(360.0),
                rotation,
                darkness: dim < 0.0 || bright < 0.0,
                active: None,
            }
        }
    };
    Ok((light.dim.max(light.bright) > 0.0).then_some(light))
}

/// Pre-v10 `dimSight` ("dim vision" in distance units, where dnd5e puts
/// darkvision); v10+ `sight.range` when `sight.visionMode` is
/// `"darkvision"`. Negative or missing: 0.
fn read_darkvision(token: &Object, path: &str) -> Result<f64, Error> {
    if let Some(sight) = get(token, "sight").filter(|value| value.is_object()) {
        let field = join(path, "sight");
        let sight = as_object(sight, &field)?;
        let mode = opt_string(sight, "visionMode", &field)?;
        if mode.as_deref() == Some("darkvision") {
            return Ok(opt_number(sight, "range", &field)?.unwrap_or(0.0).max(0.0));
        }
        return Ok(0.0);
    }
    Ok(opt_number(token, "dimSight", path)?.unwrap_or(0.0).max(0.0))
}

/// `{min, max}` at `object[key]`, each optional (0 and 1).
fn read_range(object: &Object, key: &str, path: &str) -> Result<Option<DarknessRange>, Error> {
    match get(object, key) {
        None => Ok(None),
        Some(value) => {
            let field = join(path, key);
            let range = as_object(value, &field)?;
            Ok(Some(DarknessRange {
                min: opt_number(range, "min", &field)?.unwrap_or(0.0),
                max: opt_number(range, "max", &field)?.unwrap_or(1.0),
            }))
        }
    }
}

/// A Levels hole: a drawing whose `flags.levels.drawingMode` is 1. Shape:
/// 0.7 to v9 `type` (`r` rectangle, `e` ellipse, `p` polygon, `f`
/// freehand) with `points: [[x, y], ...]`; v10+ `shape: {type, width,
/// height, points: [x0, y0, x1, y1, ...]}`. Points are relative to the
/// drawing's `x`, `y`; `rotation` turns it about the centre of its
/// `width` x `height` box. Text drawings and unknown types are skipped.
fn read_hole(value: &Value, path: &str) -> Result<Option<Hole>, Error> {
    let drawing = as_object(value, path)?;
    let Some(levels) = get(drawing, "flags").and_then(|flags| flags.get("levels")) else {
        return Ok(None);
    };
    let field = join(path, "flags.levels");
    let levels = match levels {
        Value::Null => return Ok(None),
        other => as_object(other, &field)?,
    };
    let mode = opt_number(levels, "drawingMode", &field)?;
    if mode != Some(1.0) {
        return Ok(None);
    }
    let bottom = opt_number(levels, "rangeBottom", &field)?;
    let top = opt_number(levels, "rangeTop", &field)?;
    let (shape_object, shape_path) = match get(drawing, "shape") {
        Some(shape) => {
            let shape_path = join(path, "shape");
            (as_object(shape, &shape_path)?, shape_path)
        }
        None => (drawing, path.to_owned()),
    };
    let kind = opt_string(shape_object, "type", &shape_path)?;
    let x = opt_number(drawing, "x", path)?.unwrap_or(0.0);
    let y = opt_number(drawing, "y", path)?.unwrap_or(0.0);
    let width = opt_number(shape_object, "width", &shape_path)?.unwrap_or(0.0);
    let height = opt_number(shape_object, "height", &shape_path)?.unwrap_or(0.0);
    let rotation = opt_number(drawing, "rotation", path)?.unwrap_or(0.0);
    let centre = (x + width / 2.0, y + height / 2.0);
    let turn = |(px, py): (f64, f64)| -> [f64; 2] {
        if rotation.rem_euclid(360.0) == 0.0 {
            return [px, py];
        }
        let (sin, cos) = rotation.to_radians().sin_cos();
        let (dx, dy) = (px - centre.0, py - centre.1);
        [
            centre.0 + dx * cos - dy * sin,
            centre.1 + dx * sin + dy * cos,
        ]
    };
    let shape = match kind.as_deref() {
        Some("r") => HoleShape::Polygon(
            [
                (x, y),
                (x + width, y),
                (x + width, y + height),
                (x, y + height),
            ]
            .into_iter()
            .map(turn)
            .collect(),
        ),
        Some("e") => HoleShape::Ellipse {
            x: centre.0,
            y: centre.1,
            radius_x: width.abs() / 2.0,
            radius_y: height.abs() / 2.0,
            rotation,
        },
        Some("p") | Some("f") => {
            let points_path = join(&shape_path, "points");
            let items: &[Value] = match get(shape_object, "points") {
                None => &[],
                Some(Value::Array(items)) => items,
                Some(other) => {
                    return Err(invalid(
                        points_path,
                        format!("expected an array, got {}", describe(other)),
                    ))
                }
            };
            let mut points = Vec::new();
            if items.iter().all(|item| item.is_array()) {
                // 0.7 to v9: [[x, y], ...]
                for (k, item) in items.iter().enumerate() {
                    let pair = item.as_array().map(Vec::as_slice).unwrap_or(&[]);
                    let [px, py] = pair else {
                        return Err(invalid(
                            format!("{points_path}[{k}]"),
                            format!("expected [x, y], got {}", describe(item)),
                        ));
                    };
                    let px = number(px, &format!("{points_path}[{k}][0]"))?;
                    let py = number(py, &format!("{points_path}[{k}][1]"))?;
                    points.push(turn((x + px, y + py)));
                }
            } else {
                // v10+: [x0, y0, x1, y1, ...]
                if !items.len().is_multiple_of(2) {
                    return Err(invalid(
                        points_path,
                        format!("expected pairs of numbers, got {} numbers", items.len()),
                    ));
                }
                for k in (0..items.len()).step_by(2) {
                    let px = number(&items[k], &format!("{points_path}[{k}]"))?;
                    let py = number(&items[k + 1], &format!("{points_path}[{}]", k + 1))?;
                    points.push(turn((x + px, y + py)));
                }
            }
            HoleShape::Polygon(points)
        }
        _ => return Ok(None),
    };
    Ok(Some(Hole {
        id: opt_string(drawing, "_id", path)?,
        bottom,
        top,
        shape,
    }))
}

/// A Levels floor: a tile whose `flags.levels.rangeBottom` is a number,
/// unless its Levels "Allow Sight" option (`noCollision`) is on.
fn read_floor(value: &Value, path: &str) -> Result<Option<Floor>, Error> {
    let tile = as_object(value, path)?;
    let Some(levels) = get(tile, "flags").and_then(|flags| flags.get("levels")) else {
        return Ok(None);
    };
    let field = join(path, "flags.levels");
    let levels = match levels {
        Value::Null => return Ok(None),
        other => as_object(other, &field)?,
    };
    let Some(elevation) = opt_number(levels, "rangeBottom", &field)? else {
        return Ok(None);
    };
    if opt_bool(levels, "noCollision", &field)? == Some(true) {
        return Ok(None);
    }
    Ok(Some(Floor {
        id: opt_string(tile, "_id", path)?,
        x: required_number(tile, "x", path)?,
        y: required_number(tile, "y", path)?,
        width: required_number(tile, "width", path)?.abs(),
        height: required_number(tile, "height", path)?.abs(),
        rotation: opt_number(tile, "rotation", path)?.unwrap_or(0.0),
        elevation,
    }))
}

/// v9+: `config.{dim, bright, negative}`; 0.7/0.8: flat `dim`/`bright`,
/// where a negative radius makes darkness (0.8 docs).
pub(super) fn read_light(value: &Value, path: &str) -> Result<Light, Error> {
    let light = as_object(value, path)?;
    let (dim, bright, negative, angle, active) = match get(light, "config") {
        Some(config) => {
            let config_path = join(path, "config");
            let config = as_object(config, &config_path)?;
            (
                opt_number(config, "dim", &config_path)?.unwrap_or(0.0),
                opt_number(config, "bright", &config_path)?.unwrap_or(0.0),
                opt_bool(config, "negative", &config_path)?.unwrap_or(false),
                opt_number(config, "angle", &config_path)?,
                read_range(config, "darkness", &config_path)?,
            )
        }
        None => (
            opt_number(light, "dim", path)?.unwrap_or(0.0),
            opt_number(light, "bright", path)?.unwrap_or(0.0),
            false,
            opt_number(light, "angle", path)?,
            // v8: "a value of the Scene darkness level, above which this
            // light source will be active".
            opt_number(light, "darknessThreshold", path)?
                .filter(|threshold| *threshold > 0.0)
                .map(|min| DarknessRange { min, max: 1.0 }),
        ),
    };
    let levels_bottom = match get(light, "flags").and_then(|flags| flags.get("levels")) {
        Some(levels @ Value::Object(_)) => {
            let field = join(path, "flags.levels");
            opt_number(as_object(levels, &field)?, "rangeBottom", &field)?
        }
        _ => None,
    };
    Ok(Light {
        elevation: opt_number(light, "elevation", path)?
            .or(levels_bottom)
            .unwrap_or(0.0),
        angle: angle.unwrap_or(360.0),
        rotation: opt_number(light, "rotation", path)?.unwrap_or(0.0),
        walls: opt_bool(light, "walls", path)?.unwrap_or(true),
        active,
        id: opt_string(light, "_id", path)?,
        x: required_number(light, "x", path)?,
        y: required_number(light, "y", path)?,
        dim: dim.abs(),
        bright: bright.abs(),
        darkness: negative || dim < 0.0 || bright < 0.0,
        hidden: opt_bool(light, "hidden", path)?.unwrap_or(false),
    })
}
