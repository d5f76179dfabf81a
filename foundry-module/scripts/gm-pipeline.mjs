/**
 * The active GM's side: every engine event goes through here, one at a time.
 *
 * `dispatch(scene, event)` loads the scene's state (or builds it from the
 * scene's tokens), asks the engine, and applies the outcome: saves the state
 * (GM-only store), publishes the number-free lookup on the Scene in one
 * update, toggles status effects, posts the explanations, and answers the
 * engine's requests with Foundry rolls. A refused event (FurtiveError)
 * changes nothing and is thrown to the caller.
 *
 * Only the active GM calls this (`isActiveGM()`); players go through the socket.
 */

import { MODULE_ID, STATUS } from "./constants.mjs";
import * as engine from "./engine.mjs";
import { SceneSession } from "./engine.mjs";
import { FurtiveError } from "./errors.mjs";
import { gmUserIds, postDefenselessCard, postLog, postPerceptionRequest } from "./chat.mjs";
import { escapeHtml, refusalText, t } from "./i18n.mjs";
import { creatureOf, isCreatureToken } from "./actor-data.mjs";
import { rollFormula } from "./rolls.mjs";
import { readSettings } from "./settings.mjs";
import { isActiveGM, isStateLost, loadRecord, recordRevision, saveRecord } from "./store.mjs";
import { setStatus } from "./statuses.mjs";
import { audienceOf } from "./secrecy.mjs";
import { offerLogEntry, offerPerceptionCheck, playerOwners } from "./perception-offers.mjs";
import { readSystemSettings } from "./system-settings.mjs";

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
 * The active GM's scene in memory: the engine session, its last snapshot
 * (the state the module reads: format version 2), the pending requests and
 * the revision of the record it was loaded from or last saved as.
 * @typedef {object} LiveScene
 * @property {SceneSession} session
 * @property {EngineState} state     the last snapshot (read-only)
 * @property {SceneRecord["pending"]} pending
 * @property {string | null} revision the record's revision (null: never saved)
 * @property {boolean} [replaced]    a stored state of another ruleset or version was replaced
 * @property {{name: string, reason: string}[]} [unreported] tokens a fresh session left out, not yet told to the GM
 */

/** sceneId -> the live scene (active GM). */
const live = /** @type {Map<string, LiveScene>} */ (new Map());

/**
 * A fresh session with every creature token of the scene. A token whose data
 * the engine refuses is left out; the GM is told why at the first action
 * (not for a query), see reportLeftOut.
 * @param {Scene} scene
 * @param {FurtiveSettings} settings
 * @returns {{session: SceneSession, unreported: {name: string, reason: string}[]}}
 */
function freshSession(scene, settings) {
  const session = SceneSession.create({ ruleset: settings.ruleset, settings: engineSettings(settings), creatures: [] });
  const upserts = scene.tokens.filter(isCreatureToken).map((token) => /** @type {EngineEvent} */ ({ type: "upsertCreature", creature: creatureOf(token, settings) }));
  const { refused } = session.applyAll(upserts, { skipRefused: true });
  const unreported = refused.map(({ event, error }) => ({ name: scene.tokens.get(String(event.creature?.id ?? ""))?.name ?? "", reason: refusalText(error) }));
  return { session, unreported };
}

/**
 * Tells the GM which tokens a fresh session left out, and why (once).
 * @param {LiveScene} entry
 */
function reportLeftOut(entry) {
  for (const refusal of entry.unreported ?? []) ui.notifications?.warn(t("FURTIVE.Notify.CreatureRefused", refusal));
  entry.unreported = [];
}

/**
 * The scene in memory, loaded from its record when this GM has none or the
 * record changed since (another GM saved), or fresh. A stored state of the
 * other ruleset, or one the engine cannot read, is replaced.
 * @param {Scene} scene
 * @param {FurtiveSettings} settings
 * @param {boolean} [quiet] no notification (a query, not a save)
 * @returns {LiveScene}
 */
