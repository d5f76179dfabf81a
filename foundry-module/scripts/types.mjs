/**
 * JSDoc names for the engine's JSON, taken from the npm package's types
 * (npm/index.d.ts, the same declarations the package publishes and its tests
 * check against every shared vector), so the module and the package cannot
 * drift apart. Types only: this file exports nothing at run time, and the
 * `import()` types below are read by `tsc --checkJs` alone (the shipped
 * module never loads npm/).
 */

/** @typedef {import("../../npm/index.js").EnhancedSense} EnhancedSense */
/** A creature as the module writes it (only `id` is required). @typedef {import("../../npm/index.js").CreatureInput} Creature */
/** @typedef {import("../../npm/index.js").Pair} Pair */
/** @typedef {import("../../npm/index.js").Hider} Hider */
/** The engine state, format version 2. @typedef {import("../../npm/index.js").State} EngineState */
/** @typedef {import("../../npm/index.js").ViewEntry} ViewEntry */
/** @typedef {import("../../npm/index.js").Modifiers} Modifiers */
/**
 * An engine event as the module builds it: an object with a camelCase
 * `type` tag (npm's `Event` is the exact union; the module's events carry
 * Foundry ids typed `string | null`, which the engine refuses by field).
 * @typedef {{type: import("../../npm/index.js").EventType} & Record<string, any>} EngineEvent
 */
/** @typedef {import("../../npm/index.js").Change} Change */
/**
 * A request as the module reads it: npm's `Request` union, flattened so
 * `modifiers` can be read without narrowing on `kind` first.
 * @typedef {import("../../npm/index.js").Request & {modifiers?: Modifiers, observer?: string}} Request
 */
/** @typedef {import("../../npm/index.js").LogEntry} LogEntry */
/** @typedef {import("../../npm/index.js").Outcome} Outcome */
/** @typedef {import("../../npm/index.js").Decision} Decision */
/** @typedef {import("../../npm/index.js").KnockoutResult} KnockoutResult */
/** @typedef {import("../../npm/index.js").HiddenAttackResult} HiddenAttackResult */
/** @typedef {import("../../npm/index.js").Effects} Effects */
/** @typedef {import("../../npm/index.js").HiddenFromChange} HiddenFromChange */
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
 * @property {typeof import("../../npm/index.js").errorCodes} errorCodes
 * @property {typeof import("../../npm/index.js").situationModifiers} situationModifiers
 * @property {typeof import("../../npm/index.js").Session} Session
 */

export {};
