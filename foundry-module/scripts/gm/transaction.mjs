/**
 * One action as one transaction, on the active GM, one at a time (queue.mjs).
 *
 * `transact(scene, events)` takes the scene's live state (scene-state.mjs),
 * applies every event in the engine at once, answers the engine's requests
 * (checks.mjs), and applies the outcome: saves the record (GM-only,
 * storage/store.mjs), publishes the number-free lookup on the Scene in one
 * update (every client's canvas reads it, canvas/visibility.mjs), toggles
 * the status effects and posts the action's cards (ui/chat.mjs). A refused
 * action (FurtiveError) changes nothing and is thrown to the caller.
 *
 * Only the active GM calls this (`isActiveGM()`); players ask the active GM (a query, net/socket.mjs).
 */

import { MODULE_ID, SCENE_FLAGS, STATUS } from "../constants.mjs";
import * as engine from "../engine.mjs";
import { FurtiveError } from "../errors.mjs";
import { refusalText } from "../i18n.mjs";
import { readSettings } from "../settings.mjs";
import { deletionOf, isActiveGM, needsCompaction, recordRevision } from "../storage/store.mjs";
import { setStatus } from "../canvas/statuses.mjs";
import { postActionCard } from "../ui/chat.mjs";
import { audienceOf } from "../ui/secrecy.mjs";
import { answerRequests } from "./checks.mjs";
import { enqueue } from "./queue.mjs";
import { engineSettings } from "./replay.mjs";
import { dropLiveScene, liveScene, liveSceneOf, snapshotOf, writeBase, writeDelta } from "./scene-state.mjs";
import { guardLost } from "./state-lost.mjs";

/** @typedef {import("../types.mjs").EngineEvent} EngineEvent */
/** @typedef {import("../types.mjs").Outcome} Outcome */
/** @typedef {import("../types.mjs").AttemptChange} AttemptChange */
/** @typedef {import("../types.mjs").ViewChanges} ViewChanges */
/** @typedef {import("./scene-state.mjs").LiveScene} LiveScene */

/** Events a user asks for: their explanation always goes to chat. */
const ACTIONS = new Set(["enterStealth", "stopHiding", "pointOut", "attack", "damageTaken", "gmOverride", "modifiersChanged", "sprint", "perceptionRolled"]);

/**
 * Applies one event (queued) as its own transaction. Throws FurtiveError when refused.
 * @param {Scene} scene
 * @param {EngineEvent} event
 * @param {TransactionOptions} [options]
 * @returns {Promise<Outcome>}
 */
export function dispatch(scene, event, options = {}) {
  return transact(scene, [event], options);
}

/**
 * @typedef {object} TransactionOptions
 * @property {boolean} [chat] false: post no card or line (bookkeeping)
 * @property {boolean} [quiet] post the card only when it has something to say (a change, a log line, a check to roll, a new stealth roll to offer): the combat tracker's turn changes, saved without a card when they change nothing anyone sees
 * @property {boolean} [lenient] leave refused events out instead of refusing the whole action (automation)
 * @property {string} [titleKey] the card's title (default: from the first event's type)
 * @property {Record<string, string>} [titleData]
 * @property {import("../types.mjs").LogEntry[]} [notes] GM lines the caller adds to the action's card (systems/attacks.mjs: O10)
 * @property {string} [answers] the hider whose pending new stealth roll (P4) this action makes: it leaves the pending list in the same save
 * @property {Record<string, unknown>} [cardFlags] more `flags.furtive` of the action's GM card (systems/attacks.mjs: the attack, read back by a later active GM)
 */

/**
 * Applies one user action: every event as ONE engine transaction, the
 * Perception checks it requests rolled together and applied in one more
 * `applyAll`, then one save (one record message, at most one Scene update),
 * one GM card with every comparison, at most one public line. Queued, so two
 * actions never read the same state. A refused action (FurtiveError)
 * changes nothing and is thrown to the caller.
 * @param {Scene} scene
 * @param {EngineEvent[]} events
 * @param {TransactionOptions} [options]
 * @returns {Promise<Outcome>}
 */
