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
//   "observers": [ { "id", "actor", "name"?, "side", "x", "y",       // token top-left, pixels
//                    "elevation"?, "darkvision"? } ],               // scene units (ft): elevation default 0;
//                                                                   // darkvision: how far it sees in darkness,
//                                                                   // default from the actor's senses (actors.mjs)
//   "lighting"?: { "darkness"?, "globalLight"? },  // overrides the scene's darkness level (0 midday ..= 1 midnight)
//                                                 // and global illumination (boolean); absent: the scene's own
//   "walls"?: [ { "_id", "c": [x0, y0, x1, y1], "flags": { "wall-height": { "bottom", "top" } }, … } ],
//                                                 // walls ADDED BY THE SCENARIO to the scene, as Foundry wall
//                                                 // documents (v10 layout; Wall Height flags for a low wall);
//                                                 // their _id must not be one of the scene's
//   "lights"?: [ { "id", "x", "y", "dim", "bright", "litAtTurn"?, "note"? } ],
//                                                 // lights ADDED BY THE SCENARIO: centre in pixels, radii in
//                                                 // scene units (>= 0); lit from the start, or at the start of
//                                                 // turn `litAtTurn` (1-based), which is a change of view (O4)
//   "doors"?: [ { "wallId", "state", "atTurn"? } ],
//                                                 // doors of the scene SET BY THE SCENARIO: `state` "open",
//                                                 // "closed" or "locked", from the start, or from the start of
//                                                 // turn `atTurn` (1-based), which is a change of view (O4)
//   "turns": [ { "note"?, "moves": [ { "x", "y" } ], "modifiers"? } ], // the path: one entry per turn of the
//                                                                    // hider, its waypoints in order (token top-left, pixels);
//                                                                    // `modifiers` (percentile): the P2 modifiers from then on
//   "finale": { "attack": { "target", "noisy"?, "hits"?, "area"?, "hitZone"? } }   // optional
// }
//
// Every error names the field, e.g. `observers[2].x: expected a number`.
//
// Clear view, darkness and concealment are the engine's (B5): the demo hands
// the scene, the added walls and lights and each observer's elevation and
// darkvision to `parseScene` / `clearViewMatrix` and uses their answers.

import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import * as furtive from "furtive";

import { darkvision } from "./actors.mjs";

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
 * A distance in scene units, `>= 0`.
 * @param {unknown} value
 * @param {string} field
 */
function range(value, field) {
  if (number(value, field) < 0) throw new ScenarioError(field, "expected a number >= 0 (scene units)");
  return /** @type {number} */ (value);
}

/**
 * Runs the engine's scene reader on what the scenario adds, and turns its
 * `invalid_scene` error (`walls[0].c: ...`) into a ScenarioError naming
 * the same path in the scenario.
 * @param {object} scene a Foundry scene (v10 layout) holding only the added documents
 * @param {(path: string) => string} field maps the engine's path to the scenario's field
 */
function parseAdded(scene, field) {
  try {
    return furtive.parseScene(scene);
  } catch (error) {
    const e = /** @type {any} */ (error);
    const match = /^([^\s:]+): (.*)$/s.exec(e.message);
    if (e.code === "invalid_scene" && match) throw new ScenarioError(field(match[1]), match[2]);
    throw new ScenarioError(field("scene"), e.message);
  }
}

/**
 * The scene the run sees: the Foundry export normalized by the engine, with
 * the scenario's lighting overrides and added walls; and the scenario's
 * added lights (normalized by the engine too), each with the turn it is lit.
 * @param {any} export_ the Foundry Scene export
 * @param {any} scenario the scenario file
 * @param {number} turnCount
 */
