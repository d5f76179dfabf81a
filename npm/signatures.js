// Generated from furtive_json::for_each_export! (crates/furtive-json/src/exports.rs),
// the one list both bindings are built from. Do not edit: run
// `FURTIVE_UPDATE_GOLDEN=1 cargo test -p furtive-core --test exports`.
// `cargo test` fails when this file differs from the list.

/** The arguments of each free function, in order; `?` marks an optional one. */
export const SIGNATURES = Object.freeze({
  /** `createState(config) -> State`: a fresh state from `{ ruleset, settings?, creatures? }`. */
  createState: ["config"],
  /** `apply(state, event) -> Outcome { state, changes, requests, log }`. */
  apply: ["state", "event"],
  /** `perceives(state, { observer, hider }) -> Decision`. */
  perceives: ["state", "query"],
  /** `canLocate(state, { observer, hider }) -> Decision` (P5). */
  canLocate: ["state", "query"],
  /** `canDefend(state, { defender, target, attacker }) -> Decision` (P6). */
  canDefend: ["state", "query"],
  /** `knockout(state, { attacker, target, helmet, rawDamage?, d100? }) -> KnockoutResult` (P8). */
  knockout: ["state", "query"],
  /** `canPickpocket(state, { hider, target, held, visible }) -> Decision` (P10). */
  canPickpocket: ["state", "query"],
  /** `attackHidden(state, { attacker, target, aimedAtSpace, area }) -> HiddenAttackResult` (O10). */
  attackHidden: ["state", "query"],
  /** `hiddenFrom(state) -> { [observer]: hider[] }` (B1, B2). */
  hiddenFrom: ["state"],
  /** `rollRequests(state, requests, seed) -> Event[]` (B4). (feature `roller`) */
  rollRequests: ["state", "requests", "seed"],
  /** `settle(state, event, seed) -> Outcome` (B4): apply, then answer every request. (feature `roller`) */
  settle: ["state", "event", "seed"],
  /** `parseScene(scene) -> Scene`: a Foundry Scene export (v10+, 0.8/v9, 0.7) or a normalized scene. (feature `scene`) */
  parseScene: ["scene"],
  /** `clearView(scene, { from, to }) -> ClearViewAnswer`. (feature `scene`) */
  clearView: ["scene", "query"],
  /** `clearViewMatrix(scene, tokens | null) -> ClearViewMatrix`. (feature `scene`) */
  clearViewMatrix: ["scene", "tokens?"],
  /** `concealedByDarkness({ targetInDarkness, observers: [{ distance?, darkvision }] }) -> boolean[]` (B5): concealment by darkness for each observer; scene units, darkvision a number >= 0 or "unlimited". */
  concealedByDarkness: ["query"],
  /** `alliedSides({ side, sides }) -> boolean[]` (O3, P6, P9): whether a creature on `side` and a distinct creature on each of `sides` are allies (the same side, neither empty nor "neutral"). */
  alliedSides: ["query"],
  /** `situationModifiers() -> [{ id, value }]`: the nine P2 situation modifiers and their values. */
  situationModifiers: [],
  /** `errorCodes() -> string[]`: every stable error code of the engine. */
  errorCodes: [],
});

/** The arguments of each static `Session` constructor. */
export const SESSION_CONSTRUCTORS = Object.freeze({
  /** `Session.create(config) -> Session`: a fresh session from `{ ruleset, settings?, creatures? }`. */
  create: ["config"],
  /** `Session.load(snapshot) -> Session`: a session over a saved state (format 1 or 2), validated once. */
  load: ["state"],
});

