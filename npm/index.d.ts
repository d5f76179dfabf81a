/// <reference lib="esnext.disposable" />
// Types of the `furtive` package: one set for both backends (the napi addon
// in Node.js, WebAssembly in browsers), which return identical shapes.
//
// The types of every value that crosses the boundary (config, state
// snapshot, events, effects, query answers, error codes, scenes, scene
// updates) are generated from the Rust types into ./types.d.ts (see its
// header); this file adds what JavaScript alone has: the classes, the
// functions, the error codes of the JavaScript layer. Clause ids (P1-P11,
// O1-O13, B1-B5) refer to the rules interpretation shipped with the project.

import type {
  AlliedSidesQuery,
  ClearViewAnswer,
  ClearViewFrom,
  ClearViewMatrix,
  ClearViewQuery,
  Config,
  DarknessQuery,
  Decision,
  DefenseQuery,
  Effects,
  EngineErrorCode,
  Event,
  HiddenAttackQuery,
  HiddenAttackResult,
  HiddenFrom,
  HiddenFromChange,
  KnockoutQuery,
  KnockoutResult,
  Lighting,
  Outcome,
  PairQuery,
  PairsQuery,
  PairStanding,
  PickpocketQuery,
  PointInput,
  Request,
  Scene,
  SceneUpdate,
  SituationModifier,
  Standing,
  StandingQuery,
  State,
  TokenInput,
  View,
} from "./types.js";

export * from "./types.js";

/** A token id (Foundry's `TokenDocument.id`, or any unique string). */
export type TokenId = string;

/** The `type` of every event. */
export type EventType = Event["type"];

/** What the scene functions accept: a raw Foundry Scene export, or a normalized `Scene`. */
export type SceneInput = Scene | Record<string, unknown>;

/** A token placement for `clearViewMatrix`: top-left in pixels, size in grid spaces (default 1). */
export type TokenPlacement = TokenInput;

/** Codes the JavaScript layer adds. */
export type BindingErrorCode =
  /** wasm: a call before `init()` resolved. */
  | "engine_not_ready"
  /** wasm: `init()` could not fetch, compile or instantiate the engine. */
  | "engine_load_failed"
  /** The engine panicked (a bug); the call changed nothing and later calls work. */
  | "engine_panicked"
  /** wasm: after a panic the instance could not be reset; call `init()` again. */
  | "engine_poisoned"
  /**
   * A `Session` lost to a panic: in wasm every session of the reset instance,
   * in napi the session whose changing call (`apply`, `applyAll`, `settle`) panicked.
   * Reload it with `Session.load(lastSnapshot)`.
   */
  | "session_lost"
  /** A `Session` used after `free()` (or after its `using` block). */
  | "session_freed"
  /** wasm built without a cargo feature (the Foundry module's: no `scene`, no `roller`): the call is not in this build. */
  | "not_in_this_build";

export type ErrorCode = EngineErrorCode | BindingErrorCode;

/**
 * What every function throws: a real `Error` with a stable `code`; the
 * message names the field at fault (`event.roll: NaN is not a JSON number`).
 */
export interface FurtiveError extends Error {
  code: ErrorCode;
}

/** What `init` accepts in the wasm backend. */
export type InitInput =
  | string
  | URL
  | globalThis.Request
  | Response
  | PromiseLike<Response>
  | BufferSource
  | WebAssembly.Module;

/** The engine behind this entry point: the napi addon or WebAssembly. */
export declare const backend: "napi" | "wasm";

/**
 * Loads the engine. napi: resolves at once. wasm: loads `input` (default:
 * the `.wasm` file next to the module; in Node.js a file: URL is read from
 * disk); rejects with `engine_load_failed`. Call it once before anything else.
 */
export declare function init(input?: InitInput): Promise<void>;

/**
 * The engine with its state: the state stays in the engine between calls,
 * so an event costs what it touches, not the table size. Both backends
 * export it with the same behaviour.
 *
 * Every method throws a `FurtiveError`; a refused call changes nothing
 * (not even `revision`). A session lost to a panic throws `session_lost`:
 * keep the last `snapshot()` you saved and call `Session.load(snapshot)`.
 * Call `free()` (or use `using`) when done: in wasm the state lives in the
 * instance's memory until then.
 */
