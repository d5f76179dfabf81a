/**
 * The active GM's handlers of every action: Hide, Reveal, Sprint, Point
 * out, Attack, Damage taken, Knockout, Defend's question, and the GM tools.
 * Each action is the same whether it comes from the Token HUD, a chat card,
 * a macro (api/macros.mjs) or a player's request (net/requests.mjs).
 *
 * Each action runs as named steps with a hook before (`Hooks.call`,
 * cancellable: return `false`, the action rejects with `Cancelled`) and one
 * after (`Hooks.callAll`, with the `outcome`), on the active GM:
 * `furtive.preHide`/`furtive.hide` (after the GM's dialog, before the roll;
 * the `choice` may be changed), `furtive.preReveal`/`furtive.reveal`,
 * `preSprint`/`sprint`, `prePointOut`/`pointOut`, `preAttack`/`attack`,
 * `preDamageTaken`/`damageTaken`, `preKnockout`/`knockout`,
 * `preOverride`/`override`, `preChangeModifiers`/`changeModifiers`,
 * `preEndTurn`/`endTurn`, `preReset`/`reset`, `preUndo`/`undo` (docs/foundry-install.md).
 *
 * The module decides no rule: it builds the event, and the engine applies or
 * refuses it (`EngineRefused`, shown localized).
 */

import { MODULE_ID, STATUS } from "../constants.mjs";
import { BadRequest, Cancelled, FurtiveError } from "../errors.mjs";
import { postAttackCard, postLine, gmUserIds } from "../ui/chat.mjs";
import { resetScene } from "./reset.mjs";
import { sceneState } from "./scene-state.mjs";
import { syncScene } from "./sync.mjs";
import { dispatch } from "./transaction.mjs";
import { undoAction } from "./undo.mjs";
import { hideDialog } from "../ui/dialogs.mjs";
import { bilingual, engineText, escapeHtml, t } from "../i18n.mjs";
import { precautionsOf, senseNames, wearsHelmet } from "../systems/actor-data.mjs";
import { evaluateCheck, evaluateFormula, postRoll, rollCheck, rollFormula } from "../systems/formula-rolls.mjs";
import { readSettings } from "../settings.mjs";
import { onCanvas, viewOf } from "../canvas/clear-view.mjs";
import { inDarkness } from "../canvas/lighting.mjs";
import { recentlyMoved } from "./automation.mjs";
import { isVisibilityGuardInstalled } from "../canvas/visibility.mjs";
import { setStatus, statusEffectConfig } from "../canvas/statuses.mjs";
import { requireTokenOn } from "../net/resolve.mjs";
import { isActiveGM } from "../storage/store.mjs";
import { mayName, sceneLookup } from "../ui/secrecy.mjs";

/** @typedef {import("../types.mjs").Outcome} Outcome */

/**
 * Runs one named step of an action between its two hooks:
 * `furtive.pre<Name>(context)` (cancellable) and `furtive.<name>({...context, outcome})`.
 * @template T
 * @param {string} name e.g. `"reveal"`
 * @param {Record<string, any>} context what the listeners get (ids, tokens, the user)
 * @param {() => Promise<T>} body
 * @returns {Promise<T>}
 */
async function step(name, context, body) {
  const before = `furtive.pre${name[0].toUpperCase()}${name.slice(1)}`;
  if (Hooks.call(before, context) === false) throw new Cancelled(`a ${before} listener cancelled the action`);
  const outcome = await body();
  Hooks.callAll(`furtive.${name}`, { ...context, outcome });
  return outcome;
}

/**
 * What a player may receive of an outcome: the public explanations that name
 * only tokens the player may see named (B1, ui/secrecy.mjs `mayName`: the
 * entry's `hider` and `observer`), as the action's card reaches only those
 * users (gm/transaction.mjs). A line naming a GM-hidden observer that
 * watched a Hide (O2) stays out of its hider's owner's answer.
 * @param {Outcome} outcome
 * @param {Scene} scene
 * @param {User} user the asking player
 */
