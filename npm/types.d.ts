// Generated from npm/furtive.schema.json (the Rust types' derives,
// crates/furtive-core/src/schema.rs) by tests/js/generate-types.mjs with
// json-schema-to-typescript. Do not edit: run `bash scripts/generate-types.sh`.
// CI fails when this file differs from the Rust types.
//
// A type the engine both reads and writes is named for what it writes
// (every field present, `null` for an absent optional value); what it reads,
// when that differs (fields with a default may be left out), is the same
// name with `Input` (`Creature`, `CreatureInput`).

/**
 * How an attack on a hider is rolled (O10).
 */
export type AttackMode = "normal" | "disadvantage" | "miss";
/**
 * Who may read a log entry.
 */
export type Audience = "gm" | "public";
/**
 * Something visible changed. Computed by comparing the state before and
 * after the event, so every change is reported exactly once.
 */
export type Change = VisibilityChange | StatusChange;
/**
 * A status effect the engine toggles on a token.
 */
export type Status = "hidden" | "defenseless";
/**
 * A clause id (`P1`-`P11`, `O1`-`O13`, `B1`-`B5`), or `GM` for a
 * GM decision.
 */
export type Clause =
  | "P1"
  | "P2"
  | "P3"
  | "P4"
  | "P5"
  | "P6"
  | "P7"
  | "P8"
  | "P9"
  | "P10"
  | "P11"
  | "O1"
  | "O2"
  | "O3"
  | "O4"
  | "O5"
  | "O6"
  | "O7"
  | "O8"
  | "O9"
  | "O10"
  | "O11"
  | "O12"
  | "O13"
  | "B1"
  | "B2"
  | "B3"
  | "B4"
  | "B5"
  | "GM";
/**
 * What lights a position, or why it is dark.
 */
export type LitBy = "global" | "light" | "tokenLight" | "darknessSource" | "tokenDarkness" | "noLight";
/**
 * One end of a sight line in a `ClearViewQuery`. JSON, one of:
 *
 * - `{"tokenId": "abc"}`: the centre of the scene's token `abc`;
 * - `{"x": 150, "y": 250, "elevation": 0}`: a canvas point in pixels
 *   (elevation optional, default 0), used as is;
 * - `{"token": {"x": 100, "y": 200, "width": 1, "height": 1}}`: a token
 *   placement (top-left corner in pixels, size in grid spaces, default 1),
 *   whose centre is used.
 */
export type SightEnd = TokenRef | PlacementRef | PointInput;
/**
 * Which stealth rules apply. Serialized as `"percentile"` or `"opposed"`.
 */
export type Ruleset = "percentile" | "opposed";
/**
 * How far an observer sees in darkness, in scene distance units (>= 0; 0: it needs light), or "unlimited" (Foundry's null range, JavaScript's Infinity).
 */
export type Darkvision = number | "unlimited";
/**
 * The door a wall contains (`CONST.WALL_DOOR_TYPES`).
 */
export type DoorKind = "none" | "door" | "secret";
/**
 * The state of a door (`CONST.WALL_DOOR_STATES`); ignored on plain walls.
 */
export type DoorState = "closed" | "open" | "locked";
/**
 * A roll the caller must make and feed back as an event.
 */
export type Request = PerceptionCheckRequest | StealthRollRequest;
/**
 * The nine P2 situation modifiers, with their stable ids.
 */
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
/**
 * The codes of the engine's errors (`errorCodes()` lists them first), stable once published.
 */
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
/**
 * An event for `apply`.
 */
export type Event =
  | UpsertCreatureEvent
  | EnterStealthEvent
  | ViewChangedEvent
  | PerceptionRolledEvent
  | PointOutEvent
  | AttackEvent
  | DamageTakenEvent
  | TurnStartEvent
  | TurnEndEvent
  | RoundEndEvent
  | CombatEndEvent
  | ModifiersChangedEvent
  | SprintEvent
  | StopHidingEvent
  | TokenRemovedEvent
  | GmOverrideEvent;
/**
 * The body part a surprise attacker chooses (P7).
 */
export type HitZone = "head" | "trunk" | "arm" | "leg";
/**
 * Why a pair is in its current state; serialized as a stable string.
 */
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
/**
 * Which observers a penalty applies to (O6).
 */
export type PenaltyScope = AllPenaltyScope | AlliesOfPenaltyScope;
/**
 * Where a hider's attempt stands.
 */
export type HiderPhase = "hiding" | "revealed";
/**
 * The area of a `Hole`. JSON: `{"polygon": [[x, y], ...]}` or
 * `{"ellipse": {"x", "y", "radiusX", "radiusY", "rotation"}}`.
 */
export type HoleShape =
  | {
      polygon: [number, number][];
    }
  | {
      ellipse: {
        radiusX: number;
        radiusY: number;
        rotation: number;
        x: number;
        y: number;
      };
    };
/**
 * How an observer stands towards a hider.
 */
export type PairState = "perceived" | "presenceOnly" | "unperceived" | "exposed";
/**
 * Which Foundry layout a scene was read from.
 */
export type SceneLayout = "v10" | "v0.8" | "v0.7";
/**
 * Which side a wall blocks from (`CONST.WALL_DIRECTIONS`).
 */
export type WallDirection = "both" | "left" | "right";
/**
 * How a wall restricts sight (`CONST.WALL_SENSE_TYPES`).
 */
export type SightRestriction = "none" | "limited" | "normal" | "proximity" | "distance";
/**
 * One change to a `SceneSight` (`SceneSight.update`). Foundry documents (`wall`, `token`, `light`) are in the layout `parseScene` reads, with their `_id`.
 */
export type SceneUpdate =
  | DoorSceneUpdate
  | WallSceneUpdate
  | WallRemovedSceneUpdate
  | TokenSceneUpdate
  | TokenMovedSceneUpdate
  | TokenRemovedSceneUpdate
  | DarkvisionSceneUpdate
  | LightSceneUpdate
  | LightRemovedSceneUpdate
  | LightHiddenSceneUpdate
  | DarknessSceneUpdate;

/**
 * The three acuities of a creature (`percentile`, P3). A missing acuity counts 0.
 */
export interface Acuities {
  /**
   * Auditory acuity, 0..=1000.
   */
  auditory: number;
  /**
   * Olfactory acuity, 0..=1000.
   */
  olfactory: number;
  /**
   * Visual acuity, 0..=1000.
   */
  visual: number;
}
/**
 * The three acuities of a creature (`percentile`, P3). A missing acuity counts 0.
 */
export interface AcuitiesInput {
  /**
   * Auditory acuity, 0..=1000.
   */
  auditory?: number;
  /**
   * Olfactory acuity, 0..=1000.
   */
  olfactory?: number;
  /**
   * Visual acuity, 0..=1000.
   */
  visual?: number;
}
/**
 * The `alliedSides` query: one side and the sides to compare it with.
 * JSON: `{"side": string, "sides": string[]}`.
 */
