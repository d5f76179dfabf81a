//! `scene_sight`: an arbitrary Foundry scene (structured: walls with
//! sight and light codes, doors, directions, Wall Height bounds and
//! proximity thresholds; tokens with darkvision and carried lights;
//! ambient lights; Levels floor tiles and hole drawings; darkness and
//! global light) read by [`SceneSight`], then questions and updates:
//!
//! - every answer of the handle (a pair, one observer, the matrix) equals
//!   the answer of a handle freshly read from the same Foundry data after
//!   the same updates, which this target keeps as JSON documents and edits
//!   the way Foundry would;
//! - after each accepted update the handle's scene equals the fresh one;
//!   a refused update leaves it unchanged;
//! - the matrix agrees with the handle's pairs and with
//!   [`Scene::clear_view_matrix`], and the normalized scene round-trips.
//!
//! Input starting with `{` is read as JSON text instead (the Foundry
//! fixtures seed the corpus): parsed, the matrix computed, and the
//! normalized form round-tripped. Nothing may panic.
#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use furtive_core::scene::{SceneSight, SceneUpdate};
use furtive_core::Scene;
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Map, Value};

/// A canvas coordinate: on a 50 px lattice mostly (exact contacts with
/// wall ends and token centres), finer sometimes, any `f64` rarely.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Coord {
    Lattice(u8),
    Fine(u16),
    Any(f64),
}

impl Coord {
    fn value(self) -> Value {
        number(match self {
            Coord::Lattice(v) => f64::from(v % 21) * 50.0,
            Coord::Fine(v) => f64::from(v) / 8.0,
            Coord::Any(v) => v,
        })
    }
}

/// JSON has no NaN or infinity: those become `null` (Foundry's default).
fn number(v: f64) -> Value {
    serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number)
}

/// An elevation or a height bound, in scene units.
fn level(v: i8) -> Value {
    json!(f64::from(v % 24) / 2.0)
}

#[derive(Arbitrary, Debug, Clone)]
struct WallSpec {
    c: [Coord; 4],
    sight: u8,
    light: Option<u8>,
    door: u8,
    ds: u8,
    dir: u8,
    height: Option<(Option<i8>, Option<i8>, bool)>,
    threshold: Option<(Option<u8>, Option<u8>)>,
}

const SENSE_CODES: [u64; 7] = [0, 10, 20, 30, 40, 20, 20];

impl WallSpec {
    fn doc(&self, id: &str) -> Value {
        let mut wall = Map::new();
        wall.insert("_id".into(), id.into());
        wall.insert("c".into(), self.c.iter().map(|c| c.value()).collect());
        wall.insert(
            "sight".into(),
            SENSE_CODES[usize::from(self.sight) % 7].into(),
        );
        if let Some(light) = self.light {
            wall.insert("light".into(), SENSE_CODES[usize::from(light) % 7].into());
        }
        wall.insert("door".into(), (self.door % 3).into());
        wall.insert("ds".into(), (self.ds % 3).into());
        wall.insert("dir".into(), (self.dir % 3).into());
        if let Some((bottom, top, old)) = self.height {
            let bound = |b: Option<i8>| b.map_or(Value::Null, level);
            let flags = if old {
                json!({"wallHeight": {"wallHeightBottom": bound(bottom), "wallHeightTop": bound(top)}})
            } else {
                json!({"wall-height": {"bottom": bound(bottom), "top": bound(top)}})
            };
            wall.insert("flags".into(), flags);
        }
        if let Some((sight, light)) = self.threshold {
            let t = |v: Option<u8>| v.map_or(Value::Null, |v| json!(f64::from(v % 40) / 2.0));
            wall.insert(
                "threshold".into(),
                json!({"sight": t(sight), "light": t(light), "attenuation": false}),
            );
        }
        Value::Object(wall)
    }
}

#[derive(Arbitrary, Debug, Clone)]
struct LightSpec {
    dim: u8,
    bright: u8,
    angle: u16,
    rotation: i16,
    negative: bool,
    active: Option<(u8, u8)>,
}

