// The playground's table: one Foundry scene read by the engine
// (`SceneSight`), one rules session (`Session`), and the tokens on both.
// Every user action goes through `act`, which checks the action, updates
// the scene, asks clear view, and applies the events as one transaction;
// a refused action changes nothing and throws a `FieldError` naming the
// field. The rules are the engine's: this file only feeds it events and
// reads its answers, through the npm package's public API.

import { SceneSight, Session } from "../npm/browser.js";

/** A refused action or input: `field` names what is wrong, `message` says why. */
export class FieldError extends Error {
  /**
   * @param {string} field
   * @param {string} message
   * @param {string} [code]
   */
  constructor(field, message, code = "invalid_input") {
    super(`${field}: ${message}`);
    this.name = "FieldError";
    this.field = field;
    this.detail = message;
    this.code = code;
  }
}

/** The two rulesets the engine knows. */
export const RULESETS = ["opposed", "percentile"];

/**
 * A hooded lantern: "casts bright light in a 30-foot radius and dim light
 * for an additional 30 feet" (SRD 5.1, Adventuring Gear, CC-BY-4.0).
 */
export const LANTERN = { bright: 30, dim: 60 };

/**
 * Turns an error out of the engine into a `FieldError` under `prefix`
 * (`actions[3]`): the engine's message starts with its own field
 * (`event.roll: ...`, `updates[0].tokenId: ...`).
 * @param {unknown} error
 * @param {string} prefix
 * @returns {FieldError}
 */
export function fieldError(error, prefix) {
  if (error instanceof FieldError) return error;
  const e = /** @type {any} */ (error);
  const text = String(e?.message ?? e);
  const match = /^([^\s:]+): (.*)$/s.exec(text);
  if (match) return new FieldError(`${prefix}.${match[1]}`, match[2], e?.code);
  return new FieldError(prefix, text, e?.code);
}

/**
 * `fieldError` for an engine error about a value the action gave: the
 * engine's path to it (`events[0].creature.stealthSkill`) becomes the
 * action's own field (`actions[3].stealthSkill`).
 * @param {unknown} error
 * @param {string} field
 * @param {RegExp} path the engine's path to the action's values
 */
function actionError(error, field, path) {
  const e = fieldError(error, field);
  const rest = e.field.slice(field.length + 1).replace(path, "");
  return rest === e.field.slice(field.length + 1) ? e : new FieldError(`${field}.${rest}`, e.detail, e.code);
}

/** @param {unknown} value @param {string} field */
function finite(value, field) {
  if (typeof value !== "number" || !Number.isFinite(value)) throw new FieldError(field, `expected a number, got ${JSON.stringify(value) ?? String(value)}`);
  return value;
}

/** @param {unknown} value @param {string} field */
function text(value, field) {
  if (typeof value !== "string" || value.trim() === "") throw new FieldError(field, "expected a non-empty text");
  return value;
}

/**
 * A token spec as the page keeps it (in the URL): where it stands and the
 * numbers each ruleset reads. `actor` names the SRD actor it came from.
 * @typedef {{ id: string, name: string, side: string, x: number, y: number,
 *   width?: number, height?: number, elevation?: number, darkvision?: number, actor?: string,
 *   stealthModifier?: number, perceptionModifier?: number, enhancedSenses?: { sense: string, range: number, targeting?: boolean }[],
 *   stealthSkill?: number, acuities?: { visual?: number, auditory?: number, olfactory?: number } }} TokenSpec
 */

/**
 * The creature the engine reads for a token, in one ruleset.
 * @param {TokenSpec} spec
 * @param {string} ruleset
 */
export function creatureOf(spec, ruleset) {
  if (ruleset === "opposed") {
    return {
      id: spec.id,
      name: spec.name,
      side: spec.side,
      stealthModifier: spec.stealthModifier ?? 0,
      perceptionModifier: spec.perceptionModifier ?? 0,
      enhancedSenses: spec.enhancedSenses ?? [],
    };
  }
  return {
    id: spec.id,
    name: spec.name,
    side: spec.side,
    stealthSkill: spec.stealthSkill ?? 0,
    acuities: { visual: spec.acuities?.visual ?? 0, auditory: spec.acuities?.auditory ?? 0, olfactory: spec.acuities?.olfactory ?? 0 },
  };
}

