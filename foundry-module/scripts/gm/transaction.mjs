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

import { MODULE_ID, SCENE_FLAGS, STATUS } from "../constants.mjs";
import * as engine from "../engine.mjs";
import { SceneSession } from "../engine.mjs";
import { FurtiveError } from "../errors.mjs";
import { gmUserIds, postActionCard, postLine } from "../ui/chat.mjs";
import { bilingual, escapeHtml, refusalText, t } from "../i18n.mjs";
import { creatureOf, isCreatureToken } from "../systems/actor-data.mjs";
import { rollFormula } from "../systems/formula-rolls.mjs";
import { readSettings } from "../settings.mjs";
import { dropLastDelta, isActiveGM, isStateLost, loadRecord, needsCompaction, publishLookup, recordRevision, saveBase, saveDelta } from "../storage/store.mjs";
import { setStatus } from "../canvas/statuses.mjs";
import { audienceOf } from "../ui/secrecy.mjs";
import { offerLogEntry, offerPerceptionCheck, playerOwners } from "./perception-offers.mjs";
import { readSystemSettings } from "../systems/automation-settings.mjs";

/** @typedef {import("../types.mjs").EngineState} EngineState */
/** @typedef {import("../types.mjs").EngineEvent} EngineEvent */
/** @typedef {import("../types.mjs").Outcome} Outcome */
/** @typedef {import("../storage/store.mjs").SceneRecord} SceneRecord */
/** @typedef {import("../settings.mjs").FurtiveSettings} FurtiveSettings */

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
 * The active GM's scene in memory: the engine session and what the module
 * keeps beside it so that an action costs what it changed (issue 10): the
 * published lookup, the hiders, the clear view of each pair as last sent
 * (for the moves), the creature ids, and the record's bookkeeping (base,
 * deltas, bytes) for the next save.
 * @typedef {object} LiveScene
 * @property {SceneSession} session
 * @property {SceneRecord["pending"]} pending
 * @property {string | null} revision the record's revision (its newest message; null: never saved)
 * @property {string | null} base     the record's base revision
 * @property {number} generation      the base's generation
 * @property {import("../storage/store.mjs").Delta[]} deltas the actions since the base (undo reads them)
 * @property {number} baseBytes
 * @property {number} deltaBytes
 * @property {Map<string, Set<string>>} published observer -> hiders it does not perceive (one entry per known creature)
 * @property {Set<string>} hiders     ids of tokens in a stealth attempt
 * @property {Set<string>} creatures  ids of every creature the engine knows
 * @property {Map<string, Record<string, unknown>>} creatureData each creature as last sent (or read at load), for syncScene
 * @property {Map<string, Map<string, {clearView: boolean, distance: number | undefined}>> | null} views
 *   hider -> observer -> the clear view last applied; null: rebuild from a snapshot
 * @property {EngineState | null} snapshot the state's last snapshot, null after a change (taken on demand)
 * @property {boolean} reconcile     the next save compares the whole lookup with the Scene (after a load)
 * @property {boolean} [replaced]    a stored state of another ruleset or version was replaced
 * @property {string} [rulesetOf]     the ruleset it was opened with
 * @property {{name: string, reason: string}[]} [unreported] tokens a fresh session left out, not yet told to the GM
 */

/** sceneId -> the live scene (active GM). */
const live = /** @type {Map<string, LiveScene>} */ (new Map());

/**
 * The engine settings as stored with each delta (a stable key order).
 * @param {any} settings
 */
const settingsKey = (settings) => JSON.stringify([settings?.showNumbersToPlayers ?? false, settings?.allowZeroLengthMovement ?? true, settings?.checkDie ?? 20]);

/**
 * The session with other engine settings (a snapshot loaded again: the
 * engine has no event for it). Only when the settings changed between two
 * saved actions, or since the last one.
 * @param {SceneSession} session
 * @param {object} settings
 */
function withSettings(session, settings) {
  const state = /** @type {any} */ (session.snapshot());
  session.free();
  return SceneSession.load({ ...state, settings });
}

/**
 * The session a record describes: its base snapshot with every saved action
 * applied again, in order, with the engine settings each was applied with;
 * then `settings`. Throws FurtiveError when the engine refuses the base or an
 * action (another engine version).
 * @param {SceneRecord} record
 * @param {object} settings the engine settings now
 * @param {number} [upTo] apply only the first `upTo` actions (undo)
 */
