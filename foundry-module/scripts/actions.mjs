/**
 * The actions: Hide, Reveal, Point out, Attack, Knockout, Defend, and the
 * GM tools. Each action is the same whether it comes from the Token HUD, a
 * chat card, a macro (the public API) or a player's socket request.
 *
 * - `run(kind, payload)` runs an action where it belongs: on the active GM
 *   directly, else through the socket (the GM checks the asking user owns the
 *   acting token, and answers without hidden numbers).
 * - `handleRequest(kind, payload, user, remote)` is the active GM's side; a
 *   `remote` request (from the socket, sender unverified) is never a GM's.
 *
 * The module decides no rule: it builds the event, and the engine applies or
 * refuses it (EngineRefusal, shown localized).
 */

import { MODULE_ID, STATUS } from "./constants.mjs";
import { EngineRefusal } from "./engine.mjs";
import * as engine from "./engine.mjs";
import { postAttackCard, postLine, gmUserIds } from "./chat.mjs";
import { answerPerception, clearPending, dispatch, pendingStealthRoll, queryState, resetScene, syncScene } from "./director.mjs";
import { attackDialog, hideDialog, knockoutDialog } from "./dialogs.mjs";
import { engineText, escapeHtml, t } from "./i18n.mjs";
import { precautionsOf, senseNames, wearsHelmet } from "./inputs.mjs";
import { evaluateFormula, postRoll, rollFormula } from "./rolls.mjs";
import { readSettings } from "./settings.mjs";
import { isActiveGM } from "./store.mjs";
import { socketRequest } from "./socket.mjs";
import { viewOf } from "./view.mjs";
import { recentlyMoved } from "./automation.mjs";
import { isVisibilityGuardInstalled, lookupPerceives } from "./visibility.mjs";
import { setStatus } from "./statuses.mjs";

/** @typedef {import("./types.mjs").Outcome} Outcome */
/** @typedef {import("./types.mjs").Decision} Decision */
/** @typedef {Token | TokenDocument | string} TokenLike a Token, a TokenDocument, or a token id (searched on the viewed scene, then every scene) */

/**
 * The TokenDocument for a token-like value.
 * @param {TokenLike | null | undefined} value
 * @returns {TokenDocument | null}
 */
export function resolveToken(value) {
  if (!value) return null;
  if (typeof value === "string") {
    const here = canvas?.scene?.tokens.get(value);
    if (here) return here;
    for (const scene of game.scenes ?? []) {
      const found = scene.tokens.get(value);
      if (found) return found;
    }
    return null;
  }
  const any = /** @type {any} */ (value);
  if (any.documentName === "Token") return any;
  if (any.document?.documentName === "Token") return any.document;
  return null;
}

/**
 * @param {TokenLike | null | undefined} value
 * @param {string} field
 * @returns {TokenDocument}
 */
function requireToken(value, field) {
  const token = resolveToken(value);
  if (!token?.parent) throw new EngineRefusal("unknown_token", `${field}: unknown token \`${String(typeof value === "string" ? value : (/** @type {any} */ (value)?.id ?? value))}\``);
  return token;
}

/**
 * The scene of a token id on the GM side.
 * @param {string | undefined} sceneId
 * @returns {Scene}
 */
function requireScene(sceneId) {
  const scene = sceneId ? game.scenes.get(sceneId) : canvas?.scene;
  if (!scene) throw new EngineRefusal("unknown_scene", `sceneId: unknown scene \`${sceneId}\``);
  return scene;
}

/**
 * What a player may receive of an outcome: the public explanations only.
 * @param {Outcome} outcome
 */
function publicResult(outcome) {
  return { ok: true, entries: outcome.log.filter((e) => e.audience === "public").map((e) => ({ clause: e.clause, en: e.en, fr: e.fr })) };
}

/**
 * Which token of a request the asking user must own, per request kind.
 * Kinds missing here are GM-only.
 * @type {Record<string, string>}
 */
