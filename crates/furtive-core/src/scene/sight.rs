//! [`SceneSight`]: a scene read once, answering clear view (B5, O2, O4)
//! for pairs, one observer or every pair, and kept up to date by small
//! updates (a door, a wall, a token, a light) that invalidate only what
//! they touch.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::foundry;
use super::light::{concealed, Lighting};
use super::{
    as_input, validate_light, validate_token, validate_wall, ClearViewAnswer, ClearViewMatrix,
    ClearViewQuery, DoorKind, DoorState, Light, Point, Scene, Sense, SightEnd, SightIndex,
    SightScratch, Token, TokenRef, Wall,
};
use crate::error::Error;
use crate::scene::TokenId;

/// A Foundry scene read once, for many clear-view questions and small
/// updates. Built by [`SceneSight::new`] or [`SceneSight::from_value`].
///
/// Clear view (B5) from observer `o` to target `t` is: a sight line (walls,
/// Wall Height, Levels floors, thresholds; [`Scene::sight_line`]) and no
/// concealment by darkness: `t` is in darkness ([`Scene::lighting`]) and
/// farther from `o` than `o`'s `darkvision`.
///
/// Costs: building reads the scene and nothing else; the first query
/// builds the wall index for sight (and, unless every position is lit,
/// the one for light), O(walls). A pair then costs the walls near its
/// line; the lighting of a token is computed once and kept until the token
/// moves or a light, door, wall or the darkness level changes. Updates
/// ([`SceneUpdate`]): a door patches both indexes in place in O(1) and
/// forgets every token's lighting (O(tokens), light may pass the door); a
/// token move forgets that token's lighting only (everyone's when it
/// carries a light), and the sight index only when its elevation leaves
/// the range the index covers; a light or the darkness level forgets the
/// lighting of every token; a wall added, changed or removed drops both
/// indexes, rebuilt on the next query.
#[derive(Debug, Clone)]
pub struct SceneSight {
    scene: Scene,
    tokens: BTreeMap<TokenId, usize>,
    walls: BTreeMap<String, usize>,
    lights: BTreeMap<String, usize>,
    /// The sight index and the elevations it covers (`low..=high`, always
    /// including every token's elevation): walls that meet no elevation
    /// in that range are left out, as on Nort Gate's upper floors when all
    /// tokens stand on the ground.
    sight: Option<(f64, f64, SightIndex)>,
    /// The light index, all elevations; `None` also while every position is lit.
    light: Option<SightIndex>,
    /// Lighting at each token's centre, by position in `scene.tokens`.
    lighting: Vec<Option<Lighting>>,
    scratch: SightScratch,
    /// Whether the light index is known to be there when needed (checked
    /// again after anything that may change the scene's light).
    light_checked: bool,
}

/// The answer for one observer and one target token.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct View {
    /// Clear view (B5): a sight line and no concealment.
    pub clear_view: bool,
    /// No wall or floor blocks the line from the observer.
    pub sight_line: bool,
    /// The target stands in darkness (see [`Lighting`]).
    pub target_in_darkness: bool,
    /// Centre distance, scene units ([`Scene::distance`]).
    pub distance: f64,
}

/// Clear view from one observer to every token of the scene (itself
/// included, `true`, distance 0), in the scene's token order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClearViewFrom {
    pub observer: TokenId,
    pub ids: Vec<TokenId>,
    /// `clear_view[j]`: the observer has clear view of `ids[j]`.
    pub clear_view: Vec<bool>,
    /// Centre distances in scene units.
    pub distance: Vec<f64>,
    /// `in_darkness[j]`: `ids[j]` stands in darkness.
    pub in_darkness: Vec<bool>,
    pub units: String,
}

