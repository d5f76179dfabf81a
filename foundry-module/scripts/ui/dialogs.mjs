/**
 * Form dialogs (DialogV2, v13 and v14).
 *
 * Foundry API: `foundry.applications.api.DialogV2.wait({window: {title},
 * content, buttons: [{action, label, default, callback(event, button, dialog)}],
 * rejectClose})`: resolves to the clicked button's callback result, or its
 * action when it has no callback, or null when dismissed (`rejectClose: false`).
 * `button.form` is the dialog's form.
 */

import { DEFENSES, HIT_ZONES } from "../constants.mjs";
import { situationModifiers } from "../engine.mjs";
import { BadRequest } from "../errors.mjs";
import { escapeHtml, senseLabel, t } from "../i18n.mjs";
import { renderModuleTemplate } from "./templates.mjs";

/** Checkbox groups read as arrays of values. */
const MULTI = new Set(["situation", "precautions", "allies"]);
/** Inputs repeated once per row (the Hide dialog's free modifiers) read as arrays, in document order. */
const ROWS = new Set(["freeLabel", "freeValue"]);

/**
 * Reads a dialog form into a plain object: checkbox groups in {@link MULTI}
 * become arrays of checked values, other checkboxes booleans, number inputs
 * numbers (an empty one null); the row inputs of {@link ROWS} become arrays.
 * @param {HTMLFormElement | null} form
 * @returns {Record<string, any>}
 */
export function readForm(form) {
  /** @type {Record<string, any>} */
  const data = {};
  if (!form) return data;
  for (const element of Array.from(form.elements)) {
    const input = /** @type {HTMLInputElement} */ (element);
    if (!input.name) continue;
    /** @type {unknown} */
    let value;
    if (input.type === "checkbox") {
      if (MULTI.has(input.name)) {
        data[input.name] ??= [];
        if (input.checked) data[input.name].push(input.value);
        continue;
      }
      value = input.checked;
    } else if (input.type === "number") {
      // An empty number field (a browser also empties one holding text that is no number,
      // https://html.spec.whatwg.org/multipage/input.html#number-state-(type=number)) reads null, not 0:
      // the caller decides whether a missing number is allowed.
      value = input.value.trim() === "" ? null : Number(input.value);
    } else value = input.value;
    if (ROWS.has(input.name)) (data[input.name] ??= []).push(value);
    else data[input.name] = value;
  }
  for (const name of MULTI) if (form.querySelector(`[name="${name}"]`)) data[name] ??= [];
  return data;
}

/**
 * Shows a form dialog; resolves to the form values, or null when cancelled.
 * @param {{title: string, template: string, data: object, ok: string}} options
 * @returns {Promise<Record<string, any> | null>}
 */
export async function formDialog({ title, template, data, ok }) {
  const content = await renderModuleTemplate(template, data);
  const DialogV2 = /** @type {any} */ (foundry).applications.api.DialogV2;
  const result = await DialogV2.wait({
    window: { title },
    content,
    buttons: [
      { action: "ok", label: ok, default: true, callback: (/** @type {Event} */ _event, /** @type {HTMLButtonElement} */ button) => readForm(button.form) },
      { action: "cancel", label: t("FURTIVE.Dialog.Cancel") },
    ],
    rejectClose: false,
  });
  return result && typeof result === "object" ? result : null;
}

/**
 * The GM's Hide dialog: the nine P2 toggles and the free modifiers
 * (percentile: one row per modifier in `free`, then an empty row for a new
 * one; a row whose value is 0, or entirely empty, is dropped; a row with a
 * label and no number is refused, {@link freeModifierOf}), or the movement
 * and precautions (opposed). Accepted as it opened, it answers `situation`
 * and `free` unchanged.
 * @param {{tokenName: string, requester?: string, intro?: string, ruleset: "percentile" | "opposed", senses: string[], precautions: string[], situation?: string[], free?: {label: string, value: number}[], moved?: boolean}} options
 * @returns {Promise<{situation: string[], free: {label: string, value: number}[], moved: boolean, precautions: string[]} | null>}
 * @throws {BadRequest} `invalid_input` for a free modifier with a label and no number value
 */
