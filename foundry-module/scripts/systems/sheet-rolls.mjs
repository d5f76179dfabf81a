/**
 * Rolls from the game system's sheet drive the engine.
 *
 * Roll hooks fire only on the roller's client, so the roller decides
 * nothing: its client only stamps each roll message it creates with the
 * acting token and the user's targets (`flags.furtive.systemRoll`, in
 * `preCreateChatMessage`), and the active GM acts on `createChatMessage`
 * (docs/dnd5e-automation.md, "Where hooks run"), through the one-transaction
 * pipeline (gm/transaction.mjs):
 * - a Stealth roll starts or refreshes a stealth attempt: opposed O1/O7 with
 *   the total; percentile P1 with the roll's d100, after the GM's Hide dialog
 *   for the situation modifiers (P2);
 * - a Perception roll answers the observer's pending checks (O4, O9, O13),
 *   or is an active search against every hider in its clear view that it
 *   does not perceive yet (O4 made actively; the engine keeps a stored result);
 * - an attack roll with targets is one engine attack (systems/attacks.mjs).
 *
 * What a roll is: dnd5e's own message flags (systems/dnd5e.mjs); other
 * systems: the match settings (systems/automation-settings.mjs), or the module's own
 * stamp on a Perception roll it offered (gm/perception-offers.mjs). The
 * message's author must own the acting token. A roll whispered to no GM (a
 * self roll) changes nothing, even when Foundry shows it to the GMs.
 *
 * Foundry API: hooks `preCreateChatMessage(message, data, options, userId)`
 * (the creating client; `message.updateSource` changes the pending message)
 * and `createChatMessage(message, options, userId)` (every client that
 * receives it) (https://foundryvtt.com/api/functions/hookEvents.preCreateDocument.html,
 * https://foundryvtt.com/api/functions/hookEvents.createDocument.html);
 * `ChatMessage#speaker`, `ChatMessage#rolls`, `ChatMessage#author`;
 * `Roll#dice` / `DiceTerm#number` / `DiceTerm#faces` / `DiceTerm#total` (https://foundryvtt.com/api/classes/foundry.dice.Roll.html,
 * https://foundryvtt.com/api/classes/foundry.dice.terms.DiceTerm.html).
 */

import { MODULE_ID } from "../constants.mjs";
import { dnd5eAttackArea, dnd5eGeneration, dnd5eRollType, dnd5eRolledWithDisadvantage, rollDnd5ePerception } from "./dnd5e.mjs";
import { FurtiveError } from "../errors.mjs";
import { GM_ACTIONS } from "../gm/actions.mjs";
import { sceneState } from "../gm/scene-state.mjs";
import { reportRefusal, transact } from "../gm/transaction.mjs";
import { bilingual, engineText, escapeHtml, t } from "../i18n.mjs";
import { readSettings } from "../settings.mjs";
import { isActiveGM } from "../storage/store.mjs";
import { handleAttack, takeAttackNote, tokenOfActor, userTargetIds } from "./attacks.mjs";
import { messageMatches, readSystemSettings } from "./automation-settings.mjs";
import { applyMessageMode, gmMode } from "../ui/message-modes.mjs";

/**
 * The stamp a roller's client puts on its roll messages.
 * @typedef {object} SystemRollStamp
 * @property {string} sceneId
 * @property {string} tokenId      the acting token (speaker, or the offered observer)
 * @property {string[]} targets    attack rolls: the user's targets on that scene (token ids); else empty
 * @property {"perception"} [type] set by the module on a Perception roll it offered (generic systems)
 * @property {boolean} [disadvantage] dnd5e attack: the roller's pre hook imposed disadvantage (O10); the GM reads the roll itself
 * @property {boolean} [area]      dnd5e attack: the roller's pre hook saw an area effect (O8); the GM reads the item itself
 */

/** Roller side: the observer whose offered Perception roll is being made. */
let offered = /** @type {{actorId: string, tokenId: string, sceneId: string} | null} */ (null);

/**
 * Roller side, `preCreateChatMessage`: stamps a roll message with the acting
 * token and this user's targets. The module's own cards (`flags.furtive.kind`)
 * are left alone.
 * @param {ChatMessage} message the pending message
 * @param {Record<string, any>} data
 * @param {Record<string, any>} _options
 * @param {string} userId
 */