function openRecord(record, settings, upTo = record.deltas.length) {
  let session = SceneSession.load(record.state);
  let current = settingsKey(record.state.settings);
  try {
    for (const delta of record.deltas.slice(0, upTo)) {
      if (settingsKey(delta.settings) !== current) {
        session = withSettings(session, delta.settings);
        current = settingsKey(delta.settings);
      }
      for (const batch of delta.batches) session.applyAll(batch);
    }
    if (settingsKey(settings) !== current) session = withSettings(session, settings);
  } catch (error) {
    session.free();
    throw error;
  }
  return session;
}

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
 * The live scene around a session: the lookup, hiders, creatures and views
 * read from one snapshot (a load costs the table once; the actions after it
 * cost what they change).
 * @param {SceneSession} session
 * @param {SceneRecord | null} record the record it was opened from (null: fresh)
 * @param {string | null} revision
 * @returns {LiveScene}
 */
function liveEntry(session, record, revision) {
  /** @type {LiveScene} */
  const entry = {
    session,
    pending: record ? [...(record.deltas.at(-1)?.pending ?? record.pending)] : [],
    revision,
    base: record?.base ?? null,
    generation: record?.generation ?? 0,
    deltas: record ? [...record.deltas] : [],
    baseBytes: record?.baseBytes ?? 0,
    deltaBytes: record?.deltaBytes ?? 0,
    published: new Map(),
    hiders: new Set(),
    creatures: new Set(),
    creatureData: new Map(),
    views: null,
    snapshot: null,
    reconcile: true,
  };
  readMirror(entry);
  return entry;
}

/**
 * Reads the lookup, hiders, creatures and views of the entry from a snapshot.
 * @param {LiveScene} entry
 */
function readMirror(entry) {
  const state = snapshotOf(entry);
  const hidden = entry.session.hiddenFrom();
  entry.creatures = new Set(Object.keys(state.creatures));
  entry.creatureData = new Map(Object.entries(/** @type {Record<string, Record<string, unknown>>} */ (/** @type {unknown} */ (state.creatures))));
  entry.published = new Map([...entry.creatures].map((id) => [id, new Set(hidden[id] ?? [])]));
  entry.hiders = hidingOf(state);
  entry.views = viewsOf(state);
}

/**
 * Ids of the hiders in a stealth attempt (phase `hiding`).
 * @param {EngineState} state
 */
function hidingOf(state) {
  return new Set(Object.entries(state.hiders).filter(([, h]) => h.phase === "hiding").map(([id]) => id));
}

/**
 * Hider -> observer -> clear view, from a state.
 * @param {EngineState} state
 */
function viewsOf(state) {
  const views = new Map();
  for (const [hiderId, hider] of Object.entries(state.hiders)) {
    const pairs = new Map();
    for (const [observer, pair] of Object.entries(/** @type {Record<string, any>} */ (hider.pairs ?? {}))) pairs.set(observer, { clearView: pair.clearView, distance: pair.distance ?? undefined });
    views.set(hiderId, pairs);
  }
  return views;
}

/**
 * The entry's state (read-only): its last snapshot, taken when first asked after a change.
 * @param {LiveScene} entry
 * @returns {EngineState}
 */
function snapshotOf(entry) {
  entry.snapshot ??= entry.session.snapshot();
  return entry.snapshot;
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
  if (cached && cached.revision === revision && cached.rulesetOf === settings.ruleset) {
    if (!quiet) reportLeftOut(cached);
    return cached;
  }
  cached?.session.free();
  live.delete(sceneId);
  const stored = loadRecord(scene);
  /** @type {LiveScene | null} */
  let entry = null;
  let replaced = Boolean(stored);
  if (stored && stored.state?.ruleset === settings.ruleset) {
    try {
      entry = liveEntry(openRecord(stored, engineSettings(settings)), stored, revision);
      replaced = false;
    } catch (error) {
      // A state stored by another engine version cannot be read: start over once.
      if (!(error instanceof FurtiveError)) throw error;
      if (!quiet) ui.notifications?.warn(t("FURTIVE.Notify.StateReset"));
    }
  }
  if (!entry) {
    const { session, unreported } = freshSession(scene, settings);
    entry = liveEntry(session, null, null);
    entry.unreported = unreported;
    // A replaced record is rewritten whole at the next save.
    entry.generation = stored?.generation ?? 0;
  }
  entry.replaced = replaced;
  entry.rulesetOf = settings.ruleset;
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
    const settings = readSettings();
    const previous = live.get(/** @type {string} */ (scene.id));
    const generation = Math.max(previous?.generation ?? 0, loadRecord(scene)?.generation ?? 0);
    dropLiveScene(/** @type {string} */ (scene.id));
    const { session, unreported } = freshSession(scene, settings);
    const entry = liveEntry(session, null, null);
    entry.unreported = unreported;
    entry.rulesetOf = settings.ruleset;
    live.set(/** @type {string} */ (scene.id), entry);
    reportLeftOut(entry);
    toldLost.delete(scene.id);
    await writeBase(scene, entry, generation + 1, null);
    await publishAll(scene, entry);
    await clearStatuses(scene);
  });
}

