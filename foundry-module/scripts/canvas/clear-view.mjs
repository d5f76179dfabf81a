/**
 * What observers see of a hider right now: clear view and distance, with
 * Foundry's own geometry. Only for the scene on the canvas.
 *
 * Clear view (B5, O2) = no sight-blocking wall between the observer's centre
 * and the hider (its centre on v13, any of its visibility test points on v14,
 * as Foundry tests it; `CONFIG.Canvas.polygonBackends.sight.testCollision(origin,
 * destination, {type: "sight", mode: "any", useThreshold: true})` returns true
 * when a wall blocks; Wall Height and Levels extend that test, see docs/scene.md) and no
 * concealment by darkness: the hider in darkness and farther than the
 * observer sees in darkness (decided by the engine, canvas/lighting.mjs). Other concealment is not tested:
 * the GM overrides a pair when needed.
 * Distance = `canvas.grid.measurePath([origin, destination]).distance`, in
 * scene units (v12+).
 */

import { isCreatureToken } from "../systems/actor-data.mjs";
import { concealedByDarkness, darkvisionOf, elevatedCenterOf, lightingOf } from "./lighting.mjs";
import { readSettings } from "../settings.mjs";

/** @typedef {import("../types.mjs").ViewEntry} ViewEntry */

/**
 * The centre of a token from its document (not the animated position).
 * @param {TokenDocument} token
 */
export function centerOf(token) {
  const size = token.parent?.grid?.size ?? canvas.grid?.size ?? 100;
  return { x: token.x + (token.width * size) / 2, y: token.y + (token.height * size) / 2 };
}

/**
 * The Level a test between two tokens runs on (v14 Scene Levels): the
 * seen token's (`TokenDocument#level`, a Level id, v14
 * https://foundryvtt.com/api/v14/interfaces/foundry.documents.types.TokenData.html),
 * else the observer's, as a Level of their scene (`Scene#levels`). Undefined
 * before v14 or without levels. PF2e Visioner picks the same
 * (roi007leaf/pf2e-visioner scripts/services/LevelsIntegration.js `getCollisionLevel`).
 * @param {TokenDocument} observer
 * @param {TokenDocument} seen
 */
function levelOf(observer, seen) {
  const id = /** @type {any} */ (seen).level ?? /** @type {any} */ (observer).level;
  if (!id) return undefined;
  return /** @type {any} */ (seen.parent)?.levels?.get?.(id) ?? undefined;
}

/**
 * The points of token `b` an observer's line of sight is tested against, as
 * Foundry tests the token's visibility:
 * - v14: `TokenDocument#getVisibilityTestPoints()`, the centre of every grid
 *   space of the token's shape, `ElevatedPoint`s (foundryvtt/foundryvtt#13633
 *   "Test all grid space center points of a token's shape for visibility",
 *   where `CanvasVisibility#testVisibility` "can now accept multiple points. If
 *   one of them is visible, the function returns true"; renamed from
 *   `getTestPoints` by #13834; the method on
 *   https://foundryvtt.com/api/v14/classes/foundry.documents.TokenDocument.html).
 *   Vision 5e and PF2e Visioner pass the same points to the v14 test
 *   (docs/foundry.md, "Foundry 13 and 14").
 * - v13: the token's centre (`Token#center`), the one point
 *   `CanvasVisibility#testVisibility(point, {tolerance, object})` takes there,
 *   its `tolerance` "a numeric radial offset which allows for a non-exact match"
 *   of a few pixels, which the module does not widen
 *   (https://foundryvtt.com/api/v13/classes/foundry.canvas.groups.CanvasVisibility.html).
 * @param {TokenDocument} b
 * @returns {{x: number, y: number, elevation: number}[]}
 */
function testPointsOf(b) {
  const own = /** @type {any} */ (b).getVisibilityTestPoints;
  if (Number(game.release?.generation ?? 13) < 14 || typeof own !== "function") return [elevatedCenterOf(b)];
  const points = own.call(b);
  if (!Array.isArray(points) || !points.length) return [elevatedCenterOf(b)];
  const elevation = elevatedCenterOf(b).elevation;
  return points.map((/** @type {any} */ p) => ({ x: Number(p.x), y: Number(p.y), elevation: Number.isFinite(Number(p.elevation)) ? Number(p.elevation) : elevation }));
}

