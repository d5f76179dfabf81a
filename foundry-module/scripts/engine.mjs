/**
 * The rules engine: the wasm build of furtive-core, loaded when this file is
 * evaluated (Foundry does not await async hooks), and thin wrappers that
 * sort its errors.
 *
 * - A thrown `Error` with a `code` (see `errorCodes()`) is a rule refusal or
 *   bad input: it becomes an `EngineRefused` (errors.mjs) that callers show to the
 *   user, localized (`FURTIVE.Error.<code>`), with the engine's message.
 * - An `Error` without a code is a wasm trap: the engine is marked failed, the
 *   GM is told (`ui.notifications.error`) and every later call throws
 *   {@link EngineFailure}. The module never silently continues.
 *
 * The npm package's wasm entry point (`browser.js`, with `arguments.js`,
 * `errors.js` and `wasm/`) is copied into the module's `engine/` folder by
 * `scripts/build-foundry.sh`. A panic resets the wasm instance there and
 * comes back as the code `engine_panicked`, which the GM is told about.
 */

/** @typedef {import("./types.mjs").EngineState} EngineState */
/** @typedef {import("./types.mjs").EngineEvent} EngineEvent */
/** @typedef {import("./types.mjs").Outcome} Outcome */
/** @typedef {import("./types.mjs").Decision} Decision */
/** @typedef {import("./types.mjs").KnockoutResult} KnockoutResult */
/** @typedef {import("./types.mjs").HiddenAttackResult} HiddenAttackResult */
/** @typedef {import("./types.mjs").WasmEngine} WasmEngine */
/** @typedef {import("./types.mjs").AttemptChange} AttemptChange */
/** @typedef {import("./types.mjs").ViewChanges} ViewChanges */

import { EngineRefused, FurtiveError } from "./errors.mjs";

/** The engine could not load or trapped: nothing more can be decided. */
export class EngineFailure extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "EngineFailure";
  }
}

/** @type {WasmEngine | null} */
let wasm = null;
/** @type {Error | null} */
let failure = null;

/**
 * Resolves once the wasm engine is ready; rejects with {@link EngineFailure}
 * if it cannot load. Started when this file is evaluated.
 * @type {Promise<void>}
 */
export const engineReady = (async () => {
  try {
    // The npm package's wasm entry point (copied into engine/ by
    // scripts/build-foundry.sh): it serializes arguments, maps errors to
    // codes and resets the wasm instance after a panic.
    const engineUrl = new URL("../engine/browser.js", import.meta.url).href;
    /** @type {any} */
    const furtive = await import(engineUrl);
    await furtive.init(fetch(new URL("../engine/wasm/furtive_wasm_bg.wasm", import.meta.url)));
    wasm = /** @type {WasmEngine} */ (furtive);
  } catch (error) {
    markFailed(error);
    throw failure;
  }
})();
// The rejection is reported through markFailed; keep it from being "unhandled".
engineReady.catch(() => {});

/** Whether the engine has loaded and has not failed. */
export function isEngineReady() {
  return wasm !== null && failure === null;
}

/** @param {unknown} error */
function markFailed(error) {
  const detail = error instanceof Error ? error.message : String(error);
  failure = new EngineFailure(detail);
  console.error("furtive | engine failure", error);
  const ui = /** @type {any} */ (globalThis).ui;
  const game = /** @type {any} */ (globalThis).game;
  if (game?.user?.isGM && ui?.notifications) {
    const text = game.i18n?.format?.("FURTIVE.Engine.Failed", { detail }) ?? `Furtive: the rules engine failed (${detail}).`;
    ui.notifications.error(text, { permanent: true });
  }
}

/**
 * Calls one engine function and sorts its errors.
 * @template T
 * @param {(engine: WasmEngine) => T} call
 * @returns {T}
 */