const OWNED = {
  hide: "tokenId",
  reveal: "tokenId",
  sprint: "tokenId",
  pointOut: "observerId",
  attack: "attackerId",
  knockout: "attackerId",
  canKnockout: "attackerId",
  canDefend: "defenderId",
  damageTaken: "targetId",
};

/**
 * The active GM's side of every action. A GM-only kind runs only for a local
 * GM caller (this client, `remote` false); otherwise the asking user must own
 * the acting token, and the action runs unprivileged: number-free result,
 * Hide options ignored (the GM's dialog decides).
 * @param {string} kind
 * @param {Record<string, any>} payload ids only: `sceneId`, `tokenId`, ...
 * @param {User} user the asking user (for a remote request: the claimed, unverified user)
 * @param {boolean} [remote] the request came over the socket
 * @returns {Promise<any>} number-free unless a local GM asked
 */
export async function handleRequest(kind, payload, user, remote = false) {
  const handler = GM_ACTIONS[kind];
  if (!handler) throw new EngineRefusal("unknown_action", `kind: unknown action \`${kind}\``);
  const scene = requireScene(payload.sceneId);
  const privileged = Boolean(user.isGM) && !remote;
  if (!privileged) {
    const field = OWNED[kind];
    if (!field) throw new EngineRefusal("gm_only", `${kind}: only a GM may do this`);
    const token = scene.tokens.get(payload[field]);
    if (!token) throw new EngineRefusal("unknown_token", `${field}: unknown token \`${payload[field]}\``);
    if (!token.testUserPermission(user, "OWNER")) throw new EngineRefusal("not_owner", `${field}: ${user.name} does not own ${token.name}`);
  }
  return handler(scene, payload, user, privileged);
}

/**
 * Runs an action: here on the active GM, else through the socket.
 * @param {string} kind
 * @param {Record<string, any>} payload
 */
export function run(kind, payload) {
  if (isActiveGM()) return handleRequest(kind, payload, /** @type {User} */ (game.user), false);
  return socketRequest(kind, payload);
}

/**
 * The view entries of observers the engine knows (a token whose data the
 * engine refused is not an observer).
 * @param {Scene} scene
 * @param {import("./types.mjs").ViewEntry[]} view
 */
function knownView(scene, view) {
  const creatures = queryState(scene).creatures;
  return view.filter((entry) => creatures[entry.observer]);
}

/**
 * `privileged`: a local GM caller; else the result must hold no hidden number.
 * @type {Record<string, (scene: Scene, payload: Record<string, any>, user: User, privileged: boolean) => Promise<any>>}
 */