export function stampRollMessage(message, data, _options, userId) {
  if (userId && userId !== game.user?.id) return;
  if (!Array.isArray(data?.rolls) || !data.rolls.length) return;
  const own = data.flags?.[MODULE_ID] ?? {};
  if (own.kind) return;
  const speaker = data.speaker ?? {};
  const actor = speaker.actor ? (/** @type {any} */ (game).actors?.get(speaker.actor) ?? null) : null;
  let token = speaker.token ? (game.scenes.get(speaker.scene)?.tokens.get(speaker.token) ?? canvas?.scene?.tokens.get(speaker.token) ?? null) : null;
  const answersOffer = Boolean(offered && (!actor || actor.id === offered.actorId));
  if (offered && answersOffer) token = game.scenes.get(offered.sceneId)?.tokens.get(offered.tokenId) ?? token;
  offered = null;
  // A dnd5e attack: the attacker's token as the attack pre hook resolved it (an unlinked token's actor).
  const dnd5e = dnd5eGeneration();
  const note = dnd5e && dnd5eRollType(message) === "attack" ? takeAttackNote(actor?.id ?? null) : null;
  if (!token && note?.tokenId) token = canvas?.scene?.tokens.get(note.tokenId) ?? null;
  token ??= tokenOfActor(actor);
  const scene = token?.parent;
  if (!token || !scene) return;
  // The targets only on an attack roll: no other roll message carries them (B1).
  const attack = dnd5e ? dnd5eRollType(message) === "attack" : messageMatches(message, readSystemSettings().attackMatch, token.actor ?? actor);
  /** @type {SystemRollStamp} */
  const stamp = { ...(own.systemRoll ?? {}), sceneId: /** @type {string} */ (scene.id), tokenId: /** @type {string} */ (token.id), targets: attack ? userTargetIds(scene) : [] };
  if (note) Object.assign(stamp, { disadvantage: note.disadvantage, area: note.area });
  /** @type {Record<string, any>} */
  const changes = { flags: { [MODULE_ID]: { systemRoll: stamp } } };
  // A Stealth roll Furtive uses, and a Perception roll answering a check Furtive offered, are GM rolls,
  // and other players' chat shows no line for them (ui/chat-secrecy.mjs; B1: no "a check happened").
  const secret = stealthFurtiveUses(message, data, stamp, token.actor ?? actor) || (answersOffer && readByAGM(data));
  if (secret) Object.assign(changes, gmRollMode(), { flags: { [MODULE_ID]: { systemRoll: stamp, secret: true } } });
  /** @type {any} */ (message).updateSource(changes);
}

/**
 * Whether Furtive will use this pending message as a Stealth roll (the GM's
 * onRollMessage): a Stealth roll, with sheet Stealth rolls on, that is not
 * whispered to no GM (a self roll, a whisper between players, stays its author's).
 * @param {ChatMessage} message
 * @param {Record<string, any>} data
 * @param {SystemRollStamp} stamp
 * @param {Actor | null} actor
 * @returns {boolean}
 */
function stealthFurtiveUses(message, data, stamp, actor) {
  if (!readSystemSettings().stealthRolls || rollTypeOf(message, stamp, actor) !== "stealth") return false;
  return readByAGM(data);
}

/**
 * Whether a pending roll is read by a GM and its roller: not blind, and public
 * or whispered to a GM (a self roll, a whisper between players, stays its author's).
 * @param {Record<string, any>} data
 */
function readByAGM(data) {
  if (data.blind) return false;
  const whisper = /** @type {any[]} */ (data.whisper ?? []).map((user) => String(user?.id ?? user));
  return !whisper.length || whisper.some((id) => game.users.get(id)?.isGM);
}

/**
 * Secrecy: a Stealth roll Furtive uses carries the held total (O1) or the d100
 * (P1), numbers for the GM only; so it is private to the GMs (v13 "gmroll",
 * v14 "gm": whispered to the GMs, the roller reads it too), whatever mode the
 * roller chose. A blind roll stays blind (stealthFurtiveUses). On v14 the
 * roller is among the recipients, or core hides the roll from them
 * (ui/message-modes.mjs).
 * @returns {{whisper: string[], blind: boolean}}
 */
function gmRollMode() {
  const data = applyMessageMode({}, gmMode(), { roller: game.user?.id ?? undefined });
  return { whisper: (data.whisper ?? []).map((/** @type {any} */ user) => String(user?.id ?? user)), blind: Boolean(data.blind) };
}

/**
 * What a roll message is, or null.
 * @param {ChatMessage} message
 * @param {SystemRollStamp | null} stamp
 * @param {Actor | null} actor
 * @returns {"stealth" | "perception" | "attack" | null}
 */