export async function hideDialog({ tokenName, requester, intro, ruleset, senses, precautions, situation = [], free: inForce = [], moved = true }) {
  const percentile = ruleset === "percentile";
  const values = await formDialog({
    title: t("FURTIVE.Dialog.HideTitle", { name: tokenName }),
    template: "hide-dialog.hbs",
    ok: t("FURTIVE.Action.hide"),
    data: {
      ruleset,
      percentile,
      intro: intro ?? (requester ? t("FURTIVE.Dialog.HideIntroPlayer", { name: tokenName, user: requester }) : t("FURTIVE.Dialog.HideIntro", { name: tokenName })),
      situationLabel: t("FURTIVE.Dialog.Situation"),
      situation: (percentile ? situationModifiers() : []).map((m) => ({ id: m.id, value: m.value > 0 ? `+${m.value}` : String(m.value), label: t(`FURTIVE.Modifier.${m.id}`), checked: situation.includes(m.id) })),
      freeLabel: t("FURTIVE.Dialog.FreeModifier"),
      freeNameLabel: t("FURTIVE.Dialog.FreeModifierLabel"),
      freePlaceholder: t("FURTIVE.Dialog.FreeModifierPlaceholder"),
      freeValueLabel: t("FURTIVE.Dialog.FreeModifierValue"),
      free: [...inForce.map((m) => ({ label: m.label, value: m.value })), { label: "", value: 0 }],
      moved,
      movedLabel: t("FURTIVE.Dialog.Moved"),
      precautionsLabel: t("FURTIVE.Dialog.Precautions"),
      senses: senses.map((id) => ({ id, label: senseLabel(id), checked: precautions.some((p) => p.toLowerCase() === id.toLowerCase()) })),
    },
  });
  if (!values) return null;
  const labels = /** @type {unknown[]} */ (values.freeLabel ?? []);
  const free = /** @type {unknown[]} */ (values.freeValue ?? [])
    .map((value, row) => freeModifierOf(row, labels[row], value))
    .filter((modifier) => modifier !== null);
  return { situation: values.situation ?? [], free, moved: Boolean(values.moved ?? true), precautions: values.precautions ?? [] };
}

/**
 * One free modifier row of the Hide / Situation dialog: `{label, value}`
 * (the value a whole number, a fraction truncated toward 0), or null for a
 * row that counts nothing (entirely empty, or a value of 0). A row with a
 * label but an empty value, or text that is no number (a browser empties a
 * number field holding it,
 * https://html.spec.whatwg.org/multipage/input.html#number-state-(type=number)),
 * is refused naming the field and the row, before anything is sent: the GM
 * typed a label and expects it counted.
 * @param {number} row 0-based row of the dialog
 * @param {unknown} rawLabel the row's `freeLabel`
 * @param {unknown} raw the row's `freeValue` (readForm: a number, or null when empty)
 * @returns {{label: string, value: number} | null}
 * @throws {BadRequest} `invalid_input`
 */
function freeModifierOf(row, rawLabel, raw) {
  const label = String(rawLabel ?? "").trim();
  const number = raw === null || raw === undefined || String(raw).trim() === "" ? NaN : Number(raw);
  if (!Number.isFinite(number)) {
    if (!label) return null;
    throw new BadRequest("invalid_input", `freeValue: the free modifier ${JSON.stringify(label)} (row ${row + 1}) has no value that is a number; type a whole number, or empty its label; nothing changed`);
  }
  const value = Math.trunc(number);
  return value === 0 ? null : { label, value };
}

/**
 * The Attack dialog: hit zone (percentile, P7) or noise, hits, area and aim (opposed, O8, O10).
 * @param {{attackerName: string, targetName: string, ruleset: "percentile" | "opposed"}} options
 */
export async function attackDialog({ attackerName, targetName, ruleset }) {
  return formDialog({
    title: t("FURTIVE.Dialog.AttackTitle", { attacker: attackerName, target: targetName }),
    template: "attack-dialog.hbs",
    ok: t("FURTIVE.Action.attack"),
    data: {
      percentile: ruleset === "percentile",
      intro: t("FURTIVE.Dialog.AttackIntro", { attacker: attackerName, target: targetName }),
      zoneLabel: t("FURTIVE.Dialog.HitZone"),
      noZone: t("FURTIVE.Dialog.NoHitZone"),
      zones: HIT_ZONES.map((id) => ({ id, label: t(`FURTIVE.HitZone.${id}`) })),
      noisyLabel: t("FURTIVE.Dialog.Noisy"),
      areaLabel: t("FURTIVE.Dialog.Area"),
      aimedLabel: t("FURTIVE.Dialog.AimedAtSpace"),
      hitsLabel: t("FURTIVE.Dialog.Hits"),
    },
  });
}