function liveScene(scene, settings, quiet = false) {
  const sceneId = /** @type {string} */ (scene.id);
  const revision = recordRevision(scene);
  const cached = live.get(sceneId);
  if (cached && cached.revision === revision && cached.state.ruleset === settings.ruleset) {
    if (!quiet) reportLeftOut(cached);
    return cached;
  }
  cached?.session.free();
  live.delete(sceneId);
  const stored = loadRecord(scene);
  /** @type {SceneSession | null} */
  let session = null;
  let replaced = Boolean(stored);
  if (stored && stored.state?.ruleset === settings.ruleset) {
    try {
      session = SceneSession.load({ ...stored.state, settings: engineSettings(settings) });
      replaced = false;
    } catch (error) {
      // A state stored by another engine version cannot be read: start over once.
      if (!(error instanceof FurtiveError)) throw error;
      if (!quiet) ui.notifications?.warn(t("FURTIVE.Notify.StateReset"));
    }
  }
  let unreported = /** @type {{name: string, reason: string}[]} */ ([]);
  if (!session) ({ session, unreported } = freshSession(scene, settings));
  /** @type {LiveScene} */
  const entry = { session, state: session.snapshot(), pending: stored && !replaced ? [...stored.pending] : [], revision, replaced, unreported };
  live.set(sceneId, entry);
  if (!quiet) reportLeftOut(entry);
  return entry;
}

/**
 * Forgets the scenes in memory (the rule settings changed: the next action
 * loads each from its record with the new settings).
 */
export function dropLiveScenes() {
  for (const entry of live.values()) entry.session.free();
  live.clear();
}

/**
 * Forgets one scene in memory (deleted, or started over).
 * @param {string} sceneId
 */
export function dropLiveScene(sceneId) {
  live.get(sceneId)?.session.free();
  live.delete(sceneId);
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
    dropLiveScene(/** @type {string} */ (scene.id));
    const { session, unreported } = freshSession(scene, readSettings());
    /** @type {LiveScene} */
    const entry = { session, state: session.snapshot(), pending: [], revision: null, unreported };
    live.set(/** @type {string} */ (scene.id), entry);
    reportLeftOut(entry);
    toldLost.delete(scene.id);
    await commit(scene, entry);
    await clearStatuses(scene);
  });
}

/**
 * The scene's state as this GM sees it (read-only: do not change it), or
 * null: the active GM's live snapshot, else the stored record.
 * @param {Scene} scene
 * @returns {EngineState | null}
 */
export function viewState(scene) {
  const cached = live.get(/** @type {string} */ (scene.id));
  if (cached && isActiveGM() && cached.revision !== null && cached.revision === recordRevision(scene)) return cached.state;
  return loadRecord(scene)?.state ?? null;
}

/**
 * A copy of the scene's state as the GM sees it, or null (the API's getState).
 * @param {Scene} scene
 * @returns {EngineState | null}
 */
export function stateOf(scene) {
  const state = viewState(scene);
  return state ? foundry.utils.deepClone(state) : null;
}

/**
 * The scene for a query on the active GM: its live session and snapshot
 * (loaded, or fresh and not saved).
 * @param {Scene} scene
 * @returns {LiveScene}
 */
export function sceneQuery(scene) {
  return liveScene(scene, readSettings(), true);
}

/**
 * The scene's state for a query: the live snapshot (read-only).
 * @param {Scene} scene
 * @returns {EngineState}
 */
export function queryState(scene) {
  return sceneQuery(scene).state;
}

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
 * @property {boolean} [lenient] leave refused events out instead of refusing the whole action (automation)
 * @property {string} [titleKey] the card's title (default: from the first event's type)
 * @property {Record<string, string>} [titleData]
 * @property {import("./types.mjs").LogEntry[]} [notes] GM lines the caller adds to the action's card (system-attacks.mjs: O10)
 */

/**
 * Applies one user action: every event as ONE engine transaction, the
 * Perception checks it requests rolled together and applied in one more
 * `applyAll`, then one save (one record write, at most one Scene update),
 * one GM card with every comparison, at most one public line. Queued, so two
 * actions never read the same state. A refused action (FurtiveError)
 * changes nothing and is thrown to the caller.
 * @param {Scene} scene
 * @param {EngineEvent[]} events
 * @param {TransactionOptions} [options]
 * @returns {Promise<Outcome>}
 */
export function transact(scene, events, options = {}) {
  if (!isActiveGM()) return Promise.reject(new Error("furtive: only the active GM dispatches events"));
  return enqueue(() => process(scene, events, options));
}

/** Scenes whose lost state the GM was already told about (once per scene). */
const toldLost = new Set();

/**
 * The scene's state cannot be found: tell the GM once, with the choice to
 * start the scene over (a GM-only card with a button). Nothing is wiped.
 * @param {Scene} scene
 */
