/**
 * Furtive's status effects, `furtive.hidden` and `furtive.defenseless`: shown
 * on tokens, decided by the engine only.
 *
 * - Registered at `init` and again at `i18nInit`, `setup` and `ready`, and
 *   checked before every use: systems and modules may replace
 *   `CONFIG.statusEffects` wholesale after `init`.
 * - `hud: false` keeps them out of the Token HUD's palette (StatusEffectConfig
 *   `hud`, https://foundryvtt.com/api/interfaces/CONFIG._StatusEffectConfig.html);
 *   a status toggled by other means (a macro, a system's own palette) is turned
 *   into the engine's action instead: Hidden on asks for a Hide, off asks for a
 *   Reveal (`preCreateActiveEffect` / `preDeleteActiveEffect` return false).
 * - {@link setStatus} never throws: the engine's state is saved before
 *   statuses are applied, so a failure is logged and the GM told, nothing more.
 * - Linked tokens share their actor's statuses (`Actor#toggleStatusEffect`), so
 *   an actor's status is on while ANY of its tokens on the scene has it per the
 *   engine, or (Hidden) one of its tokens hides on another scene per that
 *   scene's published hiders: revealing a duplicate, or the token of another
 *   scene, never takes the status off the one still hiding.
 * - `CONFIG.statusEffects` is an array in v13
 *   (https://foundryvtt.com/api/variables/CONFIG.statusEffects.html) and a record
 *   by id in v14 (https://foundryvtt.com/api/v14/variables/CONFIG.statusEffects.html;
 *   foundryvtt/foundryvtt#13122), where core keeps array-style access but a
 *   system may put a plain object there (pf2e, mclemente/healthEstimate#337):
 *   the module reads and adds by id on a record, by `find`/`push` on an array.
 *
 * Foundry API: `CONFIG.statusEffects`, `Actor#toggleStatusEffect(id, {active})`
 * (https://foundryvtt.com/api/classes/foundry.documents.Actor.html#togglestatuseffect),
 * `TokenDocument#hasStatusEffect`, `ActiveEffect#statuses`, hooks
 * `preCreateActiveEffect(effect, data, options, userId)` and
 * `preDeleteActiveEffect(effect, options, userId)` (returning false cancels,
 * https://foundryvtt.com/api/functions/hookEvents.preCreateDocument.html).
 */

import { MODULE_ID, SCENE_FLAGS, STATUS, modulePath } from "../constants.mjs";
import { t } from "../i18n.mjs";

/** @typedef {import("../types.mjs").EngineState} EngineState */

/** The status effects (`StatusEffectConfig`: id, name, img, hud). */
const EFFECTS = [
  { id: STATUS.hidden, name: "FURTIVE.Status.hidden", img: modulePath("icons/hidden.svg"), hud: false },
  { id: STATUS.defenseless, name: "FURTIVE.Status.defenseless", img: modulePath("icons/defenseless.svg"), hud: false },
];

/** Set while the module itself toggles a status (the pre-hooks let it through). */
let applying = 0;
/** Whether the GM was already told that a status could not be applied. */
let warned = false;

/**
 * A status effect's configuration by id, from the array (v13) or the record (v14).
 * @param {string} id
 * @returns {any | null}
 */
export function statusEffectConfig(id) {
  const effects = /** @type {any} */ (CONFIG.statusEffects);
  if (Array.isArray(effects)) return effects.find((s) => s?.id === id) ?? null;
  if (effects && typeof effects === "object" && Object.hasOwn(effects, id)) return effects[id];
  return null;
}

/**
 * Adds the module's status effects to `CONFIG.statusEffects` where missing:
 * `push` on an array (v13), by id on a record (v14).
 * @returns {boolean} false when `CONFIG.statusEffects` is neither
 */
export function ensureStatusEffects() {
  const effects = /** @type {any} */ (CONFIG.statusEffects);
  if (!effects || typeof effects !== "object") return false;
  for (const effect of EFFECTS) {
    if (statusEffectConfig(effect.id)) continue;
    if (Array.isArray(effects)) effects.push({ ...effect });
    else effects[effect.id] = { ...effect };
  }
  return true;
}

/**
 * Whether the engine gives a token a status: `hidden` while it hides,
 * `defenseless` while it is the target of a surprise (read from the state,
 * which the engine wrote).
 * @param {EngineState} state
 * @param {string} tokenId
 * @param {"hidden" | "defenseless"} key
 */
function engineHas(state, tokenId, key) {
  if (key === "hidden") return state.hiders?.[tokenId]?.phase === "hiding";
  return (state.surprises ?? []).some((s) => s.target === tokenId);
}

