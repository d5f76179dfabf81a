/**
 * Undo: the scene's last action (its GM card's button) taken back, as one
 * transaction.
 */

import * as engine from "../engine.mjs";
import { FurtiveError } from "../errors.mjs";
import { bilingual, t } from "../i18n.mjs";
import { readSettings } from "../settings.mjs";
import { dropLastDelta, isActiveGM, loadRecord } from "../storage/store.mjs";
import { setStatus } from "../canvas/statuses.mjs";
import { postLine } from "../ui/chat.mjs";
import { enqueue } from "./queue.mjs";
import { engineSettings, openRecord } from "./replay.mjs";
import { liveEntry, liveScene, setLiveScene, snapshotOf, writeBase } from "./scene-state.mjs";
import { guardLost } from "./state-lost.mjs";
import { publishAll } from "./transaction.mjs";

/** @typedef {import("../engine.mjs").SceneSession} SceneSession */

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
    setLiveScene(/** @type {string} */ (scene.id), restored);
    await publishAll(scene, restored);
    // The action's status changes, reversed (last first).
    const state = snapshotOf(restored);
    for (const change of [...last.statuses].reverse()) {
      const token = scene.tokens.get(change.token);
      if (token) await setStatus(scene, token, change.status, !change.active, state);
    }
    // The GMs are told in both languages, so each GM reads theirs (ui/chat.mjs postLine, decorateChatMessage).
    await postLine(bilingual("FURTIVE.Chat.Undone", { scene: scene.name ?? "" }), { whisperGM: true, flags: { kind: "undone", sceneId: scene.id, actionId } });
  });
}