export declare class Session {
  private constructor();
  /** A fresh session: nobody hiding, revision 0. Throws `invalid_input`, `duplicate_token`, `out_of_range`. */
  static create(config: Config): Session;
  /**
   * A session over a saved state (format 1, migrated, or 2), validated once here. Errors name the
   * field: `state.…` for a value of the wrong shape (`state.hiders.spy.heldTotal`), the state's own
   * path for a value out of range or a token it does not know (`revision`, `hiders.ghost`), `version`
   * for another version.
   */
  static load(state: State): Session;
  /** The patch in `effects` to a `hiddenFrom()` lookup built before them (`effects.hiddenFrom`). */
  static hiddenFromChanges(effects: Effects): HiddenFromChange[];
  /** Successful `apply`, `applyAll` and `settle` calls since the state was created. */
  readonly revision: number;
  /** Applies one event in place. */
  apply(event: Event): Effects;
  /** Applies several events as one transaction (one user action): all or nothing, one set of effects. */
  applyAll(events: Event[]): Effects;
  /** B4: applies `event`, then answers every request with dice from `seed` (an integer 0..=2^53-1). Not in the Foundry module's build. */
  settle(event: Event, seed: number): Effects;
  /** B4: the events answering `requests` with dice from `seed`, not applied: one per observer of a Perception check request, in order. Not in the Foundry module's build. */
  rollRequests(requests: Request[], seed: number): Event[];
  /** Does `observer` perceive `hider`? (P3 / O2-O13 / B2) */
  perceives(query: PairQuery): Decision;
  /** P5 (`percentile`): may `observer` roll acuities to locate `hider`? */
  canLocate(query: PairQuery): Decision;
  /** P6: may `defender` defend `target` against `attacker`? */
  canDefend(query: DefenseQuery): Decision;
  /** P7, P8 (`percentile`): the knockout attempt after a surprise attack to the head. */
  knockout(query: KnockoutQuery): KnockoutResult;
  /** P10 (`percentile`): may `hider` take the object from `target`? */
  canPickpocket(query: PickpocketQuery): Decision;
  /** O10 (`opposed`): how `attacker` rolls against the hider `target`. */
  attackHidden(query: HiddenAttackQuery): HiddenAttackResult;
  /** B1, B2: for each observer, the hiders it does not perceive. Walks the whole table: build it once, then patch it. */
  hiddenFrom(): HiddenFrom;
  /**
   * GM only: a hider's standing, its roll in force with the parts of its score (P1, P2, P4: d100,
   * Furtivité, tier, modifiers, pending modifiers) or of its held total (O1, O6, O13: penalties,
   * precautions). A token with no attempt, or one the engine does not know, has `phase: null` (B1).
   */
  standing(query: StandingQuery): Standing;
  /**
   * GM only: every pair the query names (`{}`: all), hider by hider then observer by observer, with
   * its state (perceived, presence only or located (O13), unperceived, exposed (O5)), whether the
   * observer is defenseless against the hider (P6), and the decision that put it there (`clause`,
   * `en`, `fr`, the numbers as they stand now, B3).
   */
  pairs(query: PairsQuery): PairStanding[];
  /** The state in format version 2: what you save, and give to `Session.load` later. */
  snapshot(): State;
  /** Frees the state now; later calls throw `session_freed`. Calling it twice is harmless. */
  free(): void;
  /** `using session = Session.create(config)` frees it at the end of the block. */
  [Symbol.dispose](): void;
}

/**
 * A Foundry scene read once, answering clear view (B5) for many questions
 * and kept up to date by small updates (a door, a wall, a token, a light).
 * The free `clearView(scene, query)` re-reads the whole scene on every
 * call; a `SceneSight` reads it once, and a question then costs the walls
 * near its line (docs/scene.md). Both backends (napi, wasm) export it with
 * the same behaviour. Not in the Foundry module's lean wasm (cargo feature
 * `scene`): there `SceneSight.parse` throws `not_in_this_build`.
 *
 * Every method throws a `FurtiveError` whose message names the field
 * (`query.from.tokenId`, `updates[1].wallId`); a refused `update` changes
 * nothing. After `free()` (or a `using` block) calls throw `session_freed`;
 * a scene lost to an engine panic throws `session_lost`: parse the scene
 * again. Call `free()` when done: in wasm the scene lives in the
 * instance's memory until then.
 */
