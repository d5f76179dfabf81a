/**
 * The active GM's side: every engine event goes through here, one at a time.
 *
 * `dispatch(scene, event)` loads the scene's state (or builds it from the
 * scene's tokens), asks the engine, and applies the outcome: saves the state
 * (GM-only store), publishes the number-free lookup on the Scene in one
 * update, toggles status effects, posts the explanations, and answers the
 * engine's requests with Foundry rolls. A refused event (EngineRefusal)
 * changes nothing and is thrown to the caller.
 *
 * Only the active GM calls this (`isActiveGM()`); players go through the socket.
 */

import { MODULE_ID, STATUS } from "./constants.mjs";
import * as engine from "./engine.mjs";
import { EngineRefusal } from "./engine.mjs";
import { postDefenselessCard, postLog, postPerceptionRequest, postLine } from "./chat.mjs";
import { refusalText, t } from "./i18n.mjs";
import { creatureOf, isCreatureToken } from "./inputs.mjs";
import { rollFormula } from "./rolls.mjs";
import { readSettings } from "./settings.mjs";
import { hasForeignState, isActiveGM, loadRecord, saveRecord } from "./store.mjs";
import { setStatus } from "./statuses.mjs";
import { audienceOf } from "./secrecy.mjs";

/** @typedef {import("./types.mjs").EngineState} EngineState */
/** @typedef {import("./types.mjs").EngineEvent} EngineEvent */
/** @typedef {import("./types.mjs").Outcome} Outcome */
/** @typedef {import("./store.mjs").SceneRecord} SceneRecord */
/** @typedef {import("./settings.mjs").FurtiveSettings} FurtiveSettings */

/** Events a user asks for: their explanation always goes to chat. */
const ACTIONS = new Set(["enterStealth", "stopHiding", "pointOut", "attack", "damageTaken", "gmOverride", "modifiersChanged", "sprint", "perceptionRolled"]);

let queue = /** @type {Promise<unknown>} */ (Promise.resolve());

/**
 * Runs tasks one after another, so two events never read the same state.
 * @template T
 * @param {() => Promise<T>} task
 * @returns {Promise<T>}
 */
export function enqueue(task) {
  const run = queue.then(task);
  queue = run.catch(() => {});
  return run;
}

/**
 * The engine's table settings from the module settings.
 * @param {FurtiveSettings} settings
 */
function engineSettings(settings) {
  return { showNumbersToPlayers: settings.showNumbers, allowZeroLengthMovement: settings.zeroLengthMovement, checkDie: 20 };
}

/**
 * A fresh state with every creature token of the scene. A token whose data
 * the engine refuses is left out and the GM is told why.
 * @param {Scene} scene
 * @param {FurtiveSettings} settings
 * @param {boolean} [quiet] no notification (a query, not a save)
 * @returns {EngineState}
 */
function freshState(scene, settings, quiet = false) {
  let state = engine.createState({ ruleset: settings.ruleset, settings: engineSettings(settings), creatures: [] });
  for (const token of scene.tokens.filter(isCreatureToken)) {
    try {
      state = engine.apply(state, { type: "upsertCreature", creature: creatureOf(token, settings) }).state;
    } catch (error) {
      if (!(error instanceof EngineRefusal)) throw error;
      if (!quiet) ui.notifications?.warn(t("FURTIVE.Notify.CreatureRefused", { name: token.name ?? "", reason: refusalText(error) }));
    }
  }
  return state;
}

/**
 * The scene's record, or a fresh one. A stored state of the other ruleset
 * is replaced (the GM changed the ruleset).
 * @param {Scene} scene
 * @param {FurtiveSettings} settings
 * @param {boolean} [quiet] no notification (a query, not a save)
 * @returns {SceneRecord}
 */
function currentRecord(scene, settings, quiet = false) {
  const stored = loadRecord(scene);
  if (stored && stored.state?.ruleset === settings.ruleset) {
    return { state: { ...stored.state, settings: engineSettings(settings) }, pending: [...stored.pending] };
  }
  return { state: freshState(scene, settings, quiet), pending: [], replaced: Boolean(stored) || hasForeignState(scene) };
}