const GM_ACTIONS = {
  /**
   * Hide: the GM's dialog (unless a GM caller passes `options.dialog === false`),
   * a Foundry stealth roll, then enterStealth. A player's options are ignored:
   * the GM's dialog always opens and sets the modifiers.
   */
  async hide(scene, { tokenId, options: asked = {} }, user, privileged) {
    const options = privileged ? asked : {};
    const token = requireToken(scene.tokens.get(tokenId), "tokenId");
    const settings = readSettings();
    // Token Vision off shows every token before any detection mode is asked:
    // only the Token#isVisible guard hides there. Without it, the GM is told now.
    if (/** @type {any} */ (scene).tokenVision === false && !isVisibilityGuardInstalled()) {
      ui.notifications?.warn(t("FURTIVE.Notify.TokenVisionOff", { scene: scene.name ?? "" }));
    }
    let choice = {
      situation: Array.isArray(options.situation) ? options.situation.map(String) : [],
      free: Array.isArray(options.free) ? options.free.map((/** @type {any} */ m) => ({ label: String(m.label ?? ""), value: Math.trunc(Number(m.value) || 0) })) : [],
      moved: options.moved ?? (settings.zeroLengthMovement || recentlyMoved(/** @type {string} */ (token.id), Boolean(queryState(scene).combat.active))),
      precautions: Array.isArray(options.precautions) ? options.precautions.map(String) : precautionsOf(token.actor ?? null, settings.precautionsPath),
    };
    // The stored creatures follow the scene's tokens first (a token just
    // created or changed). No trial apply: the engine decides once, on the
    // real roll, and the roll is posted only when it accepted.
    await syncScene(scene);
    if (options.dialog !== false) {
      const answer = await hideDialog({
        tokenName: token.name ?? "",
        requester: privileged ? undefined : user.name ?? "",
        ruleset: settings.ruleset,
        senses: senseNames(settings.enhancedSenses),
        precautions: choice.precautions,
        situation: choice.situation,
        moved: Boolean(choice.moved),
      });
      if (!answer) throw new EngineRefusal("cancelled", "the GM cancelled the action");
      choice = answer;
    }
    // furtive.preHide (cancellable): listeners may read and change the choice.
    const context = { token, user, choice };
    if (Hooks.call("furtive.preHide", context) === false) throw new EngineRefusal("cancelled", "a furtive.preHide listener cancelled the action");
    choice = context.choice;
    const formula = settings.ruleset === "percentile" ? "1d100" : settings.stealthFormula;
    const roll = await evaluateFormula(formula, token);
    const outcome = await dispatch(scene, {
      type: "enterStealth",
      hider: token.id,
      roll: Math.trunc(Number(roll.total)),
      modifiers: { situation: choice.situation, free: choice.free },
      moved: Boolean(choice.moved),
      sprinting: Boolean(options.sprinting),
      precautions: settings.ruleset === "opposed" ? choice.precautions : [],
      view: knownView(scene, viewOf(scene, token)),
    });
    await postRoll(roll, token, { flavor: t("FURTIVE.Roll.Stealth", { name: token.name ?? "" }), secret: true });
    Hooks.callAll("furtive.hide", { token, user, choice, outcome });
    await clearPending(scene, /** @type {string} */ (token.id));
    return privileged ? outcome : publicResult(outcome);
  },

  /**
   * Reveal: the hider stops hiding. A token the engine does not know as
   * hiding but still showing the hidden status (left over) loses the status.
   */
  async reveal(scene, { tokenId }, user, privileged) {
    try {
      const outcome = await dispatch(scene, { type: "stopHiding", hider: tokenId });
      return privileged ? outcome : publicResult(outcome);
    } catch (error) {
      const token = scene.tokens.get(tokenId);
      if (error instanceof EngineRefusal && error.code === "not_hiding" && token?.hasStatusEffect?.(STATUS.hidden)) {
        // Left over: off, unless another token of the same linked actor still hides.
        await setStatus(scene, token, "hidden", false, queryState(scene));
        return privileged ? null : { ok: true, entries: [] };
      }
      throw error;
    }
  },

  /** Sprint (O12, P2/P4). */
  async sprint(scene, { tokenId }, user, privileged) {
    const outcome = await dispatch(scene, { type: "sprint", token: tokenId });
    return privileged ? outcome : publicResult(outcome);
  },

  /** Point out (O3): the observer names allies who then perceive the hider. */
  async pointOut(scene, { observerId, hiderId, allies = [] }, user, privileged) {
    const outcome = await dispatch(scene, { type: "pointOut", hider: hiderId, observer: observerId, allies: allies.map(String) });
    return privileged ? outcome : publicResult(outcome);
  },

  /** Attack (P6/P7, O8/O9), with the O10 answer for a hidden target and a card with Defend buttons. */
  async attack(scene, { attackerId, targetId, noisy = false, hits = 1, area = false, hitZone = null, aimedAtSpace = true }, user, privileged) {
    const attacker = requireToken(scene.tokens.get(attackerId), "attackerId");
    const target = requireToken(scene.tokens.get(targetId), "targetId");
    const settings = readSettings();
    const lines = [];
    if (settings.ruleset === "opposed") {
      const state = queryState(scene);
      if (state.hiders[targetId]) {
        const answer = engine.attackHidden(state, { attacker: attackerId, target: targetId, aimedAtSpace: Boolean(aimedAtSpace), area: Boolean(area) });
        lines.push({ clause: answer.clause, en: answer.en, fr: answer.fr });
      }
    }
    /** @type {Record<string, any>} */
    const event = { type: "attack", attacker: attackerId, target: targetId, noisy: Boolean(noisy), hits: Math.trunc(Number(hits) || 0), area: Boolean(area) };
    if (hitZone) event.hitZone = hitZone;
    const outcome = await dispatch(scene, /** @type {any} */ (event));
    await postAttackCard({ sceneId: /** @type {string} */ (scene.id), attacker, target, lines });
    return privileged ? outcome : publicResult(outcome);
  },

  /** Damage taken by a hider (O11). */
  async damageTaken(scene, { targetId, attackerId, hits = 1 }, user, privileged) {
    const outcome = await dispatch(scene, { type: "damageTaken", target: targetId, attacker: attackerId, hits: Math.trunc(Number(hits) || 1) });
    return privileged ? outcome : publicResult(outcome);
  },

  /** May the attacker attempt a knockout now (P8)? Players get only `allowed` and the explanation. */
  async canKnockout(scene, { attackerId, targetId }, user, privileged) {
    const target = requireToken(scene.tokens.get(targetId), "targetId");
    const result = engine.knockout(queryState(scene), { attacker: attackerId, target: targetId, helmet: wearsHelmet(target.actor ?? null, readSettings().helmet) });
    return privileged ? result : { allowed: result.allowed, clause: result.clause, en: result.allowed ? "" : result.en, fr: result.allowed ? "" : result.fr };
  },

  /** Knockout (P8): a GM-only d100 against the base Furtivité; damage ÷ 4; unconscious on success. */
  async knockout(scene, { attackerId, targetId, rawDamage = 0 }, user, privileged) {
    const attacker = requireToken(scene.tokens.get(attackerId), "attackerId");
    const target = requireToken(scene.tokens.get(targetId), "targetId");
    const settings = readSettings();
    const helmet = wearsHelmet(target.actor ?? null, settings.helmet);
    const state = queryState(scene);
    const allowed = engine.knockout(state, { attacker: attackerId, target: targetId, helmet });
    if (!allowed.allowed) throw new EngineRefusal("knockout_refused", engineText(allowed));
    const d100 = await rollFormula("1d100", attacker, { flavor: t("FURTIVE.Roll.Knockout", { attacker: attacker.name ?? "", target: target.name ?? "" }), secret: true });
    const result = engine.knockout(state, { attacker: attackerId, target: targetId, helmet, rawDamage: Math.max(0, Math.trunc(Number(rawDamage) || 0)), d100 });
    await ChatMessage.create({
      speaker: { alias: t("FURTIVE.Title") },
      whisper: gmUserIds(),
      content: `<div class="furtive-card furtive-gm"><p><span class="furtive-clause">${result.clause}</span> ${escapeHtml(engineText(result))}</p><p>${escapeHtml(t("FURTIVE.Chat.KnockoutDamage", { damage: result.damage ?? 0 }))}</p></div>`,
      flags: { [MODULE_ID]: { kind: "knockout", entries: [{ clause: result.clause, en: result.en, fr: result.fr }] } },
    });
    await postLine(t(result.knockedOut ? "FURTIVE.Chat.KnockedOut" : "FURTIVE.Chat.StaysConscious", { attacker: attacker.name ?? "", target: target.name ?? "" }), { named: [attacker, target] });
    if (result.knockedOut && CONFIG.statusEffects.some((s) => s.id === "unconscious")) {
      await target.actor?.toggleStatusEffect("unconscious", { active: true });
    }
    if (privileged) return result;
    return { allowed: true, knockedOut: result.knockedOut };
  },

  /** May `defender` defend `target` against `attacker` (P6)? A decision without numbers. */
  async canDefend(scene, { defenderId, targetId, attackerId }) {
    return engine.canDefend(queryState(scene), { defender: defenderId, target: targetId, attacker: attackerId });
  },

  /** GM override of one pair. */
  async override(scene, { hiderId, observerId, perceived }) {
    return dispatch(scene, { type: "gmOverride", hider: hiderId, observer: observerId, perceived: Boolean(perceived) });
  },

  /** P4: the situation changed for a hider; the engine asks for a new roll. */
  async changeModifiers(scene, { hiderId, situation = [], free = [] }) {
    return dispatch(scene, { type: "modifiersChanged", hider: hiderId, modifiers: { situation, free } });
  },

  /**
   * GM: the turn of `tokenId` ends now (outside combat, where no tracker
   * does it): surprises it started expire (P6), a surprise turn reveals it (P9),
   * exposed pairs are decided (O5).
   */
  async endTurn(scene, { tokenId }) {
    return dispatch(scene, { type: "turnEnd", combatant: tokenId });
  },

  /** GM: the scene's stealth starts over (fresh state, no hidden token). */
  async reset(scene) {
    await resetScene(scene);
    return null;
  },

  /** The GM rolls a pending Perception check (automatic checks off). */
  async rollPerception(scene, { hiderId, observerId }) {
    return answerPerception(scene, hiderId, observerId);
  },

  /** The GM makes a pending new stealth roll (P4) with the requested modifiers. */
  async reroll(scene, { hiderId }, user, privileged) {
    const request = pendingStealthRoll(scene, hiderId);
    const modifiers = request?.modifiers ?? { situation: [], free: [] };
    return GM_ACTIONS.hide(scene, { tokenId: hiderId, options: { dialog: false, situation: modifiers.situation, free: modifiers.free } }, user, privileged);
  },
};