export declare class SceneSight {
  private constructor();
  /** Reads a Foundry Scene export (v10+, 0.8/v9, 0.7) or a normalized `Scene` once. Throws `invalid_scene` naming the field (`walls[12].c`), `duplicate_token`. */
  static parse(scene: SceneInput): SceneSight;
  /** Whether `query.from` has clear view of `query.to` on the scene as updated (B5), and what decides it. Throws `invalid_input` (`query.…`), `unknown_token`. */
  clearView(query: ClearViewQuery): ClearViewAnswer;
  /** Clear view (B5) from token `observer` to token `target`, by id, with its parts. Throws `unknown_token` naming `observer` or `target`. */
  view(observer: TokenId, target: TokenId): View;
  /** Clear view (B5) from token `observer` to every token of the scene. Throws `unknown_token` naming `observer`. */
  clearViewFrom(observer: TokenId): ClearViewFrom;
  /** Clear view (B5) and distances between every pair of the scene's tokens. */
  clearViewMatrix(): ClearViewMatrix;
  /** The lighting at a canvas point (pixels; elevation in scene units, default 0). Throws `invalid_input` naming `point.…`. */
  lightingAt(point: PointInput): Lighting;
  /** The lighting at the centre of the token with id `token`. Throws `unknown_token` naming `token`. */
  lightingOf(token: TokenId): Lighting;
  /** Applies one update, or an array of them as one transaction: all of them, or none (the error names `updates[i].…`). Returns `null`. */
  update(updates: SceneUpdate | SceneUpdate[]): null;
  /** The normalized scene as updated; `SceneSight.parse` reads it back. */
  scene(): Scene;
  /** Frees the scene now; later calls throw `session_freed`. Calling it twice is harmless. */
  free(): void;
  /** `using sight = SceneSight.parse(scene)` frees it at the end of the block. */
  [Symbol.dispose](): void;
}

/** A fresh state. Throws `invalid_input`, `duplicate_token`, `out_of_range`. */
export declare function createState(config: Config): State;

/** Applies one event: the engine's reducer. The input state is never changed. */
export declare function apply(state: State, event: Event): Outcome;

/** Does `observer` perceive `hider`? (P3 / O2-O13 / B2) */
export declare function perceives(state: State, query: PairQuery): Decision;

/** P5 (`percentile`): may `observer` roll acuities to locate `hider`? */
export declare function canLocate(state: State, query: PairQuery): Decision;

/** P6: may `defender` defend `target` against `attacker`? */
export declare function canDefend(state: State, query: DefenseQuery): Decision;

/** P7, P8 (`percentile`): the knockout attempt after a surprise attack to the head. */
export declare function knockout(state: State, query: KnockoutQuery): KnockoutResult;

/** P10 (`percentile`): may `hider` take the object from `target`? */
export declare function canPickpocket(state: State, query: PickpocketQuery): Decision;

/** O10 (`opposed`): how `attacker` rolls against the hider `target`. */
export declare function attackHidden(state: State, query: HiddenAttackQuery): HiddenAttackResult;

/** B1, B2: for each observer, the hiders it does not perceive. */
export declare function hiddenFrom(state: State): HiddenFrom;

/** B4: answers requests with dice from `seed` (an integer 0..=2^53-1); returns the events to apply, one per observer of a Perception check request, in order. */
export declare function rollRequests(state: State, requests: Request[], seed: number): Event[];

/** B4: applies `event`, then answers every request with dice from `seed`, until none is left. */
export declare function settle(state: State, event: Event, seed: number): Outcome;

/** Normalizes a Foundry Scene export. Throws `invalid_scene` naming the path (`walls[12].c`), `duplicate_token`. */
export declare function parseScene(scene: SceneInput): Scene;

/** Whether `query.from` has clear view of `query.to` on the scene, and their distance. */
export declare function clearView(scene: SceneInput, query: ClearViewQuery): ClearViewAnswer;

/** Clear view and distances between every pair of `tokens` (default: the scene's own tokens). */
export declare function clearViewMatrix(scene: SceneInput, tokens?: TokenPlacement[] | null): ClearViewMatrix;

/**
 * B5: whether a target is concealed by darkness from each observer, in order (`concealed[i]` for
 * `query.observers[i]`): in darkness and farther than the observer sees in darkness. Distances and
 * darkvision in scene units, >= 0; a missing or `null` distance is unknown (concealed unless darkvision is
 * `"unlimited"`, JSON having no Infinity). Needs no scene. Throws `invalid_input` naming the field
 * (`query.observers[2].distance`).
 */
export declare function concealedByDarkness(query: DarknessQuery): boolean[];

/**
 * O3, P6, P9: whether a creature on `query.side` and a distinct creature on each of `query.sides` are allies,
 * in order (`allied[i]` for `query.sides[i]`): the same side, neither empty nor `"neutral"`, compared exactly;
 * the rule the engine applies to Point out (O3), defense (P6) and P9's -100. Needs no state. Throws
 * `invalid_input` naming the field (`query.sides[2]`: not a string).
 */
export declare function alliedSides(query: AlliedSidesQuery): boolean[];

/** Every error code a call can throw: the engine's, then the JavaScript layer's. */
export declare function errorCodes(): ErrorCode[];
/** The nine P2 situation modifiers in the order of the rule text, with their values (`dark`: 50...). */
export declare function situationModifiers(): { id: SituationModifier; value: number }[];