/**
 * The ruleset changed: every scene with a state starts over ({@link resetScene}),
 * not only the viewed one, so no scene keeps a lookup (tokens hidden from the
 * players there) or statuses (a linked actor's Hidden or Defenseless shows on its
 * tokens of every scene) from a state the new ruleset cannot read. A scene has a
 * state when it has a record, one in memory, or a published lookup (a lost record,
 * store.mjs isStateLost); the viewed scene always starts over, as before. Scene by
 * scene, one after the other (a linked actor's Hidden status stays on while another
 * scene still publishes one of its tokens as a hider, statuses.mjs): each costs its
 * record's new base (one message), at most one Scene update for its lookup (the
 * Scene's own flags: one update per scene cannot be avoided), and one status change
 * per token that shows a Furtive status. Active GM.
 */
export async function resetScenesWithState() {
  if (!isActiveGM()) return;
  for (const scene of game.scenes ?? []) {
    const hiders = scene.getFlag(MODULE_ID, SCENE_FLAGS.hiders);
    const hiddenFrom = scene.getFlag(MODULE_ID, SCENE_FLAGS.hiddenFrom);
    const published = (Array.isArray(hiders) && hiders.length > 0) || Boolean(hiddenFrom && typeof hiddenFrom === "object" && Object.keys(hiddenFrom).length);
    if (scene === canvas?.scene || live.has(/** @type {string} */ (scene.id)) || recordRevision(scene) || published) await resetScene(scene);
  }
}

/**
 * The scene's state as this GM sees it (read-only: do not change it), or
 * null: the active GM's live state, else the stored record's.
 * @param {Scene} scene
 * @returns {EngineState | null}
 */
export function viewState(scene) {
  const cached = live.get(/** @type {string} */ (scene.id));
  if (cached && isActiveGM() && cached.revision !== null && cached.revision === recordRevision(scene)) return snapshotOf(cached);
  return storedState(scene);
}

/** revision -> the state a record describes, for a GM who is not the active one (one at a time). */
let storedCache = /** @type {{revision: string, state: EngineState} | null} */ (null);

/**
 * The state a scene's record describes (its base with its actions applied), or null.
 * @param {Scene} scene
 * @returns {EngineState | null}
 */
function storedState(scene) {
  const record = loadRecord(scene);
  if (!record) return null;
  const revision = `${scene.id}:${recordRevision(scene)}`;
  if (storedCache?.revision === revision) return storedCache.state;
  if (!record.deltas.length || !engine.isEngineReady()) return record.state;
  const session = openRecord(record, record.deltas.at(-1)?.settings ?? record.state.settings);
  try {
    storedCache = { revision, state: session.snapshot() };
  } finally {
    session.free();
  }
  return storedCache.state;
}

/**
 * What `refreshViews` needs to send only the views that changed, without a
 * snapshot per move: the hiders in a stealth attempt, whether an observer is
 * a known creature, and the clear view last applied for a pair. Null for a
 * scene without a stored state. Active GM.
 * @param {Scene} scene
 * @returns {{ruleset: string, hiders: string[], knows: (id: string) => boolean, view: (hider: string, observer: string) => {clearView: boolean, distance: number | undefined} | undefined} | null}
 */
