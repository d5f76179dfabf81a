/**
 * Per-observer visibility on every client: the lookup, the detection-mode
 * wrappers and the token visibility guard.
 *
 * The active GM publishes, on the Scene, `flags.furtive.hiddenFrom`:
 * `{ [observerTokenId]: hiderTokenId[] }`, one key for EVERY creature the
 * engine knows (the engine's `hiddenFrom(state)`, with an empty list for an
 * observer who perceives every hider), written key by key, and
 * `flags.furtive.hiders`: ids of tokens in a stealth attempt. Every client
 * builds a `Map<observerId, Set<hiderId>>` from them at `canvasInit` (before
 * any token is drawn), patches it on `updateScene` from the observers the
 * update names, and refreshes perception at once, so the next frame already
 * draws the new visibility.
 *
 * Two layers, both answering from that Map only (B1, B2), never deciding a rule:
 * - `DetectionMode#_canDetect(visionSource, target)` of EVERY detection mode in
 *   `CONFIG.Canvas.detectionModes` (core's seven and any a system or module
 *   registers later; the GM can opt a mode out in the settings): false when the
 *   vision source's token does not perceive the hider, or is not a known
 *   observer (absent from the lookup: refused or unknown, B1); else the
 *   original test runs (Foundry still combines every vision source, B2).
 * - `Token#isVisible` (a getter on the Token placeable class): for a player,
 *   a token they own is always visible (B2) unless the GM hid it; a hider is
 *   visible only if Foundry would show it AND one of the player's tokens (the
 *   controlled ones, else every observed one) perceives it. This covers what the
 *   detection modes never see: scenes with Token Vision off (every token is
 *   visible before any mode is asked) and lights that provide vision.
 * - GM users: unchanged (B2, a GM sees everything).
 * - Before the lookup of the viewed scene is built, a token with the
 *   `furtive.hidden` status is not shown to a user who does not own it (B1).
 *
 * Foundry API: `CONFIG.Canvas.detectionModes[id]` (DetectionMode instances;
 * https://foundryvtt.com/api/classes/foundry.canvas.perception.DetectionMode.html
 * `_canDetect(visionSource, target)`), `PointVisionSource#object` (the Token),
 * `Token#isVisible` (https://foundryvtt.com/api/classes/foundry.canvas.placeables.Token.html,
 * v12: https://foundryvtt.com/api/v12/classes/client.Token.html), `CONFIG.Token.objectClass`,
 * `libWrapper.register(id, target, fn, "MIXED")` (getters supported, README
 * https://github.com/ruipin/fvtt-lib-wrapper#summary), `canvas.perception.update({refreshVision: true})`,
 * `Token#renderFlags.set({refreshVisibility: true})`, `TokenDocument#hasStatusEffect(statusId)`,
 * `canvas.tokens.controlled`, `TokenDocument#isOwner`.
 */

import { MODULE_ID, SCENE_FLAGS, STATUS } from "../constants.mjs";

/** observer token id -> ids of the hiders it does not perceive (one entry per known observer). */
const lookup = /** @type {Map<string, Set<string>>} */ (new Map());
/** The scene the lookup was built for; null until built (B1). */
let lookupSceneId = /** @type {string | null} */ (null);
/** Ids of tokens in a stealth attempt on the lookup's scene. */
let hiderIds = /** @type {Set<string>} */ (new Set());
/** Whether this client's user is a GM (cached at setup: it never changes in a session). */
let viewerIsGM = false;
/** Ids of this user's observer tokens (controlled, else observed), or null to recompute. */
let viewerObservers = /** @type {string[] | null} */ (null);
/** Detection mode ids already wrapped on this client. */
const wrappedModes = /** @type {Set<string>} */ (new Set());
/** Whether the `Token#isVisible` guard is installed. */
let guardInstalled = false;

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
  const entries = scene.getFlag(MODULE_ID, SCENE_FLAGS.hiddenFrom);
  if (entries && typeof entries === "object") {
    for (const [observer, list] of Object.entries(entries)) if (Array.isArray(list)) lookup.set(observer, new Set(list.map(String)));
  }
  const hiders = scene.getFlag(MODULE_ID, SCENE_FLAGS.hiders);
  hiderIds = new Set(Array.isArray(hiders) ? hiders.map(String) : []);
  lookupSceneId = scene.id;
  viewerObservers = null;
}