/**
 * The scene export the table reads: the export as it is, or at night
 * (global light off, darkness 1, as the demo's `lighting` override).
 * @param {any} exported
 * @param {boolean} night
 */
function lit(exported, night) {
  if (!night) return exported;
  const scene = { ...exported };
  if (scene.environment && typeof scene.environment === "object") {
    // v12+: SceneEnvironmentData.
    scene.environment = { ...scene.environment, darknessLevel: 1, globalLight: { ...(scene.environment.globalLight ?? {}), enabled: false } };
  }
  scene.darkness = 1;
  scene.globalLight = false;
  return scene;
}

export class Table {
  /**
   * @param {{ scene: any, night?: boolean, ruleset: string, seed: number }} setup
   *   `scene`: a Foundry Scene export (JSON object)
   */
  constructor({ scene, night = false, ruleset, seed }) {
    if (!RULESETS.includes(ruleset)) throw new FieldError("ruleset", `expected "opposed" or "percentile", got ${JSON.stringify(ruleset)}`);
    if (!Number.isSafeInteger(seed) || seed < 0 || seed > 9_000_000_000) throw new FieldError("seed", "expected an integer from 0 to 9000000000");
    // The scene must be read first: a malformed scene is refused before anything exists.
    if (typeof scene !== "object" || scene === null || Array.isArray(scene)) throw new FieldError("scene", "expected a Foundry Scene export (a JSON object)");
    try {
      this.sight = SceneSight.parse(lit(scene, night));
    } catch (error) {
      throw fieldError(error, "scene");
    }
    this.ruleset = ruleset;
    this.seed = seed;
    this.night = night;
    this.session = Session.create({ ruleset, creatures: [] });
    /** @type {Map<string, TokenSpec & { x: number, y: number }>} the page's tokens (the scene's own tokens are not creatures) */
    this.tokens = new Map();
    /** Tokens in a stealth attempt, from the effects' `attempts`. */
    this.hiders = new Set();
    /** Status effects by token (`hidden`, `defenseless`), from the effects' changes. */
    this.statuses = new Map();
    /** @type {Record<string, string[]>} who does not perceive whom (B1, B2), patched from each effects' `hiddenFrom`. */
    this.lookup = {};
    /** Clear view by pair, `observer\u0000target` -> View. */
    this.views = new Map();
    /** Explanations (B3) of the actions so far, newest last, with the action's index. */
    this.log = [];
    /** How many explanations the table has had (the log keeps the last 400). */
    this.logged = 0;
    /** Lanterns the page added: id -> { x, y, lit }. */
    this.lanterns = new Map();
    this.rolls = 0;
    this.actionCount = 0;
    /** Counts the changes of light (doors, lights, lanterns): the lit squares are asked again after one. */
    this.lightVersion = 0;
    this.litCache = null;
    this.normalized = this.sight.scene();
    this.wallsById = new Map(this.normalized.walls.map((wall, index) => [wall.id ?? `#${index}`, wall]));
    this.lightsById = new Map(this.normalized.lights.map((light, index) => [light.id ?? `#${index}`, light]));
  }

  free() {
    this.session.free();
    this.sight.free();
  }

  /**
   * Which grid squares are lit at elevation `level`: the engine's
   * `lightingAt` at each square's centre (B5: darkness sources, global
   * light, lights and the walls between). Asked again only after a change
   * of light; skipped when no light can reach anywhere (all dark) or the
   * global light covers all (all lit, no darkness source).
   * @param {number} level
   * @returns {{ size: number, cols: number, rows: number, lit: Uint8Array } | "all-lit" | "all-dark"}
   */
  litSquares(level) {
    const key = `${this.lightVersion}|${level}`;
    if (this.litCache?.key === key) return this.litCache.value;
    const scene = this.normalized;
    const lights = scene.lights.filter((light) => !light.hidden);
    const tokenLights = scene.tokens.some((token) => token.light);
    let value;
    if (scene.globalLight && !lights.some((light) => light.darkness)) value = "all-lit";
    else if (!scene.globalLight && !tokenLights && !lights.some((light) => !light.darkness)) value = "all-dark";
    else {
      const size = scene.grid.size;
      const cols = Math.ceil((scene.width ?? 0) / size);
      const rows = Math.ceil((scene.height ?? 0) / size);
      const lit = new Uint8Array(cols * rows);
      for (let r = 0; r < rows; r++) {
        for (let c = 0; c < cols; c++) lit[r * cols + c] = this.sight.lightingAt({ x: (c + 0.5) * size, y: (r + 0.5) * size, elevation: level }).dark ? 0 : 1;
      }
      value = { size, cols, rows, lit };
    }
    this.litCache = { key, value };
    return value;
  }