/**
 * Shows an action's refusal to the user (localized) and returns null.
 * @param {unknown} error
 */
export function notifyRefusal(error) {
  if (error instanceof EngineRefusal) {
    ui.notifications?.warn(`${t("FURTIVE.Title")}: ${refusalFor(error)}`);
    return null;
  }
  throw error;
}

/**
 * @param {EngineRefusal} error
 */
function refusalFor(error) {
  const key = `FURTIVE.Error.${error.code}`;
  const known = game.i18n.has?.(key);
  return known ? `${game.i18n.localize(key)} ${error.message ? `(${error.message})` : ""}`.trim() : error.message;
}

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
  const defender = requireToken(defenderLike, "defender");
  const target = requireToken(targetLike, "target");
  const attacker = requireToken(attackerLike, "attacker");
  const decision = /** @type {Decision} */ (await run("canDefend", { sceneId: defender.parent?.id, defenderId: defender.id, targetId: target.id, attackerId: attacker.id }));
  if (!decision.allowed) {
    ui.notifications?.warn(engineText(decision));
    await postLine(`${t("FURTIVE.Chat.DefenseRefused", { defender: defender.name ?? "" })} ${engineText(decision)}`, { named: [defender, target, attacker] });
    return { allowed: false, decision };
  }
  const formula = readSettings()[/** @type {"dodgeFormula" | "parryFormula" | "blockFormula"} */ (`${defense}Formula`)];
  if (!formula) throw new EngineRefusal("invalid_input", `defense: unknown defense \`${defense}\``);
  const context = { defender, target, attacker, defense, decision, formula };
  if (Hooks.call("furtive.preDefend", context) === false) return { allowed: true, decision, cancelled: true };
  const total = await rollFormula(context.formula, defender, { flavor: t("FURTIVE.Roll.Defense", { name: defender.name ?? "", defense: t(`FURTIVE.Defense.${defense}`), target: target.name ?? "" }), secret: false });
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
 * the active GM, who sees the Hide dialog.
 * @param {TokenLike} tokenLike
 * @param {{dialog?: boolean, situation?: string[], free?: {label: string, value: number}[], moved?: boolean, sprinting?: boolean, precautions?: string[]}} [options]
 */
