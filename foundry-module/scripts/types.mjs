/**
 * JSDoc names for the engine's JSON, taken from the types generated from
 * the Rust types (npm/types.d.ts, from npm/furtive.schema.json; CI fails
 * when they drift from the Rust), the same declarations the npm package
 * publishes and its tests check against every shared vector, so the module,
 * the package and the engine cannot drift apart. The `Session` class comes
 * from npm/index.d.ts. Types only: this file exports nothing at run time,
 * and the `import()` types below are read by `tsc --checkJs` alone (the
 * shipped module never loads npm/, so the zip needs none of it).
 */

/** @typedef {import("../../npm/types.js").EnhancedSense} EnhancedSense */
/** A creature as the module writes it (only `id` is required). @typedef {import("../../npm/types.js").CreatureInput} Creature */
/** @typedef {import("../../npm/types.js").Pair} Pair */
/** @typedef {import("../../npm/types.js").Hider} Hider */
/** The engine state, format version 2. @typedef {import("../../npm/types.js").State} EngineState */
/** What an observer sees of a hider, as the module sends it in an event. @typedef {import("../../npm/types.js").ViewEntryInput} ViewEntry */
/** @typedef {import("../../npm/types.js").Modifiers} Modifiers */
/**
 * An engine event as the module builds it: an object with a camelCase
 * `type` tag (npm's `Event` is the exact union; the module's events carry
 * Foundry ids typed `string | null`, which the engine refuses by field).
 * @typedef {{type: import("../../npm/types.js").Event["type"]} & Record<string, any>} EngineEvent
 */
/** @typedef {import("../../npm/types.js").Change} Change */
/** A hider that began or ended a stealth attempt (the engine's `Effects.attempts`). @typedef {import("../../npm/types.js").AttemptChange} AttemptChange */
/** One hider's stored views that a transaction changed: the pairs new or changed, as now held, and the observers whose pair went away (the engine's `Effects.views`). @typedef {import("../../npm/types.js").ViewChanges} ViewChanges */
/**
 * A request as the module reads it: npm's `Request` union, flattened so
 * `modifiers` can be read without narrowing on `kind` first.
 * @typedef {import("../../npm/types.js").Request & {modifiers?: Modifiers}} Request
 */
/**
 * A line of a log as the module keeps it: the engine's explanation (npm's
 * `LogEntry`, whose `clause` is a clause id), or the module's own note of an
 * event the engine refused, which cites no clause (`""`).
 * @typedef {Omit<import("../../npm/types.js").LogEntry, "clause"> & {clause: import("../../npm/types.js").Clause | ""}} LogEntry
 */
/** An outcome whose log holds the module's notes too (see `LogEntry`). @typedef {Omit<import("../../npm/types.js").Outcome, "log"> & {log: LogEntry[]}} Outcome */
/** @typedef {import("../../npm/types.js").Decision} Decision */
/** @typedef {import("../../npm/types.js").KnockoutResult} KnockoutResult */
/** @typedef {import("../../npm/types.js").HiddenAttackResult} HiddenAttackResult */
/** @typedef {import("../../npm/types.js").Effects} Effects */
/** @typedef {import("../../npm/types.js").HiddenFromChange} HiddenFromChange */
/** @typedef {import("../../npm/index.js").Session} Session */

/**
 * The npm package's wasm entry point as the module uses it (engine/browser.js,
 * copied by scripts/build-foundry.sh): npm's result types; inputs as the
 * module builds them (the engine checks every field and refuses by name).
 * @typedef {object} WasmEngine
 * @property {(config: object) => EngineState} createState
 * @property {(state: EngineState, event: EngineEvent) => Outcome} apply
 * @property {(state: EngineState, query: object) => Decision} perceives
 * @property {(state: EngineState, query: object) => Decision} canLocate
 * @property {(state: EngineState, query: object) => Decision} canDefend
 * @property {(state: EngineState, query: object) => KnockoutResult} knockout
 * @property {(state: EngineState, query: object) => Decision} canPickpocket
 * @property {(state: EngineState, query: object) => HiddenAttackResult} attackHidden
 * @property {typeof import("../../npm/index.js").hiddenFrom} hiddenFrom
 * @property {typeof import("../../npm/index.js").concealedByDarkness} concealedByDarkness
 * @property {typeof import("../../npm/index.js").alliedSides} alliedSides
 * @property {typeof import("../../npm/index.js").errorCodes} errorCodes
 * @property {typeof import("../../npm/index.js").situationModifiers} situationModifiers
 * @property {typeof import("../../npm/index.js").Session} Session
 */

export {};