/// One change to a [`SceneSight`]. JSON (`type` first; Foundry documents
/// in the layout `parseScene` reads, with their `_id`):
///
/// | `type` | fields | effect |
/// |---|---|---|
/// | `door` | `wallId`, `state`: `"closed"`, `"open"`, `"locked"` or `ds` 0/1/2 | a door opens or closes |
/// | `wall` | `wall`: a Foundry wall with `_id` | adds the wall, or replaces the one with that id |
/// | `wallRemoved` | `wallId` | removes a wall |
/// | `token` | `token`: a Foundry token with `_id` (and optionally `darkvision`) | adds or replaces a token |
/// | `tokenMoved` | `tokenId`, `x`, `y`, `elevation`? | moves a token (top-left, pixels; elevation in scene units, unchanged when absent) |
/// | `tokenRemoved` | `tokenId` | removes a token |
/// | `darkvision` | `tokenId`, `darkvision` (scene units, >= 0) | sets what the token sees in darkness |
/// | `light` | `light`: a Foundry ambient light with `_id` | adds or replaces a light (moved, resized) |
/// | `lightRemoved` | `lightId` | removes a light |
/// | `lightHidden` | `lightId`, `hidden` | turns a light off (`true`) or on |
/// | `darkness` | `darkness` 0..=1 | the scene's darkness level |
#[derive(Debug, Clone, PartialEq)]
pub enum SceneUpdate {
    Door {
        wall_id: String,
        state: DoorState,
    },
    Wall {
        wall: Wall,
    },
    WallRemoved {
        wall_id: String,
    },
    Token {
        token: Token,
    },
    TokenMoved {
        token_id: TokenId,
        x: f64,
        y: f64,
        elevation: Option<f64>,
    },
    TokenRemoved {
        token_id: TokenId,
    },
    Darkvision {
        token_id: TokenId,
        darkvision: f64,
    },
    Light {
        light: Light,
    },
    LightRemoved {
        light_id: String,
    },
    LightHidden {
        light_id: String,
        hidden: bool,
    },
    Darkness {
        darkness: f64,
    },
}

/// How to undo one applied update (for atomic batches).
enum Undo {
    Door(usize, DoorState),
    WallReplaced(usize, Wall),
    WallAdded,
    WallRemoved(usize, Wall),
    TokenReplaced(usize, Token),
    TokenAdded,
    TokenRemoved(usize, Token),
    LightReplaced(usize, Light),
    LightAdded,
    LightRemoved(usize, Light),
    Darkness(f64),
}

fn input(field: impl Into<String>, message: impl Into<String>) -> Error {
    Error::InvalidInput {
        field: field.into(),
        message: message.into(),
    }
}

fn id_map<T>(items: &[T], id: impl Fn(&T) -> Option<&str>) -> BTreeMap<String, usize> {
    items
        .iter()
        .enumerate()
        .filter_map(|(i, item)| id(item).map(|id| (id.to_owned(), i)))
        .collect()
}

impl SceneSight {
    /// Takes a scene that passed [`Scene::validate`] (every parse path
    /// validates).
    pub fn new(scene: Scene) -> SceneSight {
        let mut sight = SceneSight {
            tokens: BTreeMap::new(),
            walls: BTreeMap::new(),
            lights: BTreeMap::new(),
            sight: None,
            light: None,
            lighting: vec![None; scene.tokens.len()],
            scratch: SightScratch::default(),
            light_checked: false,
            scene,
        };
        sight.remap_tokens();
        sight.remap_walls();
        sight.remap_lights();
        sight
    }

    /// Reads a scene as [`Scene::from_value`] does. Errors: `invalid_scene`
    /// naming the field, `duplicate_token`.
    pub fn from_value(scene: Value) -> Result<SceneSight, Error> {
        Ok(SceneSight::new(Scene::from_value(scene)?))
    }

    /// The scene as it stands after the updates.
    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    fn remap_tokens(&mut self) {
        self.tokens = self
            .scene
            .tokens
            .iter()
            .enumerate()
            .map(|(i, token)| (token.id.clone(), i))
            .collect();
    }

    fn remap_walls(&mut self) {
        self.walls = id_map(&self.scene.walls, |wall| wall.id.as_deref());
    }