  /** The grid: pixels per square and scene units per square. */
  get grid() {
    return this.normalized.grid;
  }

  /** The next seed for the engine's roller (B4): each roll of a run gets its own, in order. */
  nextSeed() {
    return this.seed * 1000 + this.rolls++;
  }

  /**
   * @param {string} id
   * @param {string} field
   */
  token(id, field) {
    if (typeof id !== "string") throw new FieldError(field, "expected a token id");
    const token = this.tokens.get(id);
    if (!token) throw new FieldError(field, `unknown token ${JSON.stringify(id)}`, "unknown_token");
    return token;
  }

  /** The tokens, in the order they were placed. */
  ids() {
    return [...this.tokens.keys()];
  }

  /**
   * What `observer` sees of `target` (B5), as the engine answered.
   * @param {string} observer
   * @param {string} target
   */
  view(observer, target) {
    return this.views.get(`${observer}\u0000${target}`);
  }

  /** Does `observer` perceive `hider`? The engine's decision, with its text in en and fr. */
  perceives(observer, hider) {
    return this.session.perceives({ observer, hider });
  }

  /**
   * Each pair's state (perceived, presence only or located, unperceived,
   * exposed; defenseless) and the decision that put it there, with its
   * numbers (B3): `Session.pairs`, for the pairs `query` names.
   * @param {{ hider?: string, observer?: string }} query
   */
  pairs(query) {
    return this.session.pairs(query);
  }

  /** The hiders `observer` does not perceive. */
  hiddenFrom(observer) {
    return this.lookup[observer] ?? [];
  }

  /** Asks the engine clear view between `id` and every other token, both ways. */
  refreshViews(id) {
    for (const other of this.tokens.keys()) {
      if (other === id) continue;
      this.views.set(`${id}\u0000${other}`, this.sight.view(id, other));
      this.views.set(`${other}\u0000${id}`, this.sight.view(other, id));
    }
  }

  /** Asks the engine clear view between every pair (after a door, a light, a new token). */
  refreshAllViews() {
    this.views.clear();
    const ids = this.ids();
    for (const a of ids) for (const b of ids) if (a !== b) this.views.set(`${a}\u0000${b}`, this.sight.view(a, b));
  }

  /** What each observer sees of `hider` now, for an `enterStealth` or `viewChanged` event. */
  viewOf(hider) {
    const view = [];
    for (const observer of this.tokens.keys()) {
      if (observer === hider) continue;
      const v = this.views.get(`${observer}\u0000${hider}`);
      view.push({ observer, clearView: v.clearView, distance: v.distance });
    }
    return view;
  }

  /**
   * Applies `events` as one transaction, then answers the engine's requests
   * (Perception checks, new stealth rolls) with its seeded roller until
   * none is left. Keeps the lookup, the statuses and the log.
   * @param {any[]} events
   * @returns {{ changes: any[], log: any[] }}
   */
  applyEvents(events) {
    const done = { changes: [], log: [] };
    if (events.length === 0) return done;
    // One event through `apply`, so that its errors name `event.…`.
    let effects = events.length === 1 ? this.session.apply(events[0]) : this.session.applyAll(events);
    for (;;) {
      this.collect(effects, done);
      if (effects.requests.length === 0) return done;
      const answers = this.session.rollRequests(effects.requests, this.nextSeed()).map((answer) =>
        // A new stealth roll (P4) is made where the hider stands.
        answer.type === "enterStealth" ? { ...answer, view: this.viewOf(answer.hider) } : answer,
      );
      effects = this.session.applyAll(answers);
    }
  }

