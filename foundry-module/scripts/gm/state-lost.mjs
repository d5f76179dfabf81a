/**
 * A scene whose state cannot be found (its lookup names hiders, its record
 * is gone): the active GM is told once and every action there is refused
 * (fail closed, B1) until the GM starts the scene over (reset.mjs).
 */

import { MODULE_ID } from "../constants.mjs";
import { FurtiveError } from "../errors.mjs";
import { bilingual, escapeHtml, t } from "../i18n.mjs";
import { isStateLost } from "../storage/store.mjs";
import { gmUserIds } from "../ui/chat.mjs";

/** Scenes whose lost state the GM was already told about (once per scene). */
const toldLost = new Set();

/**
 * The scene starts over: a later loss is told again.
 * @param {string} sceneId
 */
export function forgetStateLost(sceneId) {
  toldLost.delete(sceneId);
}

/**
 * The scene's state cannot be found: tell the GM once, with the choice to
 * start the scene over (a GM-only card with a button). Nothing is wiped.
 * @param {Scene} scene
 */
async function tellStateLost(scene) {
  if (toldLost.has(scene.id)) return;
  toldLost.add(scene.id);
  ui.notifications?.warn(t("FURTIVE.Notify.StateLost", { scene: scene.name ?? "" }), { permanent: true });
  // Its texts in both languages, so each GM reads theirs (ui/chat.mjs decorateChatMessage); GM-whispered only.
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
export async function guardLost(scene) {
  if (!isStateLost(scene)) return;
  await tellStateLost(scene);
  throw FurtiveError.of("state_lost", t("FURTIVE.Notify.StateLost", { scene: scene.name ?? "" }));
}
