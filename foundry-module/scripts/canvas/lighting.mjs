/**
 * Light and darkness with Foundry's own lighting: whether a token stands in
 * darkness, and how far an observer sees in darkness. canvas/clear-view.mjs uses
 * both for concealment by darkness (B5, O2); the Hide dialog pre-ticks the
 * percentile `dark` modifier (P2) from the first.
 *
 * The same model as the engine's scene sight (docs/scene.md, "Light and
 * darkness (B5)"), asked of the canvas instead of an export:
 * 1. inside an active darkness source: dark;
 * 2. else global illumination applies: lit;
 * 3. else the token carries a lit light, or an active light source holds its
 *    position: lit;
 * 4. else dark.
 *
 * Foundry API:
 * - `canvas.effects.testInsideDarkness` / `testInsideLight`
 *   (`EffectsCanvasGroup`, v13 https://foundryvtt.com/api/classes/foundry.canvas.groups.EffectsCanvasGroup.html):
 *   one `ElevatedPoint {x, y, elevation}` (v13 and v14); sources are bounded in
 *   elevation too (docs/dnd5e-automation.md §8, core issues 11722, 11729);
 * - `Scene#environment` (`SceneEnvironmentData`, v13
 *   https://foundryvtt.com/api/interfaces/foundry.documents.types.SceneEnvironmentData.html, v14
 *   https://foundryvtt.com/api/v14/interfaces/foundry.documents.types.SceneEnvironmentData.html):
 *   `darknessLevel` (0 midday .. 1 midnight), `globalLight` (`GlobalLightData`,
 *   v13 https://foundryvtt.com/api/types/foundry.documents.types.GlobalLightData.html) with `enabled` and
 *   the darkness range `darkness = {min, max}` in which it applies. The document's level is read, not
 *   `canvas.environment.darknessLevel`: the canvas animates towards a new level
 *   (`CONFIG.Canvas.darknessToDaylightAnimationMS`, v13 https://foundryvtt.com/api/variables/CONFIG.Canvas.html),
 *   the document holds the level being set;
 * - `TokenDocument#light` (`LightData`, https://foundryvtt.com/api/interfaces/foundry.documents.types.LightData.html):
 *   `dim`, `bright` (distance units), `negative` (a darkness source);
 * - `TokenDocument#sight` (`TokenSightData`, https://foundryvtt.com/api/interfaces/foundry.documents.types.TokenSightData.html):
 *   `range` "How far in distance units the Token can see without the aid of a light source. If null,
 *   the sight range is unlimited", when `enabled`;
 * - `TokenDocument#detectionModes` (`TokenDetectionMode {id, enabled, range}`, an array in v13, a
 *   record by id of `{enabled, range}` in v14, https://foundryvtt.com/api/v14/interfaces/foundry.documents.types.TokenData.html,
 *   foundryvtt/foundryvtt#12976; range null = unlimited).
 */

import { readPath, senseInSceneUnits } from "../systems/actor-data.mjs";
import { concealedByDarkness as engineConcealedByDarkness } from "../engine.mjs";

/** @typedef {import("../settings.mjs").FurtiveSettings} FurtiveSettings */

/**
 * Where a token stands for lighting: `dark`, and what decides it (the
 * engine's `by` names: `darknessSource`, `global`, `tokenLight`, `light`,
 * `noLight`).
 * @typedef {{dark: boolean, by: "darknessSource" | "global" | "tokenLight" | "light" | "noLight"}} Lighting
 */

/**
 * Detection modes that see without light, within their range: basic sight
 * ("see without the aid of a light source", like `sight.range`) and the
 * see-all/sense-all modes. Light perception needs light; the invisibility
 * and tremor modes detect only some targets (enhanced senses, O13, are the
 * engine's).
 */
const DARK_SEEING_MODES = new Set(["basicSight", "seeAll", "senseAll"]);

/**
 * A token's centre from its document (not the animated position) with its
 * elevation (distance units): an `ElevatedPoint {x, y, elevation}`.
 * @param {TokenDocument} token
 */
export function elevatedCenterOf(token) {
  const size = token.parent?.grid?.size ?? canvas.grid?.size ?? 100;
  return { x: token.x + (token.width * size) / 2, y: token.y + (token.height * size) / 2, elevation: Number(/** @type {any} */ (token).elevation ?? 0) || 0 };
}

/**
 * One of `canvas.effects`' point tests on one `ElevatedPoint {x, y, elevation}`
 * (v13 and v14; core issues 11722, 11729). The token's own elevation places
 * the point in its level (v14 Scene Levels: a Level spans `elevation
 * {bottom, top}`, https://foundryvtt.com/api/interfaces/foundry.documents.types.LevelData.html).
 * @param {"testInsideLight" | "testInsideDarkness"} method
 * @param {{x: number, y: number, elevation: number}} point
 */