    fn remap_lights(&mut self) {
        self.lights = id_map(&self.scene.lights, |light| light.id.as_deref());
    }

    fn token_slot(&self, id: &str, field: &str) -> Result<usize, Error> {
        self.tokens
            .get(id)
            .copied()
            .ok_or_else(|| Error::UnknownToken {
                field: field.into(),
                id: id.into(),
            })
    }

    /// Makes sure the sight index covers `low..=high` and every token's
    /// elevation (an empty range, `low > high`, asks for the tokens only),
    /// and the light index exists when some position may be dark.
    fn indexes_covering(&mut self, low: f64, high: f64) {
        let wanted = (low <= high).then_some((low, high));
        let covered = match (&self.sight, wanted) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some((from, to, _)), Some((low, high))) => *from <= low && high <= *to,
        };
        if !covered {
            let (mut from, mut to) = self
                .scene
                .tokens
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(from, to), token| {
                    (from.min(token.elevation), to.max(token.elevation))
                });
            if let Some((low, high)) = wanted {
                (from, to) = (from.min(low), to.max(high));
            }
            if let Some((old_from, old_to, _)) = &self.sight {
                (from, to) = (from.min(*old_from), to.max(*old_to));
            }
            let index = SightIndex::build(&self.scene, Sense::Sight, from, to);
            self.sight = Some((from, to, index));
        }
        if !self.light_checked {
            if self.light.is_none() && !self.scene.lit_everywhere() {
                self.light = Some(self.scene.light_index());
            }
            self.light_checked = true;
        }
    }

    fn indexes(&mut self) {
        self.indexes_covering(f64::INFINITY, f64::NEG_INFINITY);
    }

    /// Drops the sight index when `elevation` (a token's, new or restored)
    /// lies outside the elevations it covers.
    fn token_at(&mut self, elevation: f64) {
        if let Some((from, to, _)) = &self.sight {
            if elevation < *from || elevation > *to {
                self.sight = None;
            }
        }
    }

    fn lighting_at_point(&mut self, point: Point) -> Lighting {
        self.indexes();
        match &self.light {
            Some(index) => self.scene.lighting(index, point, &mut self.scratch),
            // Global illumination and no darkness source.
            None => Lighting::everywhere(),
        }
    }

    fn token_lighting(&mut self, slot: usize) -> Lighting {
        if let Some(known) = &self.lighting[slot] {
            return known.clone();
        }
        let centre = self.scene.token_center(&self.scene.tokens[slot]);
        let lighting = self.lighting_at_point(centre);
        self.lighting[slot] = Some(lighting.clone());
        lighting
    }

    /// The lighting at a canvas point (pixels, elevation in scene units):
    /// whether it is in darkness and why. The percentile Hide dialog ticks
    /// `dark` from it.
    pub fn lighting_at(&mut self, point: Point) -> Lighting {
        self.lighting_at_point(point)
    }

    /// The lighting at a token's centre. Errors: `unknown_token` (`tokenId`).
    pub fn lighting_of(&mut self, token: &str) -> Result<Lighting, Error> {
        let slot = self.token_slot(token, "tokenId")?;
        Ok(self.token_lighting(slot))
    }

    /// Whether a canvas point is in darkness (no light reaches it, or a
    /// darkness source covers it).
    pub fn in_darkness(&mut self, point: Point) -> bool {
        self.lighting_at_point(point).dark
    }

    fn view_slots(&mut self, observer: usize, target: usize) -> View {
        self.indexes();
        let o = self.scene.token_center(&self.scene.tokens[observer]);
        let t = self.scene.token_center(&self.scene.tokens[target]);
        let distance = self.scene.distance(o, t);
        if observer == target {
            return View {
                clear_view: true,
                sight_line: true,
                target_in_darkness: self.token_lighting(target).dark,
                distance,
            };
        }
        let index = &self.sight.as_ref().expect("built by indexes()").2;
        let sight_line = index.clear(o, t, &mut self.scratch);
        let lighting = self.token_lighting(target);
        let darkvision = self.scene.tokens[observer].darkvision;
        View {
            clear_view: sight_line && !concealed(&lighting, distance, darkvision),
            sight_line,
            target_in_darkness: lighting.dark,
            distance,
        }
    }

    /// Clear view from token `observer` to token `target`, with its parts.
    /// Errors: `unknown_token` (`observer`, `target`).
    pub fn view(&mut self, observer: &str, target: &str) -> Result<View, Error> {
        let o = self.token_slot(observer, "observer")?;
        let t = self.token_slot(target, "target")?;
        Ok(self.view_slots(o, t))
    }

    /// Whether token `observer` has clear view of token `target` (B5).
    /// Errors: `unknown_token` (`observer`, `target`).
    pub fn clear_view(&mut self, observer: &str, target: &str) -> Result<bool, Error> {
        Ok(self.view(observer, target)?.clear_view)
    }

    /// Clear view from token `observer` to every token. Errors:
    /// `unknown_token` (`observer`).
    pub fn clear_view_from(&mut self, observer: &str) -> Result<ClearViewFrom, Error> {
        let o = self.token_slot(observer, "observer")?;
        let n = self.scene.tokens.len();
        let mut clear_view = Vec::with_capacity(n);
        let mut distance = Vec::with_capacity(n);
        let mut in_darkness = Vec::with_capacity(n);
        for t in 0..n {
            let view = self.view_slots(o, t);
            clear_view.push(view.clear_view);
            distance.push(view.distance);
            in_darkness.push(view.target_in_darkness);
        }
        Ok(ClearViewFrom {
            observer: observer.to_owned(),
            ids: self.scene.tokens.iter().map(|t| t.id.clone()).collect(),
            clear_view,
            distance,
            in_darkness,
            units: self.scene.grid.units.clone(),
        })
    }

    /// Clear view and distance between every pair of the scene's tokens.
    pub fn clear_view_matrix(&mut self) -> ClearViewMatrix {
        self.indexes();
        let n = self.scene.tokens.len();
        let lighting: Vec<Lighting> = (0..n).map(|slot| self.token_lighting(slot)).collect();
        let index = &self.sight.as_ref().expect("built by indexes()").2;
        matrix(
            &self.scene,
            &self.scene.tokens,
            index,
            &lighting,
            &mut self.scratch,
        )
    }

    /// Answers a `clearView` query (points, placements or token ids), with
    /// light: the target's lighting and the observer's darkvision (the
    /// query's `darkvision`, else the observer token's, else 0).
    pub fn answer(&mut self, query: &ClearViewQuery) -> Result<ClearViewAnswer, Error> {
        let from = self.scene.resolve(&query.from, "query.from")?;
        let to = self.scene.resolve(&query.to, "query.to")?;
        let darkvision = match (query.darkvision, &query.from) {
            (Some(range), _) if !(range.is_finite() && range >= 0.0) => {
                return Err(input(
                    "query.darkvision",
                    format!("must be a finite number >= 0 (scene units), got {range}"),
                ))
            }
            (Some(range), _) => range,
            (None, SightEnd::Token(TokenRef { token_id })) => {
                self.scene.tokens[self.token_slot(token_id, "query.from.tokenId")?].darkvision
            }
            (None, _) => 0.0,
        };
        let lighting = match &query.to {
            SightEnd::Token(TokenRef { token_id }) => {
                let slot = self.token_slot(token_id, "query.to.tokenId")?;
                self.token_lighting(slot)
            }
            _ => self.lighting_at_point(to),
        };
        self.indexes_covering(
            from.elevation.min(to.elevation),
            from.elevation.max(to.elevation),
        );
        let index = &self.sight.as_ref().expect("built by indexes()").2;
        let line = index.sight_line(from, to, &mut self.scratch);
        Ok(self
            .scene
            .answer_with(from, to, &line, lighting, darkvision))
    }

    /// Applies one update; see [`SceneUpdate`]. A refused update changes
    /// nothing. Errors: `unknown_token` for a token id, `invalid_input`
    /// naming the field for an unknown wall or light id, a wall that is not
    /// a door, or bad numbers.
    pub fn update(&mut self, update: SceneUpdate) -> Result<(), Error> {
        self.update_all(vec![update])
    }

    /// Applies several updates as one transaction, in order: all of them,
    /// or none when one is refused (its error names `updates[i]`).
    pub fn update_all(&mut self, updates: Vec<SceneUpdate>) -> Result<(), Error> {
        let mut undo = Vec::with_capacity(updates.len());
        for (i, update) in updates.into_iter().enumerate() {
            match self.apply(update, &format!("updates[{i}]")) {
                Ok(step) => undo.push(step),
                Err(error) => {
                    for step in undo.into_iter().rev() {
                        self.revert(step);
                    }
                    return Err(error);
                }
            }
        }
        Ok(())
    }

    /// JSON facade of [`SceneSight::update_all`]: `updates` is one update
    /// object or an array of them (see [`SceneUpdate`] for the shapes).
    pub fn update_json(&mut self, updates: Value) -> Result<(), Error> {
        let items = match updates {
            Value::Array(items) => items,
            single => vec![single],
        };
        let updates = items
            .iter()
            .enumerate()
            .map(|(i, item)| SceneUpdate::from_value(item, &format!("updates[{i}]")))
            .collect::<Result<Vec<_>, _>>()?;
        self.update_all(updates)
    }

    /// Puts `token` in `slot`; the undo holds the token it replaced.
    fn replace_token(&mut self, slot: usize, token: Token) -> Undo {
        Undo::TokenReplaced(slot, std::mem::replace(&mut self.scene.tokens[slot], token))
    }

    /// Puts `light` in `slot`; the undo holds the light it replaced.
    fn replace_light(&mut self, slot: usize, light: Light) -> Undo {
        Undo::LightReplaced(slot, std::mem::replace(&mut self.scene.lights[slot], light))
    }

    /// Forgets what depends on token `slot`: its own lighting, and
    /// everyone's when it carries a light.
    fn forget_token(&mut self, slot: usize) {
        if self.scene.tokens[slot].light.is_some() {
            self.forget_all_lighting();
        } else {
            self.lighting[slot] = None;
        }
    }

    fn forget_all_lighting(&mut self) {
        self.lighting.iter_mut().for_each(|known| *known = None);
        self.light_checked = false;
    }

    fn drop_indexes(&mut self) {
        self.sight = None;
        self.light = None;
        self.forget_all_lighting();
    }

    fn wall_slot(&self, id: &str, field: &str) -> Result<usize, Error> {
        self.walls
            .get(id)
            .copied()
            .ok_or_else(|| input(field, format!("no wall with id `{id}` in the scene")))
    }

    fn light_slot(&self, id: &str, field: &str) -> Result<usize, Error> {
        self.lights
            .get(id)
            .copied()
            .ok_or_else(|| input(field, format!("no light with id `{id}` in the scene")))
    }

    fn set_door(&mut self, slot: usize, state: DoorState) {
        self.scene.walls[slot].door_state = state;
        let open = self.scene.walls[slot].is_open();
        if let Some((_, _, index)) = &mut self.sight {
            index.set_door_open(slot, open);
        }
        if let Some(index) = &mut self.light {
            index.set_door_open(slot, open);
        }
        self.forget_all_lighting();
    }

    fn apply(&mut self, update: SceneUpdate, path: &str) -> Result<Undo, Error> {
        match update {
            SceneUpdate::Door { wall_id, state } => {
                let slot = self.wall_slot(&wall_id, &format!("{path}.wallId"))?;
                if self.scene.walls[slot].door == DoorKind::None {
                    return Err(input(
                        format!("{path}.wallId"),
                        format!("wall `{wall_id}` is not a door"),
                    ));
                }
                let before = self.scene.walls[slot].door_state;
                self.set_door(slot, state);
                Ok(Undo::Door(slot, before))
            }
            SceneUpdate::Wall { wall } => {
                let Some(id) = wall.id.clone() else {
                    return Err(input(
                        format!("{path}.wall._id"),
                        "missing (a wall update needs the wall's id)",
                    ));
                };
                check_wall(&wall, &format!("{path}.wall"))?;
                self.drop_indexes();
                match self.walls.get(&id) {
                    Some(&slot) => Ok(Undo::WallReplaced(
                        slot,
                        std::mem::replace(&mut self.scene.walls[slot], wall),
                    )),
                    None => {
                        self.scene.walls.push(wall);
                        self.walls.insert(id, self.scene.walls.len() - 1);
                        Ok(Undo::WallAdded)
                    }
                }
            }
            SceneUpdate::WallRemoved { wall_id } => {
                let slot = self.wall_slot(&wall_id, &format!("{path}.wallId"))?;
                self.drop_indexes();
                let wall = self.scene.walls.remove(slot);
                self.remap_walls();
                Ok(Undo::WallRemoved(slot, wall))
            }
            SceneUpdate::Token { token } => {
                validate_token(&token, &format!("{path}.token")).map_err(as_input)?;
                if token.light.is_some() {
                    self.forget_all_lighting();
                }
                self.token_at(token.elevation);
                match self.tokens.get(&token.id) {
                    Some(&slot) => {
                        self.forget_token(slot);
                        Ok(self.replace_token(slot, token))
                    }
                    None => {
                        self.tokens
                            .insert(token.id.clone(), self.scene.tokens.len());
                        self.scene.tokens.push(token);
                        self.lighting.push(None);
                        Ok(Undo::TokenAdded)
                    }
                }
            }
            SceneUpdate::TokenMoved {
                token_id,
                x,
                y,
                elevation,
            } => {
                let slot = self.token_slot(&token_id, &format!("{path}.tokenId"))?;
                let mut token = self.scene.tokens[slot].clone();
                token.x = x;
                token.y = y;
                if let Some(elevation) = elevation {
                    token.elevation = elevation;
                }
                validate_token(&token, path).map_err(as_input)?;
                self.forget_token(slot);
                self.token_at(token.elevation);
                Ok(self.replace_token(slot, token))
            }
            SceneUpdate::TokenRemoved { token_id } => {
                let slot = self.token_slot(&token_id, &format!("{path}.tokenId"))?;
                self.forget_token(slot);
                let token = self.scene.tokens.remove(slot);
                self.lighting.remove(slot);
                self.remap_tokens();
                Ok(Undo::TokenRemoved(slot, token))
            }
            SceneUpdate::Darkvision {
                token_id,
                darkvision,
            } => {
                let slot = self.token_slot(&token_id, &format!("{path}.tokenId"))?;
                let mut token = self.scene.tokens[slot].clone();
                token.darkvision = darkvision;
                validate_token(&token, path).map_err(as_input)?;
                Ok(self.replace_token(slot, token))
            }
            SceneUpdate::Light { light } => {
                let Some(id) = light.id.clone() else {
                    return Err(input(
                        format!("{path}.light._id"),
                        "missing (a light update needs the light's id)",
                    ));
                };
                validate_light(&light, &format!("{path}.light")).map_err(as_input)?;
                self.forget_all_lighting();
                match self.lights.get(&id) {
                    Some(&slot) => Ok(self.replace_light(slot, light)),
                    None => {
                        self.scene.lights.push(light);
                        self.lights.insert(id, self.scene.lights.len() - 1);
                        Ok(Undo::LightAdded)
                    }
                }
            }
            SceneUpdate::LightRemoved { light_id } => {
                let slot = self.light_slot(&light_id, &format!("{path}.lightId"))?;
                self.forget_all_lighting();
                let light = self.scene.lights.remove(slot);
                self.remap_lights();
                Ok(Undo::LightRemoved(slot, light))
            }
            SceneUpdate::LightHidden { light_id, hidden } => {
                let slot = self.light_slot(&light_id, &format!("{path}.lightId"))?;
                self.forget_all_lighting();
                let mut light = self.scene.lights[slot].clone();
                light.hidden = hidden;
                Ok(self.replace_light(slot, light))
            }
            SceneUpdate::Darkness { darkness } => {
                if !(0.0..=1.0).contains(&darkness) {
                    return Err(input(
                        format!("{path}.darkness"),
                        format!("must be a number from 0 to 1, got {darkness}"),
                    ));
                }
                self.forget_all_lighting();
                // Whether the light index is needed may change with it.
                let before = std::mem::replace(&mut self.scene.darkness, darkness);
                Ok(Undo::Darkness(before))
            }
        }
    }

    fn revert(&mut self, step: Undo) {
        match step {
            Undo::Door(slot, state) => self.set_door(slot, state),
            Undo::WallReplaced(slot, wall) => {
                self.drop_indexes();
                self.scene.walls[slot] = wall;
            }
            Undo::WallAdded => {
                self.drop_indexes();
                self.scene.walls.pop();
                self.remap_walls();
            }
            Undo::WallRemoved(slot, wall) => {
                self.drop_indexes();
                self.scene.walls.insert(slot, wall);
                self.remap_walls();
            }
            Undo::TokenReplaced(slot, token) => {
                self.forget_token(slot);
                self.token_at(token.elevation);
                self.scene.tokens[slot] = token;
                self.forget_token(slot);
            }
            Undo::TokenAdded => {
                self.forget_token(self.scene.tokens.len() - 1);
                self.scene.tokens.pop();
                self.lighting.pop();
                self.remap_tokens();
            }
            Undo::TokenRemoved(slot, token) => {
                self.token_at(token.elevation);
                self.scene.tokens.insert(slot, token);
                self.lighting.insert(slot, None);
                self.remap_tokens();
                self.forget_token(slot);
            }
            Undo::LightReplaced(slot, light) => {
                self.forget_all_lighting();
                self.scene.lights[slot] = light;
            }
            Undo::LightAdded => {
                self.forget_all_lighting();
                self.scene.lights.pop();
                self.remap_lights();
            }
            Undo::LightRemoved(slot, light) => {
                self.forget_all_lighting();
                self.scene.lights.insert(slot, light);
                self.remap_lights();
            }
            Undo::Darkness(level) => {
                self.forget_all_lighting();
                self.scene.darkness = level;
            }
        }
    }
}