/**
 * Patches the lookup from a Scene update (`updateScene(scene, changed)`):
 * only the observers the update names are read again from the scene's flags
 * (a missing value removes the observer; a deletion is named by a v13 `-=id`
 * key or, in v14, by the id with a `ForcedDeletion` value: operators travel
 * serialized and are rebuilt, https://foundryvtt.com/api/functions/foundry.data.operators.reconstructOperator.html,
 * and PF2e Visioner reads both forms, roi007leaf/pf2e-visioner
 * scripts/stores/visibility-map.js `normalizeVisibilityMap`), the hiders list
 * when it changed. A lookup not built for this scene is rebuilt instead.
 * @param {Scene} scene
 * @param {Record<string, any>} changed the update's differential data
 * @returns {number} how many observers were patched (all of them after a rebuild)
 */
function patchLookup(scene, changed) {
  if (lookupSceneId !== scene.id) {
    rebuildLookup(scene);
    return lookup.size;
  }
  const flags = changed?.flags?.[MODULE_ID] ?? {};
  const current = /** @type {Record<string, unknown>} */ (scene.getFlag(MODULE_ID, SCENE_FLAGS.hiddenFrom) ?? {});
  let patched = 0;
  const named = flags[SCENE_FLAGS.hiddenFrom];
  if (named && typeof named === "object") {
    for (const key of Object.keys(named)) {
      const observer = key.startsWith("-=") ? key.slice(2) : key;
      const list = current[observer];
      if (Array.isArray(list)) lookup.set(observer, new Set(list.map(String)));
      else lookup.delete(observer);
      patched += 1;
    }
  }
  if (SCENE_FLAGS.hiders in flags || `-=${SCENE_FLAGS.hiders}` in flags) {
    const hiders = scene.getFlag(MODULE_ID, SCENE_FLAGS.hiders);
    hiderIds = new Set(Array.isArray(hiders) ? hiders.map(String) : []);
  }
  viewerObservers = null;
  return patched;
}

/** Forgets the lookup: detection fails closed until it is rebuilt (B1). */
export function resetLookup() {
  lookup.clear();
  hiderIds = new Set();
  lookupSceneId = null;
  viewerObservers = null;
  unlit.clear();
}