function pointTest(method, point) {
  const test = canvas.effects?.[method]?.bind(canvas.effects);
  if (!test) return false;
  return Boolean(test({ x: point.x, y: point.y, elevation: point.elevation }));
}

/**
 * Whether the scene's global illumination applies now: on, and the scene's
 * darkness level within its range.
 * @param {Scene} scene
 */
export function globalIllumination(scene) {
  const environment = /** @type {any} */ (scene).environment;
  const global = environment?.globalLight;
  if (!global?.enabled) return false;
  const level = Number(environment.darknessLevel ?? 0);
  const min = Number(global.darkness?.min ?? 0);
  const max = Number(global.darkness?.max ?? 1);
  return level >= min && level <= max;
}

/**
 * Whether the token carries a lit light (not a darkness source).
 * @param {TokenDocument} token
 */
export function carriesLight(token) {
  const light = /** @type {any} */ (token).light;
  if (!light || light.negative) return false;
  return Math.max(Number(light.dim) || 0, Number(light.bright) || 0) > 0;
}

/**
 * Light or darkness where a token stands (its centre, at its elevation).
 * Only for the scene on the canvas (the caller checks `onCanvas`).
 * @param {Scene} scene
 * @param {TokenDocument} token
 * @returns {Lighting}
 */
export function lightingOf(scene, token) {
  const point = elevatedCenterOf(token);
  if (pointTest("testInsideDarkness", point)) return { dark: true, by: "darknessSource" };
  if (globalIllumination(scene)) return { dark: false, by: "global" };
  // The token's own light: its source follows the token's animation on the
  // canvas, the document is already where the token goes.
  if (carriesLight(token)) return { dark: false, by: "tokenLight" };
  if (pointTest("testInsideLight", point)) return { dark: false, by: "light" };
  return { dark: true, by: "noLight" };
}

/**
 * Whether a token stands in darkness (the percentile Hide dialog's `dark`).
 * @param {Scene} scene
 * @param {TokenDocument} token
 */
export function inDarkness(scene, token) {
  return lightingOf(scene, token).dark;
}

/**
 * A range in distance units: a number >= 0, null (unlimited) -> Infinity, anything else -> 0.
 * @param {unknown} value
 */
function rangeOf(value) {
  if (value === null) return Infinity;
  const number = Number(value);
  return Number.isFinite(number) && number > 0 ? number : 0;
}

/**
 * How far (scene distance units, `>= 0`, `Infinity` for unlimited) an
 * observer sees in darkness: the largest of the actor attributes the
 * `darkvisionPath` setting names (comma-separated paths, each `a|b`, in the
 * scene's units: systems/actor-data.mjs `senseInSceneUnits`), the
 * token's sight range when its vision is enabled, and the range of its
 * enabled detection modes that see without light (not those the GM ignores).
 * @param {TokenDocument} token
 * @param {FurtiveSettings} settings
 * @returns {number}
 */
export function darkvisionOf(token, settings) {
  let range = 0;
  for (const path of String(settings.darkvisionPath ?? "").split(",").map((p) => p.trim()).filter(Boolean)) {
    const value = senseInSceneUnits(token.actor, Number(readPath(token.actor, path)), token.parent);
    if (Number.isFinite(value) && value > range) range = value;
  }
  const sight = /** @type {any} */ (token).sight;
  if (sight?.enabled) range = Math.max(range, rangeOf(sight.range));
  const modes = /** @type {any} */ (token).detectionModes;
  const list = Array.isArray(modes) ? modes : Object.entries(modes ?? {}).map(([id, mode]) => ({ id, ...mode }));
  for (const mode of list) {
    if (!mode?.enabled || !DARK_SEEING_MODES.has(mode.id) || settings.ignoredDetectionModes.includes(mode.id)) continue;
    range = Math.max(range, rangeOf(mode.range));
  }
  return range;
}

/**
 * Concealment by darkness (B5) of one target from each observer, decided by
 * the engine (`concealedByDarkness`, the same function as its scene code's;
 * docs/scene.md, "Light and darkness (B5)"): one engine call per target,
 * whatever the number of observers. `Infinity` darkvision (JSON cannot carry
 * it) is sent as `"unlimited"`, an unknown distance is left out.
 * @param {Lighting} target
 * @param {{distance: number | undefined, darkvision: number}[]} observers scene units
 * @returns {boolean[]} `concealed[i]` for `observers[i]`
 */
export function concealedByDarkness(target, observers) {
  return engineConcealedByDarkness({
    targetInDarkness: target.dark,
    observers: observers.map(({ distance, darkvision }) => ({ distance, darkvision: darkvision === Infinity ? "unlimited" : darkvision })),
  });
}
