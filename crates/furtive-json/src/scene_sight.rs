//! [`JsonSceneSight`]: a [`SceneSight`] driven with JSON, what a
//! JavaScript `SceneSight` object holds (napi and wasm alike).
//!
//! The scene is read once, at [`JsonSceneSight::parse`], and kept between
//! calls with its wall indexes and the lighting of its tokens, so one
//! clear-view question costs the walls near its line. Refusals name the
//! argument: `scene.…` (`invalid_scene`), `query.…`, `observer`, `target`,
//! `point.…`, `token`, `updates[i].…`. Every method takes `&mut self`: a
//! question fills the caches, never the scene itself.

use furtive_core::scene::{ClearViewQuery, Point, SceneSight};
use furtive_core::Error;

use crate::read::Input;
use crate::write::to_text;

/// A [`SceneSight`] driven with JSON values in and JSON text out.
#[derive(Debug)]
pub struct JsonSceneSight {
    sight: SceneSight,
}

impl JsonSceneSight {
    /// `SceneSight.parse(scene)`: a Foundry Scene export or a normalized scene.
    pub fn parse(scene: impl Input) -> Result<JsonSceneSight, Error> {
        Ok(JsonSceneSight {
            sight: SceneSight::from_value(scene.into_value("scene")?)?,
        })
    }

    /// The scene with its caches.
    pub fn sight(&self) -> &SceneSight {
        &self.sight
    }

    /// `clearView({ from, to, darkvision? }) -> ClearViewAnswer` (B5).
    pub fn clear_view(&mut self, query: impl Input) -> Result<String, Error> {
        let query: ClearViewQuery = query.read("query")?;
        to_text(&self.sight.answer(&query)?)
    }

    /// `view(observer, target) -> View`: clear view between two tokens, with its parts.
    pub fn view(&mut self, observer: impl Input, target: impl Input) -> Result<String, Error> {
        let observer: String = observer.read("observer")?;
        let target: String = target.read("target")?;
        to_text(&self.sight.view(&observer, &target)?)
    }

    /// `clearViewFrom(observer) -> ClearViewFrom`: from one token to every token.
    pub fn clear_view_from(&mut self, observer: impl Input) -> Result<String, Error> {
        let observer: String = observer.read("observer")?;
        to_text(&self.sight.clear_view_from(&observer)?)
    }

    /// `clearViewMatrix() -> ClearViewMatrix`: every pair of tokens.
    pub fn clear_view_matrix(&mut self) -> Result<String, Error> {
        to_text(&self.sight.clear_view_matrix())
    }

    /// `lightingAt({ x, y, elevation? }) -> Lighting`.
    pub fn lighting_at(&mut self, point: impl Input) -> Result<String, Error> {
        let point: Point = point.read("point")?;
        to_text(&self.sight.lighting_at(point))
    }

    /// `lightingOf(token) -> Lighting`: the lighting at a token's centre.
    pub fn lighting_of(&mut self, token: impl Input) -> Result<String, Error> {
        let token: String = token.read("token")?;
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

    /// `update(update | update[])`: door, wall, token and light changes as
    /// one transaction, all or nothing.
    pub fn update(&mut self, updates: impl Input) -> Result<String, Error> {
        self.sight.update_json(updates.into_value("updates")?)?;
        Ok("null".into())
    }

    /// `scene() -> Scene`: the normalized scene as updated.
    pub fn scene(&mut self) -> Result<String, Error> {
        to_text(self.sight.scene())
    }
}