export function transact(scene, events, options = {}) {
  if (!isActiveGM()) return Promise.reject(FurtiveError.of("not_active_gm", "only the active GM dispatches events"));
  return enqueue(() => process(scene, events, options));
}

/**
 * Everything one action did, gathered over its engine calls.
 * @typedef {object} ActionEffects
 * @property {Outcome["changes"]} changes
 * @property {Outcome["requests"]} requests
 * @property {Outcome["log"]} log
 * @property {{observer: string, hider: string, hidden: boolean}[]} hiddenFrom
 * @property {AttemptChange[]} attempts the hiders that began or ended a stealth attempt, in order (the engine's)
 * @property {ViewChanges[]} views per hider, the pairs whose stored clear view or distance changed or that went away, in order (the engine's)
 * @property {EngineEvent[][]} applied
 * @property {{hider: string, observer: string, clause: string}[]} checksToRoll Perception checks for the GM to roll (automatic checks off)
 * @property {string[]} rerolls hiders waiting for a new stealth roll (P4)
 */

/**
 * Applies one action now (inside the queue).
 * @param {Scene} scene
 * @param {EngineEvent[]} events
 * @param {TransactionOptions} options
 * @returns {Promise<Outcome>}
 */
async function process(scene, events, options) {
  await engine.engineReady;
  await guardLost(scene);
  const settings = readSettings();
  const sceneId = /** @type {string} */ (scene.id);
  let entry = liveScene(scene, settings);
  // A new base holds the state BEFORE the action (its first delta is the
  // action), so the action can still be undone; taken only when writing one.
  const compact = entry.revision === null || entry.replaced || needsCompaction({ baseBytes: entry.baseBytes, deltaBytes: entry.deltaBytes, deltas: entry.deltas.length });
  let before = compact ? { state: snapshotOf(entry), pending: [...entry.pending] } : null;
  let effects;
  try {
    effects = entry.session.applyAll(events, { skipRefused: Boolean(options.lenient) });
  } catch (error) {
    // After an engine panic the session is gone: load it again from the record, once.
    if (!(error instanceof FurtiveError) || error.code !== "session_lost") throw error;
    dropLiveScene(sceneId);
    entry = liveScene(scene, settings);
    if (before) before = { state: snapshotOf(entry), pending: [...entry.pending] };
    effects = entry.session.applyAll(events, { skipRefused: Boolean(options.lenient) });
  }
  try {
    for (const { error } of effects.refused) reportRefusal(error);
    /** @type {ActionEffects} */
    const total = { changes: [...effects.changes], requests: [], log: [...(options.notes ?? []), ...effects.log], hiddenFrom: [...effects.hiddenFrom], attempts: [...effects.attempts], views: [...effects.views], applied: [...effects.applied], checksToRoll: [], rerolls: [] };
    const pendingBefore = JSON.stringify(entry.pending);
    if (options.answers) entry.pending = entry.pending.filter((r) => r.hider !== options.answers);
    await answerRequests(scene, entry, entry.session, effects.requests, total, settings);
    if (total.applied.length) entry.snapshot = null;
    const actionId = foundry.utils.randomID();
    const statuses = total.changes.flatMap((c) => (c.kind === "status" && c.token && c.status ? [{ token: c.token, status: c.status, active: Boolean(c.active) }] : []));
    const saved = total.applied.length > 0 || JSON.stringify(entry.pending) !== pendingBefore;
    const important = events.some((e) => ACTIONS.has(e.type)) || total.changes.length > 0;
    // Every saved action leaves its GM card (its comparisons and its Undo button), even when it
    // changed nobody's perception (a door whose O4 checks all fail): else the last action has no card to undo it from.
    // A quiet action (a combat turn change) that says nothing has no card: a fight would otherwise post one per turn.
    const silent = Boolean(options.quiet) && !total.changes.length && !total.log.length && !total.checksToRoll.length && !total.rerolls.length;
    const card = options.chat !== false && !silent && (important || saved || total.checksToRoll.length > 0 || total.rerolls.length > 0);
    if (saved) {
      /** @type {import("../storage/store.mjs").Delta} */
      const delta = { id: actionId, batches: total.applied, settings: engineSettings(settings), pending: [...entry.pending], statuses };
      // A save with no card (bookkeeping, a quiet turn change) does not stop the Undo of the action before it (undoAction).
      if (!card) delta.cardless = true;
      if (before) await writeBase(scene, entry, entry.generation + 1, { ...before, delta });
      else await writeDelta(scene, entry, delta);
    }
    const lookupChanges = followEffects(entry, total);
    await publishChanges(scene, entry, lookupChanges);
    if (entry.replaced) {
      entry.replaced = false;
      await clearStatuses(scene);
    }
    const outcome = {
      changes: total.changes,
      requests: total.requests,
      log: total.log,
      get state() {
        return snapshotOf(entry);
      },
    };
    await applyStatuses(scene, outcome, entry);
    if (card) {
      const first = events[0] ?? /** @type {any} */ ({});
      const name = scene.tokens.get(first.hider ?? first.attacker ?? first.token ?? first.target ?? first.combatant ?? "")?.name ?? "";
      // B1: the public line goes to the users who may see every token the action names.
      // The tokens the public entries name count too (`LogEntry.hider`, `.observer`): an event may change
      // pairs it does not name (a creature upserted with a new sense, O13; an attack's `targets`).
      const ids = [
        ...events.flatMap((e) => [e.hider, e.attacker, e.token, e.target, e.combatant, e.observer, ...(Array.isArray(e.allies) ? e.allies : []), ...(Array.isArray(e.targets) ? e.targets : [])]),
        ...total.log.filter((e) => e.audience === "public").flatMap((e) => [e.hider, e.observer]),
      ];
      const audience = audienceOf([...new Set(ids.filter(Boolean).map(String))].map((id) => scene.tokens.get(id)));
      await postActionCard({
        sceneId,
        actionId: saved ? actionId : null,
        cardFlags: options.cardFlags,
        log: important ? total.log : total.log.filter((e) => e.audience === "gm"),
        titleKey: options.titleKey ?? `FURTIVE.Chat.Event.${first.type}`,
        titleData: options.titleData ?? { name },
        audience,
        defenseless: defenselessOf(scene, total.changes, entry),
        checks: total.checksToRoll.map((c) => ({ ...c, hiderName: scene.tokens.get(c.hider)?.name ?? "", observerName: scene.tokens.get(c.observer)?.name ?? "" })),
        rerolls: total.rerolls.map((hider) => ({ hider, name: scene.tokens.get(hider)?.name ?? "" })),
      });
    }
    return outcome;
  } catch (error) {
    // The session may be ahead of the record now: the next action loads the record again.
    if (liveSceneOf(sceneId) === entry && entry.revision !== recordRevision(scene)) dropLiveScene(sceneId);
    throw error;
  }
}