impl LightSpec {
    fn config(&self) -> Value {
        let mut config = json!({
            "dim": f64::from(self.dim % 40) / 2.0,
            "bright": f64::from(self.bright % 40) / 4.0,
            "angle": f64::from(self.angle % 400),
            "negative": self.negative,
        });
        if let Some((min, max)) = self.active {
            config["darkness"] =
                json!({"min": f64::from(min) / 255.0, "max": f64::from(max) / 255.0});
        }
        config
    }
}

#[derive(Arbitrary, Debug, Clone)]
struct TokenSpec {
    x: Coord,
    y: Coord,
    size: u8,
    elevation: i8,
    darkvision: Option<u8>,
    light: Option<LightSpec>,
}

impl TokenSpec {
    fn doc(&self, id: &str) -> Value {
        let size = [1.0, 1.0, 2.0, 0.5, 3.0, 0.0][usize::from(self.size) % 6];
        let mut token = json!({
            "_id": id,
            "name": format!("Token {id}"),
            "x": self.x.value(),
            "y": self.y.value(),
            "width": size,
            "height": size,
            "elevation": level(self.elevation),
        });
        if let Some(range) = self.darkvision {
            token["sight"] = json!({"enabled": true, "visionMode": "darkvision", "range": f64::from(range % 60)});
        }
        if let Some(light) = &self.light {
            token["light"] = light.config();
            token["rotation"] = json!(f64::from(light.rotation % 360));
        }
        token
    }
}

#[derive(Arbitrary, Debug, Clone)]
struct AmbientSpec {
    x: Coord,
    y: Coord,
    elevation: Option<i8>,
    hidden: bool,
    walls: bool,
    light: LightSpec,
}

impl AmbientSpec {
    fn doc(&self, id: &str) -> Value {
        let mut light = json!({
            "_id": id,
            "x": self.x.value(),
            "y": self.y.value(),
            "hidden": self.hidden,
            "walls": self.walls,
            "rotation": f64::from(self.light.rotation % 360),
            "config": self.light.config(),
        });
        if let Some(elevation) = self.elevation {
            light["elevation"] = level(elevation);
        }
        light
    }
}

#[derive(Arbitrary, Debug, Clone)]
struct TileSpec {
    x: Coord,
    y: Coord,
    width: u8,
    height: u8,
    rotation: i16,
    bottom: i8,
    no_collision: bool,
}

#[derive(Arbitrary, Debug, Clone)]
struct HoleSpec {
    x: Coord,
    y: Coord,
    kind: u8,
    width: u8,
    height: u8,
    rotation: i16,
    points: Vec<(u8, u8)>,
    bottom: Option<i8>,
    top: Option<i8>,
}

#[derive(Arbitrary, Debug)]
struct SceneSpec {
    v10: bool,
    grid_size: u8,
    grid_distance: u8,
    darkness: u8,
    global_light: bool,
    global_darkness: Option<(u8, u8)>,
    walls: Vec<WallSpec>,
    tokens: Vec<TokenSpec>,
    lights: Vec<AmbientSpec>,
    tiles: Vec<TileSpec>,
    holes: Vec<HoleSpec>,
}

#[derive(Arbitrary, Debug)]
enum UpdateSpec {
    Door {
        wall: u8,
        state: u8,
        word: bool,
    },
    Wall {
        slot: u8,
        wall: WallSpec,
    },
    WallRemoved {
        wall: u8,
    },
    Token {
        slot: u8,
        token: TokenSpec,
    },
    TokenMoved {
        token: u8,
        x: Coord,
        y: Coord,
        elevation: Option<i8>,
    },
    TokenRemoved {
        token: u8,
    },
    Darkvision {
        token: u8,
        range: i8,
    },
    Light {
        slot: u8,
        light: AmbientSpec,
    },
    LightRemoved {
        light: u8,
    },
    LightHidden {
        light: u8,
        hidden: bool,
    },
    Darkness {
        level: i16,
    },
}

#[derive(Arbitrary, Debug)]
enum Step {
    /// One update or several as one transaction.
    Update(Vec<UpdateSpec>),
    Pair(u8, u8),
    From(u8),
    Matrix,
}

/// What an accepted update does to the documents.
type Effect = Box<dyn FnOnce(&mut Model)>;