function publicResult(outcome, scene, user) {
  const lookup = sceneLookup(scene);
  const nameable = (/** @type {unknown} */ id) => {
    const token = id ? scene.tokens.get(String(id)) : null;
    return !token || mayName(user, token, lookup);
  };
  const entries = outcome.log.filter((e) => e.audience === "public" && nameable(e.hider) && nameable(e.observer));
  return { ok: true, entries: entries.map((e) => ({ clause: e.clause, en: e.en, fr: e.fr })) };
}

/**
 * The view entries of observers the engine knows (a token whose data the
 * engine refused is not an observer).
 * @param {Scene} scene
 * @param {import("../types.mjs").ViewEntry[]} view
 */
function knownView(scene, view) {
  const query = sceneState(scene, "open");
  return view.filter((entry) => query.knows(entry.observer));
}

/**
 * A Hide caller's free modifiers (`options.free`, percentile P2): each
 * `{label, value}` with a value that is a finite number (a fraction is
 * truncated toward 0, as the Hide dialog does); none when not given.
 * @param {unknown} free `options.free`
 * @returns {{label: string, value: number}[]}
 * @throws {FurtiveError} `invalid_input` naming the field (`free`, `free[i]`, `free[i].value`): nothing changed
 */
function freeModifiersOf(free) {
  if (free === undefined || free === null) return [];
  if (!Array.isArray(free)) throw FurtiveError.of("invalid_input", "free: expected a list of {label, value}; nothing changed");
  return free.map((modifier, index) => {
    if (!modifier || typeof modifier !== "object") throw FurtiveError.of("invalid_input", `free[${index}]: expected {label, value}; nothing changed`);
    const { label, value } = /** @type {{label?: unknown, value?: unknown}} */ (modifier);
    if (typeof value !== "number" || !Number.isFinite(value)) {
      const given = value === undefined ? "missing" : typeof value === "string" ? `${JSON.stringify(value)} is not a finite number` : typeof value === "number" ? `${value} is not a finite number` : `a ${value === null ? "null" : typeof value} is not a finite number`;
      throw FurtiveError.of("invalid_input", `free[${index}].value: ${given} (the modifier ${JSON.stringify(String(label ?? ""))}); nothing changed`);
    }
    return { label: String(label ?? ""), value: Math.trunc(value) };
  });
}

/**
 * A caller's situation modifiers (P2/P4): a list of texts; none when not given.
 * @param {unknown} situation
 * @returns {string[]}
 * @throws {FurtiveError} `invalid_input` naming `situation` or `situation[i]`: nothing changed
 */
function situationsOf(situation) {
  if (situation === undefined || situation === null) return [];
  if (!Array.isArray(situation)) throw FurtiveError.of("invalid_input", `situation: expected a list of texts, got ${typeof situation}; nothing changed`);
  return situation.map((entry, index) => {
    if (typeof entry !== "string") throw FurtiveError.of("invalid_input", `situation[${index}]: expected a text, got ${entry === null ? "null" : typeof entry}; nothing changed`);
    return entry;
  });
}

/**
 * `privileged`: a local GM caller; else the result must hold no hidden number.
 * `local`: what a caller on this client passes beside the request (the click's `event`).
 * @type {Record<string, (scene: Scene, payload: Record<string, any>, user: User, privileged: boolean, local?: {event?: Event}) => Promise<any>>}
 */