/** The user's tokens changed (control, ownership, creation): recompute the observers. */
export function forgetViewerObservers() {
  viewerObservers = null;
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
 * (number-free, available on every client). A token that is not hiding is
 * perceived; an observer the engine does not know perceives no hider (B1).
 * @param {string} observerId
 * @param {string} hiderId
 */
export function lookupPerceives(observerId, hiderId) {
  if (!hiderIds.has(hiderId)) return true;
  const hidden = lookup.get(observerId);
  return hidden !== undefined && !hidden.has(hiderId);
}

/**
 * Hider ids the observer does not perceive (every hider for an unknown observer).
 * @param {string} observerId
 * @returns {string[]}
 */
export function lookupHiddenFrom(observerId) {
  const hidden = lookup.get(observerId);
  return hidden === undefined ? [...hiderIds] : [...hidden];
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
  // B1: no lookup yet (page load). A lookup of another scene than the token's is
  // caught by the Token#isVisible guard (once per token, not per mode and source).
  if (lookupSceneId === null) return !(targetDocument.hasStatusEffect?.(STATUS.hidden) && !targetDocument.isOwner);
  const hidden = lookup.get(visionSource?.object?.document?.id);
  if (hidden !== undefined) return !hidden.has(targetDocument.id);
  // B1: an observer without an entry (unknown or refused) perceives no hider.
  return !hiderIds.has(targetDocument.id);
}

/**
 * This user's observer tokens, as Foundry picks vision sources: the
 * controlled tokens, else every token the user observes (OBSERVER
 * permission or better: Foundry 0.7.1 release notes, "their vision will now
 * be unified with other observed tokens"; Shared Vision's README, "you can do
 * this in Foundry by giving every player observer permissions, but in that
 * case tokens will only share vision if the player has no tokens selected",
 * https://github.com/CDeenen/SharedVision).
 * @returns {string[]}
 */
function observersOfViewer() {
  if (viewerObservers) return viewerObservers;
  const layer = /** @type {any} */ (globalThis).canvas?.tokens;
  const controlled = (layer?.controlled ?? []).filter((/** @type {any} */ t) => t.document?.isOwner);
  const tokens = controlled.length ? controlled : (layer?.placeables ?? []).filter((/** @type {any} */ t) => t.document?.testUserPermission?.(game.user, "OBSERVER"));
  const ids = tokens.map((/** @type {any} */ t) => String(t.document.id));
  viewerObservers = ids;
  return ids;
}

/**
 * Whether this client must not show a token: a player's view of a hider
 * none of their observer tokens perceives (the lookup's answer), or, before
 * the lookup of its scene is built, of a token carrying `furtive.hidden`
 * (B1). Never for a GM, nor for a token the player owns (B2) unless the GM
 * hid it.
 * @param {any} document a TokenDocument
 * @returns {boolean}
 */
export function hiddenFromViewer(document) {
  if (viewerIsGM || !document) return false;
  if (document.isOwner && !document.hidden) return false;
  if (lookupSceneId === null || (document.parent && document.parent.id !== lookupSceneId)) return Boolean(document.hasStatusEffect?.(STATUS.hidden));
  if (!hiderIds.has(document.id)) return false;
  return !observersOfViewer().some((observerId) => lookupPerceives(observerId, document.id));
}

/**
 * The `Token#isVisible` guard: what this client may draw of a token.
 * @param {any} token the Token placeable
 * @param {() => boolean} original Foundry's own answer
 * @returns {boolean}
 */
export function guardVisible(token, original) {
  if (viewerIsGM) return original();
  const document = token?.document;
  if (!document) return original();
  // B2: a player always sees the tokens they own (unless the GM hid them).
  if (document.isOwner && !document.hidden) return true;
  return original() && !hiddenFromViewer(document);
}

/**
 * The `Token#initializeLightSource(options)` guard: a hider this client may
 * not draw emits no light or darkness here either (B1: no glow moves with an
 * unseen hider). Its source is initialized as deleted (`options.deleted`).
 * The method is on the Token pages (v13
 * https://foundryvtt.com/api/classes/foundry.canvas.placeables.Token.html,
 * v14 https://foundryvtt.com/api/v14/classes/foundry.canvas.placeables.Token.html);
 * what `deleted` does is read from public modules that turn a light off for
 * one client by passing `{deleted: true}` to `initializeLightSource` (a
 * level-filtering module's AmbientLight patch), not from a page.
 * @param {any} token the Token placeable
 * @param {any} options
 * @param {(options: any) => any} original
 */
export function guardLight(token, options, original) {
  const id = token?.document?.id;
  if (!options?.deleted && hiddenFromViewer(token?.document)) {
    if (id) unlit.add(String(id));
    return original({ ...options, deleted: true });
  }
  if (id) unlit.delete(String(id));
  return original(options);
}

/** Ids of the tokens whose light this client drew as deleted (guardLight). */
const unlit = /** @type {Set<string>} */ (new Set());

/**
 * The token ruler guard (`CONFIG.Token.rulerClass`, `BaseTokenRuler#isVisible`:
 * "Is the ruler supposed to be visible?", set into `visible` by
 * `Token#_refreshState`,
 * https://foundryvtt.com/api/classes/foundry.canvas.placeables.tokens.BaseTokenRuler.html):
 * no path of a hider this client may not draw. Foundry shows a token's
 * ruler by disposition and permission, not by vision: a friendly token's
 * movement to every player (foundryvtt/foundryvtt#11874, #13561).
 * @param {any} ruler the token's ruler
 * @param {() => boolean} original
 */
export function guardRuler(ruler, original) {
  return !hiddenFromViewer(ruler?.token?.document) && original();
}

/** Whether the `Token#isVisible` guard is installed on this client. */
export function isVisibilityGuardInstalled() {
  return guardInstalled;
}

/** The guards, by target path: whether each is installed on this client. */
const installed = /** @type {Set<string>} */ (new Set());

/**
 * Wraps a getter or method of a class `CONFIG` names, through libWrapper
 * when active (MIXED: the original still runs), else by redefining it on the
 * class's prototype.
 * @param {string} path e.g. `CONFIG.Token.objectClass.prototype.isVisible`
 * @param {"getter" | "method"} kind
 * @param {(self: any, wrapped: (...args: any[]) => any, ...args: any[]) => any} guard
 * @returns {boolean} whether it is installed
 */
function wrap(path, kind, guard) {
  if (installed.has(path)) return true;
  const parts = path.split(".");
  const name = /** @type {string} */ (parts.pop());
  parts.pop(); // "prototype"
  const Class = parts.slice(1).reduce((/** @type {any} */ value, key) => value?.[key], CONFIG);
  if (!Class?.prototype) return false;
  if (useLibWrapper()) {
    try {
      globalThis.libWrapper.register(MODULE_ID, path, function (/** @type {(...args: any[]) => any} */ wrapped, /** @type {any[]} */ ...args) {
        // @ts-ignore `this` is the wrapped object
        return guard(this, wrapped, ...args);
      }, "MIXED");
      installed.add(path);
      return true;
    } catch (error) {
      console.warn(`furtive | libWrapper could not wrap ${path}; wrapping directly`, error);
    }
  }
  let descriptor = null;
  for (let holder = Class.prototype; holder && !descriptor; holder = Object.getPrototypeOf(holder)) descriptor = Object.getOwnPropertyDescriptor(holder, name) ?? null;
  const original = kind === "getter" ? descriptor?.get : descriptor?.value;
  if (typeof original !== "function") return false;
  if (kind === "getter") {
    Object.defineProperty(Class.prototype, name, {
      configurable: true,
      get() {
        return guard(this, () => original.call(this));
      },
    });
  } else {
    Object.defineProperty(Class.prototype, name, {
      configurable: true,
      writable: true,
      value(/** @type {any[]} */ ...args) {
        return guard(this, (/** @type {any[]} */ ...given) => original.apply(this, given), ...args);
      },
    });
  }
  installed.add(path);
  return true;
}

/**
 * Installs the guards of what this client draws, on the classes the system
 * uses (`CONFIG.Token.objectClass`, `CONFIG.Token.rulerClass`,
 * https://foundryvtt.com/api/variables/CONFIG.Token.html,
 * https://foundryvtt.com/api/v14/variables/CONFIG.Token.html): the token
 * (`isVisible`), its light (`initializeLightSource`) and its ruler
 * (`isVisible`; v13+).
 * @returns {boolean} whether the `Token#isVisible` guard is installed
 */
export function installVisibilityGuard() {
  guardInstalled = wrap("CONFIG.Token.objectClass.prototype.isVisible", "getter", (token, wrapped) => guardVisible(token, () => wrapped()));
  wrap("CONFIG.Token.objectClass.prototype.initializeLightSource", "method", (token, wrapped, options) => guardLight(token, options, (given) => wrapped(given)));
  wrap("CONFIG.Token.rulerClass.prototype.isVisible", "getter", (ruler, wrapped) => guardRuler(ruler, () => wrapped()));
  return guardInstalled;
}

/** Whether libWrapper is active on this client. */
function useLibWrapper() {
  return Boolean(game.modules.get("lib-wrapper")?.active && globalThis.libWrapper);
}

/**
 * Wraps `_canDetect` of every detection mode in `CONFIG.Canvas.detectionModes`
 * except the ignored ones, including modes registered since the last call
 * (call at setup, ready and canvasInit). Through libWrapper when it is active
 * (MIXED: the original is still called when the lookup allows it), else by
 * setting `_canDetect` on the mode instance.
 * @param {string[]} ignored mode ids the GM opted out (settings)
 * @returns {string[]} the ids wrapped by this call
 */
export function installDetectionWrappers(ignored = []) {
  const modes = /** @type {Record<string, DetectionModeLike>} */ (CONFIG.Canvas.detectionModes ?? {});
  const skip = new Set(ignored);
  const wrapped = [];
  for (const [id, mode] of Object.entries(modes)) {
    if (skip.has(id) || wrappedModes.has(id)) continue;
    if (!mode || typeof mode._canDetect !== "function") continue;
    if (useLibWrapper() && /^[A-Za-z_$][\w$]*$/.test(id) && registerLibWrapper(id)) {
      wrappedModes.add(id);
      wrapped.push(id);
      continue;
    }
    if (wrapDirectly(mode)) {
      wrappedModes.add(id);
      wrapped.push(id);
    }
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
 * `updateScene(scene, changed)`: the active GM published lookup changes on
 * the viewed scene. The lookup is patched from the observers the update
 * names (not rebuilt) and perception tested again, so the next frame draws
 * the new visibility.
 * @param {Scene} scene
 * @param {Record<string, any>} changed the update's differential data
 */
export function onLookupPublished(scene, changed) {
  if (scene.id !== canvas?.scene?.id || !foundry.utils.hasProperty(changed, `flags.${MODULE_ID}`)) return;
  patchLookup(scene, changed);
  refreshPerception();
}

/**
 * Asks Foundry to test visibility again on the next frame: perception
 * (vision), every token's visibility and state render flags (its ruler,
 * `Token#_refreshState`), and the light of every token that carries one
 * (`Token#initializeLightSource`, then `refreshLighting`; the light guard
 * decides). Then releases this user's targets that became unseen.
 */
export function refreshPerception() {
  const board = /** @type {any} */ (globalThis).canvas;
  if (!board?.ready) return;
  for (const token of board.tokens?.placeables ?? []) token.renderFlags?.set({ refreshVisibility: true, refreshState: true });
  board.perception.update({ refreshVision: true });
  refreshLights();
  releaseUnseenTargets();
}

/**
 * Initializes again the light of every hider that carries one, and of every
 * token whose light this client left out, so the light guard decides anew
 * (after the lookup or the user's tokens changed), and asks for
 * `refreshLighting`. Other tokens' lights are left as they are.
 */
export function refreshLights() {
  const board = /** @type {any} */ (globalThis).canvas;
  if (!board?.ready) return;
  let any = false;
  for (const token of board.tokens?.placeables ?? []) {
    const id = String(token.document?.id);
    if (!hiderIds.has(id) && !unlit.has(id)) continue;
    const light = token.document?.light;
    if (!light || !(Math.max(Number(light.dim) || 0, Number(light.bright) || 0) > 0) || typeof token.initializeLightSource !== "function") continue;
    token.initializeLightSource();
    any = true;
  }
  if (any) board.perception.update({ refreshLighting: true, refreshVision: true });
}

/**
 * A player's target on a hider none of their tokens perceives (every token
 * they observe, controlled or not) is released (B1): `Token#setTarget(false,
 * {releaseOthers: false})` (Token,
 * https://foundryvtt.com/api/classes/foundry.canvas.placeables.Token.html,
 * https://foundryvtt.com/api/v14/classes/foundry.canvas.placeables.Token.html;
 * the same call as PF2e Visioner's, verified on v14), `game.user.targets`.
 */
export function releaseUnseenTargets() {
  if (viewerIsGM || lookupSceneId === null) return;
  const board = /** @type {any} */ (globalThis).canvas;
  const user = game.user;
  const targets = [.../** @type {Iterable<any>} */ (user?.targets ?? [])];
  if (!targets.length) return;
  const observed = /** @type {string[]} */ ((board?.tokens?.placeables ?? []).filter((/** @type {any} */ t) => t.document?.testUserPermission?.(user, "OBSERVER")).map((/** @type {any} */ t) => String(t.document.id)));
  for (const token of targets) {
    const document = token?.document;
    if (!document || document.parent?.id !== lookupSceneId || !hiderIds.has(document.id)) continue;
    if (observed.includes(String(document.id))) continue;
    if (observed.some((observerId) => lookupPerceives(observerId, document.id))) continue;
    token.setTarget(false, { releaseOthers: false });
  }
}
