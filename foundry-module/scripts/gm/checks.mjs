/**
 * The engine's requests inside an action's transaction: the Perception
 * checks it asks for, rolled together by the GM or offered to the observer's
 * owner (perception-offers.mjs), and the new stealth rolls (P4) that wait for
 * the GM's button.
 */

import { MODULE_ID } from "../constants.mjs";
import { bilingual, escapeHtml, refusalText, t } from "../i18n.mjs";
import { readSystemSettings } from "../systems/automation-settings.mjs";
import { evaluateCheck } from "../systems/formula-rolls.mjs";
import { gmUserIds } from "../ui/chat.mjs";
import { secretRollNotice } from "../ui/chat-secrecy.mjs";
import { offerLogEntry, offerPerceptionCheck, playerOwners } from "./perception-offers.mjs";

/** @typedef {import("../types.mjs").Outcome} Outcome */
/** @typedef {import("../engine.mjs").SceneSession} SceneSession */
/** @typedef {import("../storage/store.mjs").SceneRecord} SceneRecord */
/** @typedef {import("../settings.mjs").FurtiveSettings} FurtiveSettings */
/** @typedef {import("./transaction.mjs").ActionEffects} ActionEffects */

/** How many rounds of Perception checks one action may chain (a check's answer may request another). */
const MAX_CHECK_ROUNDS = 4;

/**
 * Answers the engine's requests inside the transaction: the Perception
 * checks are rolled together (one GM-only Foundry message holding every
 * roll) when automatic checks are on, and their totals go back in one
 * `applyAll`; else the action's GM card gets a button per check to roll it.
 * Each observer of a check request is one check. New stealth rolls
 * (P4) wait for the GM's button (in combat they are made on the hider's
 * turn): they join the record's pending list, saved with the action.
 * @param {Scene} scene
 * @param {{pending: SceneRecord["pending"]}} record
 * @param {SceneSession} session
 * @param {Outcome["requests"]} requests
 * @param {ActionEffects} total
 * @param {FurtiveSettings} settings
 */
export async function answerRequests(scene, record, session, requests, total, settings) {
  let open = requests;
  // Observers whose owner was offered the roll in this action (one offer each).
  const offered = new Set();
  // Offered only when the owner's Perception roll will answer it (systems/sheet-rolls.mjs).
  const system = readSystemSettings();
  const offerChecks = system.offerChecks && system.perceptionRolls;
  for (let round = 0; round < MAX_CHECK_ROUNDS && open.length; round += 1) {
    const checks = [];
    for (const request of open) {
      const hider = scene.tokens.get(request.hider);
      if (!hider) continue;
      if (request.kind === "perceptionCheck") {
        // One request names every observer that rolls against the hider; each is its own check.
        for (const observerId of request.observers) {
          const observer = scene.tokens.get(observerId);
          if (!observer) continue;
          const owners = settings.autoPerception && offerChecks ? playerOwners(observer) : [];
          if (owners.length) {
            // B4: the owner rolls from the sheet; the check stays pending until then (perception-offers.mjs).
            if (!offered.has(observer.id)) {
              offered.add(observer.id);
              total.log.push(offerLogEntry(observer, owners, request.clause));
              await offerPerceptionCheck({ sceneId: /** @type {string} */ (scene.id), observer, owners });
            }
          } else if (settings.autoPerception) checks.push({ hiderId: request.hider, observerId, hider, observer });
          // Automatic checks off: the action's GM card gets a button to roll it.
          else total.checksToRoll.push({ hider: request.hider, observer: observerId, clause: request.clause });
        }
      } else if (request.kind === "stealthRoll") {
        record.pending = [...record.pending.filter((r) => !(r.kind === "stealthRoll" && r.hider === request.hider)), request];
        total.requests.push(request);
        // The action's GM card gets the "new roll" button (P4).
        total.rerolls.push(request.hider);
      }
    }
    if (!checks.length) return;
    const totals = await rollPerceptions(checks, settings);
    // A total that is no finite number never reaches the engine: that check is skipped and the GM told.
    for (const [index, { observer }] of checks.entries()) if (totals[index] === null) ui.notifications?.warn(t("FURTIVE.System.NoPerceptionTotal", { name: observer.name ?? "" }));
    const effects = session.applyAll(
      checks.flatMap(({ hiderId, observerId }, index) => (totals[index] === null ? [] : [{ type: "perceptionRolled", hider: hiderId, observer: observerId, total: totals[index] }])),
      { skipRefused: true },
    );
    for (const { error } of effects.refused) total.log.push({ clause: "", audience: "gm", en: refusalText(error), fr: refusalText(error) });
    total.changes.push(...effects.changes);
    total.hiddenFrom.push(...effects.hiddenFrom);
    total.attempts.push(...effects.attempts);
    total.views.push(...effects.views);
    total.applied.push(...effects.applied);
    total.log.push(...effects.log);
    open = effects.requests;
  }
}

