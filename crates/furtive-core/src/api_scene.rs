//! The JSON facade of [`SceneSight`] that the bindings call: JSON in
//! (text or a `Value`, [`crate::api::Input`]), JSON text out, the same parsing and error messages as the free
//! scene functions of [`crate::api`] (`parseScene`, `clearView`,
//! `clearViewMatrix`).
//!
//! A [`JsonSceneSight`] is what a JavaScript `SceneSight` object holds
//! (napi and wasm alike): the scene is read once, at [`JsonSceneSight::parse`],
//! and kept between calls with its wall indexes and the lighting of its
//! tokens, so one clear-view question costs the walls near its line, not
//! the whole scene (see [`SceneSight`] for the costs). Errors name the
//! argument: `scene.…` (`invalid_scene`), `query.…`, `observer`, `target`,
//! `point.…`, `token`, `updates[i].…`.
//!
//! Every method takes `&mut self`: even a question fills the caches
//! (indexes, lighting), never the scene itself.

use serde::Serialize;

use crate::api::{parse, Input};
use crate::error::Error;
use crate::scene::{ClearViewQuery, Point, SceneSight};

/// Serializes a result as ASCII JSON text ([`crate::api::to_json_text`]);
/// `invalid_input` naming `output` if it cannot be (never for the engine's
/// own types).
fn to_text<T: Serialize>(value: &T) -> Result<String, Error> {
    crate::api::to_json_text(value)
}

/// A [`SceneSight`] driven with JSON values in and JSON text out.
#[derive(Debug)]
pub struct JsonSceneSight {
    sight: SceneSight,
}

impl JsonSceneSight {
    /// `SceneSight.parse(scene)`: reads a Foundry Scene export (v10+,
    /// 0.8/v9, 0.7) or a normalized scene once. Errors: `invalid_scene`
    /// naming the field (`scene.walls[3].c`), `duplicate_token`.
    pub fn parse(scene: impl Input) -> Result<JsonSceneSight, Error> {
        Ok(JsonSceneSight {
            sight: SceneSight::from_value(scene.into_value("scene")?)?,
        })
    }

    /// The scene sight.
    pub fn sight(&self) -> &SceneSight {
        &self.sight
    }

    /// `clearView({ from, to, darkvision? }) -> ClearViewAnswer`, as the
    /// free `clearView(scene, query)` answers it on the current scene.
    /// Errors: `invalid_input` naming `query.…`, `unknown_token`.
    pub fn clear_view(&mut self, query: impl Input) -> Result<String, Error> {
        let query: ClearViewQuery = parse("query", query)?;
        to_text(&self.sight.answer(&query)?)
    }

    /// `view(observer, target) -> View`: clear view between two tokens of
    /// the scene, by id, with its parts (B5). Errors: `invalid_input` when
    /// an id is not a string, `unknown_token` naming `observer` or `target`.
    pub fn view(&mut self, observer: impl Input, target: impl Input) -> Result<String, Error> {
        let observer: String = parse("observer", observer)?;
        let target: String = parse("target", target)?;
        to_text(&self.sight.view(&observer, &target)?)
    }

    /// `clearViewFrom(observer) -> ClearViewFrom`: clear view from one
    /// token to every token of the scene. Errors: `invalid_input`,
    /// `unknown_token` naming `observer`.
    pub fn clear_view_from(&mut self, observer: impl Input) -> Result<String, Error> {
        let observer: String = parse("observer", observer)?;
        to_text(&self.sight.clear_view_from(&observer)?)
    }

    /// `clearViewMatrix() -> ClearViewMatrix`: every pair of the scene's tokens.
    pub fn clear_view_matrix(&mut self) -> Result<String, Error> {
        to_text(&self.sight.clear_view_matrix())
    }

    /// `lightingAt({ x, y, elevation? }) -> Lighting`: the lighting at a
    /// canvas point (pixels; elevation in scene units). Errors:
    /// `invalid_input` naming `point.…`.
    pub fn lighting_at(&mut self, point: impl Input) -> Result<String, Error> {
        let point: Point = parse("point", point)?;
        to_text(&self.sight.lighting_at(point))
    }

    /// `lightingOf(token) -> Lighting`: the lighting at the centre of the
    /// token with that id. Errors: `invalid_input`, `unknown_token` naming
    /// `token`.
    pub fn lighting_of(&mut self, token: impl Input) -> Result<String, Error> {
        let token: String = parse("token", token)?;
        let lighting = self
            .sight
            .lighting_of(&token)
            .map_err(|error| match error {
                Error::UnknownToken { id, .. } => Error::UnknownToken {
                    field: "token".into(),
                    id,
                },
                other => other,
            })?;
        to_text(&lighting)
    }

    /// `update(updates) -> null`: one update object or an array of them
    /// (see [`crate::scene::SceneUpdate`]), as one transaction: all of
    /// them, or none when one is refused. Errors name `updates[i].…`.
    pub fn update(&mut self, updates: impl Input) -> Result<String, Error> {
        self.sight.update_json(updates.into_value("updates")?)?;
        Ok("null".into())
    }

    /// `scene() -> Scene`: the normalized scene as it stands after the
    /// updates, which `SceneSight.parse` reads back.
    pub fn scene(&mut self) -> Result<String, Error> {
        to_text(self.sight.scene())
    }
}
