/// <reference lib="esnext.disposable" />
// Types of the `furtive` package: one set for both backends (the napi addon
// in Node.js, WebAssembly in browsers), which return identical shapes.
// Written from crates/furtive-core/src (state.rs, event.rs, outcome.rs,
// query.rs, error.rs). Clause ids (P1-P11, O1-O13, B1-B4) refer to the
// rules interpretation shipped with the project.
//
// Inputs are lenient where the engine has defaults (`...Input` types make
// those fields optional); outputs always carry every field, with `null`
// for an absent optional value.

/** A token id (Foundry's `TokenDocument.id`, or any unique string). */
export type TokenId = string;

/** Which stealth rules apply: the d100 system (P1-P11) or opposed checks (O1-O13). */
export type Ruleset = "percentile" | "opposed";

/** Table settings. */
export interface Settings {
  /** P2 / B3: players see their stealth score, modifiers and the numbers in public explanations. Default `false`. */
  showNumbersToPlayers: boolean;
  /** O1: a zero-length movement may enter stealth. Default `true`. */
  allowZeroLengthMovement: boolean;
  /** B4, `opposed`: the die of the seeded roller's checks (1d`checkDie` + modifier), 2..=1000. Default 20. */
  checkDie: number;
}

/** The three acuities of a creature (`percentile`, P3), each 0..=1000; a missing one counts 0. */
export interface Acuities {
  visual: number;
  auditory: number;
  olfactory: number;
}

/** An enhanced sense (`opposed`, O13). */
export interface EnhancedSense {
  /** Matched against the hider's precautions, e.g. `"blindsight"`, `"tremorsense"`, `"smell"`. */
  sense: string;
  /** Range in scene distance units, 0..=100000. */
  range: number;
  /** A targeting sense also gives the exact space (O10 does not apply). */
  targeting: boolean;
}

/** A creature that may hide or observe: one token. */
export interface Creature {
  id: TokenId;
  /** Display name used in explanations (the id when empty). */
  name: string;
  /** Allegiance: same non-empty side = allies, except `"neutral"`. */
  side: string;
  /** `percentile`: effective Furtivité %, bonuses included (P1), 0..=500. */
  stealthSkill: number;
  /** `percentile`: base Furtivité % (P8 knockout), 0..=500; `null` = `stealthSkill`. */
  baseStealthSkill: number | null;
  /** `percentile`: Force, for the knockout duration (P8), 0..=1000. */
  strength: number;
  /** `percentile`: the acuities (P3). */
  acuities: Acuities;
  /** `opposed`: Stealth check modifier of the seeded roller (B4), -1000..=1000. */
  stealthModifier: number;
  /** `opposed`: Perception check modifier of the seeded roller (B4), -1000..=1000. */
  perceptionModifier: number;
  /** `opposed`: enhanced senses (O13). */
  enhancedSenses: EnhancedSense[];
}

/** A creature as callers write it: only `id` is required. */
export interface CreatureInput {
  id: TokenId;
  name?: string;
  side?: string;
  stealthSkill?: number;
  baseStealthSkill?: number | null;
  strength?: number;
  acuities?: Partial<Acuities>;
  stealthModifier?: number;
  perceptionModifier?: number;
  enhancedSenses?: Array<Omit<EnhancedSense, "targeting"> & { targeting?: boolean }>;
}

/** The nine P2 situation modifiers. */
export type SituationModifier =
  | "sprint"
  | "already_perceived"
  | "dark"
  | "no_cover"
  | "cluttered"
  | "very_quiet"
  | "very_noisy"
  | "strong_smells"
  | "deserted";

/** A free GM modifier (P2). */
export interface FreeModifier {
  /** Shown in explanations. */
  label: string;
  /** -1000..=1000. */
  value: number;
}

/** The modifiers of a percentile stealth roll (P2). */
export interface Modifiers {
  /** Each counts once. */
  situation: SituationModifier[];
  /** At most 32. */
  free: FreeModifier[];
}

/** Modifiers as callers write them. */
export interface ModifiersInput {
  situation?: SituationModifier[];
  free?: Array<{ label?: string; value: number }>;
}