  /** @param {any} effects @param {{ changes: any[], log: any[] }} done */
  collect(effects, done) {
    for (const { observer, hider, hidden } of Session.hiddenFromChanges(effects)) {
      const rest = (this.lookup[observer] ?? []).filter((id) => id !== hider);
      if (hidden) rest.push(hider);
      if (rest.length > 0) this.lookup[observer] = rest;
      else delete this.lookup[observer];
    }
    // Who is in a stealth attempt, as the engine says (`attempts`).
    for (const { hider, hiding } of effects.attempts) {
      if (hiding) this.hiders.add(hider);
      else this.hiders.delete(hider);
    }
    for (const change of effects.changes) {
      if (change.kind === "status") {
        const set = this.statuses.get(change.token) ?? new Set();
        if (change.active) set.add(change.status);
        else set.delete(change.status);
        this.statuses.set(change.token, set);
      }
      done.changes.push(change);
    }
    for (const entry of effects.log) {
      const kept = { ...entry, action: this.actionCount };
      done.log.push(kept);
      this.log.push(kept);
      this.logged++;
    }
    if (this.log.length > 400) this.log.splice(0, this.log.length - 400);
  }

  /**
   * Events telling the engine that clear view changed for every hider
   * (a door, a light, darkness): each hider with every observer.
   * @param {string | null} moved a hider that moved, or null
   */
  viewEventsForAll(moved = null) {
    return [...this.hiders].map((hider) => ({ type: "viewChanged", hider, moved: hider === moved, view: this.viewOf(hider) }));
  }

  /**
   * Runs one action; on refusal changes nothing and throws a FieldError
   * naming the action's field.
   * @param {any} action
   * @param {string} field where the action sits (`actions[3]`), for messages
   */
  act(action, field = "action") {
    if (typeof action !== "object" || action === null || Array.isArray(action)) throw new FieldError(field, "expected an action object");
    const run = ACTIONS[action.t];
    if (!run) throw new FieldError(`${field}.t`, `unknown action ${JSON.stringify(action.t)}; expected one of ${Object.keys(ACTIONS).join(", ")}`);
    const result = run(this, action, field);
    this.actionCount++;
    return result;
  }

  /**
   * A scene update and the events it brings, as one transaction: when the
   * engine refuses the events, the scene update is undone.
   * @param {any[]} updates
   * @param {any[]} undo the updates that restore the scene
   * @param {() => void} refresh asks clear view again
   * @param {() => any[]} events the events, built after the refresh
   * @param {string} field
   */
  transact(updates, undo, refresh, events, field) {
    const saved = new Map(this.views);
    try {
      this.sight.update(updates);
    } catch (error) {
      throw fieldError(error, field);
    }
    try {
      refresh();
      return this.applyEvents(events());
    } catch (error) {
      this.sight.update(undo);
      this.views = saved;
      throw fieldError(error, field);
    }
  }
}

/** Checks a token spec and returns it with its defaults. */
function checkSpec(table, action, field) {
  const id = text(action.id, `${field}.id`);
  if (table.tokens.has(id)) throw new FieldError(`${field}.id`, `${JSON.stringify(id)} is already a token of this table`, "duplicate_token");
  if (table.normalized.tokens.some((t) => t.id === id)) throw new FieldError(`${field}.id`, `${JSON.stringify(id)} is already a token of the scene`, "duplicate_token");
  const spec = {
    id,
    name: action.name === undefined ? id : text(action.name, `${field}.name`),
    side: action.side === undefined ? "" : String(action.side),
    x: finite(action.x, `${field}.x`),
    y: finite(action.y, `${field}.y`),
    width: action.width === undefined ? 1 : finite(action.width, `${field}.width`),
    height: action.height === undefined ? 1 : finite(action.height, `${field}.height`),
    elevation: action.elevation === undefined ? 0 : finite(action.elevation, `${field}.elevation`),
    darkvision: action.darkvision === undefined ? 0 : finite(action.darkvision, `${field}.darkvision`),
  };
  if (spec.width <= 0 || spec.width > 10) throw new FieldError(`${field}.width`, "expected a size from 0 to 10 grid squares");
  if (spec.height <= 0 || spec.height > 10) throw new FieldError(`${field}.height`, "expected a size from 0 to 10 grid squares");
  if (spec.darkvision < 0) throw new FieldError(`${field}.darkvision`, "expected a distance >= 0 (scene units)");
  for (const key of ["stealthModifier", "perceptionModifier", "stealthSkill"]) {
    if (action[key] !== undefined) spec[key] = finite(action[key], `${field}.${key}`);
  }
  if (action.acuities !== undefined) {
    if (typeof action.acuities !== "object" || action.acuities === null) throw new FieldError(`${field}.acuities`, "expected { visual, auditory, olfactory }");
    spec.acuities = {};
    for (const key of ["visual", "auditory", "olfactory"]) {
      if (action.acuities[key] !== undefined) spec.acuities[key] = finite(action.acuities[key], `${field}.acuities.${key}`);
    }
  }
  if (action.enhancedSenses !== undefined) {
    if (!Array.isArray(action.enhancedSenses)) throw new FieldError(`${field}.enhancedSenses`, "expected a list of senses");
    spec.enhancedSenses = action.enhancedSenses;
  }
  if (action.actor !== undefined) spec.actor = text(action.actor, `${field}.actor`);
  return spec;
}