/// The Foundry documents, kept and edited as Foundry would.
struct Model {
    scene: Value,
    next_id: u32,
}

impl Model {
    fn list(&self, key: &str) -> &Vec<Value> {
        self.scene[key].as_array().expect("a list")
    }

    fn list_mut(&mut self, key: &str) -> &mut Vec<Value> {
        self.scene[key].as_array_mut().expect("a list")
    }

    /// The id of document `slot % len` in `key`, or an unknown id.
    fn id(&self, key: &str, slot: u8) -> String {
        let list = self.list(key);
        if list.is_empty() || slot == 255 {
            return "missing".into();
        }
        list[usize::from(slot) % list.len()]["_id"]
            .as_str()
            .expect("an id")
            .to_owned()
    }

    /// An existing id for `slot < 128`, else a new one.
    fn target_id(&mut self, key: &str, slot: u8, prefix: &str) -> String {
        if slot < 128 && !self.list(key).is_empty() {
            self.id(key, slot)
        } else {
            self.next_id += 1;
            format!("{prefix}{}", self.next_id)
        }
    }

    fn find(&mut self, key: &str, id: &str) -> Option<&mut Value> {
        self.list_mut(key)
            .iter_mut()
            .find(|doc| doc["_id"].as_str() == Some(id))
    }

    fn upsert(&mut self, key: &str, doc: Value) {
        let id = doc["_id"].as_str().expect("an id").to_owned();
        match self.find(key, &id) {
            Some(slot) => *slot = doc,
            None => self.list_mut(key).push(doc),
        }
    }

    fn remove(&mut self, key: &str, id: &str) {
        self.list_mut(key)
            .retain(|doc| doc["_id"].as_str() != Some(id));
    }

    fn set_darkness(&mut self, level: f64) {
        if self.scene.get("environment").is_some() {
            self.scene["environment"]["darknessLevel"] = json!(level);
        } else {
            self.scene["darkness"] = json!(level);
        }
    }

    /// The update as JSON for `SceneSight::update_json`, and its effect on
    /// the documents, applied when the handle accepts it.
    fn update(&mut self, spec: &UpdateSpec) -> (Value, Effect) {
        match spec {
            UpdateSpec::Door { wall, state, word } => {
                let id = self.id("walls", *wall);
                let ds = state % 3;
                let state = if *word {
                    json!(["closed", "open", "locked"][usize::from(ds)])
                } else {
                    json!(ds)
                };
                (
                    json!({"type": "door", "wallId": id, "state": state}),
                    Box::new(move |m: &mut Model| {
                        if let Some(doc) = m.find("walls", &id) {
                            doc["ds"] = json!(ds);
                        }
                    }),
                )
            }
            UpdateSpec::Wall { slot, wall } => {
                let id = self.target_id("walls", *slot, "w");
                let doc = wall.doc(&id);
                (
                    json!({"type": "wall", "wall": doc.clone()}),
                    Box::new(move |m: &mut Model| m.upsert("walls", doc)),
                )
            }
            UpdateSpec::WallRemoved { wall } => {
                let id = self.id("walls", *wall);
                (
                    json!({"type": "wallRemoved", "wallId": id}),
                    Box::new(move |m: &mut Model| m.remove("walls", &id)),
                )
            }
            UpdateSpec::Token { slot, token } => {
                let id = self.target_id("tokens", *slot, "t");
                let doc = token.doc(&id);
                (
                    json!({"type": "token", "token": doc.clone()}),
                    Box::new(move |m: &mut Model| m.upsert("tokens", doc)),
                )
            }
            UpdateSpec::TokenMoved {
                token,
                x,
                y,
                elevation,
            } => {
                let id = self.id("tokens", *token);
                let (x, y) = (x.value(), y.value());
                let mut update = json!({"type": "tokenMoved", "tokenId": id, "x": x, "y": y});
                let elevation = elevation.map(level);
                if let Some(e) = &elevation {
                    update["elevation"] = e.clone();
                }
                (
                    update,
                    Box::new(move |m: &mut Model| {
                        if let Some(doc) = m.find("tokens", &id) {
                            doc["x"] = x;
                            doc["y"] = y;
                            if let Some(e) = elevation {
                                doc["elevation"] = e;
                            }
                        }
                    }),
                )
            }
            UpdateSpec::TokenRemoved { token } => {
                let id = self.id("tokens", *token);
                (
                    json!({"type": "tokenRemoved", "tokenId": id}),
                    Box::new(move |m: &mut Model| m.remove("tokens", &id)),
                )
            }
            UpdateSpec::Darkvision { token, range } => {
                let id = self.id("tokens", *token);
                let range = f64::from(*range) / 2.0;
                (
                    json!({"type": "darkvision", "tokenId": id, "darkvision": range}),
                    Box::new(move |m: &mut Model| {
                        if let Some(doc) = m.find("tokens", &id) {
                            doc["darkvision"] = json!(range);
                        }
                    }),
                )
            }
            UpdateSpec::Light { slot, light } => {
                let id = self.target_id("lights", *slot, "l");
                let doc = light.doc(&id);
                (
                    json!({"type": "light", "light": doc.clone()}),
                    Box::new(move |m: &mut Model| m.upsert("lights", doc)),
                )
            }
            UpdateSpec::LightRemoved { light } => {
                let id = self.id("lights", *light);
                (
                    json!({"type": "lightRemoved", "lightId": id}),
                    Box::new(move |m: &mut Model| m.remove("lights", &id)),
                )
            }
            UpdateSpec::LightHidden { light, hidden } => {
                let id = self.id("lights", *light);
                let hidden = *hidden;
                (
                    json!({"type": "lightHidden", "lightId": id, "hidden": hidden}),
                    Box::new(move |m: &mut Model| {
                        if let Some(doc) = m.find("lights", &id) {
                            doc["hidden"] = json!(hidden);
                        }
                    }),
                )
            }
            UpdateSpec::Darkness { level } => {
                let level = f64::from(*level) / 1000.0;
                (
                    json!({"type": "darkness", "darkness": level}),
                    Box::new(move |m: &mut Model| m.set_darkness(level)),
                )
            }
        }
    }
}

