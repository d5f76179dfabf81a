/**
 * Each scene's state on the active GM, and the one way to read a scene's
 * state ({@link sceneState}).
 *
 * The active GM keeps every scene it acted on in memory (a live scene: the
 * engine session and what the module keeps beside it), loaded from the
 * scene's record (storage/store.mjs, replayed by replay.mjs) when this GM has
 * none or the record changed since (another GM saved), or fresh from the
 * scene's tokens. A live scene's saves (a delta per action, a new base now
 * and then) go through {@link writeDelta} and {@link writeBase}.
 */

import * as engine from "../engine.mjs";
import { SceneSession } from "../engine.mjs";
import { FurtiveError } from "../errors.mjs";
import { refusalText, t } from "../i18n.mjs";
import { creatureOf, isCreatureToken } from "../systems/actor-data.mjs";
import { readSettings } from "../settings.mjs";
import { isActiveGM, loadRecord, recordRevision, saveBase, saveDelta } from "../storage/store.mjs";
import { engineSettings, openRecord } from "./replay.mjs";

/** @typedef {import("../types.mjs").EngineState} EngineState */
/** @typedef {import("../types.mjs").EngineEvent} EngineEvent */
/** @typedef {import("../storage/store.mjs").SceneRecord} SceneRecord */
/** @typedef {import("../settings.mjs").FurtiveSettings} FurtiveSettings */

/**
 * The active GM's scene in memory: the engine session and what the module
 * keeps beside it so that an action costs what it changed: the
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
 *   hider -> observer -> the clear view and distance the engine holds (followed from its effects' `views`); null: rebuild from a snapshot
 * @property {EngineState | null} snapshot the state's last snapshot, null after a change (taken on demand)
 * @property {boolean} reconcile     the next save compares the whole lookup with the Scene (after a load)
 * @property {boolean} [replaced]    a stored state of another ruleset or version was replaced
 * @property {string} [rulesetOf]     the ruleset it was opened with
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
export function freshSession(scene, settings) {
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
export function reportLeftOut(entry) {
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
export function liveEntry(session, record, revision) {
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
export function hidingOf(state) {
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
export function snapshotOf(entry) {
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
export function liveScene(scene, settings, quiet = false) {
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
 * Whether this GM has the scene in memory.
 * @param {string} sceneId
 */
export function hasLiveScene(sceneId) {
  return live.has(sceneId);
}

/**
 * The scene in memory, if any (not loaded: see {@link liveScene}).
 * @param {string} sceneId
 * @returns {LiveScene | undefined}
 */
export function liveSceneOf(sceneId) {
  return live.get(sceneId);
}

/**
 * Puts a live scene in memory in place of the one there (reset, undo).
 * @param {string} sceneId
 * @param {LiveScene} entry
 */
export function setLiveScene(sceneId, entry) {
  live.set(sceneId, entry);
}

/**
 * A scene's state as one reading. Read-only: nothing in it may be changed.
 * @typedef {object} SceneReading
 * @property {EngineState} state the engine state (a snapshot, taken when first asked)
 * @property {SceneSession | null} session the live engine session, for the engine's queries (`hiddenFrom`, `canDefend`, `knockout`); null for a reading of the stored record
 * @property {SceneRecord["pending"]} pending the requests waiting (P4: new stealth rolls)
 * @property {string} ruleset the ruleset of the state
 * @property {Map<string, Record<string, unknown>>} creatures every creature the engine knows, as last sent
 * @property {(id: string) => boolean} knows whether the engine knows the creature
 * @property {string[]} hiders ids of the tokens in a stealth attempt
 * @property {(hider: string, observer: string) => {clearView: boolean, distance: number | undefined} | undefined} view the clear view and distance last applied for a pair
 */

/**
 * The reading of a live scene (its fields read the scene when asked).
 * @param {LiveScene} entry
 * @returns {SceneReading}
 */
function liveReading(entry) {
  return {
    get state() {
      return snapshotOf(entry);
    },
    session: entry.session,
    get pending() {
      return entry.pending;
    },
    get ruleset() {
      return entry.rulesetOf ?? snapshotOf(entry).ruleset;
    },
    creatures: entry.creatureData,
    knows: (id) => entry.creatures.has(id),
    get hiders() {
      return [...entry.hiders];
    },
    view: (hider, observer) => {
      // Read from a snapshot when not read yet.
      entry.views ??= viewsOf(snapshotOf(entry));
      return entry.views.get(hider)?.get(observer);
    },
  };
}