/** Which observers a penalty applies to (O6). */
export type PenaltyScope =
  | { kind: "all" }
  | { kind: "alliesOf"; attacker: TokenId; side: string };

/** A penalty that lowers the held total (O6). */
export interface Penalty {
  /** Subtracted from the held total (positive). */
  amount: number;
  scope: PenaltyScope;
  /** `"O8"` or `"O11"`. */
  clause: string;
}

/** Why a pair is in its current state. */
export type PairReason =
  | "acuity_comparison"
  | "watched_at_entry"
  | "not_in_view_at_entry"
  | "perception_check"
  | "penalty"
  | "exposure"
  | "pointed_out"
  | "enhanced_sense"
  | "surprise_ended"
  | "attacked"
  | "gm_override";

/** One hider, one observer. */
export interface Pair {
  perceived: boolean;
  reason: PairReason;
  /** Line of sight and no concealment. */
  clearView: boolean;
  /** Distance in scene units, when known (O13). */
  distance: number | null;
  /** `opposed`: the stored Perception check total (O4). */
  perceptionTotal: number | null;
  /** `opposed`: a Perception check was requested and not answered yet. */
  checkPending: boolean;
  /** `opposed` (O5): exposed since the hider's last turn end; present only when true. */
  exposed?: boolean;
}

/** Where a hider's attempt stands. */
export type HiderPhase = "hiding" | "revealed";

/**
 * A token attempting stealth, with its per-observer pairs. State format 2:
 * a hider carries the fields of the state's ruleset only (`percentile`:
 * `d100`, `modifiers`, `score`, `pendingModifiers`, `alreadyPerceivedAdded`;
 * `opposed`: `heldTotal`, `penalties`, `precautions`).
 */
export interface Hider {
  phase: HiderPhase;
  /** `percentile`: the d100 of the roll in force (P1), 1..=100. */
  d100?: number;
  /** `percentile`: the modifiers of the roll in force (P2). */
  modifiers?: Modifiers;
  /** `percentile`: the stealth score in force (P1). */
  score?: number;
  /** `percentile`: the modifiers the pending new roll will use (P4); null when no roll is pending. */
  pendingModifiers?: Modifiers | null;
  /**
   * `percentile`: P9 added `already_perceived` to `modifiers` on its own (the
   * caller's modifiers did not hold it). Present only when true.
   */
  alreadyPerceivedAdded?: boolean;
  /** `percentile` (P9): attacked from hiding; revealed at its turn end. Present only when true. */
  attacked?: boolean;
  /** `opposed`: the held Stealth total (O1). */
  heldTotal?: number;
  /** `opposed`: penalties since the held roll (O6). */
  penalties?: Penalty[];
  /** `opposed`: enhanced senses countered by precautions (O13). */
  precautions?: string[];
  /** The hider moved during its current turn (O5). */
  movedThisTurn: boolean;
  /** By observer token id. */
  pairs: Record<TokenId, Pair>;
}

/** The body part a surprise attacker chooses (P7). */
export type HitZone = "head" | "trunk" | "arm" | "leg";

/** A surprise in progress (P6): `target` is defenseless against `attacker` until the end of the attacker's turn. */
export interface Surprise {
  attacker: TokenId;
  target: TokenId;
  attacks: number;
  firstHitZone: HitZone | null;
}

/** Combat bookkeeping. */
export interface Combat {
  active: boolean;
  /** From 1; 0 outside combat. */
  round: number;
  /** The token whose turn it is. */
  turn: TokenId | null;
  /** Tokens that made a stealth roll this turn (P9, O7). */
  rolledThisTurn: TokenId[];
}

/** The whole engine state: plain data, kept by the caller between calls. */
export interface State {
  /** The state format: this engine writes 2, and reads 1 (migrated) and 2. */
  version: number;
  /** Successful `apply`/`settle` calls since the state was created. */
  revision: number;
  ruleset: Ruleset;
  settings: Settings;
  creatures: Record<TokenId, Creature>;
  hiders: Record<TokenId, Hider>;
  surprises: Surprise[];
  combat: Combat;
}