fn scene_doc(spec: &SceneSpec) -> Value {
    let mut walls = Vec::new();
    for (i, wall) in spec.walls.iter().take(16).enumerate() {
        walls.push(wall.doc(&format!("w{i}")));
    }
    let tokens: Vec<Value> = spec
        .tokens
        .iter()
        .take(6)
        .enumerate()
        .map(|(i, t)| t.doc(&format!("t{i}")))
        .collect();
    let lights: Vec<Value> = spec
        .lights
        .iter()
        .take(3)
        .enumerate()
        .map(|(i, l)| l.doc(&format!("l{i}")))
        .collect();
    let tiles: Vec<Value> = spec
        .tiles
        .iter()
        .take(2)
        .enumerate()
        .map(|(i, t)| {
            json!({
                "_id": format!("tile{i}"),
                "x": t.x.value(), "y": t.y.value(),
                "width": f64::from(t.width) * 4.0, "height": f64::from(t.height) * 4.0,
                "rotation": f64::from(t.rotation % 360),
                "flags": {"levels": {"rangeBottom": level(t.bottom), "noCollision": t.no_collision}},
            })
        })
        .collect();
    let drawings: Vec<Value> = spec
        .holes
        .iter()
        .take(2)
        .enumerate()
        .map(|(i, h)| {
            let points: Vec<f64> = h
                .points
                .iter()
                .take(8)
                .flat_map(|&(x, y)| [f64::from(x) * 4.0, f64::from(y) * 4.0])
                .collect();
            let kind = ["r", "e", "p", "f", "t"][usize::from(h.kind) % 5];
            json!({
                "_id": format!("d{i}"),
                "x": h.x.value(), "y": h.y.value(),
                "rotation": f64::from(h.rotation % 360),
                "shape": {
                    "type": kind,
                    "width": f64::from(h.width) * 4.0, "height": f64::from(h.height) * 4.0,
                    "points": points,
                },
                "flags": {"levels": {
                    "drawingMode": 1,
                    "rangeBottom": h.bottom.map_or(Value::Null, level),
                    "rangeTop": h.top.map_or(Value::Null, level),
                }},
            })
        })
        .collect();
    let size = [100.0, 50.0, 140.0, 72.5][usize::from(spec.grid_size) % 4];
    let distance = [5.0, 1.0, 1.5, 2.0][usize::from(spec.grid_distance) % 4];
    let darkness = f64::from(spec.darkness) / 255.0;
    let range = spec
        .global_darkness
        .map(|(min, max)| (f64::from(min) / 255.0, f64::from(max) / 255.0));
    let mut scene = json!({
        "_id": "fuzz",
        "name": "Fuzz",
        "walls": walls,
        "tokens": tokens,
        "lights": lights,
        "tiles": tiles,
        "drawings": drawings,
    });
    if spec.v10 {
        scene["grid"] = json!({"size": size, "distance": distance, "units": "ft", "type": 1});
        let mut global = json!({"enabled": spec.global_light});
        if let Some((min, max)) = range {
            global["darkness"] = json!({"min": min, "max": max});
        }
        scene["environment"] = json!({"darknessLevel": darkness, "globalLight": global});
    } else {
        scene["grid"] = json!(size);
        scene["gridDistance"] = json!(distance);
        scene["gridUnits"] = json!("ft");
        scene["darkness"] = json!(darkness);
        scene["globalLight"] = json!(spec.global_light);
        if let Some((_, max)) = range {
            scene["globalLightThreshold"] = json!(max);
        }
    }
    scene
}

