/**
 * Automation, run only by the active GM: token moves, doors and lights
 * change who has whom in clear view (O4, O5, O13); combat turns drive the
 * turn, end-of-turn and round events (O5, O7, P6, P9); deleted and
 * duplicated tokens never leave stale pairs.
 *
 * Every handler is a Foundry hook body (registered in hooks.mjs); each
 * returns early on any client but the active GM.
 */

import { STATUS } from "./constants.mjs";
import { setStatus } from "./statuses.mjs";
import { dispatch, dropLiveScene, reportRefusal, syncScene, transact, upsertToken, viewMirror } from "./gm-pipeline.mjs";
import { dropOrphanRecords, forgetScene, isActiveGM } from "./store.mjs";
import { onCanvas, viewOf } from "./clear-view.mjs";
import { engineReady } from "./engine.mjs";

/** @typedef {import("./types.mjs").ViewEntry} ViewEntry */

/** Token id -> when it last moved (ms), on the active GM. */
const lastMoved = /** @type {Map<string, number>} */ (new Map());
/** Tokens that moved since their combat turn started. */
const movedThisTurn = /** @type {Set<string>} */ (new Set());
/** How long a move counts as "part of this movement" outside combat (O1). */
const RECENT_MOVE_MS = 60_000;

/**
 * Whether the token moved recently: during its current combat turn, or in
 * the last minute outside combat. The Hide dialog uses it to pre-tick
 * "declared as part of a movement" (O1); the GM can change it.
 * @param {string} tokenId
 * @param {boolean} inCombat
 */
export function recentlyMoved(tokenId, inCombat) {
  if (inCombat) return movedThisTurn.has(tokenId);
  return Date.now() - (lastMoved.get(tokenId) ?? -Infinity) < RECENT_MOVE_MS;
}

/**
 * Sends `viewChanged` for every hider whose view changed: all observers of a
 * moved hider, or the one moved observer, or everyone (door, light).
 * @param {Scene} scene
 * @param {string | null} movedTokenId the token that moved, or null
 */
export async function refreshViews(scene, movedTokenId) {
  if (!isActiveGM() || !onCanvas(scene)) return;
  // The live session needs the engine (a GM's first canvasReady may come before it loaded).
  if (!(await engineReady.then(() => true, () => false))) return;
  // The hiders and the clear view last applied per pair, kept beside the
  // session (no snapshot per move, gm-pipeline.mjs viewMirror).
  const mirror = viewMirror(scene);
  // Clear view feeds O4, O5 and O13 (event.rs, viewChanged); the percentile
  // ruleset compares one score with every observer, so it is not sent there.
  if (!mirror || mirror.ruleset !== "opposed") return;
  /** @type {any[]} */
  const events = [];
  for (const hiderId of mirror.hiders) {
    const hiderToken = scene.tokens.get(hiderId);
    if (!hiderToken) continue;
    const moved = movedTokenId === hiderId;
    const mover = movedTokenId && !moved ? scene.tokens.get(movedTokenId) : null;
    if (movedTokenId && !moved && !mover) continue;
    const view = viewOf(scene, hiderToken, mover ? [mover] : undefined).filter((entry) => {
      if (!mirror.knows(entry.observer)) return false;
      const pair = mirror.view(hiderId, entry.observer);
      return !pair || pair.clearView !== entry.clearView || pair.distance !== entry.distance;
    });
    if (!view.length && !moved) continue;
    events.push({ type: "viewChanged", hider: hiderId, moved, view });
  }
  // One transaction for the whole move, door or light change.
  if (events.length) await transact(scene, events, { lenient: true, titleKey: "FURTIVE.Chat.Event.viewChanged", titleData: { name: (movedTokenId && scene.tokens.get(movedTokenId)?.name) || "" } }).catch(reportRefusal);
}

/**
 * `updateToken(document, changed, options, userId)`.
 * @param {TokenDocument} token
 * @param {Record<string, any>} changed
 */
export function onUpdateToken(token, changed) {
  const scene = token.parent;
  if (!isActiveGM() || !scene) return;
  if ("x" in changed || "y" in changed || "elevation" in changed || "width" in changed || "height" in changed) {
    lastMoved.set(/** @type {string} */ (token.id), Date.now());
    movedThisTurn.add(/** @type {string} */ (token.id));
    void refreshViews(scene, /** @type {string} */ (token.id));
  }
  if ("name" in changed || "disposition" in changed || "actorId" in changed || "delta" in changed || "actorLink" in changed) void upsertToken(scene, token);
}