export function hide(tokenLike, options = {}) {
  const token = requireToken(tokenLike, "token");
  return run("hide", { sceneId: token.parent?.id, tokenId: token.id, options });
}

/**
 * Reveal: the token stops hiding.
 * @param {TokenLike} tokenLike
 */
export function reveal(tokenLike) {
  const token = requireToken(tokenLike, "token");
  return run("reveal", { sceneId: token.parent?.id, tokenId: token.id });
}

/**
 * Point out (O3).
 * @param {TokenLike} observerLike who perceives the hider
 * @param {TokenLike} hiderLike
 * @param {TokenLike[]} alliesLike the allies told
 */
export function pointOut(observerLike, hiderLike, alliesLike) {
  const observer = requireToken(observerLike, "observer");
  const hider = requireToken(hiderLike, "hider");
  const allies = alliesLike.map((a, i) => requireToken(a, `allies[${i}]`).id);
  return run("pointOut", { sceneId: observer.parent?.id, observerId: observer.id, hiderId: hider.id, allies });
}

/**
 * Attack: `attacker` attacks `target` (P6/P7 surprise, O8/O9/O10).
 * @param {TokenLike} attackerLike
 * @param {TokenLike} targetLike
 * @param {{noisy?: boolean, hits?: number, area?: boolean, hitZone?: "head" | "trunk" | "arm" | "leg" | null, aimedAtSpace?: boolean}} [options]
 */