function guarded(call) {
  if (failure) throw failure;
  if (!wasm) throw new EngineFailure("the rules engine is still loading");
  try {
    return call(wasm);
  } catch (error) {
    const code = /** @type {any} */ (error)?.code;
    if (typeof code !== "string") {
      markFailed(error);
      throw failure;
    }
    const refused = new EngineRefused(code, /** @type {Error} */ (error).message);
    if (code === "engine_panicked") {
      // The package reset the wasm instance: later calls work. Tell the GM in
      // their language (`FURTIVE.Error.engine_panicked`, then the package's
      // English detail in parentheses, errors.mjs `localized`), prefixed like
      // the module's other notifications. `User#isGM`:
      // https://foundryvtt.com/api/classes/foundry.documents.User.html#isGM
      const ui = /** @type {any} */ (globalThis).ui;
      const game = /** @type {any} */ (globalThis).game;
      if (game?.user?.isGM) {
        ui?.notifications?.error(`${game.i18n?.localize?.("FURTIVE.Title") ?? "Furtive"}: ${refused.localized()}`);
        // Told once: the action that called rejects with this error, and its caller shows no second notice.
        refused.shown = true;
      }
    }
    throw refused;
  }
}

// The module keeps its state in a `SceneSession` below and asks it;
// `hiddenFrom(state)` answers for a stored state read without a session
// (ui/hud.mjs).

/**
 * `hiddenFrom(state)`: `{ [observerTokenId]: hiderTokenId[] }` (B1, B2).
 * @param {EngineState} state
 * @returns {Record<string, string[]>}
 */
export const hiddenFrom = (state) => guarded((e) => e.hiddenFrom(state));

/**
 * `concealedByDarkness({targetInDarkness, observers: [{distance?, darkvision}]})` (B5): whether the
 * target is concealed by darkness from each observer, in order. Scene units; darkvision a number >= 0 or
 * `"unlimited"`; a missing distance is unknown.
 * @param {import("../../npm/types.js").DarknessQuery} query
 * @returns {boolean[]}
 */
export const concealedByDarkness = (query) => guarded((e) => e.concealedByDarkness(query));

/**
 * `alliedSides({side, sides})` (O3, P6, P9): whether a creature on `side` and a distinct creature on each
 * of `sides` are allies, in order: the rule the engine applies to Point out, defense and P9's -100 (the
 * same side, neither empty nor `"neutral"`). Needs no state: a player's client, which has none, asks it.
 * @param {import("../../npm/types.js").AlliedSidesQuery} query
 * @returns {boolean[]}
 */
export const alliedSides = (query) => guarded((e) => e.alliedSides(query));

/**
 * `errorCodes()`: every stable error code.
 * @returns {string[]}
 */
export const errorCodes = () => guarded((e) => e.errorCodes());

/**
 * `situationModifiers()`: the nine P2 situation modifiers with their values,
 * from the engine (the Hide dialog shows them).
 * @returns {{id: string, value: number}[]}
 */
export const situationModifiers = () => guarded((e) => e.situationModifiers());

/**
 * One scene's engine state with the operations the module needs, behind one
 * small interface: `applyAll(events) -> effects` applies a whole user action
 * as one transaction, the queries answer from the same state.
 *
 * Built on the engine's `Session` (npm `Session`): the state lives
 * in the engine, an event costs what it touches, `applyAll` is all or
 * nothing, `snapshot()` gives the state (format version 2) to save.
 * After a wasm panic the engine answers `session_lost`: the caller loads a
 * new session from its last snapshot (gm/transaction.mjs does).
 */
export class SceneSession {
  /**
   * @param {any} native the npm Session
   */
  constructor(native) {
    /** @private */
    this.native = native;
  }

  /**
   * A fresh session.
   * @param {{ruleset: "percentile" | "opposed", settings?: object, creatures?: object[]}} config
   */
  static create(config) {
    return new SceneSession(guarded((e) => /** @type {any} */ (e).Session.create(config)));
  }

  /**
   * A session from a saved state (format version 1 or 2; validated once, here).
   * @param {EngineState} state
   */
  static load(state) {
    return new SceneSession(guarded((e) => /** @type {any} */ (e).Session.load(state)));
  }