/**
 * A whole number ≥ 0 typed in a dialog's number field, a fraction rounded
 * down. An empty field or text that is no number is refused, naming the
 * field, before anything changes.
 * @param {string} field the form field, named in the refusal
 * @param {string} what what the number counts, for the refusal
 * @param {unknown} raw the form value
 * @returns {number}
 * @throws {BadRequest} `invalid_input`
 */
function wholeNumberOf(field, what, raw) {
  const text = String(raw ?? "").trim();
  const value = Number(text);
  if (!text || !Number.isFinite(value) || value < 0) throw new BadRequest("invalid_input", `${field}: ${JSON.stringify(text)} is not ${what} (a whole number, 0 or more); nothing changed`);
  return Math.floor(value);
}

/**
 * The Attack dialog's `hits` (a number field, O8: how many hits the attack
 * makes), from the HUD (ui/hud-flows.mjs) or a system attack roll
 * (systems/attacks.mjs), by {@link wholeNumberOf}.
 * @param {unknown} raw the form value
 * @returns {number}
 * @throws {BadRequest} `invalid_input`
 */
export function hitsOf(raw) {
  return wholeNumberOf("hits", "a number of hits", raw);
}

/**
 * The Knockout dialog's `rawDamage` (P8: the attack's raw damage), by
 * {@link wholeNumberOf}: refused before the knockout d100 is rolled.
 * @param {unknown} raw the form value
 * @returns {number}
 * @throws {BadRequest} `invalid_input`
 */
export function rawDamageOf(raw) {
  return wholeNumberOf("rawDamage", "a raw damage", raw);
}

/**
 * The Defend dialog: which target, against which attacker, which defense.
 * @param {{targets: {id: string, name: string, selected?: boolean}[], attackers: {id: string, name: string, selected?: boolean}[]}} options
 */
export async function defendDialog({ targets, attackers }) {
  return formDialog({
    title: t("FURTIVE.Dialog.DefendTitle"),
    template: "defend-dialog.hbs",
    ok: t("FURTIVE.Action.defend"),
    data: {
      targetLabel: t("FURTIVE.Dialog.DefendTarget"),
      attackerLabel: t("FURTIVE.Dialog.DefendAttacker"),
      defenseLabel: t("FURTIVE.Dialog.Defense"),
      targets,
      attackers,
      defenses: DEFENSES.map((id) => ({ id, label: t(`FURTIVE.Defense.${id}`) })),
    },
  });
}

/**
 * The Point out dialog (O3): which hider, to which allies.
 * @param {{hiders: {id: string, name: string}[], allies: {id: string, name: string, checked: boolean}[]}} options
 */
export async function pointOutDialog({ hiders, allies }) {
  return formDialog({
    title: t("FURTIVE.Dialog.PointOutTitle"),
    template: "point-out-dialog.hbs",
    ok: t("FURTIVE.Action.pointOut"),
    data: { hiderLabel: t("FURTIVE.Dialog.PointOutHider"), alliesLabel: t("FURTIVE.Dialog.PointOutAllies"), hiders, allies },
  });
}

/**
 * The Knockout dialog (P8): the attack's raw damage.
 * @param {{attackerName: string, targetName: string, explanation: string}} options
 */
export async function knockoutDialog({ attackerName, targetName, explanation }) {
  return formDialog({
    title: t("FURTIVE.Dialog.KnockoutTitle", { attacker: attackerName, target: targetName }),
    template: "knockout-dialog.hbs",
    ok: t("FURTIVE.Action.knockout"),
    data: { intro: explanation, damageLabel: t("FURTIVE.Dialog.RawDamage") },
  });
}

/**
 * A yes/no question.
 * @param {{title: string, text: string}} options
 * @returns {Promise<boolean>}
 */
export async function confirmDialog({ title, text }) {
  const DialogV2 = /** @type {any} */ (foundry).applications.api.DialogV2;
  const result = await DialogV2.wait({
    window: { title },
    content: `<p>${escapeHtml(text)}</p>`,
    buttons: [
      { action: "yes", label: t("FURTIVE.Dialog.Yes"), default: true },
      { action: "no", label: t("FURTIVE.Dialog.Cancel") },
    ],
    rejectClose: false,
  });
  return result === "yes";
}