export function viewMirror(scene) {
  if (!isActiveGM() || (!live.has(/** @type {string} */ (scene.id)) && !recordRevision(scene))) return null;
  const settings = readSettings();
  const entry = liveScene(scene, settings, true);
  if (entry.revision === null) return null;
  return {
    ruleset: settings.ruleset,
    hiders: [...entry.hiders],
    knows: (id) => entry.creatures.has(id),
    view: (hider, observer) => {
      // Read again from a snapshot only after an event the live scene does not follow.
      entry.views ??= viewsOf(snapshotOf(entry));
      return entry.views.get(hider)?.get(observer);
    },
  };
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
 * The scene for a query on the active GM: its live session and state
 * (loaded, or fresh and not saved). `state` is a snapshot taken on demand.
 * @param {Scene} scene
 * @returns {{session: SceneSession, state: EngineState, pending: SceneRecord["pending"], knows: (id: string) => boolean}}
 */
export function sceneQuery(scene) {
  const entry = liveScene(scene, readSettings(), true);
  return {
    session: entry.session,
    pending: entry.pending,
    knows: (id) => entry.creatures.has(id),
    get state() {
      return snapshotOf(entry);
    },
  };
}

/**
 * The scene's state for a query: the live snapshot (read-only).
 * @param {Scene} scene
 * @returns {EngineState}
 */
export function queryState(scene) {
  return snapshotOf(liveScene(scene, readSettings(), true));
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
 * @property {boolean} [quiet] post the card only when it has something to say (a change, a log line, a check to roll, a new stealth roll to offer): the combat tracker's turn changes, saved without a card when they change nothing anyone sees
 * @property {boolean} [lenient] leave refused events out instead of refusing the whole action (automation)
 * @property {string} [titleKey] the card's title (default: from the first event's type)
 * @property {Record<string, string>} [titleData]
 * @property {import("../types.mjs").LogEntry[]} [notes] GM lines the caller adds to the action's card (system-attacks.mjs: O10)
 * @property {string} [answers] the hider whose pending new stealth roll (P4) this action makes: it leaves the pending list in the same save
 * @property {Record<string, unknown>} [cardFlags] more `flags.furtive` of the action's GM card (system-attacks.mjs: the attack, read back by a later active GM)
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
  // Its texts in both languages, so each GM reads theirs (chat.mjs decorateChatMessage); GM-whispered only.
  const texts = [
    { selector: ".furtive-state-lost", ...bilingual("FURTIVE.Notify.StateLost", { scene: scene.name ?? "" }) },
    { selector: '[data-furtive-action="reset"]', ...bilingual("FURTIVE.Control.Reset") },
  ];
  await ChatMessage.create({
    speaker: { alias: t("FURTIVE.Title") },
    whisper: gmUserIds(),
    content: `<div class="furtive-card furtive-gm"><p class="furtive-state-lost">${escapeHtml(t("FURTIVE.Notify.StateLost", { scene: scene.name ?? "" }))}</p><div class="furtive-buttons"><button type="button" data-furtive-action="reset">${escapeHtml(t("FURTIVE.Control.Reset"))}</button></div></div>`,
    flags: { [MODULE_ID]: { kind: "stateLost", sceneId: scene.id, texts, lang: game.i18n.lang } },
  });
}

/**
 * Refuses to act on a scene whose state is lost (fail closed, B1), after
 * telling the GM once.
 * @param {Scene} scene
 */
async function guardLost(scene) {
  if (!isStateLost(scene)) return;
  // A state kept before per-scene storage (this GM's `gmState` setting) is moved first.
  if (await migrateLegacyScene(scene, legacyStates())) return;
  await tellStateLost(scene);
  throw FurtiveError.of("state_lost", t("FURTIVE.Notify.StateLost", { scene: scene.name ?? "" }));
}

/**
 * Events that leave the clear view and distance of every pair as they were
 * (the engine writes them only from the `view` of `viewChanged` and
 * `enterStealth`, which the live scene follows). Any other event type (a
 * newer engine's) makes the live scene read them again from a snapshot.
 */
const VIEW_KEEPING = new Set(["upsertCreature", "perceptionRolled", "pointOut", "attack", "damageTaken", "turnStart", "turnEnd", "roundEnd", "combatEnd", "modifiersChanged", "sprint", "stopHiding", "tokenRemoved", "gmOverride"]);
/**
 * Events that leave every hider's phase as it was (the engine ends a stealth
 * attempt only in `stopHiding`, `tokenRemoved`, `sprint` (O12), a
 * percentile `turnEnd` and a percentile `combatEnd` (P9: an attack from
 * hiding reveals the attacker at its turn end or at the combat's end), and
 * starts one only in `enterStealth`). After `sprint`, `turnEnd`,
 * `combatEnd` or an unknown event type, the hiders are read again from a
 * snapshot.
 */
