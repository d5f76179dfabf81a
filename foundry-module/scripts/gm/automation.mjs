/**
 * Automation, run only by the active GM: token moves, doors and lights
 * change who has whom in clear view (O4, O5, O13); combat turns drive the
 * turn, end-of-turn and round events (O5, O7, P6, P9); deleted and
 * duplicated tokens never leave stale pairs.
 *
 * Every handler is a Foundry hook body (registered in hooks.mjs); each
 * returns early on any client but the active GM.
 */

import { MODULE_ID, SCENE_FLAGS, STATUS } from "../constants.mjs";
import { setStatus } from "../canvas/statuses.mjs";
import { dropLiveScene, sceneState } from "./scene-state.mjs";
import { syncScene, upsertEventOf, upsertToken } from "./sync.mjs";
import { dispatch, reportRefusal, transact } from "./transaction.mjs";
import { dropOrphanRecords, forgetScene, isActiveGM, isStateLost } from "../storage/store.mjs";
import { readSettings } from "../settings.mjs";
import { darknessChanged, onCanvas, viewOf } from "../canvas/clear-view.mjs";
import { carriesLight, lightingOf } from "../canvas/lighting.mjs";
import { engineReady } from "../engine.mjs";
import { resolveToken } from "../net/resolve.mjs";

