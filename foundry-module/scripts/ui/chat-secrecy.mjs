/**
 * The game system's chat about a token in a stealth attempt (B1): its roll,
 * usage and damage cards, and the names in their target trays, reach only
 * the GMs and the players who may see every token they name (its owners
 * and observers, and the players one of whose tokens perceives it:
 * secrecy.mjs `audienceOf`). And what other players' clients show of a
 * private roll they are not told about.
 *
 * - The creating client, `preCreateChatMessage(message, data, options,
 *   userId)`: the message names its speaker's token (or the speaker actor's
 *   tokens on the scene) and dnd5e's targets (`flags.dnd5e.targets`, `{name,
 *   uuid}` with the target ACTOR's uuid: dnd5e `getTargetDescriptors`,
 *   module/utils.mjs at release-4.4.4 and release-5.3.3, rendered by name in
 *   the card's target tray, module/documents/chat-message.mjs at
 *   release-5.3.3). When some player may not see all of them, the message is
 *   whispered: to that audience (a public message), or to the part of its
 *   recipients in that audience (a whisper; the GMs when none is left), with
 *   `message.updateSource` ("the documented way for a preCreate listener to
 *   change the pending document",
 *   https://foundryvtt.com/api/functions/hookEvents.preCreateDocument.html;
 *   Cautious Gamemaster's Pack whispers the messages of GM-hidden tokens the
 *   same way on v13, https://github.com/cs96and/FoundryVTT-CGMP
 *   module/scripts/chat-resolver.js). It is marked `flags.furtive.secret`, as
 *   is a Stealth roll Furtive uses, which the roller's client makes a GM
 *   roll (systems/sheet-rolls.mjs).
 * - A whispered message that holds rolls still reaches every client, whole:
 *   the others show a "... privately rolled some dice" line in its place
 *   ("the message itself may be visible while the content of that message
 *   is not", `ChatMessage#isContentVisible`,
 *   https://foundryvtt.com/api/v10/classes/client.ChatMessage.html). On those
 *   clients, at render (`renderChatMessageHTML`), the module hides that line
 *   for a message marked `secret`, and for a GM's private roll unless the
 *   world setting `secretRollNotice` is on ("Players see that the GM rolled
 *   in secret", off by default), as Hide GM Rolls hides private GM rolls
 *   (https://github.com/sPOiDar/fvtt-module-hide-gm-rolls). The module's own
 *   secret rolls are no Foundry roll messages while that setting is off
 *   (systems/formula-rolls.mjs), so they reach the GMs alone.
 */

import { MODULE_ID } from "../constants.mjs";
import { audienceOf } from "./secrecy.mjs";

/** Ids of every GM user. */
const gmIds = () => game.users.filter((user) => user.isGM).map((user) => /** @type {string} */ (user.id));

/**
 * The tokens a message names on its speaker's scene: the speaker's token
 * (else the speaker actor's linked tokens there) and dnd5e's targets.
 * @param {ChatMessage} message
 * @returns {TokenDocument[]}
 */
export function namedTokens(message) {
  const speaker = /** @type {any} */ (message).speaker ?? {};
  const scene = game.scenes.get(speaker.scene) ?? canvas?.scene ?? null;
  if (!scene) return [];
  /** @type {Set<TokenDocument>} */
  const named = new Set();
  const byActor = (/** @type {string} */ actorId) => scene.tokens.filter((token) => token.actorLink && token.actorId === actorId);
  const own = speaker.token ? scene.tokens.get(speaker.token) : null;
  if (own) named.add(own);
  else if (speaker.actor) for (const token of byActor(speaker.actor)) named.add(token);
  const targets = /** @type {any} */ (message).flags?.dnd5e?.targets;
  for (const target of Array.isArray(targets) ? targets : []) {
    const uuid = String(target?.uuid ?? "");
    // An unlinked token's actor: Scene.<scene>.Token.<token>.Actor.<actor>; a linked one: Actor.<actor>.
    const unlinked = /^Scene\.([^.]+)\.Token\.([^.]+)/.exec(uuid);
    if (unlinked) {
      const token = unlinked[1] === scene.id ? scene.tokens.get(unlinked[2]) : null;
      if (token) named.add(token);
      continue;
    }
    const linked = /^Actor\.([^.]+)$/.exec(uuid);
    if (linked) for (const token of byActor(linked[1])) named.add(token);
  }
  return [...named];
}

/**
 * `preCreateChatMessage`, on the creating client, after the module's stamps
 * (systems/sheet-rolls.mjs): a message naming a token some player may not
 * see named is whispered to those who may; a roll no other player may read
 * makes no sound. Its `sound` is "The URL of an audio file which plays when
 * this message is received" (`ChatMessageData#sound`,
 * https://foundryvtt.com/api/v14/interfaces/foundry.documents.types.ChatMessageData.html),
 * and a private roll is received by every client: the dice sound
 * (`CONFIG.sounds.dice`, which systems set on their rolls) would tell them a
 * roll happened, so a roll marked `secret` and, unless `secretRollNotice`
 * is on, a GM's private roll are created silent, for their readers too.
 * @param {ChatMessage} message
 */
export function onPreCreateChatMessage(message) {
  restrictAudience(message);
  const doc = /** @type {any} */ (message);
  if (!doc.sound || !(doc.rolls?.length > 0) || !(doc.whisper?.length > 0)) return;
  const secret = Boolean(doc.flags?.[MODULE_ID]?.secret) || (Boolean(game.user?.isGM) && !secretRollNotice());
  if (secret) doc.updateSource({ sound: null });
}

/**
 * A message naming a token some player may not see named is whispered to
 * those who may, and marked `flags.furtive.secret`.
 * @param {ChatMessage} message
 */
export function restrictAudience(message) {
  const named = namedTokens(message);
  if (!named.length) return;
  const audience = audienceOf(named);
  if (!audience) return;
  const recipients = /** @type {any[]} */ (/** @type {any} */ (message).whisper ?? []).map((user) => String(user?.id ?? user));
  let whisper = recipients.length ? recipients.filter((id) => audience.includes(id)) : audience;
  if (!whisper.length) whisper = gmIds();
  /** @type {any} */ (message).updateSource({ whisper, flags: { [MODULE_ID]: { secret: true } } });
}

/**
 * Whether players see that the GM rolled in secret (the world setting).
 * @returns {boolean}
 */
export function secretRollNotice() {
  return Boolean(game.settings.get(MODULE_ID, "secretRollNotice"));
}

/**
 * On render, on a client that may not read a private roll: hides its
 * placeholder when it is about an unseen token or a Stealth roll Furtive uses, or is a GM's secret roll
 * and the table does not want to see those.
 * @param {ChatMessage} message
 * @param {HTMLElement} root the pending HTML
 */
export function hidePlaceholder(message, root) {
  const doc = /** @type {any} */ (message);
  // Not a recipient of a whispered message: what this client renders is the placeholder (its own
  // test, not `isContentVisible`, which the v14 pages do not list).
  const whisper = /** @type {any[]} */ (doc.whisper ?? []).map((user) => String(user?.id ?? user));
  if (game.user?.isGM || doc.isAuthor || !whisper.length || whisper.includes(String(game.user?.id))) return;
  const secret = Boolean(doc.flags?.[MODULE_ID]?.secret);
  if (!secret && !(doc.author?.isGM && !secretRollNotice())) return;
  root.hidden = true;
  root.style.display = "none";
}