export interface AlliedSidesQuery {
  /**
   * The side of one creature (the Point out observer): any string; the
   * empty string and `"neutral"` have no ally.
   */
  side: string;
  /**
   * The sides of the other creatures, each distinct from the first; the
   * answer lists one boolean per entry, in order.
   */
  sides: string[];
}
/**
 * A hider began (`hiding: true`) or ended (`hiding: false`) a stealth
 * attempt: entered stealth; or stopped, sprinted (O12), left the scene,
 * or was revealed by its attack (P9). A new roll during an attempt is no
 * change.
 */
export interface AttemptChange {
  hider: string;
  /**
   * Whether the token is now in a stealth attempt (phase `hiding`).
   */
  hiding: boolean;
}
/**
 * Whether `observer` perceives `hider` changed.
 */
export interface VisibilityChange {
  hider: string;
  kind: "visibility";
  observer: string;
  perceived: boolean;
}
/**
 * A status effect turned on or off on `token`.
 */
export interface StatusChange {
  active: boolean;
  expires?: Expiry;
  kind: "status";
  status: Status;
  token: string;
}
/**
 * When a status ends on its own.
 */
export interface Expiry {
  /**
   * At the end of this combatant's current turn (P6).
   */
  turnEndOf: string;
}
/**
 * The answer to a `ClearViewQuery`.
 */
export interface ClearViewAnswer {
  /**
   * Levels floors the line passes through (`index` in the normalized
   * scene's `floors`, `id` the tile's).
   */
  blockingFloors: WallRef[];
  /**
   * Walls that block this line on their own.
   */
  blockingWalls: WallRef[];
  /**
   * The observer (`from`) has clear view of the target (`to`) (B5): a
   * sight line and no concealment by darkness.
   */
  clearView: boolean;
  /**
   * The observer's range of sight in darkness used, scene units.
   */
  darkvision: number;
  /**
   * Distance between them in scene units.
   */
  distance: number;
  /**
   * The sight line's two ends, canvas pixels.
   */
  from: Point;
  /**
   * Limited walls crossed (blocking when there are two or more).
   */
  limitedWalls: WallRef[];
  /**
   * No wall or floor blocks the line (light aside).
   */
  sightLine: boolean;
  /**
   * The lighting at the target.
   */
  targetLighting: Lighting;
  to: Point;
  /**
   * The unit of `distance` (`grid.units`).
   */
  units: string;
}
/**
 * A wall named in a `ClearViewAnswer`: its index in the normalized
 * scene's `walls` and its Foundry `_id` when it has one.
 */
export interface WallRef {
  id?: string;
  index: number;
}
/**
 * A point on the canvas: `x`, `y` in pixels (`x` grows rightward, `y`
 * downward) and an `elevation` in scene distance units (default 0), which
 * matters against walls with a height (`WallHeight`) and floors (`Floor`).
 */
export interface Point {
  elevation: number;
  x: number;
  y: number;
}
/**
 * Whether a position is in darkness, and why. JSON: `{"dark": bool,
 * "by": "global" | "light" | "tokenLight" | "darknessSource" |
 * "tokenDarkness" | "noLight", "source"?: {"index", "id"?}}`.
 */
export interface Lighting {
  by: LitBy;
  /**
   * No light reaches the position, or it lies inside a darkness source.
   */
  dark: boolean;
  /**
   * The light or darkness source that decides, by index in the scene's
   * `lights` and Foundry `_id`.
   */
  source?: WallRef;
}
/**
 * Clear view from one observer to every token of the scene (itself
 * included, `true`, distance 0), in the scene's token order.
 */
export interface ClearViewFrom {
  /**
   * `clear_view[j]`: the observer has clear view of `ids[j]`.
   */
  clearView: boolean[];
  /**
   * Centre distances in scene units.
   */
  distance: number[];
  ids: string[];
  /**
   * `in_darkness[j]`: `ids[j]` stands in darkness.
   */
  inDarkness: boolean[];
  observer: string;
  units: string;
}
/**
 * Clear view and distances between every pair of tokens.
 */
export interface ClearViewMatrix {
  /**
   * `clear_view[i][j]`: observer `ids[i]` has clear view of `ids[j]`.
   * Symmetric except across one-way walls; the diagonal is `true`.
   */
  clearView: boolean[][];
  /**
   * Centre-to-centre distance in scene units (`grid.distance` per
   * `grid.size` pixels), symmetric, diagonal 0.
   */
  distance: number[][];
  /**
   * Token ids; row and column `i` are `ids[i]`.
   */
  ids: string[];
  /**
   * `in_darkness[i]`: `ids[i]` stands in darkness (see `Lighting`).
   */
  inDarkness: boolean[];
  /**
   * The unit of `distance` (`grid.units`).
   */
  units: string;
}
/**
 * `clearView` query: `{"from": SightEnd, "to": SightEnd, "darkvision"?:
 * number}`; `from` is the observer. `darkvision` (scene units, >= 0) is
 * how far the observer sees in darkness; absent: the observer token's
 * `darkvision` when `from` is a `tokenId`, else 0.
 */
export interface ClearViewQuery {
  darkvision?: number | null;
  from: SightEnd;
  to: SightEnd;
}
/**
 * `{"tokenId": id}`.
 */
export interface TokenRef {
  tokenId: string;
}
/**
 * `{"token": {x, y, width?, height?, elevation?}}`.
 */
export interface PlacementRef {
  token: Placement;
}
/**
 * A token placement without an id: top-left corner in pixels, size in grid spaces.
 */
export interface Placement {
  elevation?: number;
  height?: number;
  width?: number;
  x: number;
  y: number;
}
/**
 * A point on the canvas: `x`, `y` in pixels (`x` grows rightward, `y`
 * downward) and an `elevation` in scene distance units (default 0), which
 * matters against walls with a height (`WallHeight`) and floors (`Floor`).
 */
export interface PointInput {
  elevation?: number;
  x: number;
  y: number;
}
/**
 * Combat bookkeeping (turns drive P6, P9, O5, O7).
 */
export interface Combat {
  /**
   * A combat is running.
   */
  active: boolean;
  /**
   * Tokens that made a stealth roll during the current turn (P9, O7: one a turn).
   */
  rolledThisTurn: string[];
  /**
   * The current round, from 1 (0 outside combat).
   */
  round: number;
  /**
   * The token whose turn it is.
   */
  turn: string | null;
}
/**
 * What `create_state` takes: a ruleset, its settings and the creatures.
 */
export interface Config {
  creatures?: CreatureInput[];
  ruleset: Ruleset;
  settings?: SettingsInput;
}
/**
 * A creature that may hide or observe: one token.
 */
