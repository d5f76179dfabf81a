/**
 * Per-observer visibility on every client: the lookup and the detection hook.
 *
 * The active GM publishes, on the Scene, `flags.furtive.visibility`: the
 * engine's `hiddenFrom(state)` as entries `[observerTokenId, hiderTokenId[]][]`
 * (an array, because Foundry merges objects on update and would keep stale
 * keys). Every client rebuilds a `Map<observerId, Set<hiderId>>` from it in
 * the `updateScene` / `canvasInit` hooks and refreshes perception at once, so
 * the next frame already draws the new visibility.
 *
 * The hot path, `DetectionMode#_canDetect(visionSource, target)` of the
 * sight-based modes, answers from that Map only (B1, B2):
 * - GM users: unchanged (B2, a GM sees everything);
 * - the vision source's token does not perceive the target: `false`;
 * - otherwise the original test runs, so Foundry still combines every vision
 *   source of a player (B2: a player sees a hider if any of their tokens does);
 * - before the lookup of the viewed scene is built (page load), a token with
 *   the `furtive.hidden` status is not detected by vision sources of a user
 *   who does not own it (B1, fail closed).
 *
 * Foundry API: `CONFIG.Canvas.detectionModes[id]` (DetectionMode instances),
 * `DetectionMode#_canDetect(visionSource, target): boolean` (protected),
 * `PointVisionSource#object` (the Token), `libWrapper.register(id, target, fn, "MIXED")`,
 * `canvas.perception.update({refreshVision: true})`, `Token#renderFlags.set({refreshVisibility: true})`,
 * `TokenDocument#hasStatusEffect(statusId)`.
 */

import { MODULE_ID, SCENE_FLAGS, STATUS } from "./constants.mjs";

/** observer token id -> ids of the hiders it does not perceive. */
const lookup = /** @type {Map<string, Set<string>>} */ (new Map());
/** The scene the lookup was built for; null until built (B1). */
let lookupSceneId = /** @type {string | null} */ (null);
/** Ids of tokens in a stealth attempt on the lookup's scene. */
let hiderIds = /** @type {Set<string>} */ (new Set());
/** Whether this client's user is a GM (cached at ready: it never changes in a session). */
let viewerIsGM = false;

/** @param {boolean} isGM */
export function setViewerIsGM(isGM) {
  viewerIsGM = isGM;
}

/**
 * Rebuilds the lookup from a scene's flags. Call for the viewed scene only.
 * @param {Scene} scene
 */
export function rebuildLookup(scene) {
  lookup.clear();
  const entries = scene.getFlag(MODULE_ID, SCENE_FLAGS.visibility);
  if (Array.isArray(entries)) {
    for (const entry of entries) {
      if (Array.isArray(entry) && typeof entry[0] === "string" && Array.isArray(entry[1])) lookup.set(entry[0], new Set(entry[1].map(String)));
    }
  }
  const hiders = scene.getFlag(MODULE_ID, SCENE_FLAGS.hiders);
  hiderIds = new Set(Array.isArray(hiders) ? hiders.map(String) : []);
  lookupSceneId = scene.id;
}

/** Forgets the lookup: detection fails closed until it is rebuilt (B1). */
export function resetLookup() {
  lookup.clear();
  hiderIds = new Set();
  lookupSceneId = null;
}

/**
 * Whether the lookup for this scene is built.
 * @param {string | null | undefined} sceneId
 */
export function isLookupReady(sceneId) {
  return lookupSceneId !== null && lookupSceneId === sceneId;
}

/**
 * Whether `observerId` perceives `hiderId`, from the published lookup
 * (number-free, available on every client).
 * @param {string} observerId
 * @param {string} hiderId
 */
export function lookupPerceives(observerId, hiderId) {
  return !lookup.get(observerId)?.has(hiderId);
}

/**
 * Hider ids the observer does not perceive.
 * @param {string} observerId
 * @returns {string[]}
 */
export function lookupHiddenFrom(observerId) {
  return [...(lookup.get(observerId) ?? [])];
}

