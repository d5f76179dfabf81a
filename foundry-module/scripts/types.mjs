/**
 * JSDoc shapes of the engine's JSON (crates/furtive-core: state.rs, event.rs,
 * outcome.rs, query.rs). Types only; this file exports nothing at run time.
 */

/**
 * @typedef {object} EnhancedSense
 * @property {string} sense       name matched against precautions, e.g. "blindsight"
 * @property {number} range       range in scene distance units, 0..=100000
 * @property {boolean} [targeting] gives the exact space (O10 does not apply)
 */

/**
 * A creature (one token) as the engine sees it.
 * @typedef {object} Creature
 * @property {string} id                 the TokenDocument id
 * @property {string} [name]             shown in explanations
 * @property {string} [side]             allegiance; "neutral" or "" is allied with nobody
 * @property {number} [stealthSkill]     percentile: effective Furtivité %, 0..=500 (P1)
 * @property {number} [baseStealthSkill] percentile: base Furtivité %, 0..=500 (P8)
 * @property {number} [strength]         percentile: Force, 0..=1000 (P8)
 * @property {{visual?: number, auditory?: number, olfactory?: number}} [acuities] percentile: 0..=1000 each (P3)
 * @property {number} [stealthModifier]    opposed: seeded-roller modifier only
 * @property {number} [perceptionModifier] opposed: seeded-roller modifier only
 * @property {EnhancedSense[]} [enhancedSenses] opposed (O13)
 */

/**
 * @typedef {object} Pair
 * @property {boolean} perceived
 * @property {string} reason        e.g. "acuity_comparison", "perception_check"
 * @property {boolean} clearView
 * @property {number | null} distance
 * @property {number | null} perceptionTotal
 * @property {boolean} checkPending
 * @property {boolean} exposed
 */

/**
 * @typedef {object} Hider
 * @property {"hiding" | "revealed"} phase
 * @property {number | null} score
 * @property {number | null} heldTotal
 * @property {string[]} precautions
 * @property {Record<string, Pair>} pairs
 */

/**
 * @typedef {object} EngineState
 * @property {number} version
 * @property {"percentile" | "opposed"} ruleset
 * @property {{showNumbersToPlayers: boolean, allowZeroLengthMovement: boolean, checkDie: number}} settings
 * @property {Record<string, Creature>} creatures
 * @property {Record<string, Hider>} hiders
 * @property {{attacker: string, target: string, attacks: number, firstHitZone: string | null}[]} surprises
 * @property {{active: boolean, round: number, turn: string | null, rolledThisTurn: string[]}} combat
 */

/**
 * @typedef {{observer: string, clearView: boolean, distance?: number}} ViewEntry
 */

/**
 * @typedef {{situation: string[], free: {label: string, value: number}[]}} Modifiers
 */

/**
 * An engine event: an object with a camelCase `type` tag (event.rs).
 * @typedef {{type: string} & Record<string, any>} EngineEvent
 */

/**
 * @typedef {object} Change
 * @property {"visibility" | "status"} kind
 * @property {string} [hider]
 * @property {string} [observer]
 * @property {boolean} [perceived]
 * @property {string} [token]
 * @property {"hidden" | "defenseless"} [status]
 * @property {boolean} [active]
 * @property {{turnEndOf: string}} [expires]
 */

/**
 * @typedef {object} Request
 * @property {"perceptionCheck" | "stealthRoll"} kind
 * @property {string} hider
 * @property {string} [observer]
 * @property {Modifiers} [modifiers]
 * @property {string} clause
 */

/**
 * @typedef {object} LogEntry
 * @property {string} clause
 * @property {"gm" | "public"} audience
 * @property {string} [hider]
 * @property {string} [observer]
 * @property {string} en
 * @property {string} fr
 */

/**
 * @typedef {object} Outcome
 * @property {EngineState} state
 * @property {Change[]} changes
 * @property {Request[]} requests
 * @property {LogEntry[]} log
 */

/**
 * @typedef {{allowed: boolean, clause: string, en: string, fr: string}} Decision
 */

/**
 * @typedef {object} KnockoutResult
 * @property {boolean} allowed
 * @property {number} chance       base Furtivité, percent
 * @property {number} minutes      1 + floor(Force / 5)
 * @property {number | null} damage
 * @property {boolean | null} knockedOut
 * @property {string} clause
 * @property {string} en
 * @property {string} fr
 */

/**
 * @typedef {{mode: "normal" | "disadvantage" | "miss", clause: string, en: string, fr: string}} HiddenAttackResult
 */

/**
 * The wasm-bindgen exports of furtive-wasm (JSON in/out, errors with `code`).
 * @typedef {object} WasmEngine
 * @property {(config: object) => EngineState} createState
 * @property {(state: EngineState, event: EngineEvent) => Outcome} apply
 * @property {(state: EngineState, query: object) => Decision} perceives
 * @property {(state: EngineState, query: object) => Decision} canLocate
 * @property {(state: EngineState, query: object) => Decision} canDefend
 * @property {(state: EngineState, query: object) => KnockoutResult} knockout
 * @property {(state: EngineState, query: object) => Decision} canPickpocket
 * @property {(state: EngineState, query: object) => HiddenAttackResult} attackHidden
 * @property {(state: EngineState) => Record<string, string[]>} hiddenFrom
 * @property {(state: EngineState, requests: Request[], seed: number) => EngineEvent[]} rollRequests
 * @property {(state: EngineState, event: EngineEvent, seed: number) => Outcome} settle
 * @property {() => string[]} errorCodes
 * @property {() => {id: string, value: number}[]} situationModifiers
 */

export {};