async function tellStateLost(scene) {
  if (toldLost.has(scene.id)) return;
  toldLost.add(scene.id);
  ui.notifications?.warn(t("FURTIVE.Notify.StateLost", { scene: scene.name ?? "" }), { permanent: true });
  await ChatMessage.create({
    speaker: { alias: t("FURTIVE.Title") },
    whisper: gmUserIds(),
    content: `<div class="furtive-card furtive-gm"><p>${escapeHtml(t("FURTIVE.Notify.StateLost", { scene: scene.name ?? "" }))}</p><div class="furtive-buttons"><button type="button" data-furtive-action="reset">${escapeHtml(t("FURTIVE.Control.Reset"))}</button></div></div>`,
    flags: { [MODULE_ID]: { kind: "stateLost", sceneId: scene.id } },
  });
}

/**
 * Refuses to act on a scene whose state is lost (fail closed, B1), after
 * telling the GM once.
 * @param {Scene} scene
 */
async function guardLost(scene) {
  if (!isStateLost(scene)) return;
  await tellStateLost(scene);
  throw FurtiveError.of("state_lost", t("FURTIVE.Notify.StateLost", { scene: scene.name ?? "" }));
}

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
  let effects;
  try {
    effects = entry.session.applyAll(events, { skipRefused: Boolean(options.lenient) });
  } catch (error) {
    // After an engine panic the session is gone: load it again from the record, once.
    if (!(error instanceof FurtiveError) || error.code !== "session_lost") throw error;
    dropLiveScene(sceneId);
    entry = liveScene(scene, settings);
    effects = entry.session.applyAll(events, { skipRefused: Boolean(options.lenient) });
  }
  try {
    for (const { error } of effects.refused) reportRefusal(error);
    const total = { changes: [...effects.changes], requests: /** @type {Outcome["requests"]} */ ([]), log: [...(options.notes ?? []), ...effects.log] };
    await answerRequests(scene, entry, entry.session, effects.requests, total, settings);
    entry.state = entry.session.snapshot();
    await commit(scene, entry);
    if (entry.replaced) {
      entry.replaced = false;
      await clearStatuses(scene);
    }
    const outcome = { state: entry.state, changes: total.changes, requests: total.requests, log: total.log };
    await applyStatuses(scene, outcome);
    const important = events.some((e) => ACTIONS.has(e.type)) || total.changes.length > 0;
    if (options.chat !== false && important && total.log.length) {
      const first = events[0] ?? /** @type {any} */ ({});
      const name = scene.tokens.get(first.hider ?? first.attacker ?? first.token ?? first.target ?? first.combatant ?? "")?.name ?? "";
      // B1: the public line goes to the users who may see every token the action names.
      const ids = events.flatMap((e) => [e.hider, e.attacker, e.token, e.target, e.combatant, e.observer, ...(Array.isArray(e.allies) ? e.allies : [])]);
      const audience = audienceOf([...new Set(ids.filter(Boolean).map(String))].map((id) => scene.tokens.get(id)));
      await postLog(total.log, { titleKey: options.titleKey ?? `FURTIVE.Chat.Event.${first.type}`, titleData: options.titleData ?? { name }, audience });
    }
    await announceDefenseless(scene, outcome, entry.session);
    return outcome;
  } catch (error) {
    // The session may be ahead of the record now: the next action loads the record again.
    if (live.get(sceneId) === entry && entry.revision !== recordRevision(scene)) dropLiveScene(sceneId);
    throw error;
  }
}

/**
 * Saves the state and publishes the lookup: one record write, at most one Scene update.
 * @param {Scene} scene
 * @param {LiveScene} entry
 */
