/**
 * The macro API's actions (api/api.mjs exposes them): each resolves its tokens
 * and runs the action where it belongs (net/requests.mjs). Defend rolls on the
 * defender's own client after asking the GM (P6). Every action is async: a
 * token it cannot resolve or an argument of the wrong shape rejects its
 * promise with a `FurtiveError` (`unknown_token`, `invalid_input`), as
 * api/api.mjs documents; only the lookups (`perceives`, `hiddenFrom`,
 * `getState`) answer at once.
 */

import { DEFENSES } from "../constants.mjs";
import { FurtiveError } from "../errors.mjs";
import { postLine } from "../ui/chat.mjs";
import { sceneState } from "../gm/scene-state.mjs";
import { bilingual, engineText } from "../i18n.mjs";
import { rollFormula } from "../systems/formula-rolls.mjs";
import { readSettings } from "../settings.mjs";
import { isLookupReady, lookupHiddenFrom, lookupPerceives } from "../canvas/visibility.mjs";
import { sceneLookup } from "../ui/secrecy.mjs";
import { requireSceneLike, requireToken, resolveToken } from "../net/resolve.mjs";
import { notify, run } from "../net/requests.mjs";

export { resolveToken };

/** @typedef {import("../net/resolve.mjs").TokenLike} TokenLike */
/**
 * A macro's options argument: `undefined` for none, else a plain object
 * (`invalid_input` naming `field` otherwise: a string or null was spread or
 * read as no options at all).
 * @param {unknown} value
 * @param {string} field
 * @returns {Record<string, any>}
 */
function optionsOf(value, field) {
  if (value === undefined) return {};
  if (!value || typeof value !== "object" || Array.isArray(value)) throw FurtiveError.of("invalid_input", `${field}: expected an object of options, got ${value === null ? "null" : Array.isArray(value) ? "a list" : typeof value}`);
  return /** @type {Record<string, any>} */ (value);
}

/**
 * Checks that the named options, when given, have the type the action reads
 * them as (`invalid_input` naming `<field>.<key>`): a boolean given as
 * `"false"` or a count given as `NaN` must not be coerced into something the
 * caller did not mean. Ranges are the engine's to check.
 * @param {Record<string, any>} options
 * @param {string} field
 * @param {{booleans?: string[], wholeNumbers?: string[]}} types
 */
function checkOptionTypes(options, field, { booleans = [], wholeNumbers = [] }) {
  for (const key of booleans) {
    if (options[key] !== undefined && typeof options[key] !== "boolean") throw FurtiveError.of("invalid_input", `${field}.${key}: expected true or false, got ${typeof options[key]}`);
  }
  for (const key of wholeNumbers) {
    if (options[key] !== undefined && !Number.isInteger(options[key])) throw FurtiveError.of("invalid_input", `${field}.${key}: expected a whole number, got ${typeof options[key] === "number" ? String(options[key]) : typeof options[key]}`);
  }
}

/**
 * Checks that the named options, when given, are lists of texts
 * (`invalid_input` naming `<field>.<key>` or `<field>.<key>[i]`): a single
 * text or an object given instead of a list must not be ignored silently.
 * @param {Record<string, any>} options
 * @param {string} field
 * @param {string[]} keys
 */
function checkTextLists(options, field, keys) {
  for (const key of keys) {
    const value = options[key];
    if (value === undefined) continue;
    if (!Array.isArray(value)) throw FurtiveError.of("invalid_input", `${field}.${key}: expected a list of texts, got ${value === null ? "null" : typeof value}`);
    value.forEach((entry, index) => {
      if (typeof entry !== "string") throw FurtiveError.of("invalid_input", `${field}.${key}[${index}]: expected a text, got ${entry === null ? "null" : typeof entry}`);
    });
  }
}

/** @typedef {import("../types.mjs").Decision} Decision */
/**
 * Defend (P6): asks the engine whether `defender` may defend `target`
 * against `attacker`; refused -> the explanation is shown and posted; else
 * the `furtive.preDefend` hook may cancel, then the defense formula is rolled
 * (a normal Foundry roll, on this client).
 * @param {TokenLike} defenderLike
 * @param {TokenLike} targetLike
 * @param {TokenLike} attackerLike
 * @param {"dodge" | "parry" | "block"} defense
 * @returns {Promise<{allowed: boolean, decision: Decision, total?: number, cancelled?: boolean}>}
 */