/// The checks [`Scene::validate`] makes on one wall, as `invalid_input`.
fn check_wall(wall: &Wall, path: &str) -> Result<(), Error> {
    validate_wall(wall, path).map_err(as_input)
}

/// The clear-view matrix over `tokens` with a prepared index and the
/// lighting at each token's centre.
pub(super) fn matrix(
    scene: &Scene,
    tokens: &[Token],
    index: &SightIndex,
    lighting: &[Lighting],
    scratch: &mut SightScratch,
) -> ClearViewMatrix {
    let centers: Vec<Point> = tokens.iter().map(|t| scene.token_center(t)).collect();
    let n = tokens.len();
    let mut clear_view = vec![vec![true; n]; n];
    let mut distance = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in i + 1..n {
            let (forward, backward) = index.clear_both_ways(centers[i], centers[j], scratch);
            let d = scene.distance(centers[i], centers[j]);
            clear_view[i][j] = forward && !concealed(&lighting[j], d, tokens[i].darkvision);
            clear_view[j][i] = backward && !concealed(&lighting[i], d, tokens[j].darkvision);
            distance[i][j] = d;
            distance[j][i] = d;
        }
    }
    ClearViewMatrix {
        ids: tokens.iter().map(|t| t.id.clone()).collect(),
        clear_view,
        distance,
        in_darkness: lighting.iter().map(|l| l.dark).collect(),
        units: scene.grid.units.clone(),
    }
}