const PHASE_KEEPING = new Set(["upsertCreature", "viewChanged", "perceptionRolled", "pointOut", "attack", "damageTaken", "turnStart", "roundEnd", "modifiersChanged", "gmOverride"]);
/** Events whose `view` sets the clear view and distance of the pairs it names. */
const VIEW_WRITING = new Set(["viewChanged", "enterStealth"]);

/**
 * Everything one action did, gathered over its engine calls.
 * @typedef {object} ActionEffects
 * @property {Outcome["changes"]} changes
 * @property {Outcome["requests"]} requests
 * @property {Outcome["log"]} log
 * @property {{observer: string, hider: string, hidden: boolean}[]} hiddenFrom
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
    const total = { changes: [...effects.changes], requests: [], log: [...(options.notes ?? []), ...effects.log], hiddenFrom: [...effects.hiddenFrom], applied: [...effects.applied], checksToRoll: [], rerolls: [] };
    const pendingBefore = JSON.stringify(entry.pending);
    if (options.answers) entry.pending = entry.pending.filter((r) => r.hider !== options.answers);
    await answerRequests(scene, entry, entry.session, effects.requests, total, settings);
    if (total.applied.length) entry.snapshot = null;
    const actionId = foundry.utils.randomID();
    const statuses = total.changes.flatMap((c) => (c.kind === "status" && c.token && c.status ? [{ token: c.token, status: c.status, active: Boolean(c.active) }] : []));
    const saved = total.applied.length > 0 || JSON.stringify(entry.pending) !== pendingBefore;
    const important = events.some((e) => ACTIONS.has(e.type)) || total.changes.length > 0;
    // Issue 10: every saved action leaves its GM card (its comparisons and its Undo button), even when it
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
    if (live.get(sceneId) === entry && entry.revision !== recordRevision(scene)) dropLiveScene(sceneId);
    throw error;
  }
}

/**
 * Saves one action as a delta (one message).
 * @param {Scene} scene
 * @param {LiveScene} entry
 * @param {import("../storage/store.mjs").Delta} delta
 */
async function writeDelta(scene, entry, delta) {
  const written = await saveDelta(scene, { base: /** @type {string} */ (entry.base), seq: entry.deltas.length + 1 }, delta);
  entry.deltas.push(delta);
  entry.deltaBytes += written.bytes;
  entry.revision = written.revision;
  lastSave.bytes = written.bytes;
  lastSave.kind = "delta";
}

/**
 * Writes a new base (one message): `before` with the action as its first
 * delta, or the live state itself when `before` is null (reset, undo).
 * @param {Scene} scene
 * @param {LiveScene} entry
 * @param {number} generation
 * @param {{state: EngineState, pending: SceneRecord["pending"], delta: import("../storage/store.mjs").Delta} | null} before
 */
async function writeBase(scene, entry, generation, before) {
  const record = before ?? { state: snapshotOf(entry), pending: [...entry.pending] };
  const written = await saveBase(scene, { ...record, generation });
  entry.base = written.revision;
  entry.revision = written.revision;
  entry.generation = generation;
  entry.deltas = before ? [before.delta] : [];
  entry.deltaBytes = before ? JSON.stringify(before.delta).length : 0;
  entry.baseBytes = written.bytes - entry.deltaBytes;
  lastSave.bytes = written.bytes;
  lastSave.kind = "base";
}

/** The last save on this client (the benchmark reads it through the API): its bytes and kind. */
export const lastSave = { bytes: 0, kind: "" };

/**
 * Follows one action's effects in the live scene's lookup, hiders,
 * creatures and views, and returns what to publish: the observers whose
 * list changed (null: removed) and the hiders list when it changed. Costs
 * what the action changed (the engine's `hiddenFrom` changes, npm
 * `Session.hiddenFromChanges`), never the table.
 * @param {LiveScene} entry
 * @param {ActionEffects} total
 * @returns {{observers: Map<string, string[] | null>, hiders: string[] | null}}
 */