export interface CreatureInput {
  /**
   * `percentile`: the three acuities (P3).
   */
  acuities?: AcuitiesInput;
  /**
   * `percentile`: base Furtivité %, no bonus (P8 knockout), 0..=500.
   * Defaults to `stealth_skill` when absent.
   */
  baseStealthSkill?: number | null;
  /**
   * `opposed`: enhanced senses (O13).
   */
  enhancedSenses?: EnhancedSenseInput[];
  /**
   * The token id.
   */
  id: string;
  /**
   * Display name used in explanations, at most 256 characters.
   */
  name?: string;
  /**
   * `opposed`: the Perception check modifier the seeded roller adds (B4), -1000..=1000.
   */
  perceptionModifier?: number;
  /**
   * Allegiance. Creatures with the same side are allies, except that the
   * side `"neutral"` (and the empty side) is allied with nobody (O3, O11, P6).
   * At most 256 characters.
   */
  side?: string;
  /**
   * `opposed`: the Stealth check modifier the seeded roller adds (B4), -1000..=1000.
   */
  stealthModifier?: number;
  /**
   * `percentile`: effective Furtivité %, bonuses included (P1), 0..=500.
   * A creature without the skill has 0 (P11).
   */
  stealthSkill?: number;
  /**
   * `percentile`: Force, for the knockout duration (P8), 0..=1000.
   */
  strength?: number;
}
/**
 * An enhanced sense (`opposed`, O13): smell, tremorsense, blindsight...
 */
export interface EnhancedSenseInput {
  /**
   * Range in scene distance units (feet, metres...: whatever the
   * caller's `distance` uses). 0..=100000.
   */
  range: number;
  /**
   * The sense's name, matched against the hider's precautions
   * (e.g. `"blindsight"`, `"tremorsense"`, `"smell"`), at most 256 characters.
   */
  sense: string;
  /**
   * A targeting sense also gives the exact space (O10 does not apply).
   */
  targeting?: boolean;
}
/**
 * Table settings. Every reading marked **setting** in the rules
 * interpretation is a value here, never a code fork.
 */
export interface SettingsInput {
  /**
   * O1: a zero-length movement may enter stealth. Default `true`.
   */
  allowZeroLengthMovement?: boolean;
  /**
   * B4, `opposed` only: the die the seeded roller uses for Stealth and
   * Perception checks (check = 1d`check_die` + modifier). Range 2..=1000,
   * default 20.
   */
  checkDie?: number;
  /**
   * P2 / B3: players see their own stealth score, modifiers and the
   * numbers in public explanations. Default `false`.
   */
  showNumbersToPlayers?: boolean;
}
/**
 * A creature that may hide or observe: one token.
 */
export interface Creature {
  /**
   * `percentile`: the three acuities (P3).
   */
  acuities: Acuities;
  /**
   * `percentile`: base Furtivité %, no bonus (P8 knockout), 0..=500.
   * Defaults to `stealth_skill` when absent.
   */
  baseStealthSkill: number | null;
  /**
   * `opposed`: enhanced senses (O13).
   */
  enhancedSenses: EnhancedSense[];
  /**
   * The token id.
   */
  id: string;
  /**
   * Display name used in explanations, at most 256 characters.
   */
  name: string;
  /**
   * `opposed`: the Perception check modifier the seeded roller adds (B4), -1000..=1000.
   */
  perceptionModifier: number;
  /**
   * Allegiance. Creatures with the same side are allies, except that the
   * side `"neutral"` (and the empty side) is allied with nobody (O3, O11, P6).
   * At most 256 characters.
   */
  side: string;
  /**
   * `opposed`: the Stealth check modifier the seeded roller adds (B4), -1000..=1000.
   */
  stealthModifier: number;
  /**
   * `percentile`: effective Furtivité %, bonuses included (P1), 0..=500.
   * A creature without the skill has 0 (P11).
   */
  stealthSkill: number;
  /**
   * `percentile`: Force, for the knockout duration (P8), 0..=1000.
   */
  strength: number;
}
/**
 * An enhanced sense (`opposed`, O13): smell, tremorsense, blindsight...
 */
export interface EnhancedSense {
  /**
   * Range in scene distance units (feet, metres...: whatever the
   * caller's `distance` uses). 0..=100000.
   */
  range: number;
  /**
   * The sense's name, matched against the hider's precautions
   * (e.g. `"blindsight"`, `"tremorsense"`, `"smell"`), at most 256 characters.
   */
  sense: string;
  /**
   * A targeting sense also gives the exact space (O10 does not apply).
   */
  targeting: boolean;
}
/**
 * One observer of a `DarknessQuery`.
 */
export interface DarknessObserver {
  /**
   * How far the observer sees in darkness: scene units `>= 0`, or
   * `"unlimited"`.
   */
  darkvision: Darkvision;
  /**
   * Observer to target in scene distance units, `>= 0`; absent or
   * `null` when unknown (then a target in darkness is concealed unless
   * `darkvision` is `"unlimited"`).
   */
  distance?: number | null;
}
/**
 * The `concealedByDarkness` query: one target and the observers to test,
 * one call per target whatever the number of observers. JSON:
 * `{"targetInDarkness": bool, "observers": [{"distance"?: number | null,
 * "darkvision": number | "unlimited"}]}`.
 * The shape `concealed_by_darkness_answer` reads. It reads it by hand:
 * serde's derive, read with field paths, makes the Foundry module's wasm
 * larger than this reader does. This type exists for its JSON Schema
 * (feature `schema`), which types the export (`npm/types.d.ts`).
 */
export interface DarknessQuery {
  /**
   * The observers, each with its distance to the target and its
   * darkvision; the answer lists one boolean per observer, in order.
   */
  observers: DarknessObserver[];
  /**
   * The target stands in darkness (`Lighting.dark`).
   */
  targetInDarkness: boolean;
}
/**
 * A range of scene darkness levels, `min..=max` within 0..=1: when a light
 * is active (v9+ `config.darkness`, v8 `darknessThreshold` as `{min:
 * threshold, max: 1}`), or when global illumination applies (v12+
 * `environment.globalLight.darkness`, v9 to v11 `globalLightThreshold` as
 * `{min: 0, max: threshold}`).
 */
export interface DarknessRange {
  max: number;
  min: number;
}
/**
 * The result of a query: a yes/no with its explanation.
 */
export interface Decision {
  allowed: boolean;
  /**
   * The clause that decided.
   */
  clause: Clause;
  en: string;
  fr: string;
}
/**
 * `{ defender, target, attacker }`: may `defender` defend `target` against `attacker` (P6)?
 */
export interface DefenseQuery {
  attacker: string;
  defender: string;
  target: string;
}
/**
 * What one `apply` (or `apply_all`, or
 * `settle`) did.
 */
export interface Effects {
  /**
   * The hiders that began or ended a stealth attempt, by hider.
   */
  attempts: AttemptChange[];
  /**
   * Visible changes, each reported once, in a stable order: visibility
   * by hider then observer, then statuses by token.
   */
  changes: Change[];
  /**
   * The patch to the `hidden_from` lookup, by observer then
   * hider; see `hidden_from_changes`.
   */
  hiddenFrom: HiddenFromChange[];
  /**
   * Explanations (B3), in order.
   */
  log: LogEntry[];
  /**
   * Rolls the caller must make and feed back as events. Perception
   * checks against one hider for one clause that follow each other are
   * one request naming every observer, in order.
   */
  requests: Request[];
  /**
   * The session's revision after this call (see `revision`).
   */
  revision: number;
  /**
   * The stored views that changed, one entry per hider, by hider: the
   * pairs whose clear view or distance changed or that appeared (as now
   * held), then those that went away, each by observer. What a caller
   * that sends only the views that changed compares with.
   */
  views: ViewChanges[];
}
/**
 * `observer`'s lookup entry for `hider` changed: add `hider` to the
 * observer's list (`hidden: true`) or remove it (`hidden: false`). See
 * `hidden_from_changes`.
 */
