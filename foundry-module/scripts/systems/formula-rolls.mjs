/**
 * Foundry rolls (B4): every die is a Foundry roll that shows in chat (3D dice
 * work), GM-only when it reveals hidden numbers. A GM-only roll is a Foundry
 * roll message only when the table wants to see the GM roll (the world
 * setting `secretRollNotice`): such a message reaches every client, as a
 * "privately rolled some dice" line (ui/chat-secrecy.mjs). Otherwise it is a
 * card whispered to the GMs, the roll rendered in its content
 * (`Roll#render`) and kept in `flags.furtive.rolls` (`Roll#toJSON`), which
 * reaches the GMs alone.
 *
 * The opposed ruleset's Stealth and Perception checks go through the game
 * system's own roll where it has one ({@link evaluateCheck}), so its
 * modifiers apply; other systems, and the percentile ruleset's d100, roll the
 * formula of the settings.
 *
 * Foundry API: `new Roll(formula, data)`, `await Roll#evaluate()`,
 * `Roll#total`, `Roll#toMessage(messageData, {create: false})` (the message
 * data), `Roll#render()`, `Roll#toJSON()` (https://foundryvtt.com/api/classes/foundry.dice.Roll.html),
 * `ChatMessage.create(data)`, `ChatMessage.getSpeaker({token})`,
 * `Actor#getRollData()`; who a message reaches: ui/message-modes.mjs.
 */

import { MODULE_ID } from "../constants.mjs";
import { engineText, escapeHtml } from "../i18n.mjs";
import { gmUserIds } from "../ui/chat.mjs";
import { secretRollNotice } from "../ui/chat-secrecy.mjs";
import { applyMessageMode, currentRollMode, gmMode } from "../ui/message-modes.mjs";
import { dnd5eGeneration } from "./dnd5e.mjs";

/**
 * The flags of the module's own roll messages: `kind: "roll"`, so the system
 * automation (systems/sheet-rolls.mjs) never takes them for a roll from the sheet,
 * and the flavor in both languages (ui/chat.mjs `decorateChatMessage`), with the
 * language it was posted in.
 * @param {{en: string, fr: string}} flavor
 */
const ownRoll = (flavor) => ({ [MODULE_ID]: { kind: "roll", flavor: { en: flavor.en, fr: flavor.fr }, lang: game.i18n.lang } });

/**
 * Rolls a formula for a token's actor and posts it to chat.
 * @param {string} formula  e.g. `1d20 + @skills.ste.total`
 * @param {TokenDocument | null} token whose actor's roll data fills `@` references
 * @param {{flavor: {en: string, fr: string}, secret: boolean}} options `flavor` in both languages
 *   (e.g. `bilingual(key, data)`: each reader reads theirs); `secret`: GM-only roll mode
 * @returns {Promise<number>} the total, rounded down to an integer (the rules round down)
 */
export async function rollFormula(formula, token, { flavor, secret }) {
  const roll = new Roll(formula, token?.actor?.getRollData?.() ?? {});
  await roll.evaluate();
  await postRoll(roll, token, { flavor, secret });
  return Math.floor(Number(roll.total));
}

/**
 * Evaluates a formula for a token's actor without posting it: the caller
 * posts it with {@link postRoll} once the engine accepted the action, so a
 * refused action leaves no roll in chat.
 * @param {string} formula
 * @param {TokenDocument | null} token
 * @returns {Promise<Roll>}
 */
export async function evaluateFormula(formula, token) {
  const roll = new Roll(formula, token?.actor?.getRollData?.() ?? {});
  await roll.evaluate();
  return roll;
}