/**
 * Rolls Perception checks together: one GM-only chat card listing every
 * roll, one per check, flavoured with the observer and the hider. The rolls
 * ride in `ChatMessage#rolls` (v11+; 3D dice modules show each) when the
 * table wants to see the GM roll (`secretRollNotice`: Foundry then shows the
 * other players a "privately rolled some dice" line), else in
 * `flags.furtive.rolls`, so the card reaches the GMs alone
 * (systems/formula-rolls.mjs, ui/chat-secrecy.mjs).
 * Foundry API: `Roll#options` (the roll's `flavor`), `ChatMessage.create({rolls, whisper})`
 * (https://foundryvtt.com/api/classes/foundry.documents.ChatMessage.html).
 * @param {{observer: TokenDocument, hider: TokenDocument}[]} checks
 * @param {FurtiveSettings} settings
 * @returns {Promise<(number | null)[]>} the totals rounded down to integers, in order; null for a total that is not a finite number
 */
async function rollPerceptions(checks, settings) {
  const rolls = [];
  for (const { observer, hider } of checks) {
    // The system's Perception check where it has one (systems/formula-rolls.mjs), the roll's own flavor naming the pair.
    // Fast-forwarded: the engine asked for it, not a user, so no roll dialog waits on the GM (docs/dnd5e-automation.md).
    const roll = /** @type {Roll} */ (await evaluateCheck("perception", settings.perceptionFormula, observer, { configure: false }));
    roll.options.flavor = t("FURTIVE.Roll.Perception", { observer: observer.name ?? "", hider: hider.name ?? "" });
    rolls.push(roll);
  }
  const notice = secretRollNotice();
  const items = rolls.map((roll, index) => `<li><span class="furtive-flavor">${escapeHtml(String(roll.options?.flavor ?? ""))}</span>: <strong>${Math.floor(Number(roll.total))}</strong></li>`).join("");
  // Each roll's line in both languages, so each GM reads theirs (ui/chat.mjs decorateChatMessage); GM-whispered only.
  const texts = checks.map(({ observer, hider }, index) => ({
    selector: `.furtive-rolls > li:nth-child(${index + 1}) .furtive-flavor`,
    ...bilingual("FURTIVE.Roll.Perception", { observer: observer.name ?? "", hider: hider.name ?? "" }),
  }));
  await ChatMessage.create({
    speaker: { alias: t("FURTIVE.Title") },
    whisper: gmUserIds(),
    flavor: t("FURTIVE.Roll.PerceptionChecks", { count: String(rolls.length) }),
    content: `<div class="furtive-card furtive-gm"><ul class="furtive-rolls">${items}</ul></div>`,
    ...(notice ? { rolls } : {}),
    // The message's flavor and each roll's own flavor in both languages too (ui/chat.mjs decorateChatMessage).
    flags: { [MODULE_ID]: { kind: "perceptionRolls", texts, flavor: bilingual("FURTIVE.Roll.PerceptionChecks", { count: String(rolls.length) }), rollFlavors: texts.map(({ en, fr }) => ({ en, fr })), lang: game.i18n.lang, ...(notice ? {} : { rolls: rolls.map((roll) => roll.toJSON()) }) } },
  });
  // The rules round down (floor, -20.5 is -21); a total that is not a finite number is null.
  return rolls.map((roll) => (Number.isFinite(Number(roll.total)) ? Math.floor(Number(roll.total)) : null));
}