export interface HiddenFromChange {
  /**
   * Whether `observer` now fails to perceive `hider` (B1/B2).
   */
  hidden: boolean;
  hider: string;
  observer: string;
}
/**
 * One explanation (B3), in English and French, with its clause id.
 */
export interface LogEntry {
  audience: Audience;
  /**
   * The clause id, e.g. `"P3"`.
   */
  clause: Clause;
  en: string;
  fr: string;
  hider?: string;
  observer?: string;
}
/**
 * Each of `observers` (at least one) makes a Perception check against
 * `hider` (O4, O9, O13); answer each with a `perceptionRolled` event.
 * An observer asked by two events of one call is named twice; the
 * answer after its first is ignored, as any answer to a check that is
 * no longer pending.
 */
export interface PerceptionCheckRequest {
  clause: Clause;
  hider: string;
  kind: "perceptionCheck";
  observers: string[];
}
/**
 * `hider` must make a new stealth roll (P4); answer with an
 * `enterStealth` event carrying `modifiers`.
 */
export interface StealthRollRequest {
  clause: Clause;
  hider: string;
  kind: "stealthRoll";
  modifiers: Modifiers;
}
/**
 * The active modifiers of a percentile stealth roll (P2).
 */
export interface Modifiers {
  /**
   * Free GM modifiers (at most 32).
   */
  free: FreeModifier[];
  /**
   * Active situation modifiers (each counts once).
   */
  situation: SituationModifier[];
}
/**
 * A free GM modifier (P2): any integer with a label.
 */
export interface FreeModifier {
  /**
   * What the GM calls it, shown in explanations, at most 256 characters.
   */
  label: string;
  /**
   * The modifier, -1000..=1000.
   */
  value: number;
}
/**
 * The stored views of one hider that a transaction changed: the clear
 * view and distance the engine now holds for some observers, and the
 * observers whose pair it no longer holds.
 */
export interface ViewChanges {
  hider: string;
  /**
   * The observers whose pair went away (the hider's attempt or the
   * observer is gone).
   */
  removed: string[];
  /**
   * The observers whose pair is new or whose clear view or distance
   * changed, as now held: the shape of an event's `view`.
   */
  view: ViewEntry[];
}
/**
 * What an observer sees of a hider right now (O2, O4, O5, O13).
 */
export interface ViewEntry {
  /**
   * Line of sight and no concealment, centre to centre.
   */
  clearView: boolean;
  /**
   * Distance in scene units (for enhanced-sense ranges, O13), 0..=1e9.
   */
  distance: number | null;
  observer: string;
}
/**
 * Add a creature, or replace the data of a known one (token created,
 * duplicated or its actor changed). Pairs are kept.
 */
export interface UpsertCreatureEvent {
  creature: CreatureInput;
  type: "upsertCreature";
}
/**
 * The hider makes a stealth roll: it enters stealth, or rolls again.
 *
 * `percentile` (P1, P2, P4, P9): `roll` is the d100 (1..=100).
 * `modifiers`, when given, become the hider's active situation and free
 * modifiers; without them the roll keeps the hider's situation (P4:
 * the modifiers a `modifiersChanged` asked for, else those of the roll
 * in force, else none). `already_perceived` is decided afresh at each
 * roll: added automatically when a non-ally perceives the hider, and in
 * combat on a first roll as soon as a non-ally is present (P9).
 * `sprinting` adds the `sprint` modifier.
 *
 * `opposed` (O1, O2, O7, O12, O13): `roll` is the Stealth check total
 * (-1000..=1000); refused while `sprinting` (O12) and, when zero-length
 * movement is disabled, unless `moved` (O1); `precautions` names the
 * enhanced senses countered (at most 32 names of at most 256 characters); `view` gives each observer's clear view now.
 */
export interface EnterStealthEvent {
  hider: string;
  modifiers?: ModifiersInput | null;
  moved?: boolean;
  precautions?: string[];
  roll: number;
  sprinting?: boolean;
  type: "enterStealth";
  view?: ViewEntryInput[];
}
/**
 * The active modifiers of a percentile stealth roll (P2).
 */
export interface ModifiersInput {
  /**
   * Free GM modifiers (at most 32).
   */
  free?: FreeModifierInput[];
  /**
   * Active situation modifiers (each counts once).
   */
  situation?: SituationModifier[];
}
/**
 * A free GM modifier (P2): any integer with a label.
 */
export interface FreeModifierInput {
  /**
   * What the GM calls it, shown in explanations, at most 256 characters.
   */
  label?: string;
  /**
   * The modifier, -1000..=1000.
   */
  value: number;
}
/**
 * What an observer sees of a hider right now (O2, O4, O5, O13).
 */
export interface ViewEntryInput {
  /**
   * Line of sight and no concealment, centre to centre.
   */
  clearView: boolean;
  /**
   * Distance in scene units (for enhanced-sense ranges, O13), 0..=1e9.
   */
  distance?: number | null;
  observer: string;
}
/**
 * Clear view changed between the hider and some observers: a token
 * moved, a door opened, light changed (O4, O5, O13). `moved` says the
 * hider itself moved (O5). `view` names each observer once (as
 * `enterStealth`'s does): an observer named again is refused,
 * `duplicate_token` naming `view[i].observer`.
 */
export interface ViewChangedEvent {
  hider: string;
  moved?: boolean;
  type: "viewChanged";
  view: ViewEntryInput[];
}
/**
 * The answer to a `perceptionCheck` request (O4, O9): the check total.
 */
export interface PerceptionRolledEvent {
  hider: string;
  observer: string;
  total: number;
  type: "perceptionRolled";
}
/**
 * O3: `observer`, who perceives `hider`, points it out to `allies`.
 */
export interface PointOutEvent {
  allies: string[];
  hider: string;
  observer: string;
  type: "pointOut";
}
/**
 * `attacker` makes one attack instance against `targets` (several for
 * an area effect or a multi-target spell). The older single `target`
 * field is still read, for callers written before `targets`; give one
 * or the other, not both.
 *
 * `percentile`: a hider attacking a target that does not perceive it
 * makes a surprise, target by target (P6); `hit_zone` may be chosen on
 * a surprise's first attack (P7); any attack from hiding reveals the
 * attacker at the end of its turn (P9).
 * `opposed`: a noisy instance costs 5 per hit, an area effect or a
 * multi-target instance counts once (O8); each target that does not
 * perceive the attacker checks (O9).
 */
export interface AttackEvent {
  area?: boolean;
  attacker: string;
  hitZone?: HitZone | null;
  /**
   * Hits of this attack instance, 0..=100 (default 1).
   */
  hits?: number;
  noisy?: boolean;
  /**
   * The single target of callers written before `targets`.
   */
  target?: string | null;
  /**
   * The targets, 1..=1000 distinct tokens other than the attacker.
   */
  targets?: string[];
  type: "attack";
}
/**
 * O11: `target` (a hider) took Health or Stamina damage from `attacker`
 * in `hits` hits (1..=100).
 */
