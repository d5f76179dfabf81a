/**
 * The scene's tokens and the engine's creatures kept in line, on the active
 * GM: removed tokens leave, new or changed ones are upserted. Only for a
 * scene with a saved state.
 */

import * as engine from "../engine.mjs";
import { FurtiveError } from "../errors.mjs";
import { refusalText, t } from "../i18n.mjs";
import { readSettings } from "../settings.mjs";
import { isActiveGM, isStateLost } from "../storage/store.mjs";
import { creatureOf, isCreatureToken } from "../systems/actor-data.mjs";
import { sceneState } from "./scene-state.mjs";
import { dispatch, reportRefusal, transact } from "./transaction.mjs";

/** @typedef {import("../types.mjs").EngineEvent} EngineEvent */

/**
 * Brings the stored state in line with the scene's tokens: removed tokens
 * leave (tokenRemoved), new or changed ones are upserted. Does nothing for a
 * scene without a stored state.
 * @param {Scene} scene
 */
export async function syncScene(scene) {
  if (!isActiveGM() || isStateLost(scene)) return;
  await engine.engineReady;
  const creatures = sceneState(scene, "live")?.creatures;
  if (!creatures) return;
  const settings = readSettings();
  /** @type {EngineEvent[]} */
  const events = [];
  for (const id of creatures.keys()) if (!scene.tokens.get(id)) events.push(/** @type {any} */ ({ type: "tokenRemoved", token: id }));
  for (const token of scene.tokens.filter(isCreatureToken)) {
    const creature = creatureOf(token, settings);
    const known = creatures.get(/** @type {string} */ (token.id));
    if (!known || !sameCreature(/** @type {any} */ (known), /** @type {any} */ (creature))) events.push(/** @type {any} */ ({ type: "upsertCreature", creature }));
  }
  if (events.length) await transact(scene, events, { chat: false, lenient: true }).catch(reportRefusal);
}

/**
 * The `upsertCreature` event a token needs (it is new, or its data changed),
 * or null: not a creature, the same data, a scene without state, or not the
 * active GM. For a caller that applies it in the same transaction as the
 * views it changes (automation.mjs: a token dropped on the scene). Needs the
 * engine loaded.
 * @param {Scene} scene
 * @param {TokenDocument} token
 * @returns {EngineEvent | null}
 */
export function upsertEventOf(scene, token) {
  if (!isActiveGM() || !isCreatureToken(token) || isStateLost(scene)) return null;
  const creatures = sceneState(scene, "live")?.creatures;
  if (!creatures) return null;
  const creature = creatureOf(token, readSettings());
  const known = creatures.get(/** @type {string} */ (token.id));
  if (known && sameCreature(/** @type {any} */ (known), /** @type {any} */ (creature))) return null;
  return /** @type {any} */ ({ type: "upsertCreature", creature });
}

/**
 * Upserts a token's creature when its data changed (token created,
 * duplicated, its actor changed). Nothing for a scene without state.
 * @param {Scene} scene
 * @param {TokenDocument} token
 */
export async function upsertToken(scene, token) {
  if (!isActiveGM() || !isCreatureToken(token) || isStateLost(scene)) return;
  await engine.engineReady;
  const creatures = sceneState(scene, "live")?.creatures;
  if (!creatures) return;
  const creature = creatureOf(token, readSettings());
  const known = creatures.get(/** @type {string} */ (token.id));
  if (known && sameCreature(/** @type {any} */ (known), /** @type {any} */ (creature))) return;
  try {
    await dispatch(scene, { type: "upsertCreature", creature }, { chat: false });
  } catch (error) {
    // An engine panic, told as it happened (engine.mjs, `shown`), is no refusal of the creature's data.
    if (!(error instanceof FurtiveError) || error.shown) return reportRefusal(error);
    // B1: the GM is told which token and why (the engine names the field); a
    // creature whose new data is refused leaves the state, so it perceives no hider.
    ui.notifications?.warn(t("FURTIVE.Notify.CreatureRefused", { name: token.name ?? "", reason: refusalText(error) }));
    if (known) await dispatch(scene, { type: "tokenRemoved", token: token.id }, { chat: false }).catch(reportRefusal);
  }
}

/**
 * Whether the stored creature already has every field the module would send.
 * @param {Record<string, unknown>} known  from the engine state (defaults filled in)
 * @param {Record<string, unknown>} fresh  built from the token now
 */
function sameCreature(known, fresh) {
  return Object.entries(fresh).every(([key, value]) => JSON.stringify(known[key]) === JSON.stringify(value));
}