/** What `createState` takes. */
export interface Config {
  ruleset: Ruleset;
  settings?: Partial<Settings>;
  creatures?: CreatureInput[];
}

/** What an observer sees of a hider right now (O2, O4, O5, O13). */
export interface ViewEntry {
  observer: TokenId;
  clearView: boolean;
  /** Scene units, 0..=1e9. */
  distance?: number | null;
}

/** Everything the rules react to; `type` selects the event. Optional fields have the engine's defaults. */
export type Event =
  | { type: "upsertCreature"; creature: CreatureInput }
  | {
      type: "enterStealth";
      hider: TokenId;
      /** `percentile`: the d100, 1..=100 (P1). `opposed`: the Stealth check total, -1000..=1000 (O1). */
      roll: number;
      modifiers?: ModifiersInput;
      moved?: boolean;
      sprinting?: boolean;
      precautions?: string[];
      view?: ViewEntry[];
    }
  | { type: "viewChanged"; hider: TokenId; moved?: boolean; view: ViewEntry[] }
  | { type: "perceptionRolled"; hider: TokenId; observer: TokenId; total: number }
  | { type: "pointOut"; hider: TokenId; observer: TokenId; allies: TokenId[] }
  | {
      type: "attack";
      attacker: TokenId;
      /** The targets of this one attack instance (O8: several count once). */
      targets?: TokenId[];
      /** The single target, as callers wrote it before `targets`; not with `targets`. */
      target?: TokenId;
      noisy?: boolean;
      /** 0..=100, default 1. */
      hits?: number;
      area?: boolean;
      hitZone?: HitZone | null;
    }
  | { type: "damageTaken"; target: TokenId; attacker: TokenId; hits?: number }
  | { type: "turnStart"; combatant: TokenId; round?: number | null }
  | { type: "turnEnd"; combatant: TokenId }
  | { type: "roundEnd"; round?: number | null }
  | { type: "combatEnd" }
  | { type: "modifiersChanged"; hider: TokenId; modifiers: ModifiersInput }
  | { type: "sprint"; token: TokenId }
  | { type: "stopHiding"; hider: TokenId }
  | { type: "tokenRemoved"; token: TokenId }
  | { type: "gmOverride"; hider: TokenId; observer: TokenId; perceived: boolean };

/** The `type` of every event. */
export type EventType = Event["type"];

/** A status effect the engine toggles. */
export type Status = "hidden" | "defenseless";

/** Something visible changed (computed by diffing the states, each change once). */
export type Change =
  | { kind: "visibility"; hider: TokenId; observer: TokenId; perceived: boolean }
  | {
      kind: "status";
      token: TokenId;
      status: Status;
      active: boolean;
      /** Present when the status ends on its own (P6). */
      expires?: { turnEndOf: TokenId };
    };

/** A roll the caller must make and feed back as an event (or answer with `rollRequests` / `settle`). */
export type Request =
  | { kind: "perceptionCheck"; hider: TokenId; observer: TokenId; clause: string }
  | { kind: "stealthRoll"; hider: TokenId; modifiers: Modifiers; clause: string };

/** Who may read a log entry. */
export type Audience = "gm" | "public";

/** One explanation (B3), in English and French. */
export interface LogEntry {
  /** The clause id, e.g. `"P3"`. */
  clause: string;
  audience: Audience;
  hider?: TokenId;
  observer?: TokenId;
  en: string;
  fr: string;
}

/**
 * One entry of the patch to a `hiddenFrom` lookup (B1, B2): `hidden: true`
 * adds `hider` to `lookup[observer]`, `false` removes it (drop the observer
 * when its list is empty).
 */
export interface HiddenFromChange {
  observer: TokenId;
  hider: TokenId;
  hidden: boolean;
}