/**
 * Applies the engine's status of one token. For a linked token the actor's
 * status stays on while another of its tokens on the scene has it. Never throws.
 * @param {Scene} scene
 * @param {TokenDocument} token
 * @param {"hidden" | "defenseless"} key
 * @param {boolean} active what the engine says for this token
 * @param {EngineState | null} state the state after the event (for the other tokens of a linked actor)
 * @returns {Promise<boolean>} whether the status now matches
 */
export async function setStatus(scene, token, key, active, state) {
  const actor = token.actor;
  if (!actor) return false;
  let wanted = active;
  if (!wanted && token.actorLink && state) {
    wanted = scene.tokens.some((other) => other.id !== token.id && other.actorLink && other.actorId === token.actorId && engineHas(state, /** @type {string} */ (other.id), key));
  }
  // A linked actor's status shows on its tokens of every scene: it stays on while one of
  // them hides on another scene, per that scene's published hiders (the same reading as
  // the visibility lookup: `flags.furtive.hiders`, hiders in phase `hiding`).
  if (!wanted && token.actorLink && key === "hidden") wanted = hidesElsewhere(scene, token);
  const id = STATUS[key];
  if (Boolean(token.hasStatusEffect?.(id)) === wanted) return true;
  applying += 1;
  try {
    if (!ensureStatusEffects()) throw new Error("CONFIG.statusEffects is neither an array nor a record");
    await actor.toggleStatusEffect(id, { active: wanted });
    return true;
  } catch (error) {
    console.error(`furtive | could not set ${id} on ${token.name}`, error);
    if (!warned && game.user?.isGM) {
      warned = true;
      ui.notifications?.warn(t("FURTIVE.Notify.StatusFailed", { name: token.name ?? "", status: t(`FURTIVE.Status.${key}`) }));
    }
    return false;
  } finally {
    applying -= 1;
  }
}

/**
 * Whether another scene's published hiders name a token of the same linked actor.
 * `game.scenes`, `Scene#getFlag`, `TokenDocument#actorLink` / `actorId`
 * (https://foundryvtt.com/api/classes/foundry.documents.TokenDocument.html).
 * @param {Scene} scene the scene of the action
 * @param {TokenDocument} token a linked token
 * @returns {boolean}
 */
function hidesElsewhere(scene, token) {
  for (const other of game.scenes ?? []) {
    if (other.id === scene.id) continue;
    const hiders = other.getFlag(MODULE_ID, SCENE_FLAGS.hiders);
    if (!Array.isArray(hiders) || !hiders.length) continue;
    for (const id of hiders) {
      const hider = other.tokens.get(String(id));
      if (hider?.actorLink && hider.actorId === token.actorId) return true;
    }
  }
  return false;
}

/**
 * The Furtive status an effect carries, if any.
 * @param {any} effect an ActiveEffect or its creation data
 * @returns {"hidden" | "defenseless" | null}
 */
function furtiveStatusOf(effect) {
  const statuses = [...(effect?.statuses ?? [])];
  if (statuses.includes(STATUS.hidden)) return "hidden";
  if (statuses.includes(STATUS.defenseless)) return "defenseless";
  return null;
}

/**
 * The token a hand-toggled status was meant for: the HUD's token when it shows
 * this actor, else the actor's token on the viewed scene.
 * @param {any} actor
 * @returns {TokenDocument | null}
 */
function tokenOfActor(actor) {
  if (!actor) return null;
  if (actor.token) return actor.token;
  const hud = /** @type {any} */ (globalThis).canvas?.hud?.token?.object;
  if (hud?.document?.actor === actor) return hud.document;
  return actor.getActiveTokens?.()[0]?.document ?? null;
}

/**
 * Registers the hooks that turn hand-toggled Furtive statuses into engine
 * actions. Call once, at `init`.
 * @param {{hide: (token: TokenDocument) => Promise<unknown>, reveal: (token: TokenDocument) => Promise<unknown>, onError: (error: unknown) => unknown}} actions
 */
export function registerStatusGuards(actions) {
  Hooks.on("preCreateActiveEffect", (/** @type {any} */ effect, /** @type {any} */ data) => {
    const key = furtiveStatusOf(data) ?? furtiveStatusOf(effect);
    if (!key || applying > 0) return true;
    const token = tokenOfActor(effect.parent);
    if (key === "hidden" && token) void actions.hide(token).catch(actions.onError);
    return false;
  });
  Hooks.on("preDeleteActiveEffect", (/** @type {any} */ effect) => {
    const key = furtiveStatusOf(effect);
    if (!key || applying > 0) return true;
    const token = tokenOfActor(effect.parent);
    if (key === "hidden" && token) void actions.reveal(token).catch(actions.onError);
    return false;
  });
}