/**
 * Whether walls block the sight of observer `a` on token `b`: from the
 * observer's centre to every test point of `b` ({@link testPointsOf}; v14 a
 * line to any of them is a clear view, as Foundry shows a token when one of
 * its points is visible; v13 the centre), each an `ElevatedPoint {x, y,
 * elevation}`, which `testCollision` takes in v13 and v14
 * (docs/dnd5e-automation.md §8, core issue 11847); in v14
 * on the level of the tokens ({@link levelOf}), not the level the user views,
 * which the test follows otherwise (the `level` of the collision config, passed
 * as PF2e Visioner's v14 port passes it, `_testCorePolygonCollision`); what
 * Wall Height and Levels can extend the test with (docs/scene.md, "Where the
 * engine and Foundry differ").
 * Proximity and distance walls (windows) are tested with their threshold,
 * measured from the observer, as the observer's line of sight is drawn (the
 * walls article, https://foundryvtt.com/article/walls/; `WallThresholdData#sight`,
 * "Minimum distance from a vision source for which this wall blocks vision",
 * https://foundryvtt.com/api/interfaces/foundry.documents.types.WallThresholdData.html).
 * The collision test applies thresholds only when asked (`useThreshold`,
 * "Compute the polygon with threshold wall constraints applied",
 * https://foundryvtt.com/api/interfaces/foundry.canvas.geometry.types.PointSourcePolygonConfig.html,
 * https://foundryvtt.com/api/v14/interfaces/foundry.canvas.geometry.types.PointSourcePolygonConfig.html);
 * dnd5e's blindsight leaves them out on purpose so that it does not see
 * through windows (dnd5e release-5.3.3 module/canvas/detection-modes/blindsight.mjs).
 * @param {TokenDocument} a the observer
 * @param {TokenDocument} b the token looked at
 */
export function sightBlocked(a, b) {
  const backend = CONFIG.Canvas.polygonBackends.sight;
  const level = levelOf(a, b);
  const origin = elevatedCenterOf(a);
  const config = { type: "sight", mode: /** @type {const} */ ("any"), useThreshold: true, ...(level ? { level } : {}) };
  return testPointsOf(b).every((point) => Boolean(backend.testCollision(origin, point, config)));
}

/**
 * The distance between two tokens in scene units, rounded to 0.01.
 * @param {TokenDocument} a
 * @param {TokenDocument} b
 */
export function distanceBetween(a, b) {
  const distance = Number(canvas.grid.measurePath([centerOf(a), centerOf(b)]).distance);
  return Number.isFinite(distance) ? Math.round(distance * 100) / 100 : undefined;
}

/**
 * Whether the canvas shows this scene (geometry needs it).
 * @param {Scene} scene
 */
export function onCanvas(scene) {
  return Boolean(canvas?.ready && canvas.scene?.id === scene.id);
}

/**
 * Hider token id -> whether it stood in darkness when its view was last
 * computed (this client only): a change of light changes the views of the
 * hiders whose darkness changed, not the others' (gm/automation.mjs).
 */
const darknessSeen = /** @type {Map<string, boolean>} */ (new Map());

/**
 * Whether a hider's darkness differs from when its view was last computed
 * (true when it was never computed here).
 * @param {TokenDocument} hider
 * @param {import("./lighting.mjs").Lighting} lighting its lighting now (`lightingOf`)
 */
export function darknessChanged(hider, lighting) {
  const seen = darknessSeen.get(/** @type {string} */ (hider.id));
  return seen === undefined || seen !== lighting.dark;
}

/**
 * The view of `hider` for each observer token of the scene (or the listed ones).
 * @param {Scene} scene
 * @param {TokenDocument} hider
 * @param {TokenDocument[]} [observers] default: every other token with an actor
 * @param {import("./lighting.mjs").Lighting} [known] the hider's lighting, when the caller has it
 * @returns {ViewEntry[]} empty when the scene is not on the canvas
 */
export function viewOf(scene, hider, observers, known) {
  if (!onCanvas(scene)) return [];
  const list = observers ?? scene.tokens.filter((t) => t.id !== hider.id && isCreatureToken(t));
  // One light test per hider, whatever the number of observers.
  const lighting = known ?? lightingOf(scene, hider);
  darknessSeen.set(/** @type {string} */ (hider.id), lighting.dark);
  const settings = readSettings();
  const others = list.filter((observer) => observer.id !== hider.id);
  const distances = others.map((observer) => distanceBetween(observer, hider));
  // B5 by the engine: one call for every observer of this hider.
  const concealed = concealedByDarkness(
    lighting,
    others.map((observer, i) => ({ distance: distances[i], darkvision: darkvisionOf(observer, settings) })),
  );
  return others.map((observer, i) => {
    const entry = /** @type {ViewEntry} */ ({ observer: /** @type {string} */ (observer.id), clearView: !concealed[i] && !sightBlocked(observer, hider) });
    if (distances[i] !== undefined) entry.distance = distances[i];
    return entry;
  });
}