export async function defend(defenderLike, targetLike, attackerLike, defense) {
  // Checked first: a bad defense must not ask, tell or post anything.
  if (!DEFENSES.includes(/** @type {any} */ (defense))) throw FurtiveError.of("invalid_input", `defense: unknown defense \`${String(defense).slice(0, 64)}\` (dodge, parry or block)`);
  const defender = requireToken(defenderLike, "defender");
  const target = requireToken(targetLike, "target");
  const attacker = requireToken(attackerLike, "attacker");
  const decision = /** @type {Decision} */ (await run("canDefend", { sceneId: defender.parent?.id, defenderId: defender.id, targetId: target.id, attackerId: attacker.id }));
  if (!decision.allowed) {
    // Prefixed like every other refusal the module shows.
    notify(engineText(decision));
    const refused = bilingual("FURTIVE.Chat.DefenseRefused", { defender: defender.name ?? "" });
    await postLine({ en: `${refused.en} ${decision.en}`, fr: `${refused.fr} ${decision.fr}` }, { named: [defender, target, attacker] });
    return { allowed: false, decision };
  }
  const formula = readSettings()[/** @type {"dodgeFormula" | "parryFormula" | "blockFormula"} */ (`${defense}Formula`)];
  if (!formula) throw FurtiveError.of("invalid_input", `defense: no formula is set for ${defense}`);
  const context = { defender, target, attacker, defense, decision, formula };
  if (Hooks.call("furtive.preDefend", context) === false) return { allowed: true, decision, cancelled: true };
  // The flavor in both languages, the defense's name in each (each reader reads theirs, systems/formula-rolls.mjs).
  const defenseName = bilingual(`FURTIVE.Defense.${defense}`);
  const flavorIn = (/** @type {"en" | "fr"} */ lang) => bilingual("FURTIVE.Roll.Defense", { name: defender.name ?? "", defense: defenseName[lang], target: target.name ?? "" })[lang];
  const total = await rollFormula(context.formula, defender, { flavor: { en: flavorIn("en"), fr: flavorIn("fr") }, secret: false });
  return { allowed: true, decision, total };
}

/**
 * May `defender` defend `target` against `attacker` (P6)? For systems with
 * their own defense rolls.
 * @param {TokenLike} defenderLike
 * @param {TokenLike} targetLike
 * @param {TokenLike} attackerLike
 * @returns {Promise<Decision>}
 */
export async function canDefend(defenderLike, targetLike, attackerLike) {
  const defender = requireToken(defenderLike, "defender");
  const target = requireToken(targetLike, "target");
  const attacker = requireToken(attackerLike, "attacker");
  return run("canDefend", { sceneId: defender.parent?.id, defenderId: defender.id, targetId: target.id, attackerId: attacker.id });
}

/**
 * Hide: asks for a stealth roll for the token. A player's request goes to
 * the active GM, who sees the Hide dialog and, on dnd5e under the opposed
 * rules, the system's roll dialog (`dialog: false` skips both).
 * @param {TokenLike} tokenLike
 * @param {{dialog?: boolean, situation?: string[], free?: {label: string, value: number}[], moved?: boolean, sprinting?: boolean, precautions?: string[], event?: Event}} [optionsLike]
 *   `event`: the click that asked, whose keys the system reads to skip its roll dialog (Shift in dnd5e);
 *   used only when the action runs on this client (the active GM's)
 *   refused (`invalid_input` naming `options` or `options.<key>`, before anything is rolled, shown or
 *   saved) when not an object, when `dialog`, `moved` or `sprinting` is not a boolean, or when
 *   `situation` or `precautions` is not a list of texts; `free` is checked by the GM (gm/actions.mjs)
 */
export async function hide(tokenLike, optionsLike) {
  const options = optionsOf(optionsLike, "options");
  checkOptionTypes(options, "options", { booleans: ["dialog", "moved", "sprinting"] });
  checkTextLists(options, "options", ["situation", "precautions"]);
  const token = requireToken(tokenLike, "token");
  // The documented options only, as a request carries them (request-shapes.mjs); the click stays on this client.
  const chosen = Object.fromEntries(["dialog", "situation", "free", "moved", "sprinting", "precautions"].filter((key) => options[key] !== undefined).map((key) => [key, options[key]]));
  const event = options.event && typeof options.event === "object" ? /** @type {Event} */ (options.event) : undefined;
  return run("hide", { sceneId: token.parent?.id, tokenId: token.id, options: chosen }, { event });
}

/**
 * Reveal: the token stops hiding.
 * @param {TokenLike} tokenLike
 */
export async function reveal(tokenLike) {
  const token = requireToken(tokenLike, "token");
  return run("reveal", { sceneId: token.parent?.id, tokenId: token.id });
}

/**
 * Point out (O3).
 * @param {TokenLike} observerLike who perceives the hider
 * @param {TokenLike} hiderLike
 * @param {TokenLike[]} alliesLike the allies told
 */
