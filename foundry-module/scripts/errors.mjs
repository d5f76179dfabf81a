/**
 * The module's errors: one `FurtiveError` family whose class says whose
 * fault it is, each with a stable `code` and a localized message
 * (`FURTIVE.Error.<code>` in lang/en.json and lang/fr.json, then the detail).
 *
 * | class | `fault` | codes |
 * | --- | --- | --- |
 * | {@link EngineRefused} | `"rules"`: the engine refused the event (a rule, or bad input naming the field) | the engine's codes (`not_hider_turn`, `invalid_input`, ...) |
 * | {@link NotOwner} | `"user"`: the asking user does not own the acting token, acts on a scene they do not view, or the action is the active GM's | `not_owner`, `scene_not_viewed`, `gm_only`, `not_active_gm` |
 * | {@link NoGM} | `"table"`: no GM can run the action | `no_gm` |
 * | {@link TimedOut} | `"network"`: the GM did not answer in time | `timeout` |
 * | {@link Cancelled} | `"user"`: the GM or a `furtive.pre*` hook cancelled | `cancelled` |
 * | {@link BadRequest} | `"caller"`: a macro or request named something that does not exist | `unknown_token`, `unknown_scene`, `unknown_user`, `unverified_user`, `knockout_refused`, `not_last_action` |
 * | {@link StateLost} | `"storage"`: the scene's state record cannot be found, or writing it failed (nothing changed) | `state_lost`, `save_failed` |
 *
 * Every error a module action rejects with is one of these (an engine trap is
 * `EngineFailure`, engine.mjs, and is not a refusal). `error.code` is stable;
 * `error.message` is English detail (may be empty for a player when it could
 * quote a hidden number).
 */

/** Codes that are not the engine's, by class. */
const MODULE_CODES = /** @type {Record<string, string>} */ ({
  not_owner: "NotOwner",
  scene_not_viewed: "NotOwner",
  gm_only: "NotOwner",
  no_gm: "NoGM",
  timeout: "TimedOut",
  cancelled: "Cancelled",
  unknown_token: "BadRequest",
  unknown_scene: "BadRequest",
  unknown_user: "BadRequest",
  unverified_user: "BadRequest",
  knockout_refused: "BadRequest",
  not_last_action: "BadRequest",
  not_active_gm: "NotOwner",
  state_lost: "StateLost",
  save_failed: "StateLost",
});

/** Codes of bad input: their detail names the field to fix, for every user. */
const BAD_INPUT = new Set(["invalid_input", "out_of_range", "duplicate_token"]);

/** A refusal: nothing changed. Subclasses say whose fault it is. */
export class FurtiveError extends Error {
  /**
   * @param {string} code    stable code, e.g. `"not_owner"`
   * @param {string} message English detail (names the field for bad input)
   * @param {string} [fault] whose fault: "rules" | "user" | "table" | "network" | "caller" | "storage"
   */
  constructor(code, message, fault = "rules") {
    super(message);
    this.name = "FurtiveError";
    /** @type {string} */
    this.code = code;
    /** @type {string} */
    this.fault = fault;
    /**
     * Whether this client already showed this error to its user (an engine
     * panic is told to the GM as it happens, engine.mjs): whoever catches it
     * later shows it no second time (net/requests.mjs `notifyRefusal`).
     * @type {boolean}
     */
    this.shown = false;
  }

  /**
   * The error as the user reads it: `FURTIVE.Error.<code>` in their
   * language, then, for a GM, the English detail in parentheses (the detail
   * alone when the code has no text). A player reads their language only,
   * but for bad input (`invalid_input`, `out_of_range`, `duplicate_token`),
   * whose sentence alone does not say which field to fix: the detail
   * (English, naming fields and token ids) goes to the console
   * (`console.debug`). A detail that is the sentence itself (a refusal the
   * module words, such as `not_last_action`) is not repeated. Players get no detail at all for the codes that may
   * quote a hidden number when the GM's engine refused them (net/socket.mjs).
   * `game.user.isGM`:
   * https://foundryvtt.com/api/classes/foundry.documents.User.html#isGM
   */
  localized() {
    const game = /** @type {any} */ (globalThis).game;
    const i18n = game?.i18n;
    const key = `FURTIVE.Error.${this.code}`;
    if (!i18n?.has?.(key)) return this.message;
    const text = i18n.localize(key);
    // A refusal the module words itself carries the same sentence as its detail: said once.
    if (!this.message || this.message === text) return text;
    if (game?.user?.isGM || BAD_INPUT.has(this.code)) return `${text} (${this.message})`;
    console.debug("furtive |", this.code, this.message);
    return text;
  }

  /**
   * The error of the right class for a code (an engine code is {@link EngineRefused}).
   * @param {string} code
   * @param {string} message
   * @returns {FurtiveError}
   */
  static of(code, message) {
    switch (MODULE_CODES[code]) {
      case "NotOwner":
        return new NotOwner(message, code);
      case "NoGM":
        return new NoGM(message, code);
      case "TimedOut":
        return new TimedOut(message);
      case "Cancelled":
        return new Cancelled(message);
      case "BadRequest":
        return new BadRequest(code, message);
      case "StateLost":
        return new StateLost(message, code);
      default:
        return new EngineRefused(code, message);
    }
  }
}

/** The rules engine refused the event (a rule, or input it rejects naming the field). */
export class EngineRefused extends FurtiveError {
  /** @param {string} code the engine's code @param {string} message the engine's message */
  constructor(code, message) {
    super(code, message, "rules");
    this.name = "EngineRefused";
  }
}

/** The asking user does not own the acting token (or the action is the GM's). */
export class NotOwner extends FurtiveError {
  /** @param {string} message @param {string} [code] `"not_owner"`, `"scene_not_viewed"`, `"gm_only"` or `"not_active_gm"` */
  constructor(message, code = "not_owner") {
    super(code, message, "user");
    this.name = "NotOwner";
  }
}

/** No GM can run the action: none is connected. */
export class NoGM extends FurtiveError {
  /** @param {string} message @param {string} [code] `"no_gm"` */
  constructor(message, code = "no_gm") {
    super(code, message, "table");
    this.name = "NoGM";
  }
}

/** The GM did not answer in time. */
export class TimedOut extends FurtiveError {
  /** @param {string} message */
  constructor(message) {
    super("timeout", message, "network");
    this.name = "TimedOut";
  }
}

/** The GM (dialog) or a `furtive.pre*` hook cancelled the action. */
export class Cancelled extends FurtiveError {
  /** @param {string} message */
  constructor(message) {
    super("cancelled", message, "user");
    this.name = "Cancelled";
  }
}

/** The caller named a token, scene, action or user that does not exist (or a knockout P8 does not allow). */
export class BadRequest extends FurtiveError {
  /** @param {string} code @param {string} message */
  constructor(code, message) {
    super(code, message, "caller");
    this.name = "BadRequest";
  }
}

/**
 * The scene's state record cannot be found (storage/store.mjs): the GM must start the
 * scene over (`state_lost`); or a write of it failed and nothing changed
 * (`save_failed`).
 */
export class StateLost extends FurtiveError {
  /** @param {string} message @param {string} [code] `"state_lost"` or `"save_failed"` */
  constructor(message, code = "state_lost") {
    super(code, message, "storage");
    this.name = "StateLost";
  }
}