/** The arguments of each `Session` method. */
export const SESSION_METHODS = Object.freeze({
  /** `apply(event) -> Effects { changes, requests, log, revision, hiddenFrom, attempts, views }`; a refused event changes nothing. */
  apply: ["event"],
  /** `applyAll(events) -> Effects`: several events as one transaction, all or nothing. */
  applyAll: ["events"],
  /** `settle(event, seed) -> Effects` (B4): apply, then answer every request with seeded dice. (feature `roller`) */
  settle: ["event", "seed"],
  /** `rollRequests(requests, seed) -> Event[]` (B4): the answering events, not applied. (feature `roller`) */
  rollRequests: ["requests", "seed"],
  /** `perceives({ observer, hider }) -> Decision`. */
  perceives: ["query"],
  /** `canLocate({ observer, hider }) -> Decision` (P5). */
  canLocate: ["query"],
  /** `canDefend({ defender, target, attacker }) -> Decision` (P6). */
  canDefend: ["query"],
  /** `knockout({ attacker, target, helmet, rawDamage?, d100? }) -> KnockoutResult` (P8). */
  knockout: ["query"],
  /** `canPickpocket({ hider, target, held, visible }) -> Decision` (P10). */
  canPickpocket: ["query"],
  /** `attackHidden({ attacker, target, aimedAtSpace, area }) -> HiddenAttackResult` (O10). */
  attackHidden: ["query"],
  /** `standing({ hider }) -> Standing` (GM only): the hider's roll in force and its parts (P1, P2, P4; O1, O6, O13). */
  standing: ["query"],
  /** `pairs({ hider?, observer? }) -> PairStanding[]` (GM only): each pair's state and the decision behind it (B3). */
  pairs: ["query"],
  /** `hiddenFrom() -> { [observer]: hider[] }` (B1, B2). */
  hiddenFrom: [],
  /** `snapshot() -> State`: the state in format version 2, to save and load later. */
  snapshot: [],
});

/** The `Session` properties (read-only numbers). */
export const SESSION_GETTERS = Object.freeze(["revision"]);

/** The arguments of each static `SceneSight` constructor. */
export const SCENE_CONSTRUCTORS = Object.freeze({
  /** `SceneSight.parse(scene) -> SceneSight`: a Foundry Scene export (v10+, 0.8/v9, 0.7) or a normalized scene, read once. (feature `scene`) */
  parse: ["scene"],
});

/** The arguments of each `SceneSight` method. */
export const SCENE_METHODS = Object.freeze({
  /** `clearView({ from, to, darkvision? }) -> ClearViewAnswer` (B5) on the scene as updated. (feature `scene`) */
  clearView: ["query"],
  /** `view(observer, target) -> View`: clear view between two of the scene's tokens, with its parts (B5). (feature `scene`) */
  view: ["observer", "target"],
  /** `clearViewFrom(observer) -> ClearViewFrom`: clear view from one token to every token (B5). (feature `scene`) */
  clearViewFrom: ["observer"],
  /** `clearViewMatrix() -> ClearViewMatrix`: every pair of the scene's tokens (B5). (feature `scene`) */
  clearViewMatrix: [],
  /** `lightingAt({ x, y, elevation? }) -> Lighting`: the lighting at a canvas point. (feature `scene`) */
  lightingAt: ["point"],
  /** `lightingOf(token) -> Lighting`: the lighting at a token's centre. (feature `scene`) */
  lightingOf: ["token"],
  /** `update(update | update[]) -> null`: door, wall, token and light changes as one transaction, all or nothing. (feature `scene`) */
  update: ["updates"],
  /** `scene() -> Scene`: the normalized scene as updated, which `SceneSight.parse` reads back. (feature `scene`) */
  scene: [],
});

/** The cargo feature of furtive-core each export needs; a wasm build without it lacks the export. */
export const FEATURES = Object.freeze({
  rollRequests: "roller",
  settle: "roller",
  parseScene: "scene",
  clearView: "scene",
  clearViewMatrix: "scene",
  "Session.settle": "roller",
  "Session.rollRequests": "roller",
  "SceneSight.parse": "scene",
  "SceneSight.clearView": "scene",
  "SceneSight.view": "scene",
  "SceneSight.clearViewFrom": "scene",
  "SceneSight.clearViewMatrix": "scene",
  "SceneSight.lightingAt": "scene",
  "SceneSight.lightingOf": "scene",
  "SceneSight.update": "scene",
  "SceneSight.scene": "scene",
});