export async function pointOut(observerLike, hiderLike, alliesLike) {
  const observer = requireToken(observerLike, "observer");
  const hider = requireToken(hiderLike, "hider");
  if (!Array.isArray(alliesLike)) throw FurtiveError.of("invalid_input", "allies: expected a list of tokens");
  const allies = alliesLike.map((a, i) => requireToken(a, `allies[${i}]`).id);
  return run("pointOut", { sceneId: observer.parent?.id, observerId: observer.id, hiderId: hider.id, allies });
}

/**
 * Attack: `attacker` attacks `target`, or every token of a list at once
 * (P6/P7 surprise, O8/O9/O10). A list is ONE attack instance: an area
 * effect or a multi-target spell is one O8 penalty, and each target gets
 * its own O9 check and P6 surprise (the engine's `attack` with `targets`).
 * @param {TokenLike} attackerLike
 * @param {TokenLike | TokenLike[]} targetLike one target, or a list of 1 to 1000 distinct targets other than the attacker (the engine refuses more, a duplicate or the attacker itself)
 * @param {{noisy?: boolean, hits?: number, area?: boolean, hitZone?: "head" | "trunk" | "arm" | "leg" | null, aimedAtSpace?: boolean}} [optionsLike] refused (`invalid_input` naming `options` or `options.<key>`) when not an object or when a boolean or a count is of another type
 */
export async function attack(attackerLike, targetLike, optionsLike) {
  const options = optionsOf(optionsLike, "options");
  checkOptionTypes(options, "options", { booleans: ["noisy", "area", "aimedAtSpace"], wholeNumbers: ["hits"] });
  const attacker = requireToken(attackerLike, "attacker");
  // The documented options only: an options key such as `targetId` must not replace the resolved ids.
  const chosen = Object.fromEntries(["noisy", "hits", "area", "hitZone", "aimedAtSpace"].filter((key) => options[key] !== undefined).map((key) => [key, options[key]]));
  if (!Array.isArray(targetLike)) {
    const target = requireToken(targetLike, "target");
    return run("attack", { sceneId: attacker.parent?.id, attackerId: attacker.id, targetId: target.id, ...chosen });
  }
  const targetIds = targetLike.map((value, i) => /** @type {string} */ (requireToken(value, `target[${i}]`).id));
  return run("attack", { sceneId: attacker.parent?.id, attackerId: attacker.id, targetIds, ...chosen });
}

/**
 * Knockout (P8), after a surprise attack to the head.
 * @param {TokenLike} attackerLike
 * @param {TokenLike} targetLike
 * @param {{rawDamage?: number}} [optionsLike] the attack's raw damage, a whole number (`invalid_input` naming `options.rawDamage` otherwise)
 */
export async function knockout(attackerLike, targetLike, optionsLike) {
  const options = optionsOf(optionsLike, "options");
  checkOptionTypes(options, "options", { wholeNumbers: ["rawDamage"] });
  const attacker = requireToken(attackerLike, "attacker");
  const target = requireToken(targetLike, "target");
  return run("knockout", { sceneId: attacker.parent?.id, attackerId: attacker.id, targetId: target.id, rawDamage: options.rawDamage ?? 0 });
}

/**
 * Whether a knockout is allowed now (P8): `{allowed, clause, en, fr}`.
 * @param {TokenLike} attackerLike
 * @param {TokenLike} targetLike
 */
export async function canKnockout(attackerLike, targetLike) {
  const attacker = requireToken(attackerLike, "attacker");
  const target = requireToken(targetLike, "target");
  return run("canKnockout", { sceneId: attacker.parent?.id, attackerId: attacker.id, targetId: target.id });
}

/**
 * The published lookup of a token's scene: the canvas's (kept patched by
 * `updateScene`) for the viewed scene, else read from that scene's flags, so
 * a macro asking about a token of another scene gets that scene's answer.
 * Same reading as canvas/visibility.mjs: a token that is not hiding is perceived; an
 * observer without an entry perceives no hider (B1).
 * @param {TokenDocument} observer
 * @returns {{perceives: (hiderId: string) => boolean, hiddenFrom: () => string[]}}
 */
function lookupOf(observer) {
  const observerId = /** @type {string} */ (observer.id);
  const scene = /** @type {Scene} */ (observer.parent);
  if (isLookupReady(scene.id)) return { perceives: (hiderId) => lookupPerceives(observerId, hiderId), hiddenFrom: () => lookupHiddenFrom(observerId) };
  const { hiders, hidden } = sceneLookup(scene);
  const own = hidden.get(observerId);
  return {
    perceives: (hiderId) => !hiders.has(hiderId) || (own !== undefined && !own.has(hiderId)),
    hiddenFrom: () => (own === undefined ? [...hiders] : [...own]),
  };
}

