/**
 * A scene's stealth started over: a fresh state, an empty lookup, no Furtive
 * status left on its tokens (the GM asked, or the ruleset changed).
 */

import { MODULE_ID, SCENE_FLAGS } from "../constants.mjs";
import * as engine from "../engine.mjs";
import { readSettings } from "../settings.mjs";
import { isActiveGM, loadRecord, recordRevision } from "../storage/store.mjs";
import { enqueue } from "./queue.mjs";
import { dropLiveScene, freshSession, hasLiveScene, liveEntry, liveSceneOf, reportLeftOut, setLiveScene, writeBase } from "./scene-state.mjs";
import { forgetStateLost } from "./state-lost.mjs";
import { clearStatuses, publishAll } from "./transaction.mjs";

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
    const previous = liveSceneOf(/** @type {string} */ (scene.id));
    const generation = Math.max(previous?.generation ?? 0, loadRecord(scene)?.generation ?? 0);
    dropLiveScene(/** @type {string} */ (scene.id));
    const { session, unreported } = freshSession(scene, settings);
    const entry = liveEntry(session, null, null);
    entry.unreported = unreported;
    entry.rulesetOf = settings.ruleset;
    setLiveScene(/** @type {string} */ (scene.id), entry);
    reportLeftOut(entry);
    forgetStateLost(/** @type {string} */ (scene.id));
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
 * storage/store.mjs isStateLost); the viewed scene always starts over, as before. Scene by
 * scene, one after the other (a linked actor's Hidden status stays on while another
 * scene still publishes one of its tokens as a hider, canvas/statuses.mjs): each costs its
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
    if (scene === canvas?.scene || hasLiveScene(/** @type {string} */ (scene.id)) || recordRevision(scene) || published) await resetScene(scene);
  }
}