/**
 * The reading of a stored record's state (a GM who is not the active one,
 * or the active GM before it loads the scene).
 * @param {Scene} scene
 * @returns {SceneReading | null}
 */
function storedReading(scene) {
  const state = storedState(scene);
  if (!state) return null;
  const record = /** @type {SceneRecord} */ (loadRecord(scene));
  return {
    state,
    session: null,
    pending: record.deltas.at(-1)?.pending ?? record.pending,
    ruleset: state.ruleset,
    get creatures() {
      return new Map(Object.entries(/** @type {Record<string, Record<string, unknown>>} */ (/** @type {unknown} */ (state.creatures))));
    },
    knows: (id) => id in state.creatures,
    get hiders() {
      return [...hidingOf(state)];
    },
    view: (hider, observer) => viewsOf(state).get(hider)?.get(observer),
  };
}

/**
 * @overload
 * @param {Scene} scene
 * @param {"open"} access
 * @returns {SceneReading & {session: SceneSession}}
 */
/**
 * @overload
 * @param {Scene} scene
 * @param {"saved" | "live"} [access]
 * @returns {SceneReading | null}
 */
/**
 * The one way to read a scene's state. `access` says how far the read may go:
 * - `"saved"` (the default): the state as saved, on any client, without
 *   loading anything: the active GM's live scene when it is the saved
 *   revision, else the state the stored record describes (replayed; the
 *   record's base alone before the engine is loaded). Null when the scene has
 *   no record, or this client cannot read it (records are GM-only).
 * - `"live"`: the active GM's live scene, loaded from the record into memory
 *   when needed; null on any other client and for a scene with no saved state
 *   (a fresh state is never started).
 * - `"open"`: the active GM's live scene, loaded from the record, or fresh
 *   from the scene's tokens when it has none (saved at its first action).
 *   For the active GM's own handlers.
 * Loading tells nobody anything (the GM hears of left-out tokens at the next action).
 * @param {Scene} scene
 * @param {"saved" | "live" | "open"} [access]
 * @returns {SceneReading | null}
 */
export function sceneState(scene, access = "saved") {
  const sceneId = /** @type {string} */ (scene.id);
  if (access === "open") return liveReading(liveScene(scene, readSettings(), true));
  if (access === "live") {
    if (!isActiveGM() || (!live.has(sceneId) && !recordRevision(scene))) return null;
    const entry = liveScene(scene, readSettings(), true);
    return entry.revision === null ? null : liveReading(entry);
  }
  const cached = live.get(sceneId);
  if (cached && isActiveGM() && cached.revision !== null && cached.revision === recordRevision(scene)) return liveReading(cached);
  return storedReading(scene);
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
 * Saves one action as a delta (one message).
 * @param {Scene} scene
 * @param {LiveScene} entry
 * @param {import("../storage/store.mjs").Delta} delta
 */
export async function writeDelta(scene, entry, delta) {
  const written = await saveDelta(scene, { base: /** @type {string} */ (entry.base), seq: entry.deltas.length + 1 }, delta);
  entry.deltas.push(delta);
  entry.deltaBytes += written.bytes;
  entry.revision = written.revision;
}

/**
 * Writes a new base (one message): `before` with the action as its first
 * delta, or the live state itself when `before` is null (reset, undo).
 * @param {Scene} scene
 * @param {LiveScene} entry
 * @param {number} generation
 * @param {{state: EngineState, pending: SceneRecord["pending"], delta: import("../storage/store.mjs").Delta} | null} before
 */
export async function writeBase(scene, entry, generation, before) {
  const record = before ?? { state: snapshotOf(entry), pending: [...entry.pending] };
  const written = await saveBase(scene, { ...record, generation });
  entry.base = written.revision;
  entry.revision = written.revision;
  entry.generation = generation;
  entry.deltas = before ? [before.delta] : [];
  entry.deltaBytes = before ? JSON.stringify(before.delta).length : 0;
  entry.baseBytes = written.bytes - entry.deltaBytes;
}