function followEffects(entry, total) {
  const touched = new Set();
  let keepViews = entry.views !== null;
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
      if (VIEW_WRITING.has(any.type)) {
        if (!keepViews) continue;
        const views = /** @type {NonNullable<LiveScene["views"]>} */ (entry.views);
        let pairs = views.get(any.hider);
        if (!pairs) views.set(any.hider, (pairs = new Map()));
        for (const view of any.view ?? []) pairs.set(view.observer, { clearView: view.clearView, distance: view.distance ?? undefined });
      } else if (!VIEW_KEEPING.has(any.type)) keepViews = false;
    }
  }
  if (!keepViews) entry.views = null;
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
  let rereadHiders = false;
  for (const batch of total.applied) {
    for (const event of batch) {
      const any = /** @type {any} */ (event);
      if (any.type === "enterStealth") entry.hiders.add(String(any.hider));
      else if (any.type === "stopHiding") entry.hiders.delete(String(any.hider));
      else if (any.type === "tokenRemoved") entry.hiders.delete(String(any.token));
      else if (!PHASE_KEEPING.has(any.type)) rereadHiders = true;
    }
  }
  if (rereadHiders) entry.hiders = hidingOf(snapshotOf(entry));
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
async function publishAll(scene, entry) {
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
    // Never throws: the state is already saved (statuses.mjs). The state is
    // read only when a linked actor with another token here loses the status.
    const shared = !change.active && token.actorLink && scene.tokens.some((other) => other.id !== token.id && other.actorLink && other.actorId === token.actorId);
    await setStatus(scene, token, change.status, Boolean(change.active), shared ? snapshotOf(entry) : null);
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
 * Undoes the scene's last action (its GM card's button): the engine state,
 * the statuses and the published lookup go back to before it, as one
 * transaction (one record write, at most one Scene update). Only the last
 * action with a card can be undone; a card of an older one is refused
 * (`not_last_action`). The saves that posted no card after it (a combat
 * turn change with nothing to say, bookkeeping: `Delta.cardless`) are
 * applied again on the state before it, so the engine keeps following
 * Foundry's combat tracker; when one of them changed a status, or the
 * engine refuses it without the action, the undo is refused
 * (`not_last_action`) and nothing changes.
 * @param {Scene} scene
 * @param {string} actionId
 */
export function undoAction(scene, actionId) {
  if (!isActiveGM()) return Promise.reject(FurtiveError.of("not_active_gm", "only the active GM undoes an action"));
  return enqueue(async () => {
    await engine.engineReady;
    await guardLost(scene);
    const settings = readSettings();
    const entry = liveScene(scene, settings);
    const index = entry.deltas.findIndex((delta) => delta.id === actionId);
    const later = index < 0 ? [] : entry.deltas.slice(index + 1);
    const notLast = () => FurtiveError.of("not_last_action", t("FURTIVE.Error.not_last_action"));
    if (index < 0 || !later.every((delta) => delta.cardless && !delta.statuses.length)) throw notLast();
    const last = entry.deltas[index];
    const record = loadRecord(scene);
    if (!record || record.base !== entry.base || record.deltas[index]?.id !== actionId) throw FurtiveError.of("state_lost", t("FURTIVE.Notify.StateLost", { scene: scene.name ?? "" }));
    const pending = index > 0 ? record.deltas[index - 1].pending : record.pending;
    const kept = { ...record, deltas: [...record.deltas.slice(0, index), ...later.map((delta) => ({ ...delta, pending }))] };
    /** @type {SceneSession} */
    let session;
    try {
      session = openRecord(kept, engineSettings(settings));
    } catch (error) {
      // A later save the engine refuses without the action: it depends on it.
      if (error instanceof FurtiveError && error.code !== "session_lost") throw notLast();
      throw error;
    }
    const restored = liveEntry(session, kept, null);
    Object.assign(restored, { rulesetOf: settings.ruleset });
    // One record write: the action's delta message deleted, or (the action is
    // held by the base, or saves came after it) a new base without it.
    // Written before the live scene is swapped, so a failed write leaves the
    // GM's memory as stored.
    try {
      if (later.length || (record.inline && record.deltas.length === 1)) await writeBase(scene, restored, entry.generation + 1, null);
      else restored.revision = await dropLastDelta(scene);
    } catch (error) {
      restored.session.free();
      if (error instanceof FurtiveError) throw error;
      console.error("furtive |", error);
      throw FurtiveError.of("save_failed", error instanceof Error ? error.message : String(error));
    }
    entry.session.free();
    live.set(/** @type {string} */ (scene.id), restored);
    await publishAll(scene, restored);
    // The action's status changes, reversed (last first).
    const state = snapshotOf(restored);
    for (const change of [...last.statuses].reverse()) {
      const token = scene.tokens.get(change.token);
      if (token) await setStatus(scene, token, change.status, !change.active, state);
    }
    // The GMs are told in both languages, so each GM reads theirs (chat.mjs postLine, decorateChatMessage).
    await postLine(bilingual("FURTIVE.Chat.Undone", { scene: scene.name ?? "" }), { whisperGM: true, flags: { kind: "undone", sceneId: scene.id, actionId } });
  });
}

