/**
 * The canvas subset: token and wall placeables, the grid, vision sources,
 * detection modes, the sight collision backend, the perception manager and the
 * token HUD. Written from the v13/v14 API docs:
 *
 * - `DetectionMode#testVisibility(visionSource, mode, {object, tests})`: false when
 *   `mode.enabled` is false, else false when `_canDetect(visionSource, object)` is
 *   false, else true when some test point passes `_testPoint` (range, then line of
 *   sight through `CONFIG.Canvas.polygonBackends.sight.testCollision` when the mode
 *   has `walls`).
 * - base `_canDetect`: a sight mode cannot detect from a blind source or an
 *   invisible target (CONFIG.specialStatusEffects BLIND / INVISIBLE).
 * - `canvas.visibility.testVisibility(point, {tolerance, object})`: with no active
 *   vision source, true only for a GM; true inside an active light that provides
 *   vision (before any detection mode); else true when any active vision source
 *   detects the object through any of its token's detection modes.
 * - every core detection mode: lightPerception, basicSight, seeInvisibility,
 *   senseInvisibility, feelTremor, seeAll, senseAll (`CONFIG.Canvas.detectionModes`).
 * - `Token#isVisible`: GM-hidden tokens only for the GM; true without token vision,
 *   for a controlled token, for a token with an active vision source; else
 *   `canvas.visibility.testVisibility(center)`.
 * - vision sources: a token with sight enabled is a vision source for a user who
 *   observes it (OBSERVER or better) when it is controlled, or when the user
 *   controls no token (players: all observed tokens, B2); a GM who controls no
 *   token has none (sees everything).
 * - `canvas.perception.update(flags)` only records render flags; they are applied
 *   at the next frame. Token visibility is recomputed only at a frame with
 *   `refreshVision`, `initializeVision` or `refreshVisibility` pending, or for a
 *   token whose own position changed. Toggling an ordinary status effect does NOT
 *   refresh visibility (only the special BLIND/INVISIBLE statuses re-initialize vision).
 * - `ClockwiseSweepPolygon.testCollision(origin, destination, {type, mode})`:
 *   `type` is required; walls whose `type` sense is NONE, and open doors, do not
 *   block; the second LIMITED wall blocks; PROXIMITY / DISTANCE walls by their
 *   threshold when `useThreshold` is asked, else like NORMAL walls; one-way walls
 *   from one side; the scene's edges block sight;
 *   `mode` "any" -> boolean, "all" -> points, "closest" -> point|null (see the class).
 * - Token HUD status palette: `CONFIG.statusEffects` entries whose `hud` is not false.
 * - `canvas.grid.measurePath(waypoints)` -> `{distance, spaces}`; square grid,
 *   equidistant diagonals (the v12 default `core.gridDiagonals`).
 * - Token HUD: `renderTokenHUD(hud, element, context, options)` with an HTMLElement
 *   (v13, v14); columns
 *   `.col.left`, `.col.middle`, `.col.right` holding `.control-icon` controls.
 */
import { Collection } from "./utils.mjs";

export const WALL_SENSE = { NONE: 0, LIMITED: 10, NORMAL: 20, PROXIMITY: 30, DISTANCE: 40 };
export const DOOR_STATES = { CLOSED: 0, OPEN: 1, LOCKED: 2 };

/**
 * v14 Scene Levels: a collision test runs on the level its config names
 * (`testCollision(origin, destination, {type, mode, level})`, the config PF2e
 * Visioner passes, roi007leaf/pf2e-visioner scripts/services/LevelsIntegration.js
 * `_testCorePolygonCollision`), else on the level the user views (`canvas.level`).
 * A wall on some levels (its `levels`, a set of Level ids; placeables carry
 * `levels` in v14, `SceneLevelsSetField` in https://foundryvtt.com/api/v14/modules/foundry.data.fields.html)
 * blocks only there; a wall with none blocks on every level. Before v14 every wall counts.
 */
function onLevelOf(ctx) {
  return (doc, level) => {
    if (ctx.version < 14) return true;
    const levels = doc._source?.levels ?? [];
    if (!levels.length) return true;
    const id = typeof level === "string" ? level : (level ?? ctx.canvas?.level)?.id;
    return !id || levels.includes(id);
  };
}

function segmentsIntersect(a, b, c, d) {
  const orient = (p, q, r) => (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x);
  const o1 = orient(a, b, c);
  const o2 = orient(a, b, d);
  const o3 = orient(c, d, a);
  const o4 = orient(c, d, b);
  if (o1 === 0 && o2 === 0) return false; // collinear: treat as grazing, no block
  return o1 * o2 < 0 && o3 * o4 < 0;
}