function sceneOf(export_, scenario, turnCount) {
  let scene;
  try {
    scene = furtive.parseScene(export_);
  } catch (error) {
    throw new ScenarioError("scene", /** @type {Error} */ (error).message);
  }
  const lighting = scenario.lighting;
  if (lighting !== undefined) {
    if (typeof lighting !== "object" || lighting === null || Array.isArray(lighting)) {
      throw new ScenarioError("lighting", "expected an object { darkness?, globalLight? }");
    }
    for (const key of Object.keys(lighting)) {
      if (key !== "darkness" && key !== "globalLight") throw new ScenarioError(`lighting.${key}`, "unknown field (expected darkness or globalLight)");
    }
    if (lighting.darkness !== undefined) {
      const darkness = number(lighting.darkness, "lighting.darkness");
      if (darkness < 0 || darkness > 1) throw new ScenarioError("lighting.darkness", "expected a darkness level from 0 (midday) to 1 (midnight)");
      scene.darkness = darkness;
    }
    if (lighting.globalLight !== undefined) {
      if (typeof lighting.globalLight !== "boolean") throw new ScenarioError("lighting.globalLight", "expected true or false");
      scene.globalLight = lighting.globalLight;
    }
  }

  const walls = scenario.walls ?? [];
  if (!Array.isArray(walls)) throw new ScenarioError("walls", "expected an array of Foundry wall documents");
  const sceneWallIds = new Set(scene.walls.map((/** @type {any} */ w) => w.id));
  walls.forEach((/** @type {any} */ wall, /** @type {number} */ i) => {
    if (typeof wall !== "object" || wall === null || Array.isArray(wall)) throw new ScenarioError(`walls[${i}]`, "expected a Foundry wall document");
    const id = string(wall._id, `walls[${i}]._id`);
    if (sceneWallIds.has(id)) throw new ScenarioError(`walls[${i}]._id`, `"${id}" is already a wall of the scene or of this scenario`);
    sceneWallIds.add(id);
  });
  const added = parseAdded({ grid: scene.grid, walls }, (path) => path);
  scene.walls = [...scene.walls, ...added.walls];

  const lights = scenario.lights ?? [];
  if (!Array.isArray(lights)) throw new ScenarioError("lights", "expected an array of lights");
  const lightIds = new Set(scene.lights.map((/** @type {any} */ l) => l.id));
  const checked = lights.map((/** @type {any} */ light, /** @type {number} */ i) => {
    const field = `lights[${i}]`;
    if (typeof light !== "object" || light === null || Array.isArray(light)) throw new ScenarioError(field, "expected an object { id, x, y, dim, bright, litAtTurn?, note? }");
    const id = string(light.id, `${field}.id`);
    if (lightIds.has(id)) throw new ScenarioError(`${field}.id`, `"${id}" is already a light of the scene or of this scenario`);
    lightIds.add(id);
    const litAtTurn = light.litAtTurn === undefined ? 1 : number(light.litAtTurn, `${field}.litAtTurn`);
    if (!Number.isInteger(litAtTurn) || litAtTurn < 1 || litAtTurn > turnCount) {
      throw new ScenarioError(`${field}.litAtTurn`, `expected a turn number from 1 to ${turnCount}`);
    }
    return {
      id,
      x: number(light.x, `${field}.x`),
      y: number(light.y, `${field}.y`),
      dim: range(light.dim, `${field}.dim`),
      bright: range(light.bright, `${field}.bright`),
      litAtTurn,
      note: light.note === undefined ? "" : string(light.note, `${field}.note`),
    };
  });
  // A Foundry v10 AmbientLight document for each (radii in `config`, scene units).
  const documents = checked.map((l) => ({ _id: l.id, x: l.x, y: l.y, config: { dim: l.dim, bright: l.bright } }));
  const normalized = parseAdded({ grid: scene.grid, walls: [], lights: documents }, (path) => path).lights;
  return { scene, lights: checked.map((light, i) => ({ ...light, normalized: normalized[i] })), doors: doorsOf(scene, scenario, turnCount) };
}

/**
 * The scenario's door changes, checked against the scene's doors.
 * @param {any} scene the normalized scene
 * @param {any} scenario
 * @param {number} turnCount
 */
function doorsOf(scene, scenario, turnCount) {
  const doors = scenario.doors ?? [];
  if (!Array.isArray(doors)) throw new ScenarioError("doors", "expected an array of { wallId, state, atTurn? }");
  const walls = new Map(scene.walls.map((/** @type {any} */ w) => [w.id, w]));
  return doors.map((/** @type {any} */ door, /** @type {number} */ i) => {
    const field = `doors[${i}]`;
    if (typeof door !== "object" || door === null || Array.isArray(door)) throw new ScenarioError(field, "expected an object { wallId, state, atTurn? }");
    const wallId = string(door.wallId, `${field}.wallId`);
    const wall = walls.get(wallId);
    if (!wall) throw new ScenarioError(`${field}.wallId`, `no wall "${wallId}" in the scene`);
    if (wall.door === "none") throw new ScenarioError(`${field}.wallId`, `wall "${wallId}" is not a door`);
    if (!["open", "closed", "locked"].includes(door.state)) throw new ScenarioError(`${field}.state`, 'expected "open", "closed" or "locked"');
    const atTurn = door.atTurn === undefined ? 1 : number(door.atTurn, `${field}.atTurn`);
    if (!Number.isInteger(atTurn) || atTurn < 1 || atTurn > turnCount) {
      throw new ScenarioError(`${field}.atTurn`, `expected a turn number from 1 to ${turnCount}`);
    }
    return { wallId, state: door.state, atTurn };
  });
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
  const observers = scenario.observers.map((/** @type {any} */ o, /** @type {number} */ i) => {
    const observer = token(o, `observers[${i}]`);
    return {
      ...observer,
      x: number(o.x, `observers[${i}].x`),
      y: number(o.y, `observers[${i}].y`),
      elevation: o.elevation === undefined ? 0 : number(o.elevation, `observers[${i}].elevation`),
      darkvision: o.darkvision === undefined ? darkvision(observer.actor) : range(o.darkvision, `observers[${i}].darkvision`),
    };
  });
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
  const { scene: sightScene, lights, doors } = sceneOf(scene, scenario, turns.length);
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
    scene: sightScene,
    lights,
    doors,
    hider,
    observers,
    turns,
    attack,
  };
}