/**
 * `createToken(document, options, userId)`: a new or duplicated token joins
 * the state; a copy does not keep its original's Furtive statuses.
 * @param {TokenDocument} token
 */
export async function onCreateToken(token) {
  const scene = token.parent;
  if (!isActiveGM() || !scene) return;
  if (!token.actorLink && token.actor) {
    for (const key of /** @type {("hidden" | "defenseless")[]} */ (["hidden", "defenseless"])) {
      if (token.hasStatusEffect?.(STATUS[key])) await setStatus(scene, token, key, false, null);
    }
  }
  await upsertToken(scene, token);
  await refreshViews(scene, /** @type {string} */ (token.id));
}

/**
 * `deleteToken(document, options, userId)`: its pairs go (tokenRemoved).
 * @param {TokenDocument} token
 */
export async function onDeleteToken(token) {
  const scene = token.parent;
  if (!isActiveGM() || !scene || !(await engineReady.then(() => true, () => false))) return;
  if (!viewMirror(scene)?.knows(/** @type {string} */ (token.id))) return;
  await dispatch(scene, { type: "tokenRemoved", token: token.id }, { chat: false }).catch(reportRefusal);
}

/**
 * `updateActor(actor, changed, options, userId)`: creatures of its tokens on the viewed scene are upserted.
 * @param {Actor} actor
 */
export async function onUpdateActor(actor) {
  const scene = canvas?.scene;
  if (!isActiveGM() || !scene) return;
  for (const token of scene.tokens.filter((t) => t.actor?.id === actor.id)) await upsertToken(scene, token);
}

/**
 * Doors, walls and lights: everyone's clear view may have changed.
 * `updateWall`, `createWall`, `deleteWall`, `createAmbientLight`, `updateAmbientLight`, `deleteAmbientLight`.
 * @param {{parent?: Scene | null}} document
 */
export function onSightChanged(document) {
  const scene = document.parent;
  if (!isActiveGM() || !scene) return;
  void refreshViews(scene, null);
}

/**
 * `combatTurnChange(combat, prior, current)` (v12, v13): fires on every client after the update.
 * prior/current: `{round, turn, tokenId, combatantId}`.
 * @param {Combat} combat
 * @param {{round: number, turn: number | null, tokenId: string | null}} prior
 * @param {{round: number, turn: number | null, tokenId: string | null}} current
 */
export async function onCombatTurnChange(combat, prior, current) {
  const scene = combat.scene ?? canvas?.scene;
  if (!isActiveGM() || !scene) return;
  /** @type {any[]} */
  const events = [];
  if (prior?.tokenId && prior.round > 0) events.push({ type: "turnEnd", combatant: prior.tokenId });
  if (prior && prior.round > 0 && current.round > prior.round) events.push({ type: "roundEnd", round: prior.round });
  if (current?.tokenId) {
    movedThisTurn.delete(current.tokenId);
    events.push({ type: "turnStart", combatant: current.tokenId, round: current.round });
  }
  // One transaction for the turn change (turnEnd, roundEnd, turnStart).
  if (events.length) await transact(scene, events, { lenient: true }).catch(reportRefusal);
}

/**
 * `deleteCombat(combat, options, userId)`: the combat ends (surprises expire).
 * @param {Combat} combat
 */
export async function onDeleteCombat(combat) {
  const scene = combat.scene ?? canvas?.scene;
  if (!isActiveGM() || !scene || !combat.started) return;
  await dispatch(scene, { type: "combatEnd" }).catch(reportRefusal);
}

/**
 * `deleteScene(scene, options, userId)`: each GM forgets its stored state of the scene.
 * @param {Scene} scene
 */
export async function onDeleteScene(scene) {
  dropLiveScene(/** @type {string} */ (scene.id));
  await forgetScene(/** @type {string} */ (scene.id));
}

/**
 * `canvasReady(canvas)` on the active GM: the stored state follows the scene's tokens.
 * @param {Scene} scene
 */
export async function onSceneReady(scene) {
  if (!isActiveGM()) return;
  await dropOrphanRecords().catch((error) => console.error("furtive |", error));
  await syncScene(scene).catch(reportRefusal);
  await refreshViews(scene, null);
}