/// A handle read afresh from the documents. The documents only change
/// through updates the handle accepted, so they always read.
fn fresh(model: &Model) -> SceneSight {
    SceneSight::from_value(model.scene.clone()).unwrap_or_else(|e| {
        panic!(
            "the edited documents no longer read: {e:?}\n{}",
            model.scene
        )
    })
}

/// The handle's matrix agrees with its pairs, its rows, the fresh handle
/// and the scene's own matrix.
fn check_matrix(handle: &mut SceneSight, model: &Model) {
    let matrix = handle.clear_view_matrix();
    let mut reread = fresh(model);
    assert_eq!(
        handle.scene(),
        reread.scene(),
        "the handle's scene differs from the documents"
    );
    assert_eq!(
        matrix,
        reread.clear_view_matrix(),
        "matrix differs from a fresh read"
    );
    let scene = handle.scene().clone();
    assert_eq!(
        matrix,
        scene.clear_view_matrix(&scene.tokens),
        "SceneSight and Scene::clear_view_matrix disagree"
    );
    for (i, id) in matrix.ids.iter().enumerate() {
        let row = handle.clear_view_from(id).expect("a known token");
        assert_eq!(
            row.clear_view,
            matrix.clear_view[i],
            "clear_view_from({id}) and the matrix; scene: {}",
            serde_json::to_string(&scene).unwrap_or_default()
        );
        assert_eq!(
            row.distance, matrix.distance[i],
            "clear_view_from({id}) distances"
        );
        assert_eq!(
            row.in_darkness, matrix.in_darkness,
            "clear_view_from({id}) darkness"
        );
    }
}

/// With `FURTIVE_FUZZ_TRACE` set, prints each update batch's types and
/// whether it was accepted, to see how deep the corpus reaches.
fn trace(updates: &[Value], result: &Result<(), furtive_core::Error>) {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if !*ON.get_or_init(|| std::env::var_os("FURTIVE_FUZZ_TRACE").is_some()) {
        return;
    }
    let types: Vec<&str> = updates.iter().filter_map(|u| u["type"].as_str()).collect();
    match result {
        Ok(()) => eprintln!("trace {} ok", types.join("+")),
        Err(error) => eprintln!("trace {} refused {}", types.join("+"), error.code()),
    }
}