async function commit(scene, entry) {
  const state = entry.state;
  const hiders = Object.entries(state.hiders)
    .filter(([, h]) => h.phase === "hiding")
    .map(([id]) => id);
  // One entry per known observer (an empty list: perceives every hider), so an
  // observer without an entry is one the engine does not know (B1, fail closed).
  const hiddenFrom = /** @type {Record<string, string[]>} */ ({});
  const published = entry.session.hiddenFrom();
  for (const id of Object.keys(state.creatures)) hiddenFrom[id] = published[id] ?? [];
  const written = await saveRecord(scene, { state, pending: entry.pending }, hiddenFrom, hiders);
  entry.revision = written.revision;
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
 * @param {SceneSession} session
 */
async function announceDefenseless(scene, outcome, session) {
  for (const change of outcome.changes) {
    if (change.kind !== "status" || change.status !== "defenseless" || !change.active || !change.token) continue;
    const attackerId = change.expires?.turnEndOf;
    const target = scene.tokens.get(change.token);
    if (!target || !attackerId) continue;
    const state = outcome.state;
    const self = session.canDefend({ defender: change.token, target: change.token, attacker: attackerId });
    const blocked = [];
    for (const id of Object.keys(state.creatures)) {
      if (id === change.token || id === attackerId) continue;
      const decision = session.canDefend({ defender: id, target: change.token, attacker: attackerId });
      if (!decision.allowed) blocked.push({ name: state.creatures[id].name ?? id, decision });
    }
    await postDefenselessCard({ target, attacker: scene.tokens.get(attackerId) ?? null, self, blocked });
  }
}

/** How many rounds of Perception checks one action may chain (a check's answer may request another). */
const MAX_CHECK_ROUNDS = 4;

/**
 * Answers the engine's requests inside the transaction: the Perception
 * checks are rolled together (one GM-only Foundry message holding every
 * roll) when automatic checks are on, and their totals go back in one
 * `applyAll`; else the GM gets a card per check to roll it. New stealth rolls
 * (P4) wait for the GM's button (in combat they are made on the hider's
 * turn): they join the record's pending list, saved with the action.
 * @param {Scene} scene
 * @param {{pending: SceneRecord["pending"]}} record
 * @param {SceneSession} session
 * @param {Outcome["requests"]} requests
 * @param {{changes: Outcome["changes"], requests: Outcome["requests"], log: Outcome["log"]}} total
 * @param {FurtiveSettings} settings
 */
async function answerRequests(scene, record, session, requests, total, settings) {
  let open = requests;
  // Observers whose owner was offered the roll in this action (one offer each).
  const offered = new Set();
  // Offered only when the owner's Perception roll will answer it (system-rolls.mjs).
  const system = readSystemSettings();
  const offerChecks = system.offerChecks && system.perceptionRolls;
  for (let round = 0; round < MAX_CHECK_ROUNDS && open.length; round += 1) {
    const checks = [];
    for (const request of open) {
      const hider = scene.tokens.get(request.hider);
      if (!hider) continue;
      if (request.kind === "perceptionCheck" && request.observer) {
        const observer = scene.tokens.get(request.observer);
        if (!observer) continue;
        const owners = settings.autoPerception && offerChecks ? playerOwners(observer) : [];
        if (owners.length) {
          // B4: the owner rolls from the sheet; the check stays pending until then (perception-offers.mjs).
          if (!offered.has(observer.id)) {
            offered.add(observer.id);
            total.log.push(offerLogEntry(observer, owners, request.clause));
            await offerPerceptionCheck({ sceneId: /** @type {string} */ (scene.id), observer, owners });
          }
        } else if (settings.autoPerception) checks.push({ request, hider, observer });
        else await postPerceptionRequest({ sceneId: /** @type {string} */ (scene.id), hider, observer, clause: request.clause });
      } else if (request.kind === "stealthRoll") {
        record.pending = [...record.pending.filter((r) => !(r.kind === "stealthRoll" && r.hider === request.hider)), request];
        total.requests.push(request);
        await ChatMessage.create({
          speaker: { alias: t("FURTIVE.Title") },
          whisper: gmUserIds(),
          content: `<div class="furtive-card furtive-gm"><p>${t("FURTIVE.Chat.RerollNeeded", { name: hider.name ?? "" })} (${request.clause})</p><div class="furtive-buttons"><button type="button" data-furtive-action="reroll">${t("FURTIVE.Chat.Reroll")}</button></div></div>`,
          flags: { [MODULE_ID]: { kind: "reroll", sceneId: scene.id, hider: request.hider } },
        });
      }
    }
    if (!checks.length) return;
    const totals = await rollPerceptions(checks, settings);
    const effects = session.applyAll(
      checks.map(({ request }, index) => ({ type: "perceptionRolled", hider: request.hider, observer: /** @type {string} */ (request.observer), total: totals[index] })),
      { skipRefused: true },
    );
    for (const { error } of effects.refused) total.log.push({ clause: "", audience: "gm", en: refusalText(error), fr: refusalText(error) });
    total.changes.push(...effects.changes);
    total.log.push(...effects.log);
    open = effects.requests;
  }
}

/**
 * Rolls Perception checks together: one GM-only Foundry chat message holding
 * every roll (`ChatMessage#rolls`, v11+; 3D dice modules show each), one per
 * check, flavoured with the observer and the hider.
 * Foundry API: `new Roll(formula, data, {flavor})`, `Roll#evaluate()`,
 * `ChatMessage.create({rolls, whisper})` (https://foundryvtt.com/api/classes/foundry.documents.ChatMessage.html).
 * @param {{observer: TokenDocument, hider: TokenDocument}[]} checks
 * @param {FurtiveSettings} settings
 * @returns {Promise<number[]>} the totals, truncated to integers, in order
 */
async function rollPerceptions(checks, settings) {
  const rolls = [];
  for (const { observer, hider } of checks) {
    const flavor = t("FURTIVE.Roll.Perception", { observer: observer.name ?? "", hider: hider.name ?? "" });
    const roll = new Roll(settings.perceptionFormula, observer.actor?.getRollData?.() ?? {}, { flavor });
    await roll.evaluate();
    rolls.push(roll);
  }
  const items = rolls.map((roll, index) => `<li>${escapeHtml(String(roll.options?.flavor ?? ""))}: <strong>${Math.trunc(Number(roll.total))}</strong></li>`).join("");
  await ChatMessage.create({
    speaker: { alias: t("FURTIVE.Title") },
    whisper: gmUserIds(),
    flavor: t("FURTIVE.Roll.PerceptionChecks", { count: String(rolls.length) }),
    content: `<div class="furtive-card furtive-gm"><ul>${items}</ul></div>`,
    rolls,
    flags: { [MODULE_ID]: { kind: "perceptionRolls" } },
  });
  return rolls.map((roll) => Math.trunc(Number(roll.total)));
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
  const pending = isActiveGM() ? sceneQuery(scene).pending : (loadRecord(scene)?.pending ?? []);
  return pending.find((r) => r.kind === "stealthRoll" && r.hider === hiderId) ?? null;
}

/**
 * Forgets a pending request once answered.
 * @param {Scene} scene
 * @param {string} hiderId
 */
export function clearPending(scene, hiderId) {
  if (!isActiveGM()) return Promise.resolve();
  return enqueue(async () => {
    const entry = liveScene(scene, readSettings());
    if (!entry.pending.some((r) => r.hider === hiderId)) return;
    entry.pending = entry.pending.filter((r) => r.hider !== hiderId);
    await commit(scene, entry);
  });
}

/**
 * Brings the stored state in line with the scene's tokens: removed tokens
 * leave (tokenRemoved), new or changed ones are upserted. Does nothing for a
 * scene without a stored state.
 * @param {Scene} scene
 */
export async function syncScene(scene) {
  if (!isActiveGM() || isStateLost(scene)) return;
  const state = viewState(scene);
  if (!state) return;
  const record = { state };
  const settings = readSettings();
  /** @type {EngineEvent[]} */
  const events = [];
  for (const id of Object.keys(record.state.creatures)) if (!scene.tokens.get(id)) events.push(/** @type {any} */ ({ type: "tokenRemoved", token: id }));
  for (const token of scene.tokens.filter(isCreatureToken)) {
    const creature = creatureOf(token, settings);
    const known = record.state.creatures[/** @type {string} */ (token.id)];
    if (!known || !sameCreature(/** @type {any} */ (known), /** @type {any} */ (creature))) events.push(/** @type {any} */ ({ type: "upsertCreature", creature }));
  }
  if (events.length) await transact(scene, events, { chat: false, lenient: true }).catch(reportRefusal);
}

/**
 * Upserts a token's creature when its data changed (token created,
 * duplicated, its actor changed). Nothing for a scene without state.
 * @param {Scene} scene
 * @param {TokenDocument} token
 */
export async function upsertToken(scene, token) {
  if (!isActiveGM() || !isCreatureToken(token) || isStateLost(scene)) return;
  const state = viewState(scene);
  if (!state) return;
  const record = { state };
  const creature = creatureOf(token, readSettings());
  const known = record.state.creatures[/** @type {string} */ (token.id)];
  if (known && sameCreature(/** @type {any} */ (known), /** @type {any} */ (creature))) return;
  try {
    await dispatch(scene, { type: "upsertCreature", creature }, { chat: false });
  } catch (error) {
    if (!(error instanceof FurtiveError)) return reportRefusal(error);
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
  if (error instanceof FurtiveError) {
    ui.notifications?.warn(refusalText(error));
    return;
  }
  console.error("furtive |", error);
}