/**
 * A check of the opposed ruleset (Stealth O1, Perception O4) for a token's
 * actor, evaluated and not posted (the caller posts it, {@link postRoll}).
 * dnd5e 4.1 to 6.0: the system's own skill roll, `Actor5e#rollSkill({skill,
 * event}, dialog, {create: false})` (release-4.4.4, release-5.3.3 and 6.0
 * c83a613dd module/documents/actor/actor.mjs `rollSkill`), which applies what the
 * sheet applies: the skill's roll mode, so armour with stealth disadvantage
 * from 5.1 (`skills.ste.roll.mode`, release-5.1.0
 * module/data/actor/templates/attributes.mjs L179-180), Reliable Talent, the
 * bonuses; no message (`message.create: false`, release-4.4.4
 * module/dice/basic-roll.mjs L215-220, release-5.3.3 L171-181): the module posts it,
 * GM-only, so the dialog's message mode starts at the GM-private one
 * (`message.rollMode`, release-5.3.3 module/applications/dice/roll-configuration-dialog.mjs
 * L235-237, keys of `CONFIG.ChatMessage.modes` on v14).
 *
 * The roll dialog: `configure: true` (a roll made by hand, the Hide) leaves
 * `dialog.configure` unset, so dnd5e decides as for a sheet roll: the dialog
 * shows unless the click held a fast-forward key of dnd5e's keybindings
 * (`D20Roll.applyKeybindings`: `dialog.configure ??= !keys pressed`,
 * release-4.4.4 module/dice/d20-roll.mjs L111-119, release-5.3.3 L81-90; Shift,
 * Alt, Ctrl by default, editable in Configure Controls, release-5.3.3
 * module/settings.mjs L21-34). A closed dialog gives no roll: `rollSkill` answers
 * null (release-5.3.3 module/applications/dice/roll-configuration-dialog.mjs
 * L401-402 and L416-421, actor.mjs `#rollSkillTool` `if (!rolls.length) return
 * null`), and so does this function. `configure: false` (a check the engine asks
 * for) fast-forwards (`basic-roll.mjs` release-5.3.3 L110): no dialog; a roll a
 * system hook cancelled falls back to the formula, as the engine needs a total.
 * Any other system: the formula.
 * @param {"stealth" | "perception"} check
 * @param {string} formula the setting's formula, for systems without a roll API
 * @param {TokenDocument | null} token
 * @param {{configure?: boolean, event?: Event}} [options] `configure`: the system's roll dialog may show
 *   (default false); `event`: the click, whose keys dnd5e reads
 * @returns {Promise<Roll | null>} null when the roll dialog was closed
 */
export async function evaluateCheck(check, formula, token, { configure = false, event } = {}) {
  const actor = /** @type {any} */ (token?.actor);
  if (dnd5eGeneration() && typeof actor?.rollSkill === "function") {
    const config = { skill: check === "stealth" ? "ste" : "prc", ...(event ? { event } : {}) };
    const rolls = await actor.rollSkill(config, configure ? {} : { configure: false }, { create: false, rollMode: gmMode() });
    if (rolls?.[0]) return rolls[0];
    if (configure) return null;
  }
  return evaluateFormula(formula, token);
}

/**
 * {@link evaluateCheck}, then posted like {@link rollFormula}.
 * @param {"stealth" | "perception"} check
 * @param {string} formula
 * @param {TokenDocument | null} token
 * @param {{flavor: {en: string, fr: string}, secret: boolean}} options
 * @returns {Promise<number>} the total, rounded down to an integer
 */
export async function rollCheck(check, formula, token, { flavor, secret }) {
  const roll = /** @type {Roll} */ (await evaluateCheck(check, formula, token));
  await postRoll(roll, token, { flavor, secret });
  return Math.floor(Number(roll.total));
}

/**
 * Posts an evaluated roll to chat (GM-only when `secret`, else in the user's
 * chosen mode), its flavor in the poster's language (HTML-escaped) and, in
 * its flags, in both (as text).
 * @param {Roll} roll
 * @param {TokenDocument | null} token
 * @param {{flavor: {en: string, fr: string}, secret: boolean}} options
 */
export async function postRoll(roll, token, { flavor, secret }) {
  // The flavor is rendered as HTML: escaped, so a token name with `&` or `<` shows as typed (ui/chat.mjs localizeFlavors).
  const data = { speaker: ChatMessage.getSpeaker({ token }), flavor: escapeHtml(engineText(flavor)), flags: ownRoll(flavor) };
  if (secret && !secretRollNotice()) {
    const flags = { [MODULE_ID]: { ...data.flags[MODULE_ID], rolls: [roll.toJSON()] } };
    await ChatMessage.create({ ...data, flags, whisper: gmUserIds(), content: await roll.render() });
    return;
  }
  const message = /** @type {Record<string, any>} */ (await roll.toMessage(data, { create: false }));
  applyMessageMode(message, secret ? gmMode() : currentRollMode(), { roller: game.user?.id ?? undefined });
  await ChatMessage.create(message);
}