fn structured(data: &[u8]) -> arbitrary::Result<()> {
    let mut u = Unstructured::new(data);
    let spec: SceneSpec = u.arbitrary()?;
    let steps: Vec<Step> = u
        .arbitrary_take_rest_iter()?
        .take(24)
        .collect::<Result<_, _>>()?;
    let doc = scene_doc(&spec);
    let Ok(mut handle) = SceneSight::from_value(doc.clone()) else {
        return Ok(());
    };
    let mut model = Model {
        scene: doc,
        next_id: 0,
    };
    // The normalized form reads back to the same scene.
    let normalized = serde_json::to_value(handle.scene()).expect("a scene serializes");
    let back = Scene::from_value(normalized).expect("a normalized scene reads back");
    assert_eq!(&back, handle.scene(), "normalized round trip");

    for step in steps {
        match step {
            Step::Update(specs) => {
                let before = handle.scene().clone();
                let mut updates = Vec::new();
                let mut effects = Vec::new();
                for spec in specs.iter().take(4) {
                    let (update, effect) = model.update(spec);
                    updates.push(update);
                    effects.push(effect);
                }
                // One update as an object, several as an array.
                let argument = if updates.len() == 1 {
                    updates[0].clone()
                } else {
                    Value::Array(updates.clone())
                };
                // The typed reader and the JSON facade agree.
                let typed: Result<Vec<SceneUpdate>, _> = updates
                    .iter()
                    .enumerate()
                    .map(|(i, u)| SceneUpdate::from_value(u, &format!("updates[{i}]")))
                    .collect();
                let mut twin = handle.clone();
                let typed_result = typed.and_then(|typed| twin.update_all(typed));
                let result = handle.update_json(argument);
                trace(&updates, &result);
                assert_eq!(
                    result.is_ok(),
                    typed_result.is_ok(),
                    "update_json and update_all disagree on {updates:?}: {result:?} {typed_result:?}"
                );
                match result {
                    Ok(()) => {
                        for effect in effects {
                            effect(&mut model);
                        }
                        assert_eq!(twin.scene(), handle.scene(), "update_all and update_json");
                        let reread = fresh(&model);
                        assert_eq!(
                            handle.scene(),
                            reread.scene(),
                            "after {updates:?} the handle's scene differs from the edited documents"
                        );
                    }
                    Err(_) => {
                        assert_eq!(
                            handle.scene(),
                            &before,
                            "a refused update changed the scene"
                        );
                    }
                }
            }
            Step::Pair(a, b) => {
                let a = model.id("tokens", a);
                let b = model.id("tokens", b);
                let mut reread = fresh(&model);
                let view = handle.view(&a, &b);
                assert_eq!(
                    view,
                    reread.view(&a, &b),
                    "view({a}, {b}) differs from a fresh read"
                );
                if let Ok(view) = view {
                    assert_eq!(Ok(view.clear_view), handle.clear_view(&a, &b));
                }
            }
            Step::From(a) => {
                let a = model.id("tokens", a);
                let mut reread = fresh(&model);
                assert_eq!(
                    handle.clear_view_from(&a),
                    reread.clear_view_from(&a),
                    "clear_view_from({a}) differs from a fresh read"
                );
            }
            Step::Matrix => check_matrix(&mut handle, &model),
        }
    }
    check_matrix(&mut handle, &model);
    Ok(())
}

/// A scene as JSON text: parsed, its matrix computed and checked, the
/// normalized form read back to the same scene and matrix.
fn raw(text: &str) {
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return;
    };
    let Ok(mut handle) = SceneSight::from_value(value) else {
        return;
    };
    let matrix = handle.clear_view_matrix();
    let scene = handle.scene().clone();
    assert_eq!(
        matrix,
        scene.clear_view_matrix(&scene.tokens),
        "SceneSight and Scene::clear_view_matrix disagree"
    );
    let normalized = serde_json::to_value(&scene).expect("a scene serializes");
    let mut back = SceneSight::from_value(normalized).expect("a normalized scene reads back");
    assert_eq!(back.scene(), &scene, "normalized round trip");
    assert_eq!(
        back.clear_view_matrix(),
        matrix,
        "normalized round trip matrix"
    );
    if let Some(first) = matrix.ids.first() {
        let row = handle.clear_view_from(first).expect("a known token");
        assert_eq!(row.clear_view, matrix.clear_view[0]);
    }
}

fuzz_target!(|data: &[u8]| {
    if data.first() == Some(&b'{') {
        if let Ok(text) = std::str::from_utf8(data) {
            raw(text);
        }
        return;
    }
    let _ = structured(data);
});