/** @type {Record<string, (table: Table, action: any, field: string) => any>} */
const ACTIONS = {
  /** Places a token: a creature for the engine and a token on the scene. */
  add(table, action, field) {
    const spec = checkSpec(table, action, field);
    try {
      table.sight.update({ type: "token", token: { _id: spec.id, name: spec.name, x: spec.x, y: spec.y, width: spec.width, height: spec.height, elevation: spec.elevation, darkvision: spec.darkvision } });
    } catch (error) {
      throw actionError(error, field, /^(updates\[0\]\.)?token\./);
    }
    table.tokens.set(spec.id, spec);
    const views = new Map(table.views);
    try {
      table.refreshViews(spec.id);
      return table.applyEvents([{ type: "upsertCreature", creature: creatureOf(spec, table.ruleset) }, ...table.viewEventsForAll()]);
    } catch (error) {
      // The engine refused the creature (its effects are kept only once applied).
      table.tokens.delete(spec.id);
      table.views = views;
      table.sight.update({ type: "tokenRemoved", tokenId: spec.id });
      throw actionError(error, field, /^(events\[0\]\.|event\.)?creature\./);
    }
  },

  /** Moves a token along `path` (top-left corners in pixels), one step after another. */
  move(table, action, field) {
    const token = table.token(action.id, `${field}.id`);
    const path = Array.isArray(action.path) ? action.path : [[action.x, action.y]];
    if (path.length === 0) throw new FieldError(`${field}.path`, "expected at least one [x, y] step");
    const steps = path.map((step, i) => {
      if (!Array.isArray(step) || step.length !== 2) throw new FieldError(`${field}.path[${i}]`, "expected [x, y]");
      return [finite(step[0], `${field}.path[${i}][0]`), finite(step[1], `${field}.path[${i}][1]`)];
    });
    let done = { changes: [], log: [] };
    for (const [x, y] of steps) {
      const step = moveStep(table, token, x, y, field);
      done = { changes: [...done.changes, ...step.changes], log: [...done.log, ...step.log] };
    }
    return done;
  },

  /** The token enters stealth: a typed total (`roll`) or a roll of the engine's seeded roller. */
  hide(table, action, field) {
    const token = table.token(action.id, `${field}.id`);
    const modifiers = table.ruleset === "percentile" ? { situation: action.situation ?? [], free: [] } : undefined;
    let roll;
    const seed = table.rolls;
    try {
      if (action.roll === undefined || action.roll === null) {
        const request = { kind: "stealthRoll", hider: token.id, modifiers: modifiers ?? { situation: [], free: [] }, clause: table.ruleset === "opposed" ? "O1" : "P1" };
        roll = table.session.rollRequests([request], table.nextSeed())[0].roll;
      } else {
        roll = finite(action.roll, `${field}.roll`);
      }
      const event = { type: "enterStealth", hider: token.id, roll, view: table.viewOf(token.id) };
      if (modifiers) event.modifiers = modifiers;
      const done = table.applyEvents([event]);
      return { ...done, roll };
    } catch (error) {
      table.rolls = seed;
      throw fieldError(error, field);
    }
  },

  /** The token stops hiding. */
  reveal(table, action, field) {
    const token = table.token(action.id, `${field}.id`);
    try {
      return table.applyEvents([{ type: "stopHiding", hider: token.id }]);
    } catch (error) {
      throw fieldError(error, field);
    }
  },

  /** Removes a token from the table. */
  remove(table, action, field) {
    const token = table.token(action.id, `${field}.id`);
    try {
      const done = table.applyEvents([{ type: "tokenRemoved", token: token.id }]);
      table.sight.update({ type: "tokenRemoved", tokenId: token.id });
      table.tokens.delete(token.id);
      table.hiders.delete(token.id);
      for (const key of [...table.views.keys()]) if (key.split("\u0000").includes(token.id)) table.views.delete(key);
      delete table.lookup[token.id];
      return done;
    } catch (error) {
      throw fieldError(error, field);
    }
  },

  /** Opens, closes or locks a door (`state`: "open", "closed", "locked"). */
  door(table, action, field) {
    const wallId = text(action.wall, `${field}.wall`);
    const wall = table.wallsById.get(wallId);
    if (!wall) throw new FieldError(`${field}.wall`, `no wall with id ${JSON.stringify(wallId)} in the scene`);
    if (wall.door === "none") throw new FieldError(`${field}.wall`, `wall ${JSON.stringify(wallId)} is not a door`);
    if (!["open", "closed", "locked"].includes(action.state)) throw new FieldError(`${field}.state`, `expected "open", "closed" or "locked", got ${JSON.stringify(action.state)}`);
    const before = wall.doorState;
    const done = table.transact(
      [{ type: "door", wallId, state: action.state }],
      [{ type: "door", wallId, state: before }],
      () => table.refreshAllViews(),
      () => table.viewEventsForAll(),
      field,
    );
    wall.doorState = action.state;
    table.lightVersion++;
    return done;
  },

  /** Turns a light of the scene, or a lantern of the page, on or off. */
  light(table, action, field) {
    const id = text(action.id, `${field}.id`);
    if (typeof action.on !== "boolean") throw new FieldError(`${field}.on`, "expected true or false");
    const light = table.lightsById.get(id);
    if (!light) throw new FieldError(`${field}.id`, `no light with id ${JSON.stringify(id)} in the scene`);
    const before = light.hidden;
    const done = table.transact(
      [{ type: "lightHidden", lightId: id, hidden: !action.on }],
      [{ type: "lightHidden", lightId: id, hidden: before }],
      () => table.refreshAllViews(),
      () => table.viewEventsForAll(),
      field,
    );
    light.hidden = !action.on;
    table.lightVersion++;
    return done;
  },

  /** Puts a lantern (SRD hooded lantern) on the scene, lit or not. */
  lantern(table, action, field) {
    const id = text(action.id, `${field}.id`);
    if (table.lightsById.has(id)) throw new FieldError(`${field}.id`, `${JSON.stringify(id)} is already a light of the scene`);
    const x = finite(action.x, `${field}.x`);
    const y = finite(action.y, `${field}.y`);
    const on = action.on === undefined ? true : action.on;
    if (typeof on !== "boolean") throw new FieldError(`${field}.on`, "expected true or false");
    const done = table.transact(
      [{ type: "light", light: { _id: id, x, y, hidden: !on, config: { bright: LANTERN.bright, dim: LANTERN.dim } } }],
      [{ type: "lightRemoved", lightId: id }],
      () => table.refreshAllViews(),
      () => table.viewEventsForAll(),
      field,
    );
    // As the engine normalized it (its last light), for drawing and clicks.
    const light = table.sight.scene().lights.at(-1);
    table.normalized.lights.push(light);
    table.lightsById.set(id, light);
    table.lanterns.set(id, light);
    table.lightVersion++;
    return done;
  },
};

/**
 * One step of a move: the scene update, clear view from and to the moved
 * token, and one transaction telling the engine (the moved hider against
 * every observer; every other hider against the moved observer).
 */
export function moveStep(table, token, x, y, field = "action") {
  const from = { x: token.x, y: token.y };
  const done = table.transact(
    [{ type: "tokenMoved", tokenId: token.id, x, y }],
    [{ type: "tokenMoved", tokenId: token.id, x: from.x, y: from.y }],
    () => table.refreshViews(token.id),
    () => {
      const events = [];
      if (table.hiders.has(token.id)) events.push({ type: "viewChanged", hider: token.id, moved: true, view: table.viewOf(token.id) });
      for (const hider of table.hiders) {
        if (hider === token.id) continue;
        const v = table.view(token.id, hider);
        events.push({ type: "viewChanged", hider, moved: false, view: [{ observer: token.id, clearView: v.clearView, distance: v.distance }] });
      }
      return events;
    },
    field,
  );
  token.x = x;
  token.y = y;
  return done;
}