/**
 * Takes every Furtive status off the scene's tokens (the state they
 * described is gone).
 * @param {Scene} scene
 */
async function clearStatuses(scene) {
  for (const token of scene.tokens) {
    for (const key of /** @type {("hidden" | "defenseless")[]} */ (["hidden", "defenseless"])) {
      if (token.hasStatusEffect?.(STATUS[key])) await setStatus(scene, token, key, false, null);
    }
  }
}

/**
 * Starts the scene over: a fresh state (the ruleset changed, or the GM asked),
 * an empty lookup, no Furtive status left on its tokens.
 * @param {Scene} scene
 */
export function resetScene(scene) {
  if (!isActiveGM()) return Promise.resolve();
  return enqueue(async () => {
    await engine.engineReady;
    const record = { state: freshState(scene, readSettings()), pending: [] };
    await commit(scene, record);
    await clearStatuses(scene);
  });
}

/**
 * The scene's state as the GM sees it (read-only copy), or null.
 * @param {Scene} scene
 * @returns {EngineState | null}
 */
export function stateOf(scene) {
  const record = loadRecord(scene);
  return record ? foundry.utils.deepClone(record.state) : null;
}

/**
 * The scene's state for a query: the stored one, or a fresh one (not saved).
 * @param {Scene} scene
 * @returns {EngineState}
 */
export function queryState(scene) {
  return currentRecord(scene, readSettings(), true).state;
}

/**
 * Applies one event (queued). Throws EngineRefusal when refused.
 * @param {Scene} scene
 * @param {EngineEvent} event
 * @param {{chat?: boolean}} [options] `chat: false` posts nothing
 * @returns {Promise<Outcome>}
 */
export function dispatch(scene, event, options = {}) {
  if (!isActiveGM()) return Promise.reject(new Error("furtive: only the active GM dispatches events"));
  return enqueue(() => process(scene, event, options));
}

/**
 * Applies one event now (inside the queue).
 * @param {Scene} scene
 * @param {EngineEvent} event
 * @param {{chat?: boolean}} options
 * @returns {Promise<Outcome>}
 */
async function process(scene, event, options) {
  await engine.engineReady;
  const settings = readSettings();
  let record = currentRecord(scene, settings);
  let outcome;
  try {
    outcome = engine.apply(record.state, event);
  } catch (error) {
    // A state stored by another engine version cannot be read: start over once.
    if (!(error instanceof EngineRefusal) || error.code !== "unsupported_version") throw error;
    ui.notifications?.warn(t("FURTIVE.Notify.StateReset"));
    record = { state: freshState(scene, settings), pending: [], replaced: true };
    outcome = engine.apply(record.state, event);
  }
  record.state = outcome.state;
  await commit(scene, record);
  if (record.replaced) await clearStatuses(scene);
  await applyStatuses(scene, outcome);
  const important = ACTIONS.has(event.type) || outcome.changes.length > 0 || outcome.requests.length > 0;
  if (options.chat !== false && important && outcome.log.length) {
    const name = scene.tokens.get(event.hider ?? event.attacker ?? event.token ?? event.target ?? event.combatant ?? "")?.name ?? "";
    // B1: the public lines go to the users who may see every token the event names.
    const ids = [event.hider, event.attacker, event.token, event.target, event.combatant, event.observer, ...(Array.isArray(event.allies) ? event.allies : [])];
    const audience = audienceOf(ids.filter(Boolean).map((id) => scene.tokens.get(String(id))));
    await postLog(outcome.log, { titleKey: `FURTIVE.Chat.Event.${event.type}`, titleData: { name }, audience });
  }
  await announceDefenseless(scene, outcome);
  await answerRequests(scene, record, outcome, settings);
  return outcome;
}