impl SceneUpdate {
    /// Reads one update from JSON (see [`SceneUpdate`]); errors are
    /// `invalid_input` naming the field under `path` (`updates[2].wall.c`).
    pub fn from_value(value: &Value, path: &str) -> Result<SceneUpdate, Error> {
        let object = foundry::as_object(value, path).map_err(as_input)?;
        let field = |key: &str| format!("{path}.{key}");
        let get = |key: &str| object.get(key).filter(|v| !v.is_null());
        let string = |key: &str| -> Result<String, Error> {
            match get(key) {
                Some(Value::String(s)) => Ok(s.clone()),
                Some(other) => Err(input(
                    field(key),
                    format!("expected a string, got {}", foundry::describe(other)),
                )),
                None => Err(input(field(key), "missing (a string is required)")),
            }
        };
        let number = |key: &str| -> Result<f64, Error> {
            match get(key) {
                Some(value) => foundry::number(value, &field(key)).map_err(as_input),
                None => Err(input(field(key), "missing (a number is required)")),
            }
        };
        let document = |key: &str| -> Result<&Value, Error> {
            get(key).ok_or_else(|| input(field(key), "missing (a Foundry document is required)"))
        };
        let kind = string("type")?;
        Ok(match kind.as_str() {
            "door" => {
                let state = match get("state") {
                    Some(Value::String(s)) if s == "closed" => DoorState::Closed,
                    Some(Value::String(s)) if s == "open" => DoorState::Open,
                    Some(Value::String(s)) if s == "locked" => DoorState::Locked,
                    Some(value) if value.as_u64() == Some(0) => DoorState::Closed,
                    Some(value) if value.as_u64() == Some(1) => DoorState::Open,
                    Some(value) if value.as_u64() == Some(2) => DoorState::Locked,
                    other => {
                        return Err(input(
                            field("state"),
                            format!(
                                "must be \"closed\", \"open\", \"locked\" or 0, 1, 2 (Foundry `ds`), got {}",
                                other.map_or("nothing".into(), foundry::describe)
                            ),
                        ))
                    }
                };
                SceneUpdate::Door {
                    wall_id: string("wallId")?,
                    state,
                }
            }
            "wall" => SceneUpdate::Wall {
                wall: foundry::read_wall(document("wall")?, &field("wall")).map_err(as_input)?,
            },
            "wallRemoved" => SceneUpdate::WallRemoved {
                wall_id: string("wallId")?,
            },
            "token" => SceneUpdate::Token {
                token: foundry::read_token(document("token")?, &field("token"))
                    .map_err(as_input)?,
            },
            "tokenMoved" => SceneUpdate::TokenMoved {
                token_id: string("tokenId")?,
                x: number("x")?,
                y: number("y")?,
                elevation: match get("elevation") {
                    Some(_) => Some(number("elevation")?),
                    None => None,
                },
            },
            "tokenRemoved" => SceneUpdate::TokenRemoved {
                token_id: string("tokenId")?,
            },
            "darkvision" => SceneUpdate::Darkvision {
                token_id: string("tokenId")?,
                darkvision: number("darkvision")?,
            },
            "light" => SceneUpdate::Light {
                light: foundry::read_light(document("light")?, &field("light"))
                    .map_err(as_input)?,
            },
            "lightRemoved" => SceneUpdate::LightRemoved {
                light_id: string("lightId")?,
            },
            "lightHidden" => SceneUpdate::LightHidden {
                light_id: string("lightId")?,
                hidden: match get("hidden") {
                    Some(Value::Bool(b)) => *b,
                    other => {
                        return Err(input(
                            field("hidden"),
                            format!(
                                "expected a boolean, got {}",
                                other.map_or("nothing".into(), foundry::describe)
                            ),
                        ))
                    }
                },
            },
            "darkness" => SceneUpdate::Darkness {
                darkness: number("darkness")?,
            },
            other => {
                return Err(input(
                    field("type"),
                    format!(
                        "unknown update `{other}`; expected door, wall, wallRemoved, token, tokenMoved, tokenRemoved, darkvision, light, lightRemoved, lightHidden or darkness"
                    ),
                ))
            }
        })
    }
}