function rollTypeOf(message, stamp, actor) {
  if (dnd5eGeneration()) return dnd5eRollType(message);
  if (stamp?.type === "perception") return "perception";
  const system = readSystemSettings();
  if (messageMatches(message, system.stealthMatch, actor)) return "stealth";
  if (messageMatches(message, system.perceptionMatch, actor)) return "perception";
  // An area effect is one attack through systems/areas.mjs, never also an attack roll (O8: it counts once).
  if (messageMatches(message, system.areaMatch, actor)) return null;
  if (messageMatches(message, system.attackMatch, actor)) return "attack";
  return null;
}

/**
 * Active GM, `createChatMessage`: a roll from the sheet goes to the engine.
 * @param {ChatMessage} message
 * @param {Record<string, any>} _options
 * @param {string} userId the author
 */
export function onRollMessage(message, _options, userId) {
  if (!isActiveGM()) return;
  const source = /** @type {any} */ (message);
  const own = source.flags?.[MODULE_ID] ?? {};
  if (own.kind || !source.rolls?.length) return;
  // A roll whispered to no GM (a self roll, a whisper between players) is its
  // author's alone, even where Foundry shows it to the GMs (an author without
  // the MESSAGE_WHISPER permission, https://foundryvtt.com/api/v11/enums/foundry.CONST.CHAT_MESSAGE_TYPES.html).
  const whisper = /** @type {any[]} */ (source.whisper ?? []).map((user) => String(user?.id ?? user));
  if (whisper.length && !whisper.some((id) => game.users.get(id)?.isGM)) return;
  const stamp = /** @type {SystemRollStamp | null} */ (own.systemRoll ?? null);
  const speaker = source.speaker ?? {};
  const scene = game.scenes.get(stamp?.sceneId ?? speaker.scene);
  const token = scene?.tokens.get(stamp?.tokenId ?? speaker.token);
  if (!scene || !token) return;
  const type = rollTypeOf(message, stamp, token.actor ?? null);
  if (!type) return;
  const author = source.author ?? game.users.get(userId) ?? null;
  // Only a roll its author may make for that token counts.
  if (!author || !token.testUserPermission(author, "OWNER")) return;
  const system = readSystemSettings();
  const roll = source.rolls[0];
  let task = null;
  if ((type === "stealth" && system.stealthRolls) || (type === "perception" && system.perceptionRolls)) {
    // A total that is no number (a broken or forged roll) counts for nothing: no roll is made in its place.
    const total = integerTotal(roll.total);
    if (total === null) {
      ui.notifications?.warn(t(type === "stealth" ? "FURTIVE.System.NoStealthTotal" : "FURTIVE.System.NoPerceptionTotal", { name: token.name ?? "" }));
      return;
    }
    task = type === "stealth" ? stealthRoll(scene, token, roll, total, author) : perceptionRoll(scene, token, total);
  } else if (type === "attack" && system.attacks) {
    const targets = (stamp?.targets ?? []).map(String);
    // dnd5e: the mode the roll was made in, not the roller's claim (the dialog or Alt can override the pre hook),
    // and the area from the actor's item, not from the stamp (the roller's client writes the stamp).
    const dnd5e = Boolean(dnd5eGeneration());
    const disadvantage = dnd5e ? dnd5eRolledWithDisadvantage(roll) : null;
    const area = dnd5e ? dnd5eAttackArea(message, token.actor ?? null) : false;
    task = handleAttack(scene, { attacker: token, targetIds: targets, area, disadvantage, author: author.name ?? "" });
  }
  if (task) void task.catch(reportRefusal);
}

/**
 * A roll's total as an integer rounded down, or null when it is not a finite number
 * (`Roll#total` is a number once evaluated; a message's roll data is whatever
 * its author sent).
 * @param {unknown} total
 * @returns {number | null}
 */
function integerTotal(total) {
  // The rules round down: floor, so -20.5 is -21 (Math.trunc would give -20).
  return typeof total === "number" && Number.isFinite(total) ? Math.floor(total) : null;
}

/**
 * A Stealth roll from the sheet: the GM's Hide action with that roll (opposed:
 * the total, no dialog; percentile: the d100 face, after the GM's dialog for
 * the situation modifiers, P2). The roll is already in chat: nothing is rolled again.
 * @param {Scene} scene
 * @param {TokenDocument} token
 * @param {any} roll the message's first roll
 * @param {number} total its total (an integer)
 * @param {User} author
 */