/**
 * Follows one action's effects in the live scene's lookup, hiders,
 * creatures and views, and returns what to publish: the observers whose
 * list changed (null: removed) and the hiders list when it changed. Costs
 * what the action changed (the engine's `hiddenFrom`, `attempts` and
 * `views` changes, npm `Effects`), never the table; which events change
 * what is the engine's knowledge, not the module's.
 * @param {LiveScene} entry
 * @param {ActionEffects} total
 * @returns {{observers: Map<string, string[] | null>, hiders: string[] | null}}
 */
function followEffects(entry, total) {
  const touched = new Set();
  for (const batch of total.applied) {
    for (const event of batch) {
      const any = /** @type {any} */ (event);
      if (any.type === "upsertCreature" && any.creature?.id) entry.creatureData.set(String(any.creature.id), any.creature);
      else if (any.type === "tokenRemoved") entry.creatureData.delete(String(any.token));
      if (any.type === "upsertCreature" && any.creature?.id && !entry.creatures.has(String(any.creature.id))) {
        entry.creatures.add(String(any.creature.id));
        touched.add(String(any.creature.id));
      } else if (any.type === "tokenRemoved" && entry.creatures.delete(String(any.token))) {
        touched.add(String(any.token));
      }
    }
  }
  if (entry.views) {
    for (const { hider, view, removed } of total.views) {
      let pairs = entry.views.get(hider);
      for (const observer of removed) pairs?.delete(observer);
      if (view.length && !pairs) entry.views.set(hider, (pairs = new Map()));
      for (const { observer, clearView, distance } of view) pairs?.set(observer, { clearView, distance: distance ?? undefined });
    }
  }
  for (const { observer, hider, hidden } of total.hiddenFrom) {
    let list = entry.published.get(observer);
    if (!list) entry.published.set(observer, (list = new Set()));
    if (hidden) list.add(hider);
    else list.delete(hider);
    touched.add(observer);
  }
  const observers = /** @type {Map<string, string[] | null>} */ (new Map());
  for (const observer of touched) {
    if (!entry.creatures.has(observer)) {
      entry.published.delete(observer);
      observers.set(observer, null);
    } else {
      if (!entry.published.has(observer)) entry.published.set(observer, new Set());
      observers.set(observer, [.../** @type {Set<string>} */ (entry.published.get(observer))].sort());
    }
  }
  const hidersBefore = [...entry.hiders].sort();
  for (const { hider, hiding } of total.attempts) {
    if (hiding) entry.hiders.add(hider);
    else entry.hiders.delete(hider);
  }
  const hiders = [...entry.hiders].sort();
  const hidersChanged = !sameList(hidersBefore, hiders);
  return { observers, hiders: hidersChanged ? hiders : null };
}