export const GM_ACTIONS = {
  /**
   * Hide: the GM's dialog (unless a GM caller passes `options.dialog === false`),
   * a Foundry stealth roll, then enterStealth. A player's options are ignored:
   * the GM's dialog always opens and sets the modifiers. A GM caller may pass
   * `options.roll`, a roll already made and shown (a Stealth roll from the
   * sheet, systems/sheet-rolls.mjs): its value is used and nothing is rolled again.
   * `local.event`: the click of a Hide made on this client (never part of a request).
   */
  async hide(scene, { tokenId, options: asked = {} }, user, privileged, local = {}) {
    const options = privileged ? asked : {};
    const token = requireTokenOn(scene, tokenId, "tokenId");
    // Refused before anything is shown, rolled or saved.
    const free = freeModifiersOf(options.free);
    const settings = readSettings();
    // Token Vision off shows every token before any detection mode is asked:
    // only the Token#isVisible guard hides there. Without it, the GM is told now.
    if (/** @type {any} */ (scene).tokenVision === false && !isVisibilityGuardInstalled()) {
      ui.notifications?.warn(t("FURTIVE.Notify.TokenVisionOff", { scene: scene.name ?? "" }));
    }
    let choice = {
      situation: Array.isArray(options.situation) ? options.situation.map(String) : [],
      free,
      moved: options.moved ?? (settings.zeroLengthMovement || recentlyMoved(/** @type {string} */ (token.id), Boolean(sceneState(scene, "open").state.combat.active))),
      precautions: Array.isArray(options.precautions) ? options.precautions.map(String) : precautionsOf(token.actor ?? null, settings.precautionsPath),
    };
    // The stored creatures follow the scene's tokens first (a token just
    // created or changed). No trial apply: the engine decides once, on the
    // real roll, and the roll is posted only when it accepted.
    await syncScene(scene);
    if (options.dialog !== false) {
      const answer = await hideDialog({
        tokenName: token.name ?? "",
        requester: privileged ? (typeof options.requester === "string" ? options.requester : undefined) : user.name ?? "",
        ruleset: settings.ruleset,
        senses: senseNames(settings.enhancedSenses),
        precautions: choice.precautions,
        // Percentile: `dark` (+50, P2) pre-ticked when the hider stands in darkness (B5, canvas/lighting.mjs) and the
        // caller named no situation; the GM can untick it.
        situation: !Array.isArray(options.situation) && settings.ruleset === "percentile" && onCanvas(scene) && inDarkness(scene, token) ? ["dark"] : choice.situation,
        moved: Boolean(choice.moved),
      }).catch((/** @type {unknown} */ error) => {
        // The GM typed what the dialog refuses (a free modifier without a number): for a
        // player's request, the GM is told (their input, their language, with their
        // label), and the player reads the refusal naming the field, not the GM's label:
        // free text the GM typed may name a token the player does not perceive (B1).
        if (privileged || !(error instanceof FurtiveError)) throw error;
        ui.notifications?.warn(`${t("FURTIVE.Title")}: ${error.localized()}`);
        if (error.code !== "invalid_input") throw FurtiveError.of("cancelled", "the GM's Hide dialog was refused");
        throw new BadRequest("invalid_input", "freeValue: a free modifier of the GM's Hide dialog has a label and no value that is a number; nothing changed");
      });
      if (!answer) throw FurtiveError.of("cancelled", "the GM cancelled the action");
      choice = answer;
    }
    // furtive.preHide (cancellable): listeners may read and change the choice.
    const context = { token, user, choice };
    if (Hooks.call("furtive.preHide", context) === false) throw FurtiveError.of("cancelled", "a furtive.preHide listener cancelled the action");
    choice = context.choice;
    const given = typeof options.roll === "number" && Number.isFinite(options.roll) ? Math.floor(options.roll) : null;
    // Opposed: the system's Stealth check where it has one (O1); percentile: the d100 (P1).
    // The system's roll dialog shows for a Hide made by hand (its own dialog not skipped), with the click's
    // keys when the click was on this client (systems/formula-rolls.mjs); closed, nothing changes.
    const evaluate = () => (settings.ruleset === "percentile" ? evaluateFormula("1d100", token) : evaluateCheck("stealth", settings.stealthFormula, token, { configure: options.dialog !== false, event: local.event }));
    const roll = given === null ? await evaluate() : null;
    if (given === null && !roll) throw FurtiveError.of("cancelled", "the roll dialog was closed");
    const outcome = await dispatch(scene, {
      type: "enterStealth",
      hider: token.id,
      roll: given ?? Math.floor(Number(roll?.total)),
      modifiers: { situation: choice.situation, free: choice.free },
      moved: Boolean(choice.moved),
      sprinting: Boolean(options.sprinting),
      precautions: settings.ruleset === "opposed" ? choice.precautions : [],
      view: knownView(scene, viewOf(scene, token)),
    }, { answers: /** @type {string} */ (token.id) });
    if (roll) await postRoll(roll, token, { flavor: bilingual("FURTIVE.Roll.Stealth", { name: token.name ?? "" }), secret: true });
    Hooks.callAll("furtive.hide", { token, user, choice, outcome });
    return privileged ? outcome : publicResult(outcome, scene, user);
  },

  /**
   * Reveal: the hider stops hiding. A token the engine does not know as
   * hiding but still showing the hidden status (left over) loses the status.
   */
  async reveal(scene, { tokenId }, user, privileged) {
    return step("reveal", { scene, user, tokenId }, async () => {
      try {
        const outcome = await dispatch(scene, { type: "stopHiding", hider: tokenId });
        return privileged ? outcome : publicResult(outcome, scene, user);
      } catch (error) {
        const token = scene.tokens.get(tokenId);
        if (error instanceof FurtiveError && error.code === "not_hiding" && token?.hasStatusEffect?.(STATUS.hidden)) {
          // Left over: off, unless another token of the same linked actor still hides.
          await setStatus(scene, token, "hidden", false, sceneState(scene, "open").state);
          return privileged ? null : { ok: true, entries: [] };
        }
        throw error;
      }
    });
  },

  /** Sprint (O12, P2/P4). */
  async sprint(scene, { tokenId }, user, privileged) {
    return step("sprint", { scene, user, tokenId }, async () => {
      const outcome = await dispatch(scene, { type: "sprint", token: tokenId });
      return privileged ? outcome : publicResult(outcome, scene, user);
    });
  },

  /** Point out (O3): the observer names allies who then perceive the hider. */
  async pointOut(scene, { observerId, hiderId, allies = [] }, user, privileged) {
    return step("pointOut", { scene, user, observerId, hiderId, allies }, async () => {
      const outcome = await dispatch(scene, { type: "pointOut", hider: hiderId, observer: observerId, allies: allies.map(String) });
      return privileged ? outcome : publicResult(outcome, scene, user);
    });
  },

  /**
   * Attack (P6/P7, O8/O9), with the O10 answer for each hidden target and
   * a card with Defend buttons. `targetIds` (a list: one attack instance,
   * O8) or the single `targetId`; the hooks' context carries both
   * (`targetId` the first target).
   */
  async attack(scene, { attackerId, targetId, targetIds, noisy = false, hits = 1, area = false, hitZone = null, aimedAtSpace = true }, user, privileged) {
    const ids = Array.isArray(targetIds) ? targetIds.map(String) : [String(targetId)];
    return step("attack", { scene, user, attackerId, targetId: ids[0], targetIds: ids, noisy, hits, area, hitZone, aimedAtSpace }, async () => {
      const attacker = requireTokenOn(scene, attackerId, "attackerId");
      const targets = ids.map((id, i) => requireTokenOn(scene, id, Array.isArray(targetIds) ? `targetIds[${i}]` : "targetId"));
      const settings = readSettings();
      const lines = [];
      if (settings.ruleset === "opposed") {
        const { state, session } = sceneState(scene, "open");
        for (const id of ids) {
          if (!state.hiders[id] || id === attackerId) continue;
          const answer = session.attackHidden({ attacker: attackerId, target: id, aimedAtSpace: Boolean(aimedAtSpace), area: Boolean(area) });
          lines.push({ clause: answer.clause, en: answer.en, fr: answer.fr });
        }
      }
      /** @type {Record<string, any>} */
      const event = { type: "attack", attacker: attackerId, noisy: Boolean(noisy), hits: Math.trunc(Number(hits) || 0), area: Boolean(area) };
      if (Array.isArray(targetIds)) event.targets = ids;
      else event.target = ids[0];
      if (hitZone) event.hitZone = hitZone;
      const outcome = await dispatch(scene, /** @type {any} */ (event));
      await postAttackCard({ sceneId: /** @type {string} */ (scene.id), attacker, targets, lines });
      return privileged ? outcome : publicResult(outcome, scene, user);
    });
  },

  /** Damage taken by a hider (O11). */
  async damageTaken(scene, { targetId, attackerId, hits = 1 }, user, privileged) {
    return step("damageTaken", { scene, user, targetId, attackerId, hits }, async () => {
      const outcome = await dispatch(scene, { type: "damageTaken", target: targetId, attacker: attackerId, hits: Math.trunc(Number(hits) || 1) });
      return privileged ? outcome : publicResult(outcome, scene, user);
    });
  },

  /** May the attacker attempt a knockout now (P8)? Players get only `allowed` and the explanation. */
  async canKnockout(scene, { attackerId, targetId }, user, privileged) {
    const target = requireTokenOn(scene, targetId, "targetId");
    const result = sceneState(scene, "open").session.knockout({ attacker: attackerId, target: targetId, helmet: wearsHelmet(target.actor ?? null, readSettings().helmet) });
    return privileged ? result : { allowed: result.allowed, clause: result.clause, en: result.allowed ? "" : result.en, fr: result.allowed ? "" : result.fr };
  },

  /**
   * Knockout (P8): a GM-only d100 against the base Furtivité; damage ÷ 4; unconscious on success.
   * The raw damage goes to the engine with the first question, so one out of its range is refused
   * (naming `rawDamage`) before the d100 is rolled.
   */
  async knockout(scene, { attackerId, targetId, rawDamage = 0 }, user, privileged) {
    return step("knockout", { scene, user, attackerId, targetId, rawDamage }, async () => {
      const attacker = requireTokenOn(scene, attackerId, "attackerId");
      const target = requireTokenOn(scene, targetId, "targetId");
      const settings = readSettings();
      const helmet = wearsHelmet(target.actor ?? null, settings.helmet);
      const { session } = sceneState(scene, "open");
      const damage = Math.trunc(Number(rawDamage));
      const allowed = session.knockout({ attacker: attackerId, target: targetId, helmet, rawDamage: damage });
      if (!allowed.allowed) throw FurtiveError.of("knockout_refused", engineText(allowed));
      const d100 = await rollFormula("1d100", attacker, { flavor: bilingual("FURTIVE.Roll.Knockout", { attacker: attacker.name ?? "", target: target.name ?? "" }), secret: true });
      const result = session.knockout({ attacker: attackerId, target: targetId, helmet, rawDamage: damage, d100 });
      // The card's texts in both languages, so each GM reads theirs (ui/chat.mjs decorateChatMessage); GM-whispered only.
      const texts = [
        { selector: ".furtive-knockout-result .furtive-text", en: result.en, fr: result.fr },
        { selector: ".furtive-knockout-damage", ...bilingual("FURTIVE.Chat.KnockoutDamage", { damage: result.damage ?? 0 }) },
      ];
      await ChatMessage.create({
        speaker: { alias: t("FURTIVE.Title") },
        whisper: gmUserIds(),
        content: `<div class="furtive-card furtive-gm"><p class="furtive-knockout-result"><span class="furtive-clause">${result.clause}</span> <span class="furtive-text">${escapeHtml(engineText(result))}</span></p><p class="furtive-knockout-damage">${escapeHtml(t("FURTIVE.Chat.KnockoutDamage", { damage: result.damage ?? 0 }))}</p></div>`,
        flags: { [MODULE_ID]: { kind: "knockout", entries: [{ clause: result.clause, en: result.en, fr: result.fr }], texts, lang: game.i18n.lang } },
      });
      await postLine(bilingual(result.knockedOut ? "FURTIVE.Chat.KnockedOut" : "FURTIVE.Chat.StaysConscious", { attacker: attacker.name ?? "", target: target.name ?? "" }), { named: [attacker, target] });
      if (result.knockedOut && statusEffectConfig("unconscious")) {
        await target.actor?.toggleStatusEffect("unconscious", { active: true });
      }
      if (privileged) return result;
      return { allowed: true, knockedOut: result.knockedOut };
    });
  },

  /** May `defender` defend `target` against `attacker` (P6)? A decision without numbers. */
  async canDefend(scene, { defenderId, targetId, attackerId }) {
    return sceneState(scene, "open").session.canDefend({ defender: defenderId, target: targetId, attacker: attackerId });
  },

  /** GM override of one pair. */
  async override(scene, { hiderId, observerId, perceived }, user) {
    return step("override", { scene, user, hiderId, observerId, perceived }, async () => {
      return dispatch(scene, { type: "gmOverride", hider: hiderId, observer: observerId, perceived: Boolean(perceived) });
    });
  },

  /**
   * P4: the situation changed for a hider; the engine asks for a new roll.
   * `situation` a list of texts and `free` checked as Hide's `options.free`
   * (`invalid_input` naming `situation`, `situation[i]`, `free`, `free[i]` or
   * `free[i].value`; a fraction truncated toward 0), before any hook or save.
   */
  async changeModifiers(scene, { hiderId, situation: situationGiven = [], free: freeGiven = [] }, user) {
    const situation = situationsOf(situationGiven);
    const free = freeModifiersOf(freeGiven);
    return step("changeModifiers", { scene, user, hiderId, situation, free }, async () => {
      return dispatch(scene, { type: "modifiersChanged", hider: hiderId, modifiers: { situation, free } });
    });
  },

  /**
   * GM: the turn of `tokenId` ends now (outside combat, where no tracker
   * does it): surprises it started expire (P6), a surprise turn reveals it (P9),
   * exposed pairs are decided (O5).
   */
  async endTurn(scene, { tokenId }, user) {
    return step("endTurn", { scene, user, tokenId }, async () => {
      return dispatch(scene, { type: "turnEnd", combatant: tokenId });
    });
  },

  /** GM: the scene's stealth starts over (fresh state, no hidden token). */
  async reset(scene, _payload, user) {
    return step("reset", { scene, user }, async () => {
      await resetScene(scene);
      return null;
    });
  },

  /** GM: the scene's last action is undone (its GM card's button): state, statuses and lookup as before it. */
  async undo(scene, { actionId }, user) {
    return step("undo", { scene, user, actionId }, async () => {
      await undoAction(scene, String(actionId ?? ""));
      return null;
    });
  },

  /**
   * The GM rolls a pending Perception check (automatic checks off, the GM
   * card's button): the Perception formula for the observer's actor, as a
   * GM-only Foundry roll.
   */
  async rollPerception(scene, { hiderId, observerId }) {
    const hider = scene.tokens.get(hiderId);
    const observer = scene.tokens.get(observerId);
    if (!hider || !observer) return null;
    const flavor = bilingual("FURTIVE.Roll.Perception", { observer: observer.name ?? "", hider: hider.name ?? "" });
    const total = await rollCheck("perception", readSettings().perceptionFormula, observer, { flavor, secret: true });
    return dispatch(scene, { type: "perceptionRolled", hider: hiderId, observer: observerId, total });
  },

  /** The GM makes a pending new stealth roll (P4) with the requested modifiers. */
  async reroll(scene, { hiderId }, user, privileged) {
    const reading = isActiveGM() ? sceneState(scene, "open") : sceneState(scene);
    const request = (reading?.pending ?? []).find((r) => r.kind === "stealthRoll" && r.hider === hiderId) ?? null;
    const modifiers = request?.modifiers ?? { situation: [], free: [] };
    return GM_ACTIONS.hide(scene, { tokenId: hiderId, options: { dialog: false, situation: modifiers.situation, free: modifiers.free } }, user, privileged);
  },
};

