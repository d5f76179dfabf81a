/**
 * The public API: `game.modules.get("furtive").api`, for macros and other
 * modules. Also passed to the `furtive.ready` hook.
 *
 * Tokens may be given as a Token, a TokenDocument or a token id. Actions run
 * on the active GM (a player's call is a query to the active GM, who checks the
 * player owns the acting token). Refusals reject with a `FurtiveError`
 * (errors.mjs) whose class and `fault` say whose fault it is, with a stable
 * `code`: the engine's (e.g. `not_hider_turn`, `observer_does_not_perceive`)
 * or a module code (`not_owner`, `no_gm`, `gm_only`, `cancelled`, `timeout`,
 * `state_lost`), and `localized()`.
 *
 * Hooks (the full list with contexts: docs/foundry-install.md):
 * - `furtive.ready(api)` (callAll): once the module is ready on this client.
 * - `furtive.pre<Action>(context)` (call, cancellable) and
 *   `furtive.<action>(context)` (callAll) around each action on the active
 *   GM: hide, reveal, sprint, pointOut, attack, damageTaken, knockout,
 *   override, changeModifiers, endTurn, reset (gm/actions.mjs).
 * - `furtive.preDefend(context)` (call, cancellable): before a Defend roll;
 *   `context = {defender, target, attacker, defense, decision, formula}`
 *   (TokenDocuments, "dodge" | "parry" | "block", the engine's Decision, the
 *   formula, which a listener may change). Return `false` to cancel.
 */

import * as actions from "./macros.mjs";
import { engineReady, errorCodes } from "../engine.mjs";
import { isActiveGM } from "../storage/store.mjs";
import { openPerceptionWindow } from "../ui/perception-window.mjs";

/**
 * Builds the API object.
 */