/** What `Session.apply`, `applyAll` and `settle` return: what changed, not the state. */
export interface Effects {
  /** Visible changes, each once: visibility by hider then observer, then statuses by token. */
  changes: Change[];
  /** Rolls the caller must make and feed back as events. */
  requests: Request[];
  /** Explanations (B3), in order. */
  log: LogEntry[];
  /** The session's revision after this call. */
  revision: number;
  /** The patch to a `hiddenFrom()` lookup built before this call, by observer then hider (see `Session.hiddenFromChanges`). */
  hiddenFrom: HiddenFromChange[];
}

/** What `apply` and `settle` return. */
export interface Outcome {
  state: State;
  changes: Change[];
  requests: Request[];
  log: LogEntry[];
}

/** The answer to a yes/no query, with its explanation. */
export interface Decision {
  allowed: boolean;
  clause: string;
  en: string;
  fr: string;
}

/** `{ observer, hider }`. */
export interface PairQuery {
  observer: TokenId;
  hider: TokenId;
}

/** May `defender` defend `target` against `attacker` (P6)? */
export interface DefenseQuery {
  defender: TokenId;
  target: TokenId;
  attacker: TokenId;
}

/** A knockout attempt (P8); without `rawDamage` and `d100` it only asks whether it is allowed. */
export interface KnockoutQuery {
  attacker: TokenId;
  target: TokenId;
  helmet?: boolean;
  /** 0..=100000. */
  rawDamage?: number | null;
  /** 1..=100. */
  d100?: number | null;
}

/** The answer to a knockout query (P8). */
export interface KnockoutResult {
  allowed: boolean;
  /** The attacker's base Furtivité, in percent. */
  chance: number;
  /** 1 + floor(Force / 5). */
  minutes: number;
  /** floor(raw damage / 4), when `rawDamage` was given and the attempt allowed. */
  damage: number | null;
  /** d100 <= chance, when `d100` was given and the attempt allowed. */
  knockedOut: boolean | null;
  clause: string;
  en: string;
  fr: string;
}

/** May `hider` take this object from `target` (P10)? */
export interface PickpocketQuery {
  hider: TokenId;
  target: TokenId;
  held: boolean;
  visible: boolean;
}

/** `attacker` attacks the hider `target` (O10). */
export interface HiddenAttackQuery {
  attacker: TokenId;
  target: TokenId;
  aimedAtSpace?: boolean;
  area?: boolean;
}

/** How an attack on a hider is rolled (O10). */
export interface HiddenAttackResult {
  mode: "normal" | "disadvantage" | "miss";
  clause: string;
  en: string;
  fr: string;
}

/** B1, B2: for each observer, the hiders it does not perceive. Observers that perceive everyone are absent. */
export type HiddenFrom = Record<TokenId, TokenId[]>;

// ---- Scenes (clear view without a canvas; see docs/scene.md) ----

/** A canvas point: pixels (`x` rightward, `y` downward), elevation in scene units. */
export interface ScenePoint {
  x: number;
  y: number;
  elevation: number;
}

/** The scene grid. */
export interface SceneGrid {
  /** Pixels per grid space, > 0. */
  size: number;
  /** Scene distance units per grid space, > 0. */
  distance: number;
  /** The distance unit, e.g. `"ft"`. */
  units: string;
  /** Foundry `CONST.GRID_TYPES` (kept, not used), when the export has it. */
  type?: number;
}

/** A wall segment (Foundry `WallData`), normalized. */
export interface SceneWall {
  /** Foundry `_id`, when the export has one. */
  id?: string;
  /** `[x0, y0, x1, y1]` in canvas pixels. */
  c: [number, number, number, number];
  sight: "none" | "limited" | "normal" | "proximity" | "distance";
  door: "none" | "door" | "secret";
  doorState: "closed" | "open" | "locked";
  direction: "both" | "left" | "right";
  /** Wall Height module bounds in scene units; absent: unbounded. */
  height?: { bottom?: number; top?: number };
}

/** A token on the scene: top-left corner in pixels, size in grid spaces. */
export interface SceneToken {
  id: TokenId;
  name?: string;
  x: number;
  y: number;
  width: number;
  height: number;
  elevation: number;
}