/** Ids of tokens in a stealth attempt on the viewed scene. */
export function lookupHiders() {
  return [...hiderIds];
}

/**
 * The detection test wrapper body: false hides the target from this vision source.
 * Exported for the benchmark and the tests; Foundry calls it through the wrapper.
 * @param {any} visionSource a PointVisionSource; `.object` is the Token
 * @param {any} target       the tested object (a Token for token detection)
 * @returns {boolean} true when the original test must decide
 */
export function mayDetect(visionSource, target) {
  if (viewerIsGM) return true;
  const targetDocument = target?.document;
  if (!targetDocument) return true;
  if (lookupSceneId !== null) {
    const hidden = lookup.get(visionSource?.object?.document?.id);
    return hidden === undefined || !hidden.has(targetDocument.id);
  }
  // B1: the lookup is not built yet.
  return !(targetDocument.hasStatusEffect?.(STATUS.hidden) && !targetDocument.isOwner);
}

/**
 * Wraps `_canDetect` of the named detection modes. Through libWrapper when it
 * is active (MIXED: the original is still called when the lookup allows it),
 * else by setting `_canDetect` on the mode instance.
 * @param {string[]} modeIds ids in `CONFIG.Canvas.detectionModes`
 * @returns {string[]} the ids actually wrapped
 */
export function installDetectionWrappers(modeIds) {
  const modes = CONFIG.Canvas.detectionModes;
  const useLibWrapper = Boolean(game.modules.get("lib-wrapper")?.active && globalThis.libWrapper);
  const wrapped = [];
  for (const id of modeIds) {
    const mode = modes[id];
    if (!mode || typeof mode._canDetect !== "function") continue;
    if (useLibWrapper && /^[A-Za-z_$][\w$]*$/.test(id) && registerLibWrapper(id)) {
      wrapped.push(id);
      continue;
    }
    if (wrapDirectly(mode)) wrapped.push(id);
  }
  return wrapped;
}

/**
 * libWrapper, MIXED: the original still runs when the lookup allows it.
 * @param {string} id
 * @returns {boolean} false when libWrapper refused (the direct wrapper is used then)
 */
function registerLibWrapper(id) {
  try {
    globalThis.libWrapper.register(
      MODULE_ID,
      `CONFIG.Canvas.detectionModes.${id}._canDetect`,
      function (/** @type {Function} */ original, /** @type {any} */ visionSource, /** @type {any} */ target) {
        return mayDetect(visionSource, target) && original(visionSource, target);
      },
      "MIXED",
    );
    return true;
  } catch (error) {
    console.warn(`furtive | libWrapper could not wrap ${id}._canDetect; wrapping directly`, error);
    return false;
  }
}

/** Prototypes already wrapped by the fallback (shared by several modes). */
const wrappedPrototypes = new WeakSet();

/**
 * Without libWrapper: an own `_canDetect` on the mode instance; if the
 * instance refuses new properties, the method of its class.
 * @param {DetectionModeLike} mode
 */
function wrapDirectly(mode) {
  const original = mode._canDetect;
  /** @this {any} @param {any} visionSource @param {any} target */
  const wrapper = function (visionSource, target) {
    return mayDetect(visionSource, target) && original.call(this, visionSource, target);
  };
  try {
    mode._canDetect = wrapper;
    if (mode._canDetect === wrapper) return true;
  } catch {
    // Sealed instance: fall through to the prototype.
  }
  const prototype = Object.getPrototypeOf(mode);
  if (!prototype || wrappedPrototypes.has(prototype)) return Boolean(prototype);
  prototype._canDetect = wrapper;
  wrappedPrototypes.add(prototype);
  return true;
}

/**
 * Asks Foundry to test visibility again on the next frame: perception
 * (vision) and every token's visibility render flag.
 */
export function refreshPerception() {
  const board = /** @type {any} */ (globalThis).canvas;
  if (!board?.ready) return;
  board.perception.update({ refreshVision: true });
  for (const token of board.tokens?.placeables ?? []) token.renderFlags?.set({ refreshVisibility: true });
}