/**
 * Whether `observer` perceives `hider`, from the published lookup of their
 * scene (every client, number-free). Throws `unknown_token` for a token it
 * cannot resolve and `invalid_input` (naming `hider`) for two tokens of
 * different scenes.
 * @param {TokenLike} observerLike
 * @param {TokenLike} hiderLike
 */
export function perceives(observerLike, hiderLike) {
  const observer = requireToken(observerLike, "observer");
  const hider = requireToken(hiderLike, "hider");
  if (hider.parent !== observer.parent) throw FurtiveError.of("invalid_input", `hider: ${hider.id} is not on the observer's scene`);
  return lookupOf(observer).perceives(/** @type {string} */ (hider.id));
}

/**
 * O11: the hider `target` took Health or Stamina damage from `attacker` in `hits` hits.
 * @param {TokenLike} target
 * @param {TokenLike} attacker
 * @param {number} [hits] a whole number (`invalid_input` naming `hits` otherwise)
 */
export async function damageTaken(target, attacker, hits = 1) {
  if (!Number.isInteger(hits)) throw FurtiveError.of("invalid_input", `hits: expected a whole number, got ${typeof hits === "number" ? String(hits) : typeof hits}`);
  const t = requireToken(target, "target");
  const a = requireToken(attacker, "attacker");
  return run("damageTaken", { sceneId: t.parent?.id, targetId: t.id, attackerId: a.id, hits });
}

/**
 * The token sprints (O12 ends stealth; P2/P4 sprint modifier).
 * @param {TokenLike} token
 */
export async function sprint(token) {
  const t = requireToken(token, "token");
  return run("sprint", { sceneId: t.parent?.id, tokenId: t.id });
}

/**
 * GM: the situation changed for a hider (P4): the engine asks for a new roll.
 * @param {TokenLike} hider
 * @param {{situation?: string[], free?: {label: string, value: number}[]}} modifiers
 */
export async function changeModifiers(hider, modifiers) {
  if (!modifiers || typeof modifiers !== "object") throw FurtiveError.of("invalid_input", "modifiers: expected {situation, free}");
  const h = requireToken(hider, "hider");
  return run("changeModifiers", { sceneId: h.parent?.id, hiderId: h.id, situation: modifiers.situation ?? [], free: modifiers.free ?? [] });
}

/**
 * GM: forces one pair perceived or unperceived. `perceived` must be a
 * boolean (`invalid_input` naming it otherwise): a truthy string such as
 * `"false"` must not force the pair perceived.
 * @param {TokenLike} hider
 * @param {TokenLike} observer
 * @param {boolean} perceived
 */
export async function override(hider, observer, perceived) {
  if (typeof perceived !== "boolean") throw FurtiveError.of("invalid_input", `perceived: expected true or false, got ${typeof perceived}`);
  const h = requireToken(hider, "hider");
  const o = requireToken(observer, "observer");
  return run("override", { sceneId: h.parent?.id, hiderId: h.id, observerId: o.id, perceived });
}

/**
 * Hider ids the observer does not perceive, from the published lookup of its
 * scene. Throws `unknown_token` (naming `observer`) for a token it cannot resolve.
 * @param {TokenLike} observer
 * @returns {string[]}
 */
export function hiddenFrom(observer) {
  return lookupOf(requireToken(observer, "observer")).hiddenFrom();
}

/**
 * GM only: a copy of the engine state of a scene (default: the viewed one),
 * with every number; null for players or a scene without state. Throws
 * `unknown_scene` (naming `scene`) for a value that is neither a Scene nor
 * a scene's id.
 * @param {Scene | string} [scene] a Scene or its id
 */
export function getState(scene) {
  if (!game.user?.isGM) return null;
  if ((scene === undefined || scene === null) && !canvas?.scene) return null;
  const state = sceneState(requireSceneLike(scene, "scene"))?.state;
  return state ? foundry.utils.deepClone(state) : null;
}

/**
 * GM: ends the token's turn now, for play outside the combat tracker
 * (P6 surprises it started expire, P9, O5).
 * @param {TokenLike} token
 */
export async function endTurn(token) {
  const t = requireToken(token, "token");
  return run("endTurn", { sceneId: t.parent?.id, tokenId: t.id });
}

/**
 * GM: the scene's stealth starts over: fresh state, no hidden token, no surprise.
 * Rejects with `unknown_scene` (naming `scene`) for a value that is neither a
 * Scene nor a scene's id; before, such a value started the viewed scene over.
 * @param {Scene | string} [scene] a Scene or its id; default: the viewed scene
 */
export async function reset(scene) {
  return run("reset", { sceneId: requireSceneLike(scene, "scene").id });
}