/** An ambient light or darkness source (kept; no effect on clear view yet). */
export interface SceneLight {
  id?: string;
  x: number;
  y: number;
  dim: number;
  bright: number;
  darkness: boolean;
  hidden: boolean;
}

/** A scene normalized from a Foundry export (v10+, 0.8/v9 or 0.7 layout). */
export interface Scene {
  /** Always 1: marks a normalized scene. */
  furtiveScene: number;
  /** The layout the scene was read from. */
  layout: "v10" | "v0.8" | "v0.7";
  id?: string;
  name?: string;
  /** Scene size in pixels, when the export has it. */
  width?: number;
  height?: number;
  grid: SceneGrid;
  walls: SceneWall[];
  tokens: SceneToken[];
  lights: SceneLight[];
  /** Darkness level, 0..=1. */
  darkness: number;
  globalLight: boolean;
}

/** What the scene functions accept: a raw Foundry Scene export, or a normalized `Scene`. */
export type SceneInput = Scene | Record<string, unknown>;

/** One end of a sight line: a scene token's centre, a canvas point, or a token placement's centre. */
export type SightEnd =
  | { tokenId: TokenId }
  | { x: number; y: number; elevation?: number }
  | { token: { x: number; y: number; width?: number; height?: number; elevation?: number } };

/** `from` is the observer, `to` the target. */
export interface ClearViewQuery {
  from: SightEnd;
  to: SightEnd;
  /** How far the observer sees in darkness, scene units, >= 0. Absent: the observer token's `darkvision` when `from` is a `tokenId`, else 0. */
  darkvision?: number;
}

/** What lights a position, or why it is dark. */
export type LitBy = "global" | "light" | "tokenLight" | "darknessSource" | "tokenDarkness" | "noLight";

/** The lighting at a position: whether it is in darkness (no light reaches it, or a darkness source covers it) and why. */
export interface Lighting {
  dark: boolean;
  by: LitBy;
  /** The light, darkness source or token that decides: its index in the scene's `lights` (or `tokens`) and its id. */
  source?: WallRef;
}

/** A wall of a clear-view answer: its index in the normalized scene's `walls`, and its id. */
export interface WallRef {
  index: number;
  id?: string;
}

/** Whether `from` has clear view of `to`, their distance, and the walls that decide it. */
export interface ClearViewAnswer {
  clearView: boolean;
  from: ScenePoint;
  to: ScenePoint;
  /** Scene distance units. */
  distance: number;
  units: string;
  /** Walls that block on their own. */
  blockingWalls: WallRef[];
  /** Limited walls crossed (two or more block). */
  limitedWalls: WallRef[];
  /** Levels floors the line passes through. */
  blockingFloors: WallRef[];
  /** No wall or floor blocks the line (light aside). */
  sightLine: boolean;
  /** The lighting at the target. */
  targetLighting: Lighting;
  /** The observer's range of sight in darkness that was used, scene units. */
  darkvision: number;
}

/** A token placement for `clearViewMatrix`: top-left in pixels, size in grid spaces (default 1). */
export interface TokenPlacement {
  id: TokenId;
  x: number;
  y: number;
  width?: number;
  height?: number;
  elevation?: number;
}

/** Clear view and distances between every pair of tokens; row and column `i` are `ids[i]`. */
export interface ClearViewMatrix {
  ids: TokenId[];
  /** `clearView[i][j]`: `ids[i]` (observer) has clear view of `ids[j]`; the diagonal is `true`. */
  clearView: boolean[][];
  /** Centre-to-centre distance in scene units, symmetric, diagonal 0. */
  distance: number[][];
  /** `inDarkness[i]`: `ids[i]` stands in darkness. */
  inDarkness: boolean[];
  units: string;
}

/** `SceneSight.view`: clear view (B5) from one token of the scene to another, with its parts. */
export interface View {
  /** A sight line and no concealment by darkness. */
  clearView: boolean;
  /** No wall or floor blocks the line. */
  sightLine: boolean;
  targetInDarkness: boolean;
  /** Centre distance, scene units. */
  distance: number;
}

