// Reads and checks a demo scenario file.
//
// A scenario describes a stealth run on a real Foundry scene without code:
//
// {
//   "name": "…", "description": "…",
//   "scene": "path/to/scene.json",            // a Foundry Scene export, relative to this file
//   "actors": "path/to/actors.json",          // an array of Foundry Actor documents, relative to this file
//   "ruleset": "opposed" | "percentile",
//   "seed": 7,                                // default seed (--seed overrides)
//   "settings": { … },                        // engine settings (optional)
//   "roster": { "<actor name>": { … } },      // percentile only: Furtivité, acuities, Force per actor
//   "hider": { "id", "actor", "name"?, "side", "precautions"?, "modifiers"? },
//   "observers": [ { "id", "actor", "name"?, "side", "x", "y" } ],   // token top-left, pixels
//   "turns": [ { "note"?, "moves": [ { "x", "y" } ], "modifiers"? } ], // the path: one entry per turn of the
//                                                                    // hider, its waypoints in order (token top-left, pixels);
//                                                                    // `modifiers` (percentile): the P2 modifiers from then on
//   "finale": { "attack": { "target", "noisy"?, "hits"?, "area"?, "hitZone"? } }   // optional
// }
//
// Every error names the field, e.g. `observers[2].x: expected a number`.

import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

/** A scenario that cannot be run; `field` names the bad value. */
export class ScenarioError extends Error {
  /**
   * @param {string} field
   * @param {string} message
   */
  constructor(field, message) {
    super(`${field}: ${message}`);
    this.name = "ScenarioError";
    this.code = "invalid_scenario";
    this.field = field;
  }
}

/**
 * @param {unknown} value
 * @param {string} field
 */
function number(value, field) {
  if (typeof value !== "number" || !Number.isFinite(value)) throw new ScenarioError(field, "expected a finite number");
  return value;
}

/**
 * @param {unknown} value
 * @param {string} field
 */
function string(value, field) {
  if (typeof value !== "string" || value.length === 0) throw new ScenarioError(field, "expected a non-empty string");
  return value;
}

/**
 * @param {string} path
 * @param {string} field
 */
function readJson(path, field) {
  let text;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ScenarioError(field, `cannot read ${path}: ${/** @type {Error} */ (error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ScenarioError(field, `${path} is not JSON: ${/** @type {Error} */ (error).message}`);
  }
}

/**
 * Loads a scenario file and everything it points to.
 * @param {string} file path to the scenario JSON
 */
export function loadScenario(file) {
  const scenario = readJson(file, "scenario");
  if (typeof scenario !== "object" || scenario === null || Array.isArray(scenario)) {
    throw new ScenarioError("scenario", "expected a JSON object");
  }
  const base = dirname(resolve(file));
  const ruleset = scenario.ruleset;
  if (ruleset === undefined && Array.isArray(scenario.walls)) {
    throw new ScenarioError("scenario", `${file} looks like a Foundry scene export, not a scenario; a scenario names its scene in "scene" (format: demo/scenario.mjs)`);
  }
  if (ruleset !== "opposed" && ruleset !== "percentile") {
    throw new ScenarioError("ruleset", 'expected "opposed" or "percentile"');
  }
  const scene = readJson(resolve(base, string(scenario.scene, "scene")), "scene");
  const actors = readJson(resolve(base, string(scenario.actors, "actors")), "actors");
  if (!Array.isArray(actors)) throw new ScenarioError("actors", "expected a file holding an array of actors");

  /** @param {string} name @param {string} field */
  const actor = (name, field) => {
    const found = actors.find((a) => a?.name === name);
    if (!found) throw new ScenarioError(field, `no actor named "${name}" in ${scenario.actors}`);
    return found;
  };
  const roster = scenario.roster ?? {};
  /** @param {any} token @param {string} field */
  const token = (token, field) => {
    if (typeof token !== "object" || token === null) throw new ScenarioError(field, "expected an object");
    const actorData = actor(string(token.actor, `${field}.actor`), `${field}.actor`);
    if (ruleset === "percentile" && !roster[token.actor]) {
      throw new ScenarioError(`${field}.actor`, `percentile needs a roster entry for "${token.actor}"`);
    }
    return {
      id: string(token.id, `${field}.id`),
      name: token.name === undefined ? actorData.name : string(token.name, `${field}.name`),
      side: string(token.side, `${field}.side`),
      actor: actorData,
      width: actorData.prototypeToken?.width ?? 1,
      height: actorData.prototypeToken?.height ?? 1,
    };
  };

  const hider = { ...token(scenario.hider, "hider"), precautions: scenario.hider.precautions ?? [], modifiers: scenario.hider.modifiers };
  if (!Array.isArray(scenario.observers) || scenario.observers.length === 0) {
    throw new ScenarioError("observers", "expected a non-empty array");
  }
  const observers = scenario.observers.map((/** @type {any} */ o, /** @type {number} */ i) => ({
    ...token(o, `observers[${i}]`),
    x: number(o.x, `observers[${i}].x`),
    y: number(o.y, `observers[${i}].y`),
  }));
  const ids = new Set([hider.id]);
  observers.forEach((o, i) => {
    if (ids.has(o.id)) throw new ScenarioError(`observers[${i}].id`, `"${o.id}" is used twice`);
    ids.add(o.id);
  });
  if (!Array.isArray(scenario.turns) || scenario.turns.length === 0) {
    throw new ScenarioError("turns", "expected a non-empty array of turns");
  }
  const turns = scenario.turns.map((/** @type {any} */ turn, /** @type {number} */ t) => {
    if (!Array.isArray(turn?.moves) || turn.moves.length === 0) {
      throw new ScenarioError(`turns[${t}].moves`, "expected a non-empty array of waypoints");
    }
    return {
      note: turn.note ?? "",
      modifiers: turn.modifiers,
      moves: turn.moves.map((/** @type {any} */ w, /** @type {number} */ i) => ({
        x: number(w?.x, `turns[${t}].moves[${i}].x`),
        y: number(w?.y, `turns[${t}].moves[${i}].y`),
      })),
    };
  });
  const attack = scenario.finale?.attack;
  if (attack !== undefined && !ids.has(attack.target)) {
    throw new ScenarioError("finale.attack.target", `"${attack.target}" is not an observer id`);
  }
  const seed = scenario.seed === undefined ? 1 : number(scenario.seed, "seed");
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > 9_000_000_000) {
    throw new ScenarioError("seed", "expected an integer from 0 to 9000000000");
  }
  return {
    name: scenario.name ?? file,
    description: scenario.description ?? "",
    ruleset,
    seed,
    settings: scenario.settings ?? {},
    roster,
    scene,
    hider,
    observers,
    turns,
    attack,
  };
}