export function attack(attackerLike, targetLike, options = {}) {
  const attacker = requireToken(attackerLike, "attacker");
  const target = requireToken(targetLike, "target");
  return run("attack", { sceneId: attacker.parent?.id, attackerId: attacker.id, targetId: target.id, ...options });
}

/**
 * Knockout (P8), after a surprise attack to the head.
 * @param {TokenLike} attackerLike
 * @param {TokenLike} targetLike
 * @param {{rawDamage?: number}} [options] the attack's raw damage
 */
export function knockout(attackerLike, targetLike, options = {}) {
  const attacker = requireToken(attackerLike, "attacker");
  const target = requireToken(targetLike, "target");
  return run("knockout", { sceneId: attacker.parent?.id, attackerId: attacker.id, targetId: target.id, rawDamage: options.rawDamage ?? 0 });
}

/**
 * Whether a knockout is allowed now (P8): `{allowed, clause, en, fr}`.
 * @param {TokenLike} attackerLike
 * @param {TokenLike} targetLike
 */
export function canKnockout(attackerLike, targetLike) {
  const attacker = requireToken(attackerLike, "attacker");
  const target = requireToken(targetLike, "target");
  return run("canKnockout", { sceneId: attacker.parent?.id, attackerId: attacker.id, targetId: target.id });
}

/**
 * The Knockout flow of the HUD: raw damage dialog, then the attempt.
 * @param {TokenDocument} attacker
 * @param {TokenDocument} target
 * @param {{en: string, fr: string}} explanation
 */
export async function knockoutWithDialog(attacker, target, explanation) {
  const values = await knockoutDialog({ attackerName: attacker.name ?? "", targetName: target.name ?? "", explanation: engineText(explanation) || t("FURTIVE.Dialog.KnockoutIntro") });
  if (!values) return null;
  return knockout(attacker, target, { rawDamage: Number(values.rawDamage) || 0 });
}

/**
 * The Attack flow of the HUD: a dialog, then one attack per target.
 * @param {TokenDocument} attacker
 * @param {TokenDocument[]} targets
 */
export async function attackWithDialog(attacker, targets) {
  const settings = readSettings();
  for (const target of targets) {
    const values = await attackDialog({ attackerName: attacker.name ?? "", targetName: target.name ?? "", ruleset: settings.ruleset });
    if (!values) return;
    await attack(attacker, target, {
      noisy: Boolean(values.noisy),
      hits: values.hits === undefined ? 1 : Number(values.hits),
      area: Boolean(values.area),
      aimedAtSpace: values.aimedAtSpace === undefined ? true : Boolean(values.aimedAtSpace),
      hitZone: values.hitZone || null,
    }).catch(notifyRefusal);
  }
}

/**
 * Whether `observer` perceives `hider`, from the published lookup (every client, number-free).
 * @param {TokenLike} observerLike
 * @param {TokenLike} hiderLike
 */
export function perceives(observerLike, hiderLike) {
  const observer = requireToken(observerLike, "observer");
  const hider = requireToken(hiderLike, "hider");
  return lookupPerceives(/** @type {string} */ (observer.id), /** @type {string} */ (hider.id));
}