function intersection(a, b, c, d) {
  const denom = (b.x - a.x) * (d.y - c.y) - (b.y - a.y) * (d.x - c.x);
  const t = ((c.x - a.x) * (d.y - c.y) - (c.y - a.y) * (d.x - c.x)) / denom;
  return { x: a.x + t * (b.x - a.x), y: a.y + t * (b.y - a.y), t };
}

export function createCanvasClasses(ctx) {
  const DETECTION_TYPES = { SIGHT: 0, SOUND: 1, MOVE: 2, OTHER: 3 };
  const onLevel = onLevelOf(ctx);

  class DetectionMode {
    static DETECTION_TYPES = DETECTION_TYPES;
    static BASIC_MODE_ID = "basicSight";
    constructor({ id, label, type = DETECTION_TYPES.SIGHT, walls = true, angle = true, tokenConfig = true } = {}) {
      this.id = id;
      this.label = label;
      this.type = type;
      this.walls = walls;
      this.angle = angle;
      this.tokenConfig = tokenConfig;
    }
    testVisibility(visionSource, mode, { object, tests } = {}) {
      if (!mode.enabled) return false;
      if (!this._canDetect(visionSource, object)) return false;
      return tests.some((test) => this._testPoint(visionSource, mode, object, test));
    }
    _canDetect(visionSource, target) {
      const source = visionSource.object?.document;
      const isSight = this.type === DETECTION_TYPES.SIGHT;
      if (isSight && source?.hasStatusEffect?.(ctx.CONFIG.specialStatusEffects.BLIND)) return false;
      const tgt = target?.document;
      if (isSight && tgt?.hasStatusEffect?.(ctx.CONFIG.specialStatusEffects.INVISIBLE)) return false;
      return true;
    }
    _testPoint(visionSource, mode, target, test) {
      if (!this._testRange(visionSource, mode, target, test)) return false;
      return this._testLOS(visionSource, mode, target, test);
    }
    _testLOS(visionSource, mode, target, test) {
      if (!this.walls) return true;
      if (test.los?.has(visionSource)) return test.los.get(visionSource);
      // A vision source sees through a window it stands near (the walls article,
      // https://foundryvtt.com/article/walls/: windows are proximity walls): its line of sight
      // applies thresholds, so the test asks for them (`useThreshold`, see ClockwiseSweepPolygon).
      const blocked = ctx.CONFIG.Canvas.polygonBackends.sight.testCollision({ x: visionSource.x, y: visionSource.y }, test.point, { type: "sight", mode: "any", source: visionSource, useThreshold: true, level: test.level });
      test.los?.set(visionSource, !blocked);
      return !blocked;
    }
    _testRange(visionSource, mode, target, test) {
      if (mode.range === null || mode.range === undefined || mode.range === Infinity) return true;
      const pixels = mode.range * ctx.canvas.dimensions.distancePixels;
      const radius = target ? Math.min(target.w, target.h) / 2 : 0;
      return Math.hypot(test.point.x - visionSource.x, test.point.y - visionSource.y) <= pixels + radius;
    }
  }

  class DetectionModeLightPerception extends DetectionMode {
    _testPoint(visionSource, mode, target, test) {
      if (!super._testPoint(visionSource, mode, target, test)) return false;
      const scene = ctx.canvas.scene;
      return Boolean(scene?._source.environment?.globalLight?.enabled ?? true);
    }
  }
  class DetectionModeDarkvision extends DetectionMode {}
  /** A sight-type mode cannot detect from a blind source (the "See" versions of the core modes). */
  const blindSight = (mode, visionSource) => mode.type === DETECTION_TYPES.SIGHT && Boolean(visionSource.object?.document?.hasStatusEffect?.(ctx.CONFIG.specialStatusEffects.BLIND));
  /**
   * `DetectionModeInvisibility` (seeInvisibility, senseInvisibility): "Detection mode that see
   * invisible creatures. This detection mode allows the source to: See/Detect the invisible target
   * as if visible. The "See" version needs sight and is affected by blindness"
   * (https://foundryvtt.com/api/v11/classes/client.DetectionModeInvisibility.html; the v12/v13
   * pages keep the class without restating it). So a blind source detects nothing through
   * seeInvisibility, and senseInvisibility (not a sight mode) is not affected.
   */
  class DetectionModeInvisibility extends DetectionMode {
    _canDetect(visionSource, target) {
      if (blindSight(this, visionSource)) return false;
      return Boolean(target?.document?.hasStatusEffect?.(ctx.CONFIG.specialStatusEffects.INVISIBLE));
    }
  }
  /**
   * `DetectionModeTremor` (feelTremor): "Detection mode that see creatures in contact with the
   * ground" (https://foundryvtt.com/api/v10/classes/client.DetectionModeTremor.html; the class is
   * unchanged in the v12/v13 namespaces, which do not restate it). A flying or hovering target
   * (`CONFIG.specialStatusEffects` FLY, HOVER) is not in contact with the ground.
   */
  class DetectionModeTremor extends DetectionMode {
    _canDetect(visionSource, target) {
      const special = ctx.CONFIG.specialStatusEffects;
      return ![special.FLY, special.HOVER].some((status) => target?.document?.hasStatusEffect?.(status));
    }
  }
  /**
   * `DetectionModeAll` (seeAll, senseAll): detects every target, but "The "See All" detection mode
   * [is] suppressed by Blindness since it requires sight" (core's own issue tracker, fixed in v10:
   * https://github.com/foundryvtt/foundryvtt/issues/8001); senseAll is not a sight mode.
   */
  class DetectionModeAll extends DetectionMode {
    _canDetect(visionSource) {
      return !blindSight(this, visionSource);
    }
  }

  /**
   * `PointSourcePolygon.testCollision(origin, destination, {type, mode, source})`
   * (static; https://foundryvtt.com/api/classes/foundry.canvas.geometry.PointSourcePolygon.html,
   * config `PointSourcePolygonConfig`: `type` is required,
   * https://foundryvtt.com/api/v14/interfaces/foundry.canvas.geometry.types.PointSourcePolygonConfig.html).
   * Edges tested, per `CONST.WALL_SENSE_TYPES`
   * (https://foundryvtt.com/api/enums/foundry.CONST.WALL_SENSE_TYPES.html) and `WallData`
   * (https://foundryvtt.com/api/v14/interfaces/foundry.documents.types.WallData.html):
   * - NONE does not block; an open door does not block;
   * - LIMITED: the second LIMITED edge crossed blocks, the first is bypassed;
   * - NORMAL blocks;
   * - PROXIMITY: "senses bypass the wall within a certain proximity threshold": blocks only when
   *   the origin is at least `threshold[type]` (grid units) from the crossing
   *   (`WallThresholdData`, https://foundryvtt.com/api/interfaces/foundry.documents.types.WallThresholdData.html);
   * - DISTANCE: "senses bypass the wall outside a certain proximity threshold": blocks only
   *   when the origin is nearer than `threshold[type]`;
   * - both only when the caller asks for thresholds, `useThreshold: true` ("Compute the polygon with
   *   threshold wall constraints applied", `PointSourcePolygonConfig#useThreshold`, v13
   *   https://foundryvtt.com/api/interfaces/foundry.canvas.geometry.types.PointSourcePolygonConfig.html,
   *   v14 https://foundryvtt.com/api/v14/interfaces/foundry.canvas.geometry.types.PointSourcePolygonConfig.html);
   *   without it a PROXIMITY or DISTANCE wall blocks like a NORMAL one. That reading is dnd5e's:
   *   its blindsight passes `useThreshold: false` so that it "cannot see through windows ... as we
   *   get close to it" (dnd5e release-5.3.3 module/canvas/detection-modes/blindsight.mjs);
   * - one-way walls (`dir`, `CONST.WALL_DIRECTIONS` BOTH 0, LEFT 1, RIGHT 2; wall article
   *   https://foundryvtt.com/article/walls/): a directional wall blocks only a ray that
   *   reaches it from the side it faces (LEFT: the ray starts left of A->B);
   * - the scene's edges (the scene rectangle, `canvas.dimensions.sceneRect`) block sight,
   *   light and sound like NORMAL walls (v12+ scene boundary edges).
   */
  class ClockwiseSweepPolygon {
    static testCollision(origin, destination, { type, mode = "all", useThreshold = false, level } = {}) {
      if (!["sight", "light", "sound", "move"].includes(type)) throw new Error(`PointSourcePolygon.testCollision: config.type must be one of sight, light, sound, move (got ${type})`);
      const edges = [];
      for (const wall of ctx.canvas?.walls?.placeables ?? []) {
        const doc = wall.document;
        if (!onLevel(doc, level)) continue;
        edges.push({ c: doc.c, sense: doc[type] ?? WALL_SENSE.NORMAL, door: doc.door ?? 0, ds: doc.ds ?? 0, dir: doc.dir ?? 0, threshold: doc.threshold?.[type] ?? null });
      }
      const rect = ctx.canvas?.dimensions?.sceneRect;
      if (rect && type !== "move") {
        const { x, y, width, height } = rect;
        for (const c of [[x, y, x + width, y], [x + width, y, x + width, y + height], [x + width, y + height, x, y + height], [x, y + height, x, y]]) edges.push({ c, sense: WALL_SENSE.NORMAL, door: 0, ds: 0, dir: 0, threshold: null });
      }
      const hits = [];
      const limited = [];
      const distancePixels = ctx.canvas?.dimensions?.distancePixels ?? 1;
      for (const edge of edges) {
        if (edge.sense === WALL_SENSE.NONE) continue;
        if (edge.door > 0 && edge.ds === DOOR_STATES.OPEN) continue;
        const [x0, y0, x1, y1] = edge.c;
        const a = { x: x0, y: y0 };
        const b = { x: x1, y: y1 };
        if (!segmentsIntersect(origin, destination, a, b)) continue;
        if (edge.dir) {
          const side = (b.x - a.x) * (origin.y - a.y) - (b.y - a.y) * (origin.x - a.x);
          // LEFT (1) blocks rays coming from its left side, RIGHT (2) from its right side.
          if (edge.dir === 1 && side >= 0) continue;
          if (edge.dir === 2 && side <= 0) continue;
        }
        const hit = intersection(origin, destination, a, b);
        // `WallThresholdData#sight`: "Minimum distance from a vision source for which this wall
        // blocks vision" (https://foundryvtt.com/api/interfaces/foundry.documents.types.WallThresholdData.html);
        // which point of the wall the distance is measured to is not documented: here the crossing.
        if (useThreshold && (edge.sense === WALL_SENSE.PROXIMITY || edge.sense === WALL_SENSE.DISTANCE)) {
          const distance = Math.hypot(hit.x - origin.x, hit.y - origin.y) / distancePixels;
          const threshold = edge.threshold ?? 0;
          if (edge.sense === WALL_SENSE.PROXIMITY && distance < threshold) continue;
          if (edge.sense === WALL_SENSE.DISTANCE && distance >= threshold) continue;
        }
        if (edge.sense === WALL_SENSE.LIMITED) {
          limited.push(hit);
          continue;
        }
        hits.push(hit);
      }
      if (limited.length >= 2) {
        limited.sort((p, q) => p.t - q.t);
        hits.push(...limited.slice(1));
      }
      if (mode === "any") return hits.length > 0;
      hits.sort((p, q) => p.t - q.t);
      if (mode === "closest") return hits[0] ?? null;
      return hits;
    }
  }

  /**
   * A light or darkness source from an `AmbientLight` document or a token's `light`
   * (`AmbientLightData`, https://foundryvtt.com/api/interfaces/foundry.documents.types.AmbientLightData.html:
   * `x`, `y`, `elevation`, `walls`, `vision` "Provides Vision", `hidden` "Is the light source currently
   * hidden?", `config: LightData`; `TokenData#light: LightData`,
   * https://foundryvtt.com/api/interfaces/foundry.documents.types.TokenData.html; lighting article
   * https://foundryvtt.com/article/lighting/). `LightData`
   * (https://foundryvtt.com/api/interfaces/foundry.documents.types.LightData.html): `dim`, `bright` radii in
   * distance units, `negative` (v12+: a darkness source, `PointDarknessSource`,
   * https://foundryvtt.com/api/v12/classes/foundry.canvas.sources.PointDarknessSource.html), `darkness =
   * {min, max}` the scene darkness levels at which the source is active. The source's area: within
   * `max(dim, bright)` of its origin and not blocked for light (its polygon, walls `type: "light"`), unless
   * `walls` is false. v13: sources are bounded in elevation, a point is inside only when
   * `|elevation - source elevation| <= radius` (docs/dnd5e-automation.md §8, issues 11722/11729).
   * Light angles (cones) are not modelled (README "What the fake does not model").
   */
  class PointLightSource {
    /**
     * @param {object} document an AmbientLight document (or its source data) or a TokenDocument
     * @param {{token?: boolean}} [options] `token`: the light a token carries, emitted from its centre
     */
    constructor(document, { token = false } = {}) {
      this.document = document;
      this.token = token;
    }
    get config() {
      return (this.token ? this.document.light : this.document.config) ?? {};
    }
    get isDarkness() {
      return Boolean(this.config.negative);
    }
    get origin() {
      if (!this.token) return { x: this.document.x, y: this.document.y, elevation: this.document.elevation ?? 0 };
      const size = ctx.canvas.grid.size;
      const doc = this.document;
      return { x: doc.x + ((doc.width ?? 1) * size) / 2, y: doc.y + ((doc.height ?? 1) * size) / 2, elevation: doc.elevation ?? 0 };
    }
    /** Shown, with a radius, and the scene's darkness level inside its `config.darkness` range. */
    get active() {
      if (this.document.hidden) return false;
      const config = this.config;
      if (!(Math.max(config.dim ?? 0, config.bright ?? 0) > 0)) return false;
      const level = ctx.canvas.scene?.environment?.darknessLevel ?? 0;
      const range = config.darkness ?? {};
      return level >= (range.min ?? 0) && level <= (range.max ?? 1);
    }
    get data() {
      const { x, y } = this.origin;
      return { x, y, vision: !this.token && Boolean(this.document.vision), radius: Math.max(this.config.dim ?? 0, this.config.bright ?? 0) * ctx.canvas.dimensions.distancePixels };
    }
    /**
     * Whether this source's area holds the point (in range, line not blocked for light; v13: within
     * its radius in elevation too).
     * @param {{x: number, y: number}} point
     * @param {number} [elevation] distance units
     */
    covers(point, elevation) {
      const { x, y, radius } = this.data;
      if (Math.hypot(point.x - x, point.y - y) > radius) return false;
      if (elevation !== undefined) {
        const distance = Math.abs(elevation - this.origin.elevation) * ctx.canvas.dimensions.distancePixels;
        if (distance > radius) return false;
      }
      if (!this.token && this.document.walls === false) return true;
      // A light's polygon applies thresholds (`WallThresholdData#light`, "Minimum distance from a light
      // source for which this wall blocks light").
      return !ctx.CONFIG.Canvas.polygonBackends.light.testCollision({ x, y }, point, { type: "light", mode: "any", useThreshold: true });
    }
  }

  /**
   * `canvas.effects` (`EffectsCanvasGroup`, v13 https://foundryvtt.com/api/classes/foundry.canvas.groups.EffectsCanvasGroup.html): `lightSources`
   * "A mapping of light sources which are active within the rendered Scene", `darknessSources` "A mapping
   * of darkness sources which are active within the rendered Scene", `visionSources`; and the point tests
   * (docs/dnd5e-automation.md §8: v13 and v14 take one `ElevatedPoint {x, y, elevation}`,
   * issues 11722/11729): true when an active source of that kind holds the point. The global light is
   * not one of these sources here (`SceneEnvironmentData#globalLight` is read from the scene; which
   * collection holds core's `GlobalLightSource` is not stated on a public page).
   */
  class EffectsCanvasGroup {
    constructor() {
      this.visionSources = new Collection();
      this.lightSources = new Collection();
      this.darknessSources = new Collection();
    }
    /** Where a point test is asked: `({x, y, elevation})`. */
    static #elevation(point) {
      return point?.elevation;
    }
    testInsideLight(point) {
      const z = EffectsCanvasGroup.#elevation(point);
      for (const source of this.lightSources) if (source.active && source.covers(point, z)) return true;
      return false;
    }
    testInsideDarkness(point) {
      const z = EffectsCanvasGroup.#elevation(point);
      for (const source of this.darknessSources) if (source.active && source.covers(point, z)) return true;
      return false;
    }
    /** The fake's bookkeeping: the source of an AmbientLight or a token's light, in the right collection (or none). */
    _syncSource(key, document, options) {
      this.lightSources.delete(key);
      this.darknessSources.delete(key);
      if (!document) return;
      const source = new PointLightSource(document, options);
      const config = source.config;
      if (!(Math.max(config.dim ?? 0, config.bright ?? 0) > 0)) return;
      (source.isDarkness ? this.darknessSources : this.lightSources).set(key, source);
    }
  }

  class PointVisionSource {
    constructor(token) {
      this.object = token;
      this.sourceId = `Token.${token.id}`;
      this.active = true;
    }
    get x() {
      return this.object.center.x;
    }
    get y() {
      return this.object.center.y;
    }
    get data() {
      // A null sight range is unlimited (TokenSightData#range), not 0.
      const range = this.object.document.sight?.range;
      return { x: this.x, y: this.y, radius: range === null ? Infinity : (range ?? 0) * ctx.canvas.dimensions.distancePixels };
    }
  }

  /** `RenderFlags` (a Set of pending flag names with `set(changes)`). */
  class RenderFlags extends Set {
    constructor(onSet) {
      super();
      this.onSet = onSet;
    }
    set(changes) {
      for (const [k, v] of Object.entries(changes ?? {})) if (v) this.add(k);
      this.onSet?.();
    }
  }

  /**
   * The ruler of a token (`CONFIG.Token.rulerClass`, v13+: `TokenRuler` extends `BaseTokenRuler`,
   * https://foundryvtt.com/api/classes/foundry.canvas.placeables.tokens.BaseTokenRuler.html): `token`,
   * `visible`, set to `isVisible` ("Is the ruler supposed to be visible?") by `Token#_refreshState`.
   * It draws the token's movement for other users too (`TokenRulerData#plannedMovement`, "Movement
   * planned by Users", https://foundryvtt.com/api/interfaces/foundry.types.TokenRulerData.html;
   * `TokenMovementData#showRuler`, "Show the ruler during the movement animation of the token?"),
   * "only if the token's disposition is friendly or the current user has observer permissions"
   * (foundryvtt/foundryvtt#11874): a friendly token's to every player, whatever they see
   * (foundryvtt/foundryvtt#13561). The fake has no animation: the ruler shows the token's last
   * movement, `path` = [from, to], until it moves again.
   */
  class TokenRuler {
    constructor(token) {
      this.token = token;
      this.visible = false;
      this.path = null;
    }
    get isVisible() {
      if (!this.path) return false;
      const document = this.token.document;
      return document.disposition === ctx.CONST.TOKEN_DISPOSITIONS.FRIENDLY || document.testUserPermission(ctx.game.user, "OBSERVER");
    }
    /** The fake's bookkeeping: a movement from one position to another. */
    _record(from, to) {
      this.path = [from, to];
    }
  }

  class Token {
    constructor(document) {
      this.document = document;
      this.controlled = false;
      this.hover = false;
      this.vision = null;
      this.visible = true;
      this.ruler = new (ctx.CONFIG.Token.rulerClass ?? TokenRuler)(this);
      this.renderFlags = new RenderFlags(() => ctx.scheduleFrame());
    }
    /**
     * `Token#initializeLightSource({deleted})` (listed on the Token page,
     * https://foundryvtt.com/api/classes/foundry.canvas.placeables.Token.html): the token's light source,
     * removed when `deleted` (as public modules use it to turn a light off for one client). The fake calls it
     * when the token is drawn and when its light or position changes; the source lives in
     * `canvas.effects` (`EffectsCanvasGroup#_syncSource`).
     */
    initializeLightSource({ deleted = false } = {}) {
      ctx.canvas.effects._syncSource(this.sourceId, deleted ? null : this.document, { token: true });
    }
    /** `Token#isTargeted`. */
    get isTargeted() {
      return ctx.game.user.targets.has(this);
    }
    /** `Token#setTarget(targeted, {user, releaseOthers})`. */
    setTarget(targeted = true, { releaseOthers = true } = {}) {
      const targets = ctx.game.user.targets;
      if (releaseOthers) for (const t of [...targets]) if (t !== this) targets.delete(t);
      if (targeted) targets.add(this);
      else targets.delete(this);
      ctx.Hooks.callAll("targetToken", ctx.game.user, this, targeted);
    }
    /** Pointer enters/leaves the token: `hoverToken(token, hovered)`. */
    _onHoverIn() {
      this.hover = true;
      ctx.Hooks.callAll("hoverToken", this, true);
    }
    _onHoverOut() {
      this.hover = false;
      ctx.Hooks.callAll("hoverToken", this, false);
    }
    get id() {
      return this.document.id;
    }
    get name() {
      return this.document.name;
    }
    get actor() {
      return this.document.actor;
    }
    get sourceId() {
      return `Token.${this.id}`;
    }
    get x() {
      return this.document.x;
    }
    get y() {
      return this.document.y;
    }
    get w() {
      return (this.document.width ?? 1) * ctx.canvas.grid.size;
    }
    get h() {
      return (this.document.height ?? 1) * ctx.canvas.grid.size;
    }
    get center() {
      return { x: this.x + this.w / 2, y: this.y + this.h / 2 };
    }
    getCenterPoint() {
      return this.center;
    }
    get isOwner() {
      return this.document.isOwner;
    }
    get observer() {
      return this.document.testUserPermission(ctx.game.user, "OBSERVER");
    }
    get hasSight() {
      return Boolean(this.document.sight?.enabled);
    }
    get layer() {
      return ctx.canvas.tokens;
    }
    /**
     * Independent review (public docs only): the Token API pages list `isVisible` without describing its order of
     * tests (GM-hidden, Token Vision off, controlled, own vision source, then the visibility test);
     * this order is the fake's reading, with no public page to cite.
     */
    get isVisible() {
      const gm = ctx.game.user.isGM;
      if (this.document.hidden) return gm;
      if (!ctx.canvas.visibility.tokenVision) return true;
      if (this.controlled) return true;
      if (this.vision?.active) return true;
      // v14: the token's visibility test points (`TokenDocument#getVisibilityTestPoints`,
      // foundryvtt/foundryvtt#13633, #13834), several points at once.
      if (ctx.version >= 14) return ctx.canvas.visibility.testVisibility(this.document.getVisibilityTestPoints(), { object: this });
      const tolerance = Math.min(this.w, this.h) / 4;
      return ctx.canvas.visibility.testVisibility(this.center, { tolerance, object: this });
    }
    control({ releaseOthers = true } = {}) {
      if (releaseOthers) for (const t of ctx.canvas.tokens.controlled) if (t !== this) t.release();
      this.controlled = true;
      ctx.Hooks.callAll("controlToken", this, true);
      ctx.canvas.perception.update({ initializeVision: true });
      return true;
    }
    release() {
      if (!this.controlled) return false;
      this.controlled = false;
      ctx.Hooks.callAll("controlToken", this, false);
      ctx.canvas.perception.update({ initializeVision: true });
      return true;
    }
    renderFlagsSet(flags) {
      this.renderFlags.set(flags);
    }
  }

  class Wall {
    constructor(document) {
      this.document = document;
    }
    get id() {
      return this.document.id;
    }
    get isDoor() {
      return this.document.door > 0;
    }
    get isOpen() {
      return this.document.ds === DOOR_STATES.OPEN;
    }
  }

  class PlaceablesLayer {
    constructor(name) {
      this.name = name;
      this.objects = new Collection();
    }
    get placeables() {
      return this.objects.contents;
    }
    get(id) {
      return this.objects.get(id);
    }
  }

  class TokenLayer extends PlaceablesLayer {
    get controlled() {
      return this.placeables.filter((t) => t.controlled);
    }
    get ownedTokens() {
      return this.placeables.filter((t) => t.isOwner);
    }
    releaseAll() {
      for (const t of this.controlled) t.release();
    }
  }

  class PerceptionManager {
    constructor() {
      this.pending = {};
    }
    update(flags = {}) {
      for (const [k, v] of Object.entries(flags)) if (v) this.pending[k] = true;
      ctx.scheduleFrame();
    }
    initialize() {
      this.update({ initializeVision: true, initializeLighting: true, refreshVision: true });
    }
    refresh() {
      this.update({ refreshVision: true, refreshLighting: true });
    }
  }

  class CanvasVisibility {
    get tokenVision() {
      return Boolean(ctx.canvas.scene?._source.tokenVision ?? true);
    }
    /**
     * `CanvasVisibility#testVisibility(point, {tolerance, object})`
     * (https://foundryvtt.com/api/classes/foundry.canvas.groups.CanvasVisibility.html):
     * no active vision source: only a GM sees; a point inside an active light source that
     * provides vision is visible before any detection mode is asked (lighting article
     * https://foundryvtt.com/article/lighting/ "Provides Vision"); else some vision source
     * must detect the object through one of its token's detection modes.
     */
    testVisibility(point, { tolerance = 2, object = null } = {}) {
      const sources = ctx.canvas.effects.visionSources.filter((s) => s.active);
      if (!sources.length) return ctx.game.user.isGM;
      // v14: several points, visible when one is (foundryvtt/foundryvtt#13633); each test and the
      // config carry the target's level (`CanvasVisibilityTestConfiguration {level, object, tests}`,
      // https://foundryvtt.com/api/v14/interfaces/foundry.types.CanvasVisibilityTestConfiguration.html).
      const points = ctx.version >= 14 && Array.isArray(point) ? point : [point];
      for (const light of ctx.canvas.effects.lightSources) {
        if (light.active && light.data.vision && points.some((p) => light.covers(p))) return true;
      }
      const level = ctx.version >= 14 ? (ctx.canvas.scene?.levels?.get(object?.document?.level) ?? ctx.canvas.level ?? null) : undefined;
      const config = { object, tests: points.map((p) => ({ point: p, los: new Map(), ...(ctx.version >= 14 ? { level } : {}) })), ...(ctx.version >= 14 ? { level } : {}) };
      const modes = ctx.CONFIG.Canvas.detectionModes;
      for (const source of sources) {
        for (const mode of detectionModesOf(source.object)) {
          const detectionMode = modes[mode.id];
          if (!detectionMode) continue;
          if (detectionMode.testVisibility(source, mode, config)) return true;
        }
      }
      return false;
    }
  }

  /**
   * A token's detection modes; light perception and basic sight are implicit (no public page
   * states how core adds them; this is the fake's reading). Basic sight reaches as far as the
   * token's sight: `TokenSightData#range` "How far in distance units the Token can see without the
   * aid of a light source. If null, the sight range is unlimited"
   * (https://foundryvtt.com/api/interfaces/foundry.documents.types.TokenSightData.html), so a null
   * sight range stays null (unlimited, `TokenDetectionMode#range` null = unlimited), never 0.
   */
  function detectionModesOf(token) {
    const declared = token.document.detectionModes ?? [];
    // v14: a record by id (documents.mjs TokenDocument#detectionModes).
    const modes = Array.isArray(declared) ? [...declared] : Object.entries(declared).map(([id, mode]) => ({ id, ...mode }));
    if (!modes.some((m) => m.id === "lightPerception")) modes.unshift({ id: "lightPerception", enabled: true, range: null });
    const sightRange = token.document.sight?.range;
    if (!modes.some((m) => m.id === "basicSight")) modes.push({ id: "basicSight", enabled: true, range: sightRange === undefined ? 0 : sightRange });
    return modes;
  }

  class GridConfig {
    constructor(scene) {
      this.scene = scene;
    }
    get size() {
      return this.scene.grid.size ?? 100;
    }
    get distance() {
      return this.scene.grid.distance ?? 5;
    }
    get units() {
      return this.scene.grid.units ?? "ft";
    }
    get type() {
      return this.scene.grid.type ?? 1;
    }
    measurePath(waypoints, options = {}) {
      let spaces = 0;
      const segments = [];
      for (let i = 1; i < waypoints.length; i += 1) {
        const a = waypoints[i - 1];
        const b = waypoints[i];
        const dx = Math.abs(Math.round((b.x - a.x) / this.size));
        const dy = Math.abs(Math.round((b.y - a.y) / this.size));
        const s = Math.max(dx, dy);
        spaces += s;
        segments.push({ from: a, to: b, spaces: s, distance: s * this.distance });
      }
      return { distance: spaces * this.distance, spaces, cost: spaces * this.distance, segments };
    }
    measureDistance(origin, target) {
      return this.measurePath([origin, target]).distance;
    }
  }

  class TokenHUD {
    constructor() {
      this.object = null;
      this.element = null;
    }
    get rendered() {
      return Boolean(this.element);
    }
    bind(token) {
      this.object = token;
      return this.render(true);
    }
    clear() {
      this.element?.remove();
      this.element = null;
      this.object = null;
    }
    async close() {
      this.clear();
    }
    render() {
      const doc = ctx.global.document;
      this.element?.remove();
      const token = this.object;
      const container = doc.getElementById("hud") ?? doc.body;
      const element = doc.createElement("div");
      element.id = "token-hud";
      element.className = "placeable-hud";
      element.dataset.tokenId = token.id;
      const control = (action, title, icon) => `<button type="button" class="control-icon" data-action="${action}" data-tooltip="${title}"><i class="${icon}"></i></button>`;
      element.innerHTML = [
        `<div class="col left">${control("config", "Configure", "fas fa-cog")}${control("target", "Target", "fas fa-bullseye")}</div>`,
        `<div class="col middle"><div class="attribute bar1"></div></div>`,
        `<div class="col right">${control("visibility", "Toggle Visibility", "fas fa-eye-slash")}${control("effects", "Assign Status Effects", "fas fa-person-rays")}${control("combat", "Toggle Combat State", "fas fa-swords")}</div>`,
      ].join("");
      container.append(element);
      this.element = element;
      // The status palette: `CONFIG.statusEffects` entries whose `hud` is not false (and, with
      // `hud.actorTypes`, only for those actor types): StatusEffectConfig
      // https://foundryvtt.com/api/interfaces/CONFIG._StatusEffectConfig.html "Should this effect
      // appear in the Token HUD?". Clicking one toggles it on the token's actor.
      const palette = doc.createElement("div");
      palette.className = "status-effects";
      const statusEffects = {};
      for (const status of Object.values(ctx.CONFIG.statusEffects ?? {})) {
        if (status.hud === false) continue;
        if (status.hud?.actorTypes && !status.hud.actorTypes.includes(token.actor?.type)) continue;
        statusEffects[status.id] = { id: status.id, title: status.name, src: status.img, isActive: token.document.hasStatusEffect(status.id) };
        // A labelled control, not an <img>: the fake serves no core icons.
        const control = doc.createElement("div");
        control.className = "effect-control";
        control.dataset.statusId = status.id;
        control.title = ctx.game.i18n.localize(status.name ?? status.id);
        control.addEventListener("click", () => void token.actor?.toggleStatusEffect(status.id));
        palette.append(control);
      }
      element.append(palette);
      const data = { id: token.id, name: token.name, isGM: ctx.game.user.isGM, statusEffects };
      ctx.Hooks.callAll("renderTokenHUD", this, element, data, { force: true });
      return this;
    }
  }

  return {
    DetectionMode,
    DetectionModeLightPerception,
    DetectionModeDarkvision,
    DetectionModeInvisibility,
    DetectionModeTremor,
    DetectionModeAll,
    ClockwiseSweepPolygon,
    PointLightSource,
    EffectsCanvasGroup,
    PointVisionSource,
    Token,
    TokenRuler,
    RenderFlags,
    Wall,
    TokenLayer,
    PlaceablesLayer,
    PerceptionManager,
    CanvasVisibility,
    GridConfig,
    TokenHUD,
    detectionModesOf,
  };
}