/**
 * Saves the state and publishes the lookup, in one scene update.
 * @param {Scene} scene
 * @param {SceneRecord} record
 */
async function commit(scene, record) {
  const hiders = Object.entries(record.state.hiders)
    .filter(([, h]) => h.phase === "hiding")
    .map(([id]) => id);
  // One entry per known observer (an empty list: perceives every hider), so an
  // observer without an entry is one the engine does not know (B1, fail closed).
  const hiddenFrom = /** @type {Record<string, string[]>} */ ({});
  const published = engine.hiddenFrom(record.state);
  for (const id of Object.keys(record.state.creatures)) hiddenFrom[id] = published[id] ?? [];
  await saveRecord(scene, record, hiddenFrom, hiders);
}

/**
 * Toggles `furtive.hidden` / `furtive.defenseless` as the engine's status changes say.
 * @param {Scene} scene
 * @param {Outcome} outcome
 */
async function applyStatuses(scene, outcome) {
  for (const change of outcome.changes) {
    if (change.kind !== "status" || !change.token || !change.status) continue;
    const token = scene.tokens.get(change.token);
    // Never throws: the state is already saved (statuses.mjs).
    if (token) await setStatus(scene, token, change.status, Boolean(change.active), outcome.state);
  }
}

/**
 * P6: a GM card for each target that became defenseless, naming the blocked
 * defenses and every creature the engine says may not defend it.
 * @param {Scene} scene
 * @param {Outcome} outcome
 */
async function announceDefenseless(scene, outcome) {
  for (const change of outcome.changes) {
    if (change.kind !== "status" || change.status !== "defenseless" || !change.active || !change.token) continue;
    const attackerId = change.expires?.turnEndOf;
    const target = scene.tokens.get(change.token);
    if (!target || !attackerId) continue;
    const state = outcome.state;
    const self = engine.canDefend(state, { defender: change.token, target: change.token, attacker: attackerId });
    const blocked = [];
    for (const id of Object.keys(state.creatures)) {
      if (id === change.token || id === attackerId) continue;
      const decision = engine.canDefend(state, { defender: id, target: change.token, attacker: attackerId });
      if (!decision.allowed) blocked.push({ name: state.creatures[id].name ?? id, decision });
    }
    await postDefenselessCard({ target, attacker: scene.tokens.get(attackerId) ?? null, self, blocked });
  }
}

/**
 * Answers the engine's requests: Perception checks are rolled (GM-only
 * Foundry rolls) when automatic checks are on, else the GM gets a card to
 * roll them; new stealth rolls (P4) wait for the GM's button, since in combat
 * they are made on the hider's turn.
 * @param {Scene} scene
 * @param {SceneRecord} record
 * @param {Outcome} outcome
 * @param {FurtiveSettings} settings
 */
async function answerRequests(scene, record, outcome, settings) {
  for (const request of outcome.requests) {
    const hider = scene.tokens.get(request.hider);
    if (!hider) continue;
    if (request.kind === "perceptionCheck" && request.observer) {
      const observer = scene.tokens.get(request.observer);
      if (!observer) continue;
      if (!settings.autoPerception) {
        await postPerceptionRequest({ sceneId: /** @type {string} */ (scene.id), hider, observer, clause: request.clause });
        continue;
      }
      const total = await rollPerception(observer, hider, settings);
      try {
        await process(scene, { type: "perceptionRolled", hider: request.hider, observer: request.observer, total }, {});
      } catch (error) {
        if (!(error instanceof EngineRefusal)) throw error;
        await postLine(refusalText(error), { whisperGM: true });
      }
    } else if (request.kind === "stealthRoll") {
      const latest = loadRecord(scene) ?? record;
      latest.pending = [...latest.pending.filter((r) => !(r.kind === "stealthRoll" && r.hider === request.hider)), request];
      await commit(scene, latest);
      await ChatMessage.create({
        speaker: { alias: t("FURTIVE.Title") },
        whisper: game.users.filter((u) => u.isGM).map((u) => /** @type {string} */ (u.id)),
        content: `<div class="furtive-card furtive-gm"><p>${t("FURTIVE.Chat.RerollNeeded", { name: hider.name ?? "" })} (${request.clause})</p><div class="furtive-buttons"><button type="button" data-furtive-action="reroll">${t("FURTIVE.Chat.Reroll")}</button></div></div>`,
        flags: { [MODULE_ID]: { kind: "reroll", sceneId: scene.id, hider: request.hider } },
      });
    }
  }
}