export function createApi() {
  return Object.freeze({
    /**
     * Resolves when the rules engine (the wasm) is loaded; rejects if it
     * cannot load. The module's `ready` work goes on after it (both
     * languages, states kept before per-scene storage moved into their
     * scenes): wait for the `furtive.ready` hook before reading a state.
     */
    engineReady,

    /**
     * Hide: a stealth roll for the token (Foundry roll; the GM's dialog sets
     * the P2 modifiers unless `dialog: false`). A GM caller's `free` modifier
     * whose `value` is not a finite number rejects with `invalid_input`
     * naming it (`free[0].value`), and nothing changes. Likewise, before
     * anything is rolled, shown or saved: options that are not an object
     * (`options`), `dialog`, `moved` or `sprinting` that is not a boolean
     * (`options.moved`: the text "false" is not coerced), `situation` or
     * `precautions` that is not a list of texts (`options.situation`).
     * @type {(token: import("../net/resolve.mjs").TokenLike, options?: {dialog?: boolean, situation?: string[], free?: {label: string, value: number}[], moved?: boolean, sprinting?: boolean, precautions?: string[]}) => Promise<any>}
     */
    hide: actions.hide,

    /** Reveal: the token stops hiding. @type {(token: import("../net/resolve.mjs").TokenLike) => Promise<any>} */
    reveal: actions.reveal,

    /**
     * Point out (O3): `observer`, who perceives `hider`, tells `allies`.
     * @type {(observer: import("../net/resolve.mjs").TokenLike, hider: import("../net/resolve.mjs").TokenLike, allies: import("../net/resolve.mjs").TokenLike[]) => Promise<any>}
     */
    pointOut: actions.pointOut,

    /**
     * Attack: starts a surprise (P6) or costs a noise penalty (O8) as the rules say.
     * `target` may be a list: one attack instance on several targets (an
     * area effect: one O8 penalty; each target its own O9 check and P6
     * surprise), one transaction, one card.
     * @type {(attacker: import("../net/resolve.mjs").TokenLike, target: import("../net/resolve.mjs").TokenLike | import("../net/resolve.mjs").TokenLike[], options?: {noisy?: boolean, hits?: number, area?: boolean, hitZone?: "head" | "trunk" | "arm" | "leg" | null, aimedAtSpace?: boolean}) => Promise<any>}
     */
    attack: actions.attack,

    /**
     * Knockout (P8): resolves to `{allowed, knockedOut, ...}`; refused (code
     * `knockout_refused`) when P8 does not allow it.
     * @type {(attacker: import("../net/resolve.mjs").TokenLike, target: import("../net/resolve.mjs").TokenLike, options?: {rawDamage?: number}) => Promise<any>}
     */
    knockout: actions.knockout,

    /** Whether P8 allows a knockout now: `{allowed, clause, en, fr}`. @type {(attacker: import("../net/resolve.mjs").TokenLike, target: import("../net/resolve.mjs").TokenLike) => Promise<any>} */
    canKnockout: actions.canKnockout,

    /**
     * Defend (P6): refused with the engine's explanation while the target is
     * defenseless; else fires `furtive.preDefend`, then rolls the defense formula.
     * @type {(defender: import("../net/resolve.mjs").TokenLike, target: import("../net/resolve.mjs").TokenLike, attacker: import("../net/resolve.mjs").TokenLike, defense: "dodge" | "parry" | "block") => Promise<{allowed: boolean, decision: {allowed: boolean, clause: string, en: string, fr: string}, total?: number, cancelled?: boolean}>}
     */
    defend: actions.defend,

    /**
     * May `defender` defend `target` against `attacker` (P6)? `{allowed, clause, en, fr}`.
     * For systems with their own defense rolls.
     * @type {(defender: import("../net/resolve.mjs").TokenLike, target: import("../net/resolve.mjs").TokenLike, attacker: import("../net/resolve.mjs").TokenLike) => Promise<{allowed: boolean, clause: string, en: string, fr: string}>}
     */
    canDefend: actions.canDefend,

    /**
     * O11: the hider `target` took Health or Stamina damage from `attacker` in `hits` hits.
     * @param {import("../net/resolve.mjs").TokenLike} target
     * @param {import("../net/resolve.mjs").TokenLike} attacker
     * @param {number} [hits]
     */
    damageTaken: actions.damageTaken,

    /**
     * The token sprints (O12 ends stealth; P2/P4 sprint modifier).
     * @param {import("../net/resolve.mjs").TokenLike} token
     */
    sprint: actions.sprint,

    /**
     * GM: the situation changed for a hider (P4): the engine asks for a new roll.
     * `situation` must be a list of texts and `free` is checked as Hide's
     * `options.free` (`invalid_input` naming `situation[0]`, `free[0].value`...;
     * nothing changes).
     * @param {import("../net/resolve.mjs").TokenLike} hider
     * @param {{situation?: string[], free?: {label: string, value: number}[]}} modifiers
     */
    changeModifiers: actions.changeModifiers,

    /**
     * GM: forces one pair perceived or unperceived.
     * @param {import("../net/resolve.mjs").TokenLike} hider
     * @param {import("../net/resolve.mjs").TokenLike} observer
     * @param {boolean} perceived
     */
    override: actions.override,

    /**
     * Whether `observer` perceives `hider`, from the published lookup of
     * their scene (viewed or not; every client; no numbers). Throws
     * `unknown_token` for a token it cannot resolve, `invalid_input` for
     * tokens of two scenes.
     * @type {(observer: import("../net/resolve.mjs").TokenLike, hider: import("../net/resolve.mjs").TokenLike) => boolean}
     */
    perceives: actions.perceives,

    /**
     * Hider ids the observer does not perceive (its scene's published
     * lookup). Throws `unknown_token` for a token it cannot resolve.
     * @param {import("../net/resolve.mjs").TokenLike} observer
     * @returns {string[]}
     */
    hiddenFrom: actions.hiddenFrom,

    /**
     * GM only: a copy of the engine state of a scene (default: the viewed
     * one), with every number; null for players or a scene without state.
     * Throws `unknown_scene` for a value that is neither a Scene nor its id.
     * @param {Scene | string} [scene] a Scene or its id
     */
    getState: actions.getState,

    /**
     * GM: ends the token's turn now, for play outside the combat tracker
     * (P6 surprises it started expire, P9, O5).
     * @param {import("../net/resolve.mjs").TokenLike} token
     */
    endTurn: actions.endTurn,

    /**
     * GM: the scene's stealth starts over: fresh state, no hidden token, no surprise.
     * Rejects with `unknown_scene` for a value that is neither a Scene nor its id.
     * @param {Scene | string} [scene] a Scene or its id; default: the viewed scene
     */
    reset: actions.reset,

    /**
     * GM: opens "Furtive: who perceives whom" (ui/perception-window.mjs) for
     * a scene (default: the viewed one), its focus on a token's row or column,
     * with filters on (`{combatants, selected, unseen}`, each true or false).
     * A player is refused with `gm_only`; bad input with `invalid_input`,
     * `unknown_scene` or `unknown_token` naming the field, and nothing opens.
     * @type {typeof openPerceptionWindow}
     */
    perceptionWindow: openPerceptionWindow,

    /** Whether this client is the active GM (the one that runs the rules). */
    isActiveGM,

    /** Every stable engine error code. */
    errorCodes,
  });
}
