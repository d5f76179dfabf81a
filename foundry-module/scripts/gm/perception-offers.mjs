/**
 * A Perception check the engine asks for (a `perceptionCheck` request, O4,
 * O9, O13) goes to the observer's owner as a roll from the sheet (B4: the
 * system's own roll, so Dice So Nice and roll modes work as usual), when the
 * observer has a connected player owner. NPCs' checks are rolled by the GM in
 * the action's transaction (checks.mjs).
 *
 * The offer names the observer only: not the hider, not how many (B1). The
 * pair stays unperceived with its check pending in the engine (B1, fail
 * closed) until the roll arrives; the Perception roll then answers every
 * pending check of that observer in one transaction (systems/sheet-rolls.mjs).
 *
 * Foundry API: `User#active`, `User#isGM`, `TokenDocument#testUserPermission(user, "OWNER")`,
 * `ChatMessage.create({whisper})` (https://foundryvtt.com/api/classes/foundry.documents.ChatMessage.html).
 */

import { MODULE_ID } from "../constants.mjs";
import { gmUserIds } from "../ui/chat.mjs";
import { bilingual, escapeHtml, t } from "../i18n.mjs";

/**
 * The connected players who own a token (not GMs): who a check is offered to.
 * @param {TokenDocument} token
 * @returns {User[]}
 */
export function playerOwners(token) {
  return game.users.filter((user) => user.active && !user.isGM && token.testUserPermission(user, "OWNER"));
}

/**
 * Posts the offer: a card to the observer's owners and the GMs with a button
 * that rolls Perception from the observer's sheet. Its text and button are
 * kept in both languages (`flags.furtive.texts`, ui/chat.mjs), so the owner
 * reads their own, not the GM's.
 * @param {{sceneId: string, observer: TokenDocument, owners: User[]}} data
 */
export async function offerPerceptionCheck({ sceneId, observer, owners }) {
  const texts = [
    { selector: ".furtive-offer p", ...bilingual("FURTIVE.System.OfferText", { observer: observer.name ?? "" }) },
    { selector: '[data-furtive-action="sheetPerception"]', ...bilingual("FURTIVE.System.OfferButton") },
  ];
  await ChatMessage.create({
    speaker: { alias: t("FURTIVE.Title") },
    whisper: [...new Set([...owners.map((user) => /** @type {string} */ (user.id)), ...gmUserIds()])],
    content: `<div class="furtive-card furtive-offer"><p>${escapeHtml(t("FURTIVE.System.OfferText", { observer: observer.name ?? "" }))}</p><div class="furtive-buttons"><button type="button" data-furtive-action="sheetPerception">${escapeHtml(t("FURTIVE.System.OfferButton"))}</button></div></div>`,
    flags: { [MODULE_ID]: { kind: "perceptionOffer", sceneId, observer: observer.id, texts, lang: game.i18n.lang } },
  });
}

/**
 * The GM card line saying a check waits for a player's roll.
 * @param {TokenDocument} observer
 * @param {User[]} owners
 * @param {string} clause
 * @returns {import("../types.mjs").LogEntry}
 */
export function offerLogEntry(observer, owners, clause) {
  const text = bilingual("FURTIVE.System.OfferLog", { observer: observer.name ?? "", users: owners.map((user) => user.name ?? "").join(", ") });
  return /** @type {import("../types.mjs").LogEntry} */ ({ clause, audience: "gm", en: text.en, fr: text.fr });
}