export interface DamageTakenEvent {
  attacker: string;
  hits?: number;
  target: string;
  type: "damageTaken";
}
/**
 * The combat turn of `combatant` starts (O7 fresh roll, P9 one roll a turn).
 */
export interface TurnStartEvent {
  combatant: string;
  round?: number | null;
  type: "turnStart";
}
/**
 * The combat turn of `combatant` ends (P6 expiry, P9 reveal, O5 exposure).
 */
export interface TurnEndEvent {
  combatant: string;
  type: "turnEnd";
}
/**
 * A combat round ends.
 */
export interface RoundEndEvent {
  round?: number | null;
  type: "roundEnd";
}
/**
 * The combat ends: surprises expire, turn counters reset.
 */
export interface CombatEndEvent {
  type: "combatEnd";
}
/**
 * P4: the situation or environment changed for `hider`: the score is
 * stale and a new roll is requested; the old score applies until then.
 */
export interface ModifiersChangedEvent {
  hider: string;
  modifiers: ModifiersInput;
  type: "modifiersChanged";
}
/**
 * The token sprints: O12 ends its stealth attempt; in `percentile` the
 * `sprint` modifier becomes active (P2, P4).
 */
export interface SprintEvent {
  token: string;
  type: "sprint";
}
/**
 * The hider stops hiding: perceived by everyone, the attempt ends.
 */
export interface StopHidingEvent {
  hider: string;
  type: "stopHiding";
}
/**
 * The token left the scene: it and every pair naming it are removed.
 */
export interface TokenRemovedEvent {
  token: string;
  type: "tokenRemoved";
}
/**
 * The GM forces a pair to perceived or unperceived.
 */
export interface GmOverrideEvent {
  hider: string;
  observer: string;
  perceived: boolean;
  type: "gmOverride";
}
/**
 * A Levels floor: a tile with `flags.levels.rangeBottom` (the Levels
 * module by theripper93), a horizontal plane at `elevation` (that bottom,
 * scene distance units) over the tile's rectangle (`x`, `y`, `width`,
 * `height` in canvas pixels, turned by `rotation` degrees clockwise about
 * its centre). B5: it blocks a line that crosses its plane inside the
 * rectangle (`docs/scene.md`, "Height").
 */
export interface Floor {
  /**
   * The floor's elevation (`rangeBottom`), scene distance units.
   */
  elevation: number;
  /**
   * Pixels, >= 0.
   */
  height: number;
  /**
   * The tile's Foundry `_id`, when it has one.
   */
  id?: string;
  /**
   * Degrees, clockwise on the canvas (default 0).
   */
  rotation?: number;
  /**
   * Pixels, >= 0.
   */
  width: number;
  x: number;
  y: number;
}
/**
 * The scene grid (Foundry `GridData`; `grid`, `gridDistance`, `gridUnits`
 * and `gridType` before v10).
 */
export interface Grid {
  /**
   * Scene distance units per grid space, > 0 (`grid.distance`, default 1).
   */
  distance: number;
  /**
   * Pixels per grid space, > 0 (Foundry `grid.size`, default 100).
   */
  size: number;
  /**
   * `CONST.GRID_TYPES`: 0 gridless, 1 square, 2-5 hexagonal; kept, not used.
   */
  type?: number;
  /**
   * Label of the distance unit, e.g. `"ft"` (`grid.units`, default `""`).
   */
  units: string;
}
/**
 * `{ attacker, target, aimedAtSpace, area }`: `attacker` attacks the hider `target` (O10).
 */
export interface HiddenAttackQuery {
  /**
   * The attack aims at the hider's actual space.
   */
  aimedAtSpace?: boolean;
  /**
   * An area effect that covers the hider's space.
   */
  area?: boolean;
  attacker: string;
  target: string;
}
/**
 * The answer to a `HiddenAttackQuery`.
 */
export interface HiddenAttackResult {
  /**
   * The clause that decided.
   */
  clause: Clause;
  en: string;
  fr: string;
  mode: AttackMode;
}
/**
 * B1, B2: for each observer token id, the hiders it does not perceive. Observers that perceive everyone are absent.
 */
export interface HiddenFrom {
  [k: string]: string[];
}
/**
 * A token attempting stealth, with its per-observer pairs. State format 2: a hider carries the fields of the state's ruleset only (`percentile`: `d100`, `modifiers`, `score`, `pendingModifiers`, `alreadyPerceivedAdded`, `attacked`; `opposed`: `heldTotal`, `penalties`, `precautions`).
 */
export interface Hider {
  /**
   * `percentile`: P9 added `already_perceived` to `modifiers` on its own (the caller's modifiers did not hold it). Present only when true.
   */
  alreadyPerceivedAdded?: boolean;
  /**
   * `percentile` (P9): attacked from hiding; revealed at its turn end. Present only when true.
   */
  attacked?: boolean;
  /**
   * `percentile`: the d100 of the roll in force (P1), 1..=100.
   */
  d100?: number;
  /**
   * `opposed`: the held Stealth total (O1).
   */
  heldTotal?: number;
  /**
   * `percentile`: the modifiers of the roll in force (P2).
   */
  modifiers?: Modifiers;
  /**
   * The hider moved during its current turn (O5).
   */
  movedThisTurn: boolean;
  /**
   * By observer token id.
   */
  pairs: {
    [k: string]: Pair;
  };
  /**
   * `opposed`: penalties since the held roll (O6).
   */
  penalties?: Penalty[];
  /**
   * `percentile`: the modifiers the pending new roll will use (P4); `null` when no roll is pending.
   */
  pendingModifiers?: Modifiers | null;
  phase: HiderPhase;
  /**
   * `opposed`: enhanced senses countered by precautions (O13).
   */
  precautions?: string[];
  /**
   * `percentile`: the stealth score in force (P1).
   */
  score?: number;
}
/**
 * One hider, one observer.
 */
export interface Pair {
  /**
   * `opposed`: a Perception check has been requested and not answered yet.
   */
  checkPending: boolean;
  /**
   * The observer has the hider in clear view (line of sight, no concealment).
   */
  clearView: boolean;
  /**
   * Distance between the two tokens in scene units, when known (O13).
   */
  distance: number | null;
  /**
   * `opposed`, O5: the pair has been exposed (clear view and a failed
   * check, `is_exposed`) since the end of the hider's last turn.
   * Read and cleared at the end of the hider's turn: a hider that did not
   * move is revealed to that observer even if the view broke since.
   * Omitted from JSON when false.
   */
  exposed?: boolean;
  /**
   * Whether the observer perceives the hider.
   */
  perceived: boolean;
  /**
   * `opposed`: the stored Perception check total (O4), never re-rolled in this attempt
   * except by O9.
   */
  perceptionTotal: number | null;
  /**
   * Why.
   */
  reason: PairReason;
}
/**
 * A penalty that lowers the held total (O6).
 */
export interface Penalty {
  /**
   * The amount subtracted from the held total (positive).
   */
  amount: number;
  /**
   * The clause that imposed it (`O8` or `O11`).
   */
  clause: Clause;
  /**
   * Who it applies to.
   */
  scope: PenaltyScope;
}
/**
 * Every observer (O8).
 */