  /**
   * Applies several events as one transaction. Atomic unless `skipRefused`:
   * a refused event throws an `EngineRefused` and changes nothing. With
   * `skipRefused` (automation: one hider's refusal must not block the
   * others), the events are applied one by one, each atomic, and the refused
   * ones are left out and listed in `refused`.
   * `hiddenFrom` is the patch to the `hiddenFrom()` lookup (npm
   * `Session.hiddenFromChanges(effects)`: `[{observer, hider, hidden}]`, in
   * order; B1, B2), `attempts` the hiders that began (`hiding: true`) or
   * ended a stealth attempt and `views`, per hider, the pairs whose stored
   * clear view or distance changed or that went away (npm `Effects`), each
   * in the order of the transactions, and `applied` the events applied, each
   * inner list one engine transaction (what the store keeps to apply again,
   * storage/store.mjs).
   * @param {EngineEvent[]} events
   * @param {{skipRefused?: boolean}} [options]
   * @returns {{changes: Outcome["changes"], requests: Outcome["requests"], log: Outcome["log"], hiddenFrom: {observer: string, hider: string, hidden: boolean}[], attempts: AttemptChange[], views: ViewChanges[], applied: EngineEvent[][], refused: {event: EngineEvent, error: FurtiveError}[]}}
   */
  applyAll(events, { skipRefused = false } = {}) {
    if (!events.length) return { changes: [], requests: [], log: [], hiddenFrom: [], attempts: [], views: [], applied: [], refused: [] };
    try {
      // One event (an action: gm/transaction.mjs `dispatch`) goes through
      // `apply`: the same transaction, and a refusal names the event's own
      // field (`hider: …`); `applyAll` would name its place in a list the
      // user never made (`events[0].hider: …`).
      const effects = guarded(() => (events.length === 1 ? this.native.apply(events[0]) : this.native.applyAll(events)));
      return { changes: effects.changes, requests: effects.requests, log: effects.log, hiddenFrom: effects.hiddenFrom, attempts: effects.attempts, views: effects.views, applied: [events], refused: [] };
    } catch (error) {
      if (!skipRefused || !(error instanceof FurtiveError) || error.code === "session_lost") throw error;
    }
    /** @type {ReturnType<SceneSession["applyAll"]>} */
    const effects = { changes: [], requests: [], log: [], hiddenFrom: [], attempts: [], views: [], applied: [], refused: [] };
    for (const event of events) {
      try {
        const one = guarded(() => this.native.apply(event));
        effects.changes.push(...one.changes);
        effects.requests.push(...one.requests);
        effects.log.push(...one.log);
        effects.hiddenFrom.push(...one.hiddenFrom);
        effects.attempts.push(...one.attempts);
        effects.views.push(...one.views);
        effects.applied.push([event]);
      } catch (error) {
        if (!(error instanceof FurtiveError) || error.code === "session_lost") throw error;
        effects.refused.push({ event, error });
      }
    }
    return effects;
  }

  /** `{ [observerTokenId]: hiderTokenId[] }`, one query (B1, B2). @returns {Record<string, string[]>} */
  hiddenFrom() {
    return guarded(() => this.native.hiddenFrom());
  }

  /** @param {{observer: string, hider: string}} query @returns {Decision} */
  perceives(query) {
    return guarded(() => this.native.perceives(query));
  }

  /** @param {{defender: string, target: string, attacker: string}} query @returns {Decision} */
  canDefend(query) {
    return guarded(() => this.native.canDefend(query));
  }

  /** @param {{attacker: string, target: string, helmet: boolean, rawDamage?: number, d100?: number}} query @returns {KnockoutResult} */
  knockout(query) {
    return guarded(() => this.native.knockout(query));
  }

  /** @param {{attacker: string, target: string, aimedAtSpace: boolean, area: boolean}} query @returns {HiddenAttackResult} */
  attackHidden(query) {
    return guarded(() => this.native.attackHidden(query));
  }

  /**
   * GM only: a hider's roll in force and its parts (npm `Session.standing`).
   * @param {{hider: string}} query
   * @returns {import("../../npm/types.js").Standing}
   */
  standing(query) {
    return guarded(() => this.native.standing(query));
  }

  /**
   * GM only: each pair's state and the decision behind it, `en` and `fr`
   * (npm `Session.pairs`).
   * @param {{hider?: string, observer?: string}} query
   * @returns {import("../../npm/types.js").PairStanding[]}
   */
  pairs(query) {
    return guarded(() => this.native.pairs(query));
  }

  /** The state to store (format version 2). @returns {EngineState} */
  snapshot() {
    return guarded(() => this.native.snapshot());
  }

  /** Frees the engine's copy. */
  free() {
    try {
      this.native.free();
    } catch {
      // A lost session has nothing to free.
    }
  }
}
