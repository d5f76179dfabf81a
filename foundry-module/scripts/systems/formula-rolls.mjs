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
 * Foundry API: `new Roll(formula, data)`, `await Roll#evaluate()` (async in
 * v12 and v13), `Roll#total`, `Roll#toMessage(messageData, {rollMode})`,
 * `Roll#render()`, `Roll#toJSON()` (https://foundryvtt.com/api/classes/foundry.dice.Roll.html),
 * `ChatMessage.getSpeaker({token})`, `CONST.DICE_ROLL_MODES`
 * (`PUBLIC: "publicroll"`, `PRIVATE: "gmroll"`, `BLIND: "blindroll"`, `SELF: "selfroll"`),
 * `Actor#getRollData()`.
 */

import { MODULE_ID } from "../constants.mjs";
import { engineText, escapeHtml } from "../i18n.mjs";
import { gmUserIds } from "../ui/chat.mjs";
import { secretRollNotice } from "../ui/chat-secrecy.mjs";

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
 * Posts an evaluated roll to chat (GM-only when `secret`), its flavor in the
 * poster's language (HTML-escaped) and, in its flags, in both (as text).
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
  const rollMode = secret ? CONST.DICE_ROLL_MODES.PRIVATE : game.settings.get("core", "rollMode");
  await roll.toMessage(data, { rollMode });
}