export interface AllPenaltyScope {
  kind: "all";
}
/**
 * Every creature on `side` except `attacker` itself: the attacker's
 * allies (O11). The side is kept so the scope survives the attacker
 * leaving the scene.
 */
export interface AlliesOfPenaltyScope {
  attacker: string;
  kind: "alliesOf";
  side: string;
}
/**
 * A Levels hole: a drawing with `flags.levels.drawingMode` 1 ("Hole" in
 * the Levels drawing config; 2 stair and 3 elevator are not holes), an
 * area where the floors whose elevation lies in `bottom..=top` (its
 * `rangeBottom`, `rangeTop`; missing: unbounded) are open, like a
 * balcony's opening or the open sky around a building.
 */
export interface Hole {
  bottom?: number;
  /**
   * The drawing's Foundry `_id`, when it has one.
   */
  id?: string;
  /**
   * The area, canvas pixels, turned as the drawing was.
   */
  shape: HoleShape;
  top?: number;
}
/**
 * A knockout attempt (P8). Without `rawDamage` and `d100` it only asks
 * whether the attempt is allowed.
 */
export interface KnockoutQuery {
  attacker: string;
  /**
   * The knockout d100, 1..=100 (no criticals, P11).
   */
  d100?: number | null;
  /**
   * The target's head is protected by a helmet.
   */
  helmet?: boolean;
  /**
   * The attack's raw damage, 0..=100000.
   */
  rawDamage?: number | null;
  target: string;
}
/**
 * The answer to a `KnockoutQuery`.
 */
export interface KnockoutResult {
  /**
   * P8 allows the attempt.
   */
  allowed: boolean;
  /**
   * The chance in percent, when the attempt is allowed: the attacker's
   * base Furtivité.
   */
  chance: number | null;
  /**
   * The clause that decided.
   */
  clause: Clause;
  /**
   * floor(raw damage / 4), when `rawDamage` was given and the attempt allowed.
   */
  damage: number | null;
  en: string;
  fr: string;
  /**
   * d100 <= chance, when `d100` was given and the attempt allowed.
   */
  knockedOut: boolean | null;
  /**
   * Duration if knocked out, when the attempt is allowed: 1 + floor(Force / 5) minutes.
   */
  minutes: number | null;
}
/**
 * An ambient light or darkness source (Foundry `AmbientLightData`); see
 * `docs/scene.md`, "Light and darkness", for what it lights.
 */
export interface Light {
  /**
   * Darkness levels at which the light is on; absent: always.
   */
  active?: DarknessRange;
  /**
   * Emission angle in degrees, `0..=360` (`config.angle`, 0.8 `angle`;
   * default 360), centred on `rotation`.
   */
  angle?: number;
  /**
   * Bright radius, >= 0, same unit as `dim`.
   */
  bright: number;
  /**
   * A darkness source: v12+ `config.negative`, or a negative radius (0.8).
   */
  darkness: boolean;
  /**
   * Dim radius, >= 0, scene distance units (AmbientLightData v8: "in
   * distance units"; v9+ `config.dim`).
   */
  dim: number;
  /**
   * Elevation of the origin, scene distance units: v12+ `elevation`, else
   * the Levels `flags.levels.rangeBottom`, else 0.
   */
  elevation?: number;
  /**
   * Hidden lights are off.
   */
  hidden: boolean;
  id?: string;
  /**
   * Degrees; 0 faces down the screen (+y), growing clockwise (Foundry's
   * token and light rotation).
   */
  rotation?: number;
  /**
   * Whether walls constrain the light (`walls`, default true).
   */
  walls?: boolean;
  /**
   * Origin, canvas pixels.
   */
  x: number;
  y: number;
}
/**
 * The held Stealth total (O1, O6, O7, O13).
 */
export interface OpposedStanding {
  /**
   * The sum of the penalties that apply to every observer (O8); a
   * scoped one (O11) lowers the total only for the attacker's allies
   * (each pair's `effectiveTotal`, `pairs`).
   */
  globalPenalty: number;
  /**
   * The held Stealth total (O1).
   */
  heldTotal: number;
  /**
   * The penalties since the held roll (O6, O8, O11), in order.
   */
  penalties: Penalty[];
  /**
   * The enhanced senses countered by precautions (O13).
   */
  precautions: string[];
}
/**
 * The result of applying one event.
 */
export interface Outcome {
  changes: Change[];
  log: LogEntry[];
  requests: Request[];
  state: State;
}
/**
 * The whole engine state (format version 2, see `docs/state.md`).
 *
 * Reading JSON: `read_state` also accepts version 1 and
 * migrates it; the `Deserialize` impl reads version 2 only.
 */
export interface State {
  combat: Combat;
  /**
   * Every creature the engine knows, by token id.
   */
  creatures: {
    [k: string]: Creature;
  };
  /**
   * Creatures attempting stealth, by token id.
   */
  hiders: {
    [k: string]: Hider;
  };
  /**
   * Successful `apply`/`applyAll` calls since the state was created
   * (0..=2^53-1, `Number.MAX_SAFE_INTEGER`, where it stops; a state
   * above is refused with `out_of_range` naming `revision`); a
   * caller holding two snapshots keeps the higher one.
   */
  revision: number;
  ruleset: Ruleset;
  settings: Settings;
  /**
   * Surprises in progress (P6).
   */
  surprises: Surprise[];
  /**
   * Must equal `STATE_VERSION`.
   */
  version: number;
}
/**
 * Table settings. Every reading marked **setting** in the rules
 * interpretation is a value here, never a code fork.
 */
export interface Settings {
  /**
   * O1: a zero-length movement may enter stealth. Default `true`.
   */
  allowZeroLengthMovement: boolean;
  /**
   * B4, `opposed` only: the die the seeded roller uses for Stealth and
   * Perception checks (check = 1d`check_die` + modifier). Range 2..=1000,
   * default 20.
   */
  checkDie: number;
  /**
   * P2 / B3: players see their own stealth score, modifiers and the
   * numbers in public explanations. Default `false`.
   */
  showNumbersToPlayers: boolean;
}
/**
 * A surprise in progress (P6): `target` is defenseless against `attacker`
 * until the end of the attacker's current turn.
 */
export interface Surprise {
  attacker: string;
  /**
   * Attacks made by the attacker on the target during the surprise.
   */
  attacks: number;
  /**
   * The zone chosen on the first attack (P7), if any.
   */
  firstHitZone: HitZone | null;
  target: string;
}
/**
 * `{ observer, hider }`: for `perceives` and `can_locate`.
 */
export interface PairQuery {
  hider: string;
  observer: string;
}
/**
 * One pair as the GM sees it, with the decision behind it (B3).
 */
