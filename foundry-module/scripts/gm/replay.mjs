/**
 * A scene's record replayed: its base snapshot loaded into an engine
 * session, then every saved action applied again, in order, with the engine
 * settings each was applied with (storage/store.mjs holds the record).
 */

import { SceneSession } from "../engine.mjs";

/** @typedef {import("../storage/store.mjs").SceneRecord} SceneRecord */
/** @typedef {import("../settings.mjs").FurtiveSettings} FurtiveSettings */

/**
 * The engine's table settings from the module settings.
 * @param {FurtiveSettings} settings
 */
export function engineSettings(settings) {
  return { showNumbersToPlayers: settings.showNumbers, allowZeroLengthMovement: settings.zeroLengthMovement, checkDie: 20 };
}

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
export function openRecord(record, settings, upTo = record.deltas.length) {
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
