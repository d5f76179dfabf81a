//! Light and darkness as concealment (B5): which positions no light
//! reaches. See `docs/scene.md`, "Light and darkness".

use serde::{Deserialize, Serialize};

use super::{Light, Point, Scene, Sense, SightIndex, SightScratch};

/// What lights a position, or why it is dark.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum LitBy {
    /// Global illumination is on at the scene's darkness level.
    Global,
    /// An ambient light reaches the position (`source` names it).
    Light,
    /// A light carried by a token reaches the position (`source` names the
    /// token: its index in the scene's `tokens` and its id).
    TokenLight,
    /// Inside an active darkness source (`source` names it): dark, whatever
    /// other light there is.
    DarknessSource,
    /// Inside a darkness source carried by a token (`source` names the token).
    TokenDarkness,
    /// No light reaches the position: dark.
    NoLight,
}

/// Whether a position is in darkness, and why. JSON: `{"dark": bool,
/// "by": "global" | "light" | "tokenLight" | "darknessSource" |
/// "tokenDarkness" | "noLight", "source"?: {"index", "id"?}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Lighting {
    /// No light reaches the position, or it lies inside a darkness source.
    pub dark: bool,
    pub by: LitBy,
    /// The light or darkness source that decides, by index in the scene's
    /// `lights` and Foundry `_id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<super::WallRef>,
}

/// A light source: an ambient light (by index in `lights`) or a token's.
#[derive(Clone, Copy)]
enum Source {
    Ambient(usize),
    Token(usize),
}

impl Lighting {
    /// Lit by global illumination: the answer everywhere when
    /// [`Scene::lit_everywhere`].
    pub fn everywhere() -> Lighting {
        Lighting {
            dark: false,
            by: LitBy::Global,
            source: None,
        }
    }

    fn of(scene: &Scene, by: LitBy, source: Option<Source>) -> Lighting {
        Lighting {
            dark: matches!(
                by,
                LitBy::DarknessSource | LitBy::TokenDarkness | LitBy::NoLight
            ),
            by,
            source: source.map(|source| match source {
                Source::Ambient(index) => super::WallRef {
                    index,
                    id: scene.lights[index].id.clone(),
                },
                Source::Token(index) => super::WallRef {
                    index,
                    id: Some(scene.tokens[index].id.clone()),
                },
            }),
        }
    }
}

impl Scene {
    /// Whether global illumination applies: `globalLight` on and the
    /// darkness level within its range (`globalLightThreshold`, v12+
    /// `environment.globalLight.darkness`; none: always).
    pub fn global_illumination(&self) -> bool {
        self.global_light
            && self
                .global_light_darkness
                .is_none_or(|range| range.contains(self.darkness))
    }

    /// Whether `light` is on: not hidden, and the scene's darkness level
    /// within its activation range (v9+ `config.darkness`, v8
    /// `darknessThreshold`).
    pub fn light_is_on(&self, light: &Light) -> bool {
        !light.hidden
            && light
                .active
                .is_none_or(|range| range.contains(self.darkness))
    }

    /// Whether no light is needed anywhere: global illumination and no
    /// darkness source on. Then every position is lit.
    pub fn lit_everywhere(&self) -> bool {
        self.global_illumination()
            && !self
                .lights
                .iter()
                .any(|light| light.darkness && self.light_is_on(light))
            && !self
                .carried_lights()
                .any(|(_, light)| light.darkness && self.light_is_on(&light))
    }

    /// The lights tokens carry, with the token's index.
    fn carried_lights(&self) -> impl Iterator<Item = (usize, Light)> + '_ {
        self.tokens
            .iter()
            .enumerate()
            .filter_map(|(i, token)| token.carried_light(&self.grid).map(|light| (i, light)))
    }

    /// The lighting at `point` (`docs/scene.md`, "Light and darkness").
    /// `index` must be built for [`Sense::Light`] over all elevations
    /// ([`SightIndex::build`]); [`super::SceneSight`] keeps one.
    pub fn lighting(
        &self,
        index: &SightIndex,
        point: Point,
        scratch: &mut SightScratch,
    ) -> Lighting {
        let pixels = self.grid.size / self.grid.distance;
        let mut reaches = |light: &Light| -> bool {
            if !self.light_is_on(light) {
                return false;
            }
            let radius = light.dim.max(light.bright) * pixels;
            let (dx, dy) = (point.x - light.x, point.y - light.y);
            if dx * dx + dy * dy > radius * radius {
                return false;
            }
            if light.angle < 360.0 && (dx != 0.0 || dy != 0.0) {
                // Rotation 0 faces down the screen (+y), growing clockwise:
                // facing (-sin r, cos r). Inside the cone when the angle
                // between the facing and the point is at most angle / 2.
                let facing = light.rotation.to_radians();
                let (fx, fy) = (-facing.sin(), facing.cos());
                let between = (fx * dy - fy * dx).atan2(fx * dx + fy * dy).abs();
                if between.to_degrees() > light.angle / 2.0 {
                    return false;
                }
            }
            !light.walls
                || index.clear(
                    Point::new(light.x, light.y).at(light.elevation),
                    point,
                    scratch,
                )
        };
        if let Some(i) = self
            .lights
            .iter()
            .position(|light| light.darkness && reaches(light))
        {
            return Lighting::of(self, LitBy::DarknessSource, Some(Source::Ambient(i)));
        }
        if let Some((i, _)) = self
            .carried_lights()
            .find(|(_, light)| light.darkness && reaches(light))
        {
            return Lighting::of(self, LitBy::TokenDarkness, Some(Source::Token(i)));
        }
        if self.global_illumination() {
            return Lighting::of(self, LitBy::Global, None);
        }
        if let Some(i) = self
            .lights
            .iter()
            .position(|light| !light.darkness && reaches(light))
        {
            return Lighting::of(self, LitBy::Light, Some(Source::Ambient(i)));
        }
        match self
            .carried_lights()
            .find(|(_, light)| !light.darkness && reaches(light))
        {
            Some((i, _)) => Lighting::of(self, LitBy::TokenLight, Some(Source::Token(i))),
            None => Lighting::of(self, LitBy::NoLight, None),
        }
    }

    /// The index [`Scene::lighting`] needs: walls that restrict light, all elevations.
    pub fn light_index(&self) -> SightIndex {
        SightIndex::build(self, Sense::Light, f64::NEG_INFINITY, f64::INFINITY)
    }
}

/// Concealment by darkness (B5): the target is concealed from an observer
/// when it is in darkness and farther than the observer's `darkvision`
/// (scene units, flat distance as in [`Scene::distance`]). Decided by
/// [`crate::darkness::concealed_by_darkness`], as the `concealedByDarkness` export.
pub fn concealed(target: &Lighting, distance: f64, darkvision: f64) -> bool {
    crate::darkness::concealed_by_darkness(
        target.dark,
        Some(distance),
        crate::darkness::Darkvision::Range(darkvision),
    )
}