async function stealthRoll(scene, token, roll, total, author) {
  const settings = readSettings();
  let value = total;
  if (settings.ruleset === "percentile") {
    // P1 reads one d100: a roll with several (2d100, or two d100 terms) has no single d100 to read.
    const hundreds = (roll.dice ?? []).filter((/** @type {any} */ die) => Number(die.faces) === 100);
    const d100 = hundreds.length === 1 && Number(hundreds[0].number) === 1 ? hundreds[0] : null;
    const face = d100 ? integerTotal(d100.total) : null;
    if (face === null) {
      ui.notifications?.warn(t("FURTIVE.System.NoD100", { name: token.name ?? "" }));
      return null;
    }
    value = face;
  }
  const options = { roll: value, dialog: settings.ruleset === "percentile", requester: author.isGM ? undefined : (author.name ?? "") };
  return GM_ACTIONS.hide(scene, { tokenId: token.id, options }, /** @type {User} */ (game.user), true);
}

/**
 * A Perception roll from the sheet (opposed rules): it answers every check
 * the engine asked of this observer (O4, O9, O13); with none pending, it is
 * an active search: the observer's O4 check against each hider in its clear
 * view (the engine pair's `clearView`) it does not perceive (the engine keeps
 * a result already stored, O4); a hider behind a wall or in darkness is not
 * searched. One transaction.
 * @param {Scene} scene
 * @param {TokenDocument} observer
 * @param {number} total
 */
async function perceptionRoll(scene, observer, total) {
  if (readSettings().ruleset !== "opposed") return null;
  const state = sceneState(scene)?.state;
  if (!state) return null;
  const id = /** @type {string} */ (observer.id);
  if (!state.creatures[id]) return null;
  const hiders = Object.entries(state.hiders).filter(([hider, record]) => hider !== id && record.phase === "hiding");
  const pending = hiders.filter(([, record]) => record.pairs?.[id]?.checkPending);
  // An active search is the observer's O4 check made on purpose: only hiders in its clear view, never through a wall
  // or into darkness it cannot see (docs/rules.md, "An active search").
  const chosen = pending.length ? pending : hiders.filter(([, record]) => record.pairs?.[id]?.clearView && !record.pairs?.[id]?.perceived);
  if (!chosen.length) return null;
  const events = chosen.map(([hider]) => /** @type {any} */ ({ type: "perceptionRolled", hider, observer: id, total }));
  const titleKey = pending.length ? "FURTIVE.System.PerceptionAnswer" : "FURTIVE.System.Search";
  return transact(scene, events, { lenient: true, titleKey, titleData: { name: observer.name ?? "" } });
}

/**
 * Player side (or GM), the offer card's button: rolls Perception from the
 * observer's sheet (dnd5e: its skill roll; other systems: the Perception
 * formula), in the user's roll mode (B4). The roll message then answers the
 * pending checks on the GM (onRollMessage).
 * @param {{sceneId?: string, observer?: string}} flags the offer's flags
 * @param {Event} [event]
 */
export async function rollOfferedPerception(flags, event) {
  const scene = game.scenes.get(String(flags.sceneId ?? ""));
  const token = scene?.tokens.get(String(flags.observer ?? ""));
  const actor = token?.actor;
  // The observer's token was deleted since the offer (its check left the engine with it).
  if (!scene || !token) {
    ui.notifications?.warn(t("FURTIVE.System.TokenGone"));
    return;
  }
  if (!actor || !token.isOwner) {
    ui.notifications?.warn(t("FURTIVE.System.NotYourToken"));
    return;
  }
  offered = { actorId: /** @type {string} */ (actor.id), tokenId: /** @type {string} */ (token.id), sceneId: /** @type {string} */ (scene.id) };
  try {
    if (dnd5eGeneration()) {
      await rollDnd5ePerception(actor, event);
      return;
    }
    const roll = new Roll(readSettings().perceptionFormula, actor.getRollData());
    await roll.evaluate();
    // The flavor in both languages (ui/chat.mjs decorateChatMessage); no `kind`: this roll is the sheet's, which answers the checks.
    const flavor = bilingual("FURTIVE.System.PerceptionFlavor", { observer: token.name ?? "" });
    await roll.toMessage({
      speaker: ChatMessage.getSpeaker({ token }),
      // Rendered as HTML: escaped, so the name shows as typed (ui/chat.mjs localizeFlavors).
      flavor: escapeHtml(engineText(flavor)),
      flags: { [MODULE_ID]: { systemRoll: { type: "perception", sceneId: scene.id, tokenId: token.id, targets: [] }, flavor, lang: game.i18n.lang } },
    });
  } catch (error) {
    if (error instanceof FurtiveError) throw error;
    console.error("furtive |", error);
  } finally {
    offered = null;
  }
}

/**
 * Registers the sheet-roll hooks (every client stamps; the active GM acts).
 */
export function registerSystemRollHooks() {
  Hooks.on("preCreateChatMessage", stampRollMessage);
  Hooks.on("createChatMessage", onRollMessage);
}