export interface PairStanding {
  /**
   * The clause of the decision that put the pair in its state.
   */
  clause: Clause;
  /**
   * The clear view the engine holds for the pair.
   */
  clearView: boolean;
  /**
   * P6: the observer is defenseless against the hider until the end
   * of the hider's turn.
   */
  defenseless: boolean;
  /**
   * The distance the engine holds for the pair, in scene units.
   */
  distance: number | null;
  /**
   * `opposed`: the held total as this observer faces it (O6).
   */
  effectiveTotal: number | null;
  en: string;
  /**
   * O5: exposed.
   */
  exposed: boolean;
  fr: string;
  hider: string;
  /**
   * The observer knows the hider's exact space (O13).
   */
  located: boolean;
  observer: string;
  /**
   * The observer perceives the hider.
   */
  perceived: boolean;
  /**
   * `opposed`: the observer's stored Perception check (O4).
   */
  perceptionTotal: number | null;
  state: PairState;
}
/**
 * `{ hider?, observer? }`: which pairs (`pairs`); each field narrows
 * the answer to one token.
 */
export interface PairsQuery {
  hider?: string | null;
  observer?: string | null;
}
/**
 * The stealth score in force (P1, P2, P4, P9).
 */
export interface PercentileStanding {
  /**
   * P9 added `already_perceived` on its own to this roll.
   */
  alreadyPerceivedAdded: boolean;
  /**
   * The d100 of the roll in force.
   */
  d100: number;
  /**
   * The sum of the active modifiers (P2).
   */
  modifierTotal: number;
  /**
   * The active modifiers (P2), `already_perceived` included when P9
   * added it.
   */
  modifiers: Modifiers;
  /**
   * P4: the modifiers of the new roll requested after a change; `null`
   * when none is pending. The score in force stays until it arrives.
   */
  pendingModifiers: Modifiers | null;
  /**
   * The stealth score in force (P1): stealthSkill + tier + modifierTotal
   * as they were at the roll.
   */
  score: number;
  /**
   * The hider's effective Furtivité now (P1). After an `upsertCreature`
   * that changed it, the score keeps the roll's until the next roll.
   */
  stealthSkill: number;
  /**
   * The tier term of `stealthSkill` and `d100` (P1).
   */
  tier: number;
}
/**
 * `{ hider, target, held, visible }`: may `hider` take this object from `target` (P10)?
 */
export interface PickpocketQuery {
  /**
   * The target holds the object in hand.
   */
  held: boolean;
  hider: string;
  target: string;
  /**
   * The object can be seen (belt weapon, quiver, potion, purse).
   */
  visible: boolean;
}
/**
 * A scene normalized from any supported layout (`parseScene` returns it as JSON).
 */
export interface Scene {
  /**
   * Scene darkness level 0..=1 (`darkness`, v12+ `environment.darknessLevel`).
   */
  darkness: number;
  /**
   * Levels floors (tiles with `flags.levels.rangeBottom`).
   */
  floors?: Floor[];
  /**
   * Always `SCENE_FORMAT`; marks a JSON value as a normalized scene.
   */
  furtiveScene: number;
  /**
   * Global illumination (`globalLight`, v12+ `environment.globalLight.enabled`).
   */
  globalLight: boolean;
  /**
   * Darkness levels at which global illumination applies (v9 to v11
   * `globalLightThreshold`, v12+ `environment.globalLight.darkness`);
   * absent: all.
   */
  globalLightDarkness?: DarknessRange;
  grid: Grid;
  height?: number;
  /**
   * Levels holes (drawings with `flags.levels.drawingMode` 1).
   */
  holes?: Hole[];
  id?: string;
  /**
   * The layout the scene was read from.
   */
  layout: SceneLayout;
  lights: Light[];
  name?: string;
  tokens: Token[];
  walls: Wall[];
  /**
   * Scene width and height in pixels, when the export has them.
   */
  width?: number;
}
/**
 * A token on the scene (Foundry `TokenData`), or a placement given by the caller.
 */
export interface Token {
  /**
   * Range in scene distance units within which this token, as an
   * observer, sees in darkness (darkvision, blindsight, a configured
   * attribute); 0 (the default) when it needs light. Read from the
   * export as pre-v10 `dimSight`, or v10+ `sight.range` when
   * `sight.visionMode` is `"darkvision"`; callers may set it.
   */
  darkvision?: number;
  /**
   * Elevation in scene distance units (default 0): the height of the
   * token's eye and of its body for sight lines (B5, `docs/scene.md`).
   */
  elevation: number;
  /**
   * Height in grid spaces, > 0 (default 1).
   */
  height: number;
  /**
   * Foundry `_id` (or the caller's id).
   */
  id: string;
  /**
   * The light the token carries (a torch, a lantern), centred on the
   * token and moving with it; absent: none.
   */
  light?: TokenLight;
  name?: string;
  /**
   * Width in grid spaces, > 0 (default 1).
   */
  width: number;
  /**
   * Left edge, canvas pixels.
   */
  x: number;
  /**
   * Top edge, canvas pixels.
   */
  y: number;
}
/**
 * A light carried by a token (v10+ `light` = `LightData`: `dim`,
 * `bright`, `angle`, `negative`, `darkness`; 0.7 to v9 `dimLight`,
 * `brightLight`, `lightAngle`, a negative radius making darkness), emitted
 * from the token's centre at its elevation, turned with the token's
 * `rotation`. It lights like an ambient `Light` with `walls: true`.
 */
export interface TokenLight {
  /**
   * Darkness levels at which it is on; absent: always.
   */
  active?: DarknessRange;
  /**
   * Emission angle in degrees, `0..=360` (default 360).
   */
  angle?: number;
  /**
   * Bright radius, >= 0, scene distance units.
   */
  bright: number;
  /**
   * A darkness source.
   */
  darkness?: boolean;
  /**
   * Dim radius, >= 0, scene distance units.
   */
  dim: number;
  /**
   * The token's rotation, degrees (0 faces down the screen).
   */
  rotation?: number;
}
/**
 * A wall segment (Foundry `WallData`).
 */
export interface Wall {
  /**
   * `[x0, y0, x1, y1]` in canvas pixels; direction matters for `dir`.
   *
   * @minItems 4
   * @maxItems 4
   */
  c: [number, number, number, number];
  direction: WallDirection;
  door: DoorKind;
  doorState: DoorState;
  /**
   * Vertical extent from the Wall Height module; absent: unbounded.
   */
  height?: WallHeight;
  /**
   * Foundry `_id`, when the export has one.
   */
  id?: string;
  /**
   * How the wall restricts light (`light`, same codes as `sight`; 0.7:
   * `sense`); absent: like `sight`. Used by the light model only.
   */
  light?: SightRestriction;
  sight: SightRestriction;
  /**
   * Proximity thresholds of a proximity (30) or distance (40) wall
   * (Foundry `WallData.threshold`, v11+); absent: no threshold.
   */
  threshold?: WallThreshold;
}
/**
 * The vertical extent of a wall, from the Wall Height module's
 * `flags["wall-height"] = {bottom, top}` (4.0 and later; used by Levels
 * scenes such as the Nort Gate fixture) or, before 4.0,
 * `flags.wallHeight = {wallHeightBottom, wallHeightTop}`, in scene
 * distance units; a missing or `null` bound is unbounded. Core Foundry
 * walls have no height.
 *
 * B5: the sight line is a segment in three dimensions; a wall with a
 * height counts only when the line's elevation where it crosses the wall
 * lies in `[bottom, top]` (`docs/scene.md`, "Height").
 */