/**
 * A Perception check as a GM-only Foundry roll: the Perception formula
 * (opposed) for the observer's actor.
 * @param {TokenDocument} observer
 * @param {TokenDocument} hider
 * @param {FurtiveSettings} settings
 */
export function rollPerception(observer, hider, settings) {
  return rollFormula(settings.perceptionFormula, observer, { flavor: t("FURTIVE.Roll.Perception", { observer: observer.name ?? "", hider: hider.name ?? "" }), secret: true });
}

/**
 * Answers a pending Perception check (the GM's card button).
 * @param {Scene} scene
 * @param {string} hiderId
 * @param {string} observerId
 */
export async function answerPerception(scene, hiderId, observerId) {
  const hider = scene.tokens.get(hiderId);
  const observer = scene.tokens.get(observerId);
  if (!hider || !observer) return null;
  const total = await rollPerception(observer, hider, readSettings());
  return dispatch(scene, { type: "perceptionRolled", hider: hiderId, observer: observerId, total });
}

/**
 * Pending new stealth roll of a hider (P4), if any.
 * @param {Scene} scene
 * @param {string} hiderId
 */
export function pendingStealthRoll(scene, hiderId) {
  return loadRecord(scene)?.pending.find((r) => r.kind === "stealthRoll" && r.hider === hiderId) ?? null;
}

/**
 * Forgets a pending request once answered.
 * @param {Scene} scene
 * @param {string} hiderId
 */
export async function clearPending(scene, hiderId) {
  const record = loadRecord(scene);
  if (!record || !record.pending.some((r) => r.hider === hiderId)) return;
  record.pending = record.pending.filter((r) => r.hider !== hiderId);
  await commit(scene, record);
}

/**
 * Brings the stored state in line with the scene's tokens: removed tokens
 * leave (tokenRemoved), new or changed ones are upserted. Does nothing for a
 * scene without a stored state.
 * @param {Scene} scene
 */
export async function syncScene(scene) {
  if (!isActiveGM()) return;
  const record = loadRecord(scene);
  if (!record) return;
  for (const id of Object.keys(record.state.creatures)) {
    if (!scene.tokens.get(id)) await dispatch(scene, { type: "tokenRemoved", token: id }, { chat: false }).catch(reportRefusal);
  }
  for (const token of scene.tokens.filter(isCreatureToken)) await upsertToken(scene, token);
}

/**
 * Upserts a token's creature when its data changed (token created,
 * duplicated, its actor changed). Nothing for a scene without state.
 * @param {Scene} scene
 * @param {TokenDocument} token
 */
export async function upsertToken(scene, token) {
  if (!isActiveGM() || !isCreatureToken(token)) return;
  const record = loadRecord(scene);
  if (!record) return;
  const creature = creatureOf(token, readSettings());
  const known = record.state.creatures[/** @type {string} */ (token.id)];
  if (known && sameCreature(/** @type {any} */ (known), /** @type {any} */ (creature))) return;
  try {
    await dispatch(scene, { type: "upsertCreature", creature }, { chat: false });
  } catch (error) {
    if (!(error instanceof EngineRefusal)) return reportRefusal(error);
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

/**
 * Tells the GM about a refusal from automation (nobody else asked).
 * @param {unknown} error
 */
export function reportRefusal(error) {
  if (error instanceof EngineRefusal) {
    ui.notifications?.warn(refusalText(error));
    return;
  }
  console.error("furtive |", error);
}
