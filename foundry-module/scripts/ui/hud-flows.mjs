/**
 * The HUD's dialog flows: the Attack dialog (one attack on every target) and the
 * Knockout dialog (raw damage), each then running the action (api/macros.mjs).
 */

import { attackDialog, hitsOf, knockoutDialog, rawDamageOf } from "./dialogs.mjs";
import { engineText, listOf, t } from "../i18n.mjs";
import { attack, knockout } from "../api/macros.mjs";
import { notifyRefusal } from "../net/requests.mjs";
import { readSettings } from "../settings.mjs";
/**
 * The Knockout flow of the HUD: raw damage dialog, then the attempt.
 * @param {TokenDocument} attacker
 * @param {TokenDocument} target
 * @param {{en: string, fr: string}} explanation
 */
export async function knockoutWithDialog(attacker, target, explanation) {
  const values = await knockoutDialog({ attackerName: attacker.name ?? "", targetName: target.name ?? "", explanation: engineText(explanation) || t("FURTIVE.Dialog.KnockoutIntro") });
  if (!values) return null;
  return knockout(attacker, target, { rawDamage: rawDamageOf(values.rawDamage) });
}

/**
 * The Attack flow of the HUD: one dialog, then one attack on every target
 * (one attack instance: one O8 penalty, one transaction, one card).
 * @param {TokenDocument} attacker
 * @param {TokenDocument[]} targets
 */
export async function attackWithDialog(attacker, targets) {
  const settings = readSettings();
  const values = await attackDialog({ attackerName: attacker.name ?? "", targetName: listOf(targets.map((target) => target.name ?? "")), ruleset: settings.ruleset });
  if (!values) return;
  await attack(attacker, targets.length === 1 ? targets[0] : targets, {
    noisy: Boolean(values.noisy),
    hits: values.hits === undefined ? 1 : hitsOf(values.hits),
    area: Boolean(values.area),
    aimedAtSpace: values.aimedAtSpace === undefined ? true : Boolean(values.aimedAtSpace),
    hitZone: values.hitZone || null,
  }).catch(notifyRefusal);
}