/** `SceneSight.clearViewFrom`: clear view from `observer` to every token of the scene (itself included: `true`, distance 0), in the scene's token order. */
export interface ClearViewFrom {
  observer: TokenId;
  ids: TokenId[];
  /** `clearView[j]`: `observer` has clear view of `ids[j]`. */
  clearView: boolean[];
  /** Centre distances, scene units. */
  distance: number[];
  /** `inDarkness[j]`: `ids[j]` stands in darkness. */
  inDarkness: boolean[];
  units: string;
}

/**
 * One change to a `SceneSight` (`SceneSight.update`). Foundry documents
 * (`wall`, `token`, `light`) are in the layout `parseScene` reads, with their `_id`.
 */
export type SceneUpdate =
  /** A door opens or closes (`ds`: 0 closed, 1 open, 2 locked). */
  | { type: "door"; wallId: string; state: "closed" | "open" | "locked" | 0 | 1 | 2 }
  /** Adds the wall, or replaces the one with its `_id`. */
  | { type: "wall"; wall: Record<string, unknown> }
  | { type: "wallRemoved"; wallId: string }
  /** Adds the token, or replaces the one with its `_id` (optionally with `darkvision`, scene units). */
  | { type: "token"; token: Record<string, unknown> }
  /** Moves a token: top-left in pixels; elevation in scene units, unchanged when absent. */
  | { type: "tokenMoved"; tokenId: TokenId; x: number; y: number; elevation?: number }
  | { type: "tokenRemoved"; tokenId: TokenId }
  /** What the token sees in darkness, scene units, >= 0. */
  | { type: "darkvision"; tokenId: TokenId; darkvision: number }
  /** Adds a light, or replaces the one with its `_id` (moved, resized). */
  | { type: "light"; light: Record<string, unknown> }
  | { type: "lightRemoved"; lightId: string }
  /** Turns a light off (`true`) or on. */
  | { type: "lightHidden"; lightId: string; hidden: boolean }
  /** The scene's darkness level, 0..=1. */
  | { type: "darkness"; darkness: number };

/** Codes of the engine's errors (`errorCodes()` lists them first). */
export type EngineErrorCode =
  | "unknown_token"
  | "duplicate_token"
  | "out_of_range"
  | "invalid_input"
  | "unsupported_version"
  | "wrong_ruleset"
  | "not_hiding"
  | "stealth_roll_already_made"
  | "not_hider_turn"
  | "sprinting"
  | "movement_required"
  | "observer_does_not_perceive"
  | "not_allied"
  | "hit_zone_not_allowed"
  | "self_reference"
  | "invalid_scene";

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
  | Request
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
  /** A session over a saved state (format 1, migrated, or 2), validated once here. Errors name `state.…`. */
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
  /** B4: the events answering `requests` with dice from `seed`, not applied. Not in the Foundry module's build. */
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
  lightingAt(point: { x: number; y: number; elevation?: number }): Lighting;
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

/** B4: answers requests with dice from `seed` (an integer 0..=2^53-1); returns the events to apply. */
export declare function rollRequests(state: State, requests: Request[], seed: number): Event[];

/** B4: applies `event`, then answers every request with dice from `seed`, until none is left. */
export declare function settle(state: State, event: Event, seed: number): Outcome;

/** Normalizes a Foundry Scene export. Throws `invalid_scene` naming the path (`walls[12].c`), `duplicate_token`. */
export declare function parseScene(scene: SceneInput): Scene;

/** Whether `query.from` has clear view of `query.to` on the scene, and their distance. */
export declare function clearView(scene: SceneInput, query: ClearViewQuery): ClearViewAnswer;

/** Clear view and distances between every pair of `tokens` (default: the scene's own tokens). */
export declare function clearViewMatrix(scene: SceneInput, tokens?: TokenPlacement[] | null): ClearViewMatrix;

/** Every error code a call can throw: the engine's, then the JavaScript layer's. */
export declare function errorCodes(): ErrorCode[];
/** The nine P2 situation modifiers in the order of the rule text, with their values (`dark`: 50...). */
export declare function situationModifiers(): { id: SituationModifier; value: number }[];
