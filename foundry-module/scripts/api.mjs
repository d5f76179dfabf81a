/**
 * The public API: `game.modules.get("furtive").api`, for macros and other
 * modules. Also passed to the `furtive.ready` hook.
 *
 * Tokens may be given as a Token, a TokenDocument or a token id. Actions run
 * on the active GM (a player's call goes through the socket; the GM checks the
 * player owns the acting token). Refusals reject with an `Error` whose `code`
 * is the engine's stable code (e.g. `not_hider_turn`, `observer_does_not_perceive`)
 * or a module code (`not_owner`, `no_gm`, `gm_only`, `cancelled`, `timeout`).
 *
 * Hooks:
 * - `furtive.ready(api)` (callAll): once the module is ready on this client.
 * - `furtive.preDefend(context)` (call, cancellable): before a Defend roll;
 *   `context = {defender, target, attacker, defense, decision, formula}`
 *   (TokenDocuments, "dodge" | "parry" | "block", the engine's Decision, the
 *   formula, which a listener may change). Return `false` to cancel.
 */

import * as actions from "./actions.mjs";
import { stateOf } from "./director.mjs";
import { engineReady, errorCodes } from "./engine.mjs";
import { lookupHiddenFrom } from "./visibility.mjs";
import { isActiveGM } from "./store.mjs";

/**
 * Builds the API object.
 */
export function createApi() {
  return Object.freeze({
    /** Resolves when the rules engine is loaded (rejects if it cannot load). */
    engineReady,

    /**
     * Hide: a stealth roll for the token (Foundry roll; the GM's dialog sets
     * the P2 modifiers unless `dialog: false`).
     * @type {(token: actions.TokenLike, options?: {dialog?: boolean, situation?: string[], free?: {label: string, value: number}[], moved?: boolean, sprinting?: boolean, precautions?: string[]}) => Promise<any>}
     */
    hide: actions.hide,

    /** Reveal: the token stops hiding. @type {(token: actions.TokenLike) => Promise<any>} */
    reveal: actions.reveal,

    /**
     * Point out (O3): `observer`, who perceives `hider`, tells `allies`.
     * @type {(observer: actions.TokenLike, hider: actions.TokenLike, allies: actions.TokenLike[]) => Promise<any>}
     */
    pointOut: actions.pointOut,

    /**
     * Attack: starts a surprise (P6) or costs a noise penalty (O8) as the rules say.
     * @type {(attacker: actions.TokenLike, target: actions.TokenLike, options?: {noisy?: boolean, hits?: number, area?: boolean, hitZone?: "head" | "trunk" | "arm" | "leg" | null, aimedAtSpace?: boolean}) => Promise<any>}
     */
    attack: actions.attack,

    /**
     * Knockout (P8): resolves to `{allowed, knockedOut, ...}`; refused (code
     * `knockout_refused`) when P8 does not allow it.
     * @type {(attacker: actions.TokenLike, target: actions.TokenLike, options?: {rawDamage?: number}) => Promise<any>}
     */
    knockout: actions.knockout,

    /** Whether P8 allows a knockout now: `{allowed, clause, en, fr}`. @type {(attacker: actions.TokenLike, target: actions.TokenLike) => Promise<any>} */
    canKnockout: actions.canKnockout,

    /**
     * Defend (P6): refused with the engine's explanation while the target is
     * defenseless; else fires `furtive.preDefend`, then rolls the defense formula.
     * @type {(defender: actions.TokenLike, target: actions.TokenLike, attacker: actions.TokenLike, defense: "dodge" | "parry" | "block") => Promise<{allowed: boolean, decision: {allowed: boolean, clause: string, en: string, fr: string}, total?: number, cancelled?: boolean}>}
     */
    defend: actions.defend,

    /**
     * May `defender` defend `target` against `attacker` (P6)? `{allowed, clause, en, fr}`.
     * For systems with their own defense rolls.
     * @type {(defender: actions.TokenLike, target: actions.TokenLike, attacker: actions.TokenLike) => Promise<{allowed: boolean, clause: string, en: string, fr: string}>}
     */
    canDefend: actions.canDefend,

    /**
     * O11: the hider `target` took Health or Stamina damage from `attacker` in `hits` hits.
     * @param {actions.TokenLike} target
     * @param {actions.TokenLike} attacker
     * @param {number} [hits]
     */
    damageTaken(target, attacker, hits = 1) {
      const t = actions.resolveToken(target);
      const a = actions.resolveToken(attacker);
      return actions.run("damageTaken", { sceneId: t?.parent?.id, targetId: t?.id, attackerId: a?.id, hits });
    },

    /**
     * The token sprints (O12 ends stealth; P2/P4 sprint modifier).
     * @param {actions.TokenLike} token
     */
    sprint(token) {
      const t = actions.resolveToken(token);
      return actions.run("sprint", { sceneId: t?.parent?.id, tokenId: t?.id });
    },

    /**
     * GM: the situation changed for a hider (P4): the engine asks for a new roll.
     * @param {actions.TokenLike} hider
     * @param {{situation?: string[], free?: {label: string, value: number}[]}} modifiers
     */
    changeModifiers(hider, modifiers) {
      const h = actions.resolveToken(hider);
      return actions.run("changeModifiers", { sceneId: h?.parent?.id, hiderId: h?.id, situation: modifiers.situation ?? [], free: modifiers.free ?? [] });
    },

    /**
     * GM: forces one pair perceived or unperceived.
     * @param {actions.TokenLike} hider
     * @param {actions.TokenLike} observer
     * @param {boolean} perceived
     */
    override(hider, observer, perceived) {
      const h = actions.resolveToken(hider);
      const o = actions.resolveToken(observer);
      return actions.run("override", { sceneId: h?.parent?.id, hiderId: h?.id, observerId: o?.id, perceived });
    },

    /**
     * Whether `observer` perceives `hider`, from the published lookup
     * (viewed scene; every client; no numbers).
     * @type {(observer: actions.TokenLike, hider: actions.TokenLike) => boolean}
     */
    perceives: actions.perceives,

    /**
     * Hider ids the observer does not perceive (viewed scene).
     * @param {actions.TokenLike} observer
     * @returns {string[]}
     */
    hiddenFrom(observer) {
      const o = actions.resolveToken(observer);
      return o?.id ? lookupHiddenFrom(o.id) : [];
    },

    /**
     * GM only: a copy of the engine state of a scene (default: the viewed
     * one), with every number; null for players or a scene without state.
     * @param {Scene} [scene]
     */
    getState(scene) {
      const target = scene ?? canvas?.scene;
      return game.user?.isGM && target ? stateOf(target) : null;
    },

    /**
     * GM: ends the token's turn now, for play outside the combat tracker
     * (P6 surprises it started expire, P9, O5).
     * @param {actions.TokenLike} token
     */
    endTurn(token) {
      const t = actions.resolveToken(token);
      return actions.run("endTurn", { sceneId: t?.parent?.id, tokenId: t?.id });
    },

    /**
     * GM: the scene's stealth starts over: fresh state, no hidden token, no surprise.
     * @param {Scene} [scene] default: the viewed scene
     */
    reset(scene) {
      const target = scene ?? canvas?.scene;
      return actions.run("reset", { sceneId: target?.id });
    },

    /** Whether this client is the active GM (the one that runs the rules). */
    isActiveGM,

    /** Every stable engine error code. */
    errorCodes,
  });
}