/**
 * The setting that held the states before per-scene storage: `{ [sceneId]:
 * {raw, revision} }`, `raw = JSON.stringify({state, pending})`, in each GM's
 * own setting (scope `user` on v13, `client` on v12, settings.mjs), with the
 * scene flag `flags.furtive.revision` naming the current save.
 */
export const LEGACY_SETTING = "gmState";

/** @returns {Record<string, {raw?: unknown, revision?: unknown}>} this GM's legacy states (empty when none) */
function legacyStates() {
  try {
    const value = game.settings.get(MODULE_ID, LEGACY_SETTING);
    return value && typeof value === "object" ? /** @type {any} */ (value) : {};
  } catch {
    return {};
  }
}

/**
 * Moves one scene's legacy state into its per-scene record (inside the
 * queue): a base message holding it, then the lookup published from it (the
 * legacy `visibility` flag removed). Only a copy that is the scene's current
 * save (its revision is the scene's `revision` flag, or the scene has none)
 * and only when the scene has no record yet. The entry then leaves the setting.
 * @param {Scene} scene
 * @param {Record<string, {raw?: unknown, revision?: unknown}>} all the legacy setting's value
 * @returns {Promise<boolean>} whether the scene now has a record from it
 */
async function migrateLegacyScene(scene, all) {
  const sceneId = /** @type {string} */ (scene.id);
  const stored = all[sceneId];
  if (!stored || typeof stored.raw !== "string" || recordRevision(scene)) return false;
  const published = scene.getFlag(MODULE_ID, "revision");
  // Another GM's copy is the current one: this one is stale, and stays for that GM to move.
  if (published && stored.revision !== published) return false;
  let parsed;
  try {
    parsed = JSON.parse(stored.raw);
  } catch {
    return false;
  }
  if (!parsed?.state) return false;
  await saveBase(scene, { state: parsed.state, pending: Array.isArray(parsed.pending) ? parsed.pending : [], generation: 1 });
  dropLiveScene(sceneId);
  toldLost.delete(sceneId);
  await publishAll(scene, liveScene(scene, readSettings()));
  const { [sceneId]: _moved, ...rest } = legacyStates();
  await game.settings.set(MODULE_ID, LEGACY_SETTING, rest);
  return true;
}

/**
 * Moves every state this GM kept before per-scene storage (the `gmState`
 * setting) into the per-scene records, once (active GM, at ready; a GM who
 * becomes active later moves a scene's at its first action there). The
 * states of deleted scenes are dropped from the setting.
 * @returns {Promise<number>} how many scenes were moved
 */
export function migrateLegacyStates() {
  if (!isActiveGM()) return Promise.resolve(0);
  return enqueue(async () => {
    await engine.engineReady;
    const all = legacyStates();
    let moved = 0;
    for (const sceneId of Object.keys(all)) {
      const scene = game.scenes.get(sceneId);
      if (scene && (await migrateLegacyScene(scene, all))) moved += 1;
    }
    const orphans = Object.keys(legacyStates()).filter((id) => !game.scenes.get(id));
    if (orphans.length) await game.settings.set(MODULE_ID, LEGACY_SETTING, Object.fromEntries(Object.entries(legacyStates()).filter(([id]) => game.scenes.get(id))));
    return moved;
  });
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
 * @param {ActionEffects} total
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
        // Automatic checks off: the action's GM card gets a button to roll it.
        else total.checksToRoll.push({ hider: request.hider, observer: request.observer, clause: request.clause });
      } else if (request.kind === "stealthRoll") {
        record.pending = [...record.pending.filter((r) => !(r.kind === "stealthRoll" && r.hider === request.hider)), request];
        total.requests.push(request);
        // The action's GM card gets the "new roll" button (P4).
        total.rerolls.push(request.hider);
      }
    }
    if (!checks.length) return;
    const totals = await rollPerceptions(checks, settings);
    // A total that is no finite number never reaches the engine: that check is skipped and the GM told.
    for (const [index, { observer }] of checks.entries()) if (totals[index] === null) ui.notifications?.warn(t("FURTIVE.System.NoPerceptionTotal", { name: observer.name ?? "" }));
    const effects = session.applyAll(
      checks.flatMap(({ request }, index) => (totals[index] === null ? [] : [{ type: "perceptionRolled", hider: request.hider, observer: /** @type {string} */ (request.observer), total: totals[index] }])),
      { skipRefused: true },
    );
    for (const { error } of effects.refused) total.log.push({ clause: "", audience: "gm", en: refusalText(error), fr: refusalText(error) });
    total.changes.push(...effects.changes);
    total.hiddenFrom.push(...effects.hiddenFrom);
    total.applied.push(...effects.applied);
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
 * @returns {Promise<(number | null)[]>} the totals rounded down to integers, in order; null for a total that is not a finite number
 */