/**
 * Publishes one action's lookup changes (at most one Scene update). After a
 * load, the first one compares the whole lookup with the Scene (another GM
 * or an older module may have published something else).
 * @param {Scene} scene
 * @param {LiveScene} entry
 * @param {{observers: Map<string, string[] | null>, hiders: string[] | null}} changes
 */
async function publishChanges(scene, entry, changes) {
  if (entry.reconcile) return publishAll(scene, entry);
  // Only what differs from the Scene: an observer whose list went and came back is not sent.
  const published = /** @type {Record<string, string[]>} */ (scene.getFlag(MODULE_ID, SCENE_FLAGS.hiddenFrom) ?? {});
  for (const [observer, list] of changes.observers) {
    if (list ? sameList(published[observer], list) : !(observer in published)) changes.observers.delete(observer);
  }
  await publishLookup(scene, changes.observers, changes.hiders);
}

/**
 * Publishes the whole lookup where it differs from the Scene (after a load,
 * a reset, an undo): O(table), once.
 * @param {Scene} scene
 * @param {LiveScene} entry
 */
export async function publishAll(scene, entry) {
  const published = /** @type {Record<string, string[]>} */ (scene.getFlag(MODULE_ID, SCENE_FLAGS.hiddenFrom) ?? {});
  const observers = /** @type {Map<string, string[] | null>} */ (new Map());
  for (const [observer, set] of entry.published) {
    const list = [...set].sort();
    if (!sameList(published[observer], list)) observers.set(observer, list);
  }
  for (const observer of Object.keys(published)) if (!entry.published.has(observer)) observers.set(observer, null);
  const hiders = [...entry.hiders].sort();
  const stored = scene.getFlag(MODULE_ID, SCENE_FLAGS.hiders);
  await publishLookup(scene, observers, sameList(Array.isArray(stored) ? stored : [], hiders) ? null : hiders);
  entry.reconcile = false;
}

/**
 * Publishes lookup changes on the Scene in ONE update (every client receives
 * it): `hiddenFrom` entries by observer (a list, or null to remove the
 * observer: a deletion, {@link deletionOf}) and the hiders list when given.
 * Nothing is sent for an empty change.
 * @param {Scene} scene
 * @param {Map<string, string[] | null>} observers observer id -> its new list, or null (removed)
 * @param {string[] | null} hiders ids of tokens in a stealth attempt, or null (unchanged)
 * @returns {Promise<boolean>} whether the Scene was updated
 */
