/**
 * Who a chat message reaches: Foundry 13's roll modes and Foundry 14's
 * message modes.
 *
 * - v13: the `core.rollMode` setting and `ChatMessage.applyRollMode(data,
 *   mode)` with `CONST.DICE_ROLL_MODES` (`PRIVATE: "gmroll"`: whispered to the
 *   GMs, https://foundryvtt.com/api/classes/foundry.documents.ChatMessage.html#applyRollMode).
 * - v14: the `core.messageMode` setting, `CONFIG.ChatMessage.modes` (`public`,
 *   `gm`, `blind`, `self`, `ic`; https://foundryvtt.com/api/v14/variables/CONFIG.ChatMessage.html)
 *   and `ChatMessage.applyMode(data, mode)`, `applyRollMode` being deprecated
 *   (Muttley/foundryvtt-fallout#744). dnd5e 5.3.3 reads `messageMode` on 14
 *   and `rollMode` below (release-5.3.3 module/dice/basic-roll.mjs L441) and
 *   treats `ic` as public for a roll.
 * - v14 bug: a roll "Private to Gamemasters" is hidden from the player who
 *   rolled it (foundryvtt/foundryvtt#14258, closed without the fixing build
 *   named); the module puts the roller among the recipients, which changes
 *   nothing once fixed.
 */

/** Whether this Foundry has message modes (v14). */
function hasMessageModes() {
  return Number(game.release?.generation ?? 13) >= 14 && typeof (/** @type {any} */ (ChatMessage).applyMode) === "function";
}

/** The "private to GMs" mode of this Foundry: v14 `gm`, v13 `gmroll`. */
export function gmMode() {
  return hasMessageModes() ? "gm" : CONST.DICE_ROLL_MODES.PRIVATE;
}

/** The mode the user chose in the chat log for their rolls (`ic` counts as public). */
export function currentRollMode() {
  if (!hasMessageModes()) return String(game.settings.get("core", "rollMode"));
  const mode = String(game.settings.get("core", "messageMode"));
  return mode === "ic" ? "public" : mode;
}

/**
 * Applies a mode to chat message data (`whisper`, `blind`), in place. A
 * message private to the GMs keeps `roller` among its recipients on v14.
 * @param {Record<string, any>} data
 * @param {string} mode a mode of this Foundry ({@link gmMode}, {@link currentRollMode})
 * @param {{roller?: string}} [options] the id of the user whose roll it is
 * @returns {Record<string, any>} `data`
 */
export function applyMessageMode(data, mode, { roller } = {}) {
  if (!hasMessageModes()) {
    /** @type {any} */ (ChatMessage).applyRollMode(data, mode);
    return data;
  }
  /** @type {any} */ (ChatMessage).applyMode(data, mode);
  if (mode === "gm" && roller) {
    const whisper = /** @type {any[]} */ (data.whisper ?? []).map((user) => String(user?.id ?? user));
    if (!whisper.includes(roller)) data.whisper = [...whisper, roller];
  }
  return data;
}