async function rollPerceptions(checks, settings) {
  const rolls = [];
  for (const { observer, hider } of checks) {
    const flavor = t("FURTIVE.Roll.Perception", { observer: observer.name ?? "", hider: hider.name ?? "" });
    const roll = new Roll(settings.perceptionFormula, observer.actor?.getRollData?.() ?? {}, { flavor });
    await roll.evaluate();
    rolls.push(roll);
  }
  const items = rolls.map((roll, index) => `<li><span class="furtive-flavor">${escapeHtml(String(roll.options?.flavor ?? ""))}</span>: <strong>${Math.floor(Number(roll.total))}</strong></li>`).join("");
  // Each roll's line in both languages, so each GM reads theirs (chat.mjs decorateChatMessage); GM-whispered only.
  const texts = checks.map(({ observer, hider }, index) => ({
    selector: `.furtive-rolls > li:nth-child(${index + 1}) .furtive-flavor`,
    ...bilingual("FURTIVE.Roll.Perception", { observer: observer.name ?? "", hider: hider.name ?? "" }),
  }));
  await ChatMessage.create({
    speaker: { alias: t("FURTIVE.Title") },
    whisper: gmUserIds(),
    flavor: t("FURTIVE.Roll.PerceptionChecks", { count: String(rolls.length) }),
    content: `<div class="furtive-card furtive-gm"><ul class="furtive-rolls">${items}</ul></div>`,
    rolls,
    // The message's flavor and each roll's own flavor in both languages too (chat.mjs decorateChatMessage).
    flags: { [MODULE_ID]: { kind: "perceptionRolls", texts, flavor: bilingual("FURTIVE.Roll.PerceptionChecks", { count: String(rolls.length) }), rollFlavors: texts.map(({ en, fr }) => ({ en, fr })), lang: game.i18n.lang } },
  });
  // The rules round down (floor, -20.5 is -21); a total that is not a finite number is null.
  return rolls.map((roll) => (Number.isFinite(Number(roll.total)) ? Math.floor(Number(roll.total)) : null));
}

/**
 * A Perception check as a GM-only Foundry roll: the Perception formula
 * (opposed) for the observer's actor.
 * @param {TokenDocument} observer
 * @param {TokenDocument} hider
 * @param {FurtiveSettings} settings
 */
export function rollPerception(observer, hider, settings) {
  return rollFormula(settings.perceptionFormula, observer, { flavor: bilingual("FURTIVE.Roll.Perception", { observer: observer.name ?? "", hider: hider.name ?? "" }), secret: true });
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
  const record = isActiveGM() ? null : loadRecord(scene);
  const pending = isActiveGM() ? sceneQuery(scene).pending : (record?.deltas.at(-1)?.pending ?? record?.pending ?? []);
  return pending.find((r) => r.kind === "stealthRoll" && r.hider === hiderId) ?? null;
}

/**
 * The creatures the engine knows on a scene with a stored state, as last
 * sent (no snapshot), or null for a scene without one. Active GM.
 * @param {Scene} scene
 * @returns {Map<string, Record<string, unknown>> | null}
 */
export function knownCreatures(scene) {
  if (!isActiveGM() || (!live.has(/** @type {string} */ (scene.id)) && !recordRevision(scene))) return null;
  const entry = liveScene(scene, readSettings(), true);
  return entry.revision === null ? null : entry.creatureData;
}

/**
 * Brings the stored state in line with the scene's tokens: removed tokens
 * leave (tokenRemoved), new or changed ones are upserted. Does nothing for a
 * scene without a stored state.
 * @param {Scene} scene
 */
export async function syncScene(scene) {
  if (!isActiveGM() || isStateLost(scene)) return;
  await engine.engineReady;
  const creatures = knownCreatures(scene);
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
  const creatures = knownCreatures(scene);
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
  const creatures = knownCreatures(scene);
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