async function publishLookup(scene, observers, hiders) {
  const key = `flags.${MODULE_ID}.${SCENE_FLAGS.hiddenFrom}`;
  /** @type {Record<string, unknown>} */
  const update = {};
  for (const [observer, list] of observers) {
    if (list) update[`${key}.${observer}`] = list;
    else Object.assign(update, deletionOf(key, observer));
  }
  if (hiders) update[`flags.${MODULE_ID}.${SCENE_FLAGS.hiders}`] = hiders;
  if (!Object.keys(update).length) return false;
  await scene.update(update);
  return true;
}

/**
 * Whether a published list holds the same ids as `list` (sorted).
 * @param {unknown} published
 * @param {string[]} list
 */
function sameList(published, list) {
  return Array.isArray(published) && published.length === list.length && [...published].map(String).sort().every((id, index) => id === list[index]);
}

/**
 * Toggles `furtive.hidden` / `furtive.defenseless` as the engine's status changes say.
 * @param {Scene} scene
 * @param {{changes: Outcome["changes"]}} outcome
 * @param {LiveScene} entry
 */
async function applyStatuses(scene, outcome, entry) {
  for (const change of outcome.changes) {
    if (change.kind !== "status" || !change.token || !change.status) continue;
    const token = scene.tokens.get(change.token);
    if (!token) continue;
    // Never throws: the state is already saved (canvas/statuses.mjs). The state is
    // read only when a linked actor with another token here loses the status.
    const shared = !change.active && token.actorLink && scene.tokens.some((other) => other.id !== token.id && other.actorLink && other.actorId === token.actorId);
    await setStatus(scene, token, change.status, Boolean(change.active), shared ? snapshotOf(entry) : null);
  }
}

/**
 * Takes every Furtive status off the scene's tokens (the state they
 * described is gone).
 * @param {Scene} scene
 */
export async function clearStatuses(scene) {
  for (const token of scene.tokens) {
    for (const key of /** @type {("hidden" | "defenseless")[]} */ (["hidden", "defenseless"])) {
      if (token.hasStatusEffect?.(STATUS[key])) await setStatus(scene, token, key, false, null);
    }
  }
}

/**
 * P6: for each target that became defenseless in the action, the blocked
 * defenses and every creature the engine says may not defend it (shown on
 * the action's GM card).
 * @param {Scene} scene
 * @param {Outcome["changes"]} changes
 * @param {LiveScene} entry
 * @returns {{targetId: string, target: string, attacker: string, self: {clause: string, en: string, fr: string}, blocked: {name: string, decision: {clause: string, en: string, fr: string}}[]}[]}
 */
function defenselessOf(scene, changes, entry) {
  const out = [];
  for (const change of changes) {
    if (change.kind !== "status" || change.status !== "defenseless" || !change.active || !change.token) continue;
    const attackerId = change.expires?.turnEndOf;
    const target = scene.tokens.get(change.token);
    if (!target || !attackerId) continue;
    const session = entry.session;
    const self = session.canDefend({ defender: change.token, target: change.token, attacker: attackerId });
    const blocked = [];
    const state = snapshotOf(entry);
    for (const id of entry.creatures) {
      if (id === change.token || id === attackerId) continue;
      const decision = session.canDefend({ defender: id, target: change.token, attacker: attackerId });
      if (!decision.allowed) blocked.push({ name: state.creatures[id]?.name ?? id, decision });
    }
    out.push({ targetId: change.token, target: target.name ?? "", attacker: scene.tokens.get(attackerId)?.name ?? "?", self, blocked });
  }
  return out;
}

/**
 * Tells the GM about a refusal from automation (nobody else asked).
 * @param {unknown} error
 */
export function reportRefusal(error) {
  if (error instanceof FurtiveError) {
    // Once: an engine panic was told as it happened (engine.mjs, `shown`).
    if (!error.shown) ui.notifications?.warn(refusalText(error));
    error.shown = true;
    return;
  }
  console.error("furtive |", error);
}