/** @typedef {import("../types.mjs").ViewEntry} ViewEntry */

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
 * moved hider, or the one moved observer, or everyone (door, wall). After a
 * change of light (`light`: a light created, changed, moved or deleted, the
 * scene's darkness level), only the hiders whose darkness changed are
 * tested against every observer, the others against the moved token only.
 * @param {Scene} scene
 * @param {string | null} movedTokenId the token that moved, or null
 * @param {{light?: boolean, before?: import("../types.mjs").EngineEvent[], observers?: string[]}} [options] `before`:
 *   bookkeeping events of the same user action, applied first in the same transaction; `observers`
 *   (with no moved token and no light change): tokens whose sight changed without moving (an actor's
 *   darkvision), tested as observers of every other hider; a hider among them did not move (O5)
 */
export async function refreshViews(scene, movedTokenId, { light = false, before = [], observers = [] } = {}) {
  if (!isActiveGM()) return;
  // The live session needs the engine (a GM's first canvasReady may come before it loaded).
  if (!(await engineReady.then(() => true, () => false))) return;
  // The hiders and the clear view last applied per pair, kept beside the
  // session (no snapshot per move, gm/scene-state.mjs).
  const mirror = sceneState(scene, "live");
  // Clear view feeds O4, O5 and O13 (event.rs, viewChanged); the percentile
  // ruleset compares one score with every observer, so it is not sent there.
  if (!onCanvas(scene) || !mirror || mirror.ruleset !== "opposed") {
    if (before.length) await transact(scene, before, { chat: false }).catch(reportRefusal);
    return;
  }
  /** @type {any[]} */
  const events = [...before];
  // Creatures this action brings in (a token dropped): the mirror learns them from this transaction.
  const joining = new Set(before.flatMap((e) => (e.type === "upsertCreature" ? [String(/** @type {any} */ (e).creature?.id)] : [])));
  for (const hiderId of mirror.hiders) {
    const hiderToken = scene.tokens.get(hiderId);
    if (!hiderToken) continue;
    if (observers.length && !movedTokenId && !light) {
      const sensing = observers.filter((id) => id !== hiderId).flatMap((id) => scene.tokens.get(id) ?? []);
      const changedView = sensing.length ? viewOf(scene, hiderToken, sensing, undefined).filter((entry) => {
        if (!mirror.knows(entry.observer) && !joining.has(entry.observer)) return false;
        const pair = mirror.view(hiderId, entry.observer);
        return !pair || pair.clearView !== entry.clearView || pair.distance !== entry.distance;
      }) : [];
      if (changedView.length) events.push({ type: "viewChanged", hider: hiderId, moved: false, view: changedView });
      continue;
    }
    const moved = movedTokenId === hiderId;
    // B5: a change of light changes this hider's views only when its darkness changed.
    const lighting = light && !moved ? lightingOf(scene, hiderToken) : undefined;
    const everyone = lighting !== undefined && darknessChanged(hiderToken, lighting);
    if (light && !moved && !everyone && !movedTokenId) continue;
    const mover = movedTokenId && !moved && !everyone ? scene.tokens.get(movedTokenId) : null;
    if (movedTokenId && !moved && !everyone && !mover) continue;
    const view = viewOf(scene, hiderToken, mover ? [mover] : undefined, lighting).filter((entry) => {
      if (!mirror.knows(entry.observer) && !joining.has(entry.observer)) return false;
      const pair = mirror.view(hiderId, entry.observer);
      return !pair || pair.clearView !== entry.clearView || pair.distance !== entry.distance;
    });
    if (!view.length && !moved) continue;
    events.push({ type: "viewChanged", hider: hiderId, moved, view });
  }
  // One transaction for the whole move, door or light change (and the events it came with).
  if (events.length === before.length) {
    if (before.length) await transact(scene, before, { chat: false }).catch(reportRefusal);
  } else {
    // The card's title says what changed the views: a token that moved (named), a light, a wall or
    // door, or senses edited on an actor sheet (those two name nobody: nothing to leak on a public line).
    const titleKey = movedTokenId
      ? "FURTIVE.Chat.Event.viewChanged"
      : light
        ? "FURTIVE.Chat.Event.lightChanged"
        : observers.length
          ? "FURTIVE.Chat.Event.sensesChanged"
          : "FURTIVE.Chat.Event.wallsChanged";
    await transact(scene, events, { lenient: true, titleKey, titleData: { name: (movedTokenId && scene.tokens.get(movedTokenId)?.name) || "" } }).catch(reportRefusal);
  }
}

/**
 * `updateToken(document, changed, options, userId)`: a move (or a change of
 * size, elevation, sight or detection modes) changes that token's views; a
 * token that carries a light, or whose light changed, changes everyone's (B5).
 * @param {TokenDocument} token
 * @param {Record<string, any>} changed
 */
export function onUpdateToken(token, changed) {
  const scene = token.parent;
  if (!isActiveGM() || !scene) return;
  const moved = "x" in changed || "y" in changed || "elevation" in changed || "width" in changed || "height" in changed;
  if (moved) {
    lastMoved.set(/** @type {string} */ (token.id), Date.now());
    movedThisTurn.add(/** @type {string} */ (token.id));
  }
  const lightChanged = "light" in changed || (moved && carriesLight(token));
  if (moved || lightChanged || "sight" in changed || "detectionModes" in changed) void refreshViews(scene, /** @type {string} */ (token.id), { light: lightChanged });
  if ("name" in changed || "disposition" in changed || "actorId" in changed || "delta" in changed || "actorLink" in changed) void upsertToken(scene, token);
}

/**
 * `updateScene(scene, changed, options, userId)`: the darkness level or the
 * global light changed (`environment`, v12+): everyone's view may have (B5).
 * @param {Scene} scene
 * @param {Record<string, any>} changed
 */
export function onUpdateScene(scene, changed) {
  if (!isActiveGM() || !foundry.utils.hasProperty(changed, "environment")) return;
  void refreshViews(scene, null, { light: true });
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
  // One transaction for the drop: the new creature and the views it changes (one save, one card).
  if (!(await engineReady.then(() => true, () => false))) return;
  const upsert = upsertEventOf(scene, token);
  await refreshViews(scene, /** @type {string} */ (token.id), { light: carriesLight(token), before: upsert ? [upsert] : [] });
  if (upsert) await dropRefused(scene, [upsert]);
}

/**
 * `deleteToken(document, options, userId)`: its pairs go (tokenRemoved).
 * @param {TokenDocument} token
 */
export async function onDeleteToken(token) {
  const scene = token.parent;
  if (!isActiveGM() || !scene || !(await engineReady.then(() => true, () => false))) return;
  const removed = sceneState(scene, "live")?.knows(/** @type {string} */ (token.id)) ? [{ type: /** @type {const} */ ("tokenRemoved"), token: token.id }] : [];
  // The light it carried went with it (B5): one transaction with its removal.
  if (carriesLight(token)) await refreshViews(scene, null, { light: true, before: removed });
  else if (removed.length) await dispatch(scene, removed[0], { chat: false }).catch(reportRefusal);
  // A linked token's statuses are its actor's and outlive the token (Actor#toggleStatusEffect,
  // https://foundryvtt.com/api/classes/foundry.documents.Actor.html): the deleted token has
  // none now, so its actor keeps one only while another of its tokens has it (setStatus).
  // The engine's own status change names a token the scene no longer has (applyStatuses skips it).
  if (removed.length && token.actorLink && token.actor) {
    const state = sceneState(scene, "open").state;
    for (const key of /** @type {const} */ (["hidden", "defenseless"])) await setStatus(scene, token, key, false, state);
  }
}

/**
 * `deleteActor(actor, options, userId)` (the `deleteDocument` hook, every
 * client after the deletion: https://foundryvtt.com/api/functions/hookEvents.deleteDocument.html).
 * Deleting an actor deletes none of its tokens: a token names its actor by
 * `actorId` (https://foundryvtt.com/api/interfaces/foundry.documents.types.TokenData.html)
 * and, linked or not, is left on its scene with `TokenDocument#actor` null
 * (https://foundryvtt.com/api/classes/foundry.documents.TokenDocument.html; v9 types it
 * `Actor | null`, https://foundryvtt.com/api/v9/TokenDocument.html). Such a token is no
 * creature (no data to read, no Token HUD buttons), so its creature leaves the state as a
 * deleted token's does (tokenRemoved): a hider stops hiding, an observer perceives no one.
 * One transaction per scene whose state knows one of them (one Scene update each, the
 * least the API allows for several scenes), no card. Its statuses went with the actor.
 * @param {Actor} actor
 */
export async function onDeleteActor(actor) {
  if (!isActiveGM() || !(await engineReady.then(() => true, () => false))) return;
  for (const scene of game.scenes) {
    const orphans = scene.tokens.filter((token) => token.actorId === actor.id && !token.actor);
    if (!orphans.length || isStateLost(scene)) continue;
    const creatures = sceneState(scene, "live")?.creatures;
    const events = orphans.filter((token) => creatures?.has(/** @type {string} */ (token.id))).map((token) => ({ type: /** @type {const} */ ("tokenRemoved"), token: /** @type {string} */ (token.id) }));
    if (events.length) await transact(scene, events, { chat: false }).catch(reportRefusal);
  }
}

/**
 * `updateActor(actor, changed, options, userId)`: creatures of its tokens on the viewed scene are upserted.
 * @param {Actor} actor
 * @param {Record<string, any>} [changed]
 */
export async function onUpdateActor(actor, changed) {
  const scene = canvas?.scene;
  if (!isActiveGM() || !scene || !(await engineReady.then(() => true, () => false))) return;
  const tokens = scene.tokens.filter((t) => t.actor?.id === actor.id);
  // One sheet edit is one transaction, however many tokens the actor has (an
  // NPC actor behind every guard of the scene): their creatures, then their views.
  const upserts = /** @type {import("../types.mjs").EngineEvent[]} */ (tokens.map((token) => upsertEventOf(scene, token)).filter(Boolean));
  // How far it sees in darkness changed (the `darkvisionPath` setting's paths): its views as an observer (B5).
  const paths = readSettings().darkvisionPath.split(/[,|]/).map((p) => p.trim()).filter(Boolean);
  if (changed && paths.some((path) => foundry.utils.hasProperty(changed, path))) {
    await refreshViews(scene, null, { before: upserts, observers: tokens.map((token) => /** @type {string} */ (token.id)) });
  } else if (upserts.length) await transact(scene, upserts, { chat: false, lenient: true }).catch(reportRefusal);
  await dropRefused(scene, upserts);
}

/**
 * After a transaction that upserted creatures leniently: a token whose new
 * data the engine refused still differs from the state; `upsertToken` then
 * tells the GM which token and why and takes a known creature out of the
 * state (B1: it perceives no hider). Only refused tokens cost a second call.
 * @param {Scene} scene
 * @param {import("../types.mjs").EngineEvent[]} upserts
 */
async function dropRefused(scene, upserts) {
  for (const event of upserts) {
    const token = scene.tokens.get(String(/** @type {any} */ (event).creature?.id));
    if (token && upsertEventOf(scene, token)) await upsertToken(scene, token);
  }
}

/**
 * Doors and walls: everyone's clear view may have changed.
 * `updateWall`, `createWall`, `deleteWall`.
 * @param {{parent?: Scene | null}} document
 */
export function onSightChanged(document) {
  const scene = document.parent;
  if (!isActiveGM() || !scene) return;
  void refreshViews(scene, null);
}

/**
 * Lights: a light created, changed (on, off, moved, radius) or deleted
 * changes the views of the hiders whose darkness changed (B5).
 * `createAmbientLight`, `updateAmbientLight`, `deleteAmbientLight`: the
 * generic document hooks, which fire on every connected client after the
 * change is processed (v12
 * https://foundryvtt.com/api/v12/functions/hookEvents.createDocument.html;
 * hook lists v12 https://foundryvtt.com/api/v12/modules/hookEvents.html, v13
 * https://foundryvtt.com/api/modules/hookEvents.html), hence the active GM
 * check.
 * @param {{parent?: Scene | null}} document
 */
export function onLightChanged(document) {
  const scene = document.parent;
  if (!isActiveGM() || !scene) return;
  void refreshViews(scene, null, { light: true });
}

/**
 * The scenes a combat's events go to. A combat linked to a scene: that scene.
 * A combat not linked to one (`Combat#scene` null, docs/foundry.md
 * "Documents"): the scene of each token named (`resolveToken`: the viewed
 * scene first, then every scene), so a GM viewing another scene does not send
 * a turn to the wrong scene's state; the viewed scene when no token is found.
 * `Combat#scene`, `Combat#combatants`, `Combatant#tokenId`:
 * https://foundryvtt.com/api/classes/foundry.documents.Combat.html,
 * https://foundryvtt.com/api/interfaces/foundry.documents.types.CombatantData.html
 * @param {Combat} combat
 * @param {(string | null | undefined)[]} tokenIds
 * @returns {Scene[]}
 */
function combatScenes(combat, tokenIds) {
  const linked = /** @type {Scene | null} */ (combat.scene ?? null);
  if (linked) return [linked];
  const scenes = new Map();
  for (const id of tokenIds) {
    const scene = id ? resolveToken(id)?.parent : null;
    if (scene) scenes.set(scene.id, scene);
  }
  if (!scenes.size && canvas?.scene) scenes.set(canvas.scene.id, canvas.scene);
  return [...scenes.values()];
}

/**
 * `combatTurnChange(combat, prior, current)` (v12, v13): fires on every client after the update.
 * prior/current: `{round, turn, tokenId, combatantId}`. Each event goes to the
 * scene of its token (one scene for a linked combat, {@link combatScenes}).
 * @param {Combat} combat
 * @param {{round: number, turn: number | null, tokenId: string | null}} prior
 * @param {{round: number, turn: number | null, tokenId: string | null}} current
 */
export async function onCombatTurnChange(combat, prior, current) {
  if (!isActiveGM()) return;
  /** @type {Map<Scene, any[]>} */
  const events = new Map();
  const add = (/** @type {Scene[]} */ scenes, /** @type {any} */ event) => {
    for (const scene of scenes) events.set(scene, [...(events.get(scene) ?? []), event]);
  };
  if (prior?.tokenId && prior.round > 0) add(combatScenes(combat, [prior.tokenId]), { type: "turnEnd", combatant: prior.tokenId });
  if (prior && prior.round > 0 && current.round > prior.round) add(combatScenes(combat, combat.combatants.map((c) => c.tokenId)), { type: "roundEnd", round: prior.round });
  if (current?.tokenId) {
    movedThisTurn.delete(current.tokenId);
    add(combatScenes(combat, [current.tokenId]), { type: "turnStart", combatant: current.tokenId, round: current.round });
  }
  // One transaction per scene for the turn change (turnEnd, roundEnd, turnStart);
  // its GM card only when it has something to say.
  for (const [scene, list] of events) await transact(scene, list, { lenient: true, quiet: true }).catch(reportRefusal);
}

/**
 * `deleteCombat(combat, options, userId)`: the combat ends (surprises expire),
 * on the scene of its combatants ({@link combatScenes}).
 * @param {Combat} combat
 */
export async function onDeleteCombat(combat) {
  if (!isActiveGM() || !combat.started) return;
  for (const scene of combatScenes(combat, combat.combatants.map((c) => c.tokenId))) await dispatch(scene, { type: "combatEnd" }, { quiet: true }).catch(reportRefusal);
}

/**
 * `deleteScene(scene, options, userId)`: each GM forgets its stored state of the scene.
 * @param {Scene} scene
 */
export async function onDeleteScene(scene) {
  dropLiveScene(/** @type {string} */ (scene.id));
  await forgetScene(/** @type {string} */ (scene.id));
  // Its linked hiders' Hidden status is their actors' and outlives the scene
  // (Actor#toggleStatusEffect, https://foundryvtt.com/api/classes/foundry.documents.Actor.html):
  // off, unless a token of the actor hides on another scene (setStatus reads their hiders).
  if (!isActiveGM()) return;
  const hiders = scene.getFlag(MODULE_ID, SCENE_FLAGS.hiders);
  for (const id of Array.isArray(hiders) ? hiders : []) {
    const token = scene.tokens.get(String(id));
    if (token?.actorLink && token.actor) await setStatus(scene, token, "hidden", false, null);
  }
  // Likewise Defenseless (the target of a surprise on this scene), unless a token of the
  // same linked actor is the target of a surprise on another scene (its state says so).
  for (const token of scene.tokens) {
    if (!token.actorLink || !token.actor || !token.hasStatusEffect?.(STATUS.defenseless) || surprisedElsewhere(scene, token)) continue;
    await setStatus(scene, token, "defenseless", false, null);
  }
}

/**
 * Whether a token of the same linked actor is the target of a surprise on another
 * scene, per that scene's state (active GM). `TokenDocument#actorLink` / `actorId`
 * (https://foundryvtt.com/api/classes/foundry.documents.TokenDocument.html).
 * @param {Scene} scene
 * @param {TokenDocument} token a linked token
 */
function surprisedElsewhere(scene, token) {
  for (const other of game.scenes ?? []) {
    if (other.id === scene.id) continue;
    const same = other.tokens.filter((t) => t.actorLink && t.actorId === token.actorId).map((t) => t.id);
    if (!same.length) continue;
    const surprises = sceneState(other)?.state.surprises ?? [];
    if (surprises.some((surprise) => same.includes(surprise.target))) return true;
  }
  return false;
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