export interface WallHeight {
  bottom?: number;
  top?: number;
}
/**
 * The thresholds of a proximity or distance wall (Foundry
 * `WallThresholdData`), in scene distance units ("grid units" in the v14
 * API docs). `sight` (`light`) is the "minimum distance from a vision
 * (light) source for which this wall blocks vision (light)"; a missing
 * value is 0. `CONST.WALL_SENSE_TYPES`: a PROXIMITY wall is bypassed by
 * senses "within a certain proximity threshold", a DISTANCE wall "outside
 * a certain proximity threshold". So, with `d` the distance from the
 * source (the observer, or the light) to the nearest point of the wall:
 * a proximity wall blocks when `d >= threshold`, a distance wall when
 * `d < threshold`. Ignored on walls of other types.
 */
export interface WallThreshold {
  /**
   * "Whether to attenuate the source radius when passing through the
   * wall": kept, not used (a sight line has no radius; see docs/scene.md).
   */
  attenuation?: boolean;
  light?: number;
  sight?: number;
}
/**
 * A door opens or closes.
 */
export interface DoorSceneUpdate {
  /**
   * `"closed"`, `"open"`, `"locked"`, or Foundry's `ds` 0, 1, 2.
   */
  state: "closed" | "open" | "locked" | 0 | 1 | 2;
  type: "door";
  wallId: string;
}
/**
 * Adds the wall, or replaces the one with its `_id`.
 */
export interface WallSceneUpdate {
  type: "wall";
  /**
   * A Foundry wall with its `_id`, in the layout `parseScene` reads.
   */
  wall: {
    [k: string]: unknown;
  };
}
/**
 * Removes a wall.
 */
export interface WallRemovedSceneUpdate {
  type: "wallRemoved";
  wallId: string;
}
/**
 * Adds the token, or replaces the one with its `_id`.
 */
export interface TokenSceneUpdate {
  /**
   * A Foundry token with its `_id` (optionally with `darkvision`, scene units), in the layout `parseScene` reads.
   */
  token: {
    [k: string]: unknown;
  };
  type: "token";
}
/**
 * Moves a token.
 */
export interface TokenMovedSceneUpdate {
  /**
   * Scene distance units; unchanged when absent.
   */
  elevation?: number;
  tokenId: string;
  type: "tokenMoved";
  /**
   * Left edge, canvas pixels.
   */
  x: number;
  /**
   * Top edge, canvas pixels.
   */
  y: number;
}
/**
 * Removes a token.
 */
export interface TokenRemovedSceneUpdate {
  tokenId: string;
  type: "tokenRemoved";
}
/**
 * Sets what the token sees in darkness.
 */
export interface DarkvisionSceneUpdate {
  /**
   * Scene distance units, >= 0.
   */
  darkvision: number;
  tokenId: string;
  type: "darkvision";
}
/**
 * Adds a light, or replaces the one with its `_id` (moved, resized).
 */
export interface LightSceneUpdate {
  /**
   * A Foundry ambient light with its `_id`, in the layout `parseScene` reads.
   */
  light: {
    [k: string]: unknown;
  };
  type: "light";
}
/**
 * Removes a light.
 */
export interface LightRemovedSceneUpdate {
  lightId: string;
  type: "lightRemoved";
}
/**
 * Turns a light off (`true`) or on.
 */
export interface LightHiddenSceneUpdate {
  hidden: boolean;
  lightId: string;
  type: "lightHidden";
}
/**
 * The scene's darkness level.
 */
export interface DarknessSceneUpdate {
  /**
   * 0..=1.
   */
  darkness: number;
  type: "darkness";
}
/**
 * A hider's standing: its phase and its roll in force, with the parts
 * of the score or total. GM only: it carries the hidden numbers (P2).
 */
export interface Standing {
  hider: string;
  /**
   * The hider moved during its current turn (O5).
   */
  movedThisTurn: boolean;
  /**
   * `opposed`: the held total and its penalties; `null` without an
   * attempt or in `percentile`.
   */
  opposed: OpposedStanding | null;
  /**
   * `percentile`: the stealth score in force and its parts; `null`
   * without an attempt or in `opposed`.
   */
  percentile: PercentileStanding | null;
  /**
   * `hiding` (in a stealth attempt), `revealed` (P9: perceived by
   * everyone, the record kept for the next roll's -100), or `null`: no
   * attempt (a token the engine does not know included, B1).
   */
  phase: HiderPhase | null;
}
/**
 * `{ hider }`: whose standing (`standing`).
 */
export interface StandingQuery {
  hider: string;
}
/**
 * A token on the scene (Foundry `TokenData`), or a placement given by the caller.
 */
export interface TokenInput {
  /**
   * Range in scene distance units within which this token, as an
   * observer, sees in darkness (darkvision, blindsight, a configured
   * attribute); 0 (the default) when it needs light. Read from the
   * export as pre-v10 `dimSight`, or v10+ `sight.range` when
   * `sight.visionMode` is `"darkvision"`; callers may set it.
   */
  darkvision?: number;
  /**
   * Elevation in scene distance units (default 0): the height of the
   * token's eye and of its body for sight lines (B5, `docs/scene.md`).
   */
  elevation?: number;
  /**
   * Height in grid spaces, > 0 (default 1).
   */
  height?: number;
  /**
   * Foundry `_id` (or the caller's id).
   */
  id: string;
  /**
   * The light the token carries (a torch, a lantern), centred on the
   * token and moving with it; absent: none.
   */
  light?: TokenLightInput | null;
  name?: string | null;
  /**
   * Width in grid spaces, > 0 (default 1).
   */
  width?: number;
  /**
   * Left edge, canvas pixels.
   */
  x: number;
  /**
   * Top edge, canvas pixels.
   */
  y: number;
}
/**
 * A light carried by a token (v10+ `light` = `LightData`: `dim`,
 * `bright`, `angle`, `negative`, `darkness`; 0.7 to v9 `dimLight`,
 * `brightLight`, `lightAngle`, a negative radius making darkness), emitted
 * from the token's centre at its elevation, turned with the token's
 * `rotation`. It lights like an ambient `Light` with `walls: true`.
 */
export interface TokenLightInput {
  /**
   * Darkness levels at which it is on; absent: always.
   */
  active?: DarknessRange | null;
  /**
   * Emission angle in degrees, `0..=360` (default 360).
   */
  angle?: number;
  /**
   * Bright radius, >= 0, scene distance units.
   */
  bright: number;
  /**
   * A darkness source.
   */
  darkness?: boolean;
  /**
   * Dim radius, >= 0, scene distance units.
   */
  dim: number;
  /**
   * The token's rotation, degrees (0 faces down the screen).
   */
  rotation?: number;
}
/**
 * The answer for one observer and one target token.
 */
export interface View {
  /**
   * Clear view (B5): a sight line and no concealment.
   */
  clearView: boolean;
  /**
   * Centre distance, scene units (`distance`).
   */
  distance: number;
  /**
   * No wall or floor blocks the line from the observer.
   */
  sightLine: boolean;
  /**
   * The target stands in darkness (see `Lighting`).
   */
  targetInDarkness: boolean;
}
