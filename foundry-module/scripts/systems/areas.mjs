/**
 * Area effects from the game system: a use that hits several
 * creatures with no attack roll (dnd5e: Fireball, Burning Hands, a saving
 * throw or damage in a template) is ONE engine `attack` with its list of
 * `targets` and `area: true`. The engine decides the rest (O8: one instance,
 * one -5 for the attacker; O9: each target that does not perceive it checks;
 * percentile P6: each target its surprise; O10: an area is never rolled with
 * disadvantage).
 *
 * Same path as attack rolls (systems/sheet-rolls.mjs, systems/attacks.mjs): the
 * user's client stamps its usage message with the acting token and the
 * user's targets (`flags.furtive.areaUse`, in `preCreateChatMessage`), and
 * the active GM acts on `createChatMessage`, only for a message whose author
 * owns the acting token, through `handleAttack` (one transaction, one GM
 * card).
 *
 * Which creatures are hit: the user's targets when the usage message is
 * created (`game.user.targets`). dnd5e itself does not target the tokens
 * inside a placed template (docs/dnd5e-automation.md §3), so a table that
 * places the template first targets by hand (or with a targeting module)
 * before using the spell; tokens targeted later are not part of it.
 *
 * What a use is:
 * - dnd5e: its usage card, read from the acting actor's own item or activity
 *   (`dnd5eAreaUse`): an area save or damage use without an attack roll. A
 *   use with an attack roll AND an area counts once, through its attack roll
 *   message (systems/sheet-rolls.mjs), never through its card.
 * - generic systems: a chat message (with or without a roll) matching the
 *   `areaMatch` setting (systems/automation-settings.mjs); such a message is never also
 *   an attack roll.
 *
 * Foundry API: hooks `preCreateChatMessage(message, data, options, userId)`
 * (the creating client; `message.updateSource` changes the pending message)
 * and `createChatMessage(message, options, userId)` (every client)
 * (https://foundryvtt.com/api/functions/hookEvents.preCreateDocument.html,
 * https://foundryvtt.com/api/functions/hookEvents.createDocument.html);
 * `ChatMessage#speaker`, `ChatMessage#author`, `ChatMessage#whisper`;
 * `Document#testUserPermission(user, "OWNER")`, the user has that ownership
 * level or more (shown on https://foundryvtt.com/api/v11/classes/foundry.documents.BaseMeasuredTemplate.html;
 * levels: https://foundryvtt.com/api/enums/foundry.CONST.DOCUMENT_OWNERSHIP_LEVELS.html).
 */

import { MODULE_ID } from "../constants.mjs";
import { dnd5eAreaUse, dnd5eGeneration, dnd5eIsUsageCard } from "./dnd5e.mjs";
import { reportRefusal } from "../gm/transaction.mjs";
import { isActiveGM } from "../storage/store.mjs";
import { handleAttack, tokenOfActor, userTargetIds } from "./attacks.mjs";
import { messageMatches, readSystemSettings } from "./automation-settings.mjs";

/**
 * The stamp a user's client puts on its usage message.
 * @typedef {object} AreaUseStamp
 * @property {string} sceneId
 * @property {string} tokenId   the acting token
 * @property {string[]} targets the user's targets on that scene (token ids)
 */

/**
 * Whether a message is an area use: dnd5e the usage card of an area attack
 * without an attack roll, read from the actor's item or activity
 * (`dnd5eAreaUse`); generic systems a match of the `areaMatch` setting. The
 * user's client asks it so that only such messages carry the user's targets;
 * the GM asks it again with the stamped token's actor.
 * @param {ChatMessage} message
 * @param {Actor | null} actor the acting token's actor
 */
function isAreaUse(message, actor) {
  if (dnd5eGeneration()) return dnd5eAreaUse(message, actor);
  return messageMatches(message, readSystemSettings().areaMatch, actor);
}

/**
 * User side, `preCreateChatMessage`: stamps a usage message with the acting
 * token and this user's targets. The module's own cards are left alone.
 * @param {ChatMessage} message the pending message
 * @param {Record<string, any>} data
 * @param {Record<string, any>} _options
 * @param {string} userId
 */
export function stampAreaMessage(message, data, _options, userId) {
  if (userId && userId !== game.user?.id) return;
  if (data?.flags?.[MODULE_ID]?.kind) return;
  const speaker = data?.speaker ?? {};
  const actor = speaker.actor ? (/** @type {any} */ (game).actors?.get(speaker.actor) ?? null) : null;
  if (dnd5eGeneration() && !dnd5eIsUsageCard(message)) return;
  const token = (speaker.token ? (game.scenes.get(speaker.scene)?.tokens.get(speaker.token) ?? canvas?.scene?.tokens.get(speaker.token) ?? null) : null) ?? tokenOfActor(actor);
  const scene = token?.parent;
  // The targets ride only on an area use's message (no other message carries them).
  if (!token || !scene || !isAreaUse(message, token.actor ?? actor)) return;
  /** @type {AreaUseStamp} */
  const stamp = { sceneId: /** @type {string} */ (scene.id), tokenId: /** @type {string} */ (token.id), targets: userTargetIds(scene) };
  /** @type {any} */ (message).updateSource({ flags: { [MODULE_ID]: { areaUse: stamp } } });
}

/**
 * Active GM, `createChatMessage`: an area use with targets is one engine
 * attack (`handleAttack` with `area: true`).
 * @param {ChatMessage} message
 * @param {Record<string, any>} _options
 * @param {string} userId the author
 */
export function onAreaMessage(message, _options, userId) {
  if (!isActiveGM() || !readSystemSettings().attacks) return;
  const source = /** @type {any} */ (message);
  const own = source.flags?.[MODULE_ID] ?? {};
  const stamp = /** @type {AreaUseStamp | null} */ (own.areaUse ?? null);
  if (own.kind || !stamp) return;
  // A message whispered to no GM is its author's alone (as for rolls, systems/sheet-rolls.mjs).
  const whisper = /** @type {any[]} */ (source.whisper ?? []).map((user) => String(user?.id ?? user));
  if (whisper.length && !whisper.some((id) => game.users.get(id)?.isGM)) return;
  const scene = game.scenes.get(String(stamp.sceneId ?? ""));
  const token = scene?.tokens.get(String(stamp.tokenId ?? ""));
  if (!scene || !token) return;
  const author = source.author ?? game.users.get(userId) ?? null;
  // Only a use its author may make for that token counts.
  if (!author || !token.testUserPermission(author, "OWNER")) return;
  // dnd5e: the actor's own item or activity says whether this is an area attack, not the stamp.
  if (!isAreaUse(message, token.actor ?? null)) return;
  const targets = Array.isArray(stamp.targets) ? stamp.targets.map(String) : [];
  void handleAttack(scene, { attacker: token, targetIds: targets, area: true, disadvantage: null, author: author.name ?? "" }).catch(reportRefusal);
}

/**
 * Registers the area-use hooks (every client stamps; the active GM acts).
 */
export function registerSystemAreaHooks() {
  Hooks.on("preCreateChatMessage", stampAreaMessage);
  Hooks.on("createChatMessage", onAreaMessage);
}
