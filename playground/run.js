// A run of the playground: the setup (scene, night, ruleset, seed,
// language) and the list of actions, which is all the page keeps. The URL
// holds it (`#run=` and the JSON, base64url), so a link replays the run:
// `replay` builds a fresh table and plays the actions in order.
// `exportScenario` writes the demo's scenario format (demo/scenario.mjs).

import { FieldError, LANTERN, Table, fieldError } from "./table.js";
import { darkvision, enhancedSenses, skillTotal } from "../demo/actors.mjs";

/** The fixture scenes (copied into playground/fixtures/ by scripts/playground.sh; shared/fixtures/SOURCES.md). */
export const SCENES = {
  "nort-gate": { file: "scene-ocd-nort-gate.json", title: "Nort Gate" },
  "warning-sign": { file: "scene-zahi-oota-warning-sign.json", title: "OotA - Warning Sign (cave)" },
};

/** The SRD actor files, by the prefix of an actor reference (`srd51:Guard`). */
export const ACTOR_SETS = {
  srd51: { file: "dnd5e-srd51-monsters.json", title: "SRD 5.1" },
  srd52: { file: "dnd5e-srd52-monsters.json", title: "SRD 5.2" },
};

/** Where the demo's scenarios find the fixtures, from demo/scenarios/ (as the shipped ones do). */
const DEMO_FIXTURES = "../../../shared/fixtures/";

/**
 * The run a fresh page opens: Nort Gate by night, after the demo's night
 * run (demo/scenarios/nort-gate-night.json): the spy in front of the gate,
 * the gate's west door shut, the gate guard inside, a goblin lookout on the
 * gallery above the gate, a goblin sentry in the keep, and a lantern in
 * the bracket inside the gate, not lit yet.
 */
export const DEFAULT_RUN = {
  v: 1,
  scene: "nort-gate",
  night: true,
  ruleset: "opposed",
  seed: 11,
  lang: "en",
  actions: [
    { t: "add", id: "spy", actor: "srd51:Spy", side: "intruders", x: 800, y: 1850 },
    { t: "add", id: "gate-guard", actor: "srd51:Guard", name: "Gate guard", side: "garrison", x: 1450, y: 1850 },
    { t: "add", id: "lookout", actor: "srd51:Goblin", name: "Goblin lookout", side: "garrison", x: 1000, y: 1850, elevation: 16 },
    { t: "add", id: "sentry", actor: "srd51:Goblin", name: "Goblin sentry", side: "garrison", x: 1300, y: 1300 },
    { t: "door", wall: "kv3XzwiLDsuIK61t", state: "closed" },
    { t: "lantern", id: "gate-lantern", x: 1000, y: 1960, on: false },
  ],
};

/**
 * Encodes a run for the URL: base64url of its JSON (UTF-8).
 * @param {object} run
 */
export function encodeRun(run) {
  const bytes = new TextEncoder().encode(JSON.stringify(run));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/**
 * Reads a run from the URL's hash (`#run=...`); null when there is none.
 * Throws a FieldError naming the bad part.
 * @param {string} hash
 */
export function decodeRun(hash) {
  const match = /^#?run=([A-Za-z0-9_-]*)$/.exec(hash);
  if (!hash || hash === "#") return null;
  if (!match) throw new FieldError("link", "expected #run= followed by the run (base64url)");
  let run;
  try {
    const binary = atob(match[1].replaceAll("-", "+").replaceAll("_", "/"));
    run = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
  } catch (error) {
    throw new FieldError("link", `not a playground run (${error.message})`);
  }
  return checkRun(run);
}

/**
 * Checks the shape of a run (the table checks each action when it plays it).
 * @param {any} run
 */
export function checkRun(run) {
  if (typeof run !== "object" || run === null || Array.isArray(run)) throw new FieldError("run", "expected an object");
  if (run.v !== 1) throw new FieldError("run.v", `expected 1, got ${JSON.stringify(run.v)}`);
  if (typeof run.scene !== "string" || !(run.scene in SCENES || run.scene === "dropped")) {
    throw new FieldError("run.scene", `expected ${Object.keys(SCENES).map((s) => JSON.stringify(s)).join(", ")} or "dropped", got ${JSON.stringify(run.scene)}`);
  }
  if (typeof run.night !== "boolean") throw new FieldError("run.night", "expected true or false");
  if (run.lang !== "en" && run.lang !== "fr") throw new FieldError("run.lang", `expected "en" or "fr", got ${JSON.stringify(run.lang)}`);
  if (!Array.isArray(run.actions)) throw new FieldError("run.actions", "expected a list of actions");
  return run;
}

/** The SRD actors and the percentile roster the page starts from. */
export class Library {
  /**
   * @param {Record<string, any[]>} sets actors by set key
   * @param {Record<string, any>} roster percentile numbers by actor name (demo/scenarios/nort-gate-percentile.json)
   */
  constructor(sets, roster) {
    this.sets = sets;
    this.roster = roster;
  }

  /** Every actor reference, `srd51:Guard`, with its label. */
  list() {
    return Object.entries(this.sets).flatMap(([set, actors]) => actors.map((actor) => ({ ref: `${set}:${actor.name}`, label: `${actor.name} (${ACTOR_SETS[set].title})` })));
  }

  /**
   * The actor a reference names, or a FieldError naming `field`.
   * @param {string} ref
   * @param {string} field
   */
  actor(ref, field) {
    const [set, ...rest] = String(ref).split(":");
    const name = rest.join(":");
    const actor = this.sets[set]?.find((a) => a.name === name);
    if (!actor) throw new FieldError(field, `no SRD actor ${JSON.stringify(ref)} in the fixtures (expected srd51:Name or srd52:Name)`, "unknown_token");
    return actor;
  }

  /**
   * The numbers of an actor's token, for both rulesets: dnd5e Stealth and
   * Perception totals, senses and darkvision from the sheet (demo/actors.mjs);
   * Furtivité and acuities from the demo's percentile roster, 0 when it has none.
   * @param {string} ref
   * @param {string} field
   */
  numbers(ref, field) {
    const actor = this.actor(ref, field);
    const roster = this.roster[actor.name] ?? {};
    return {
      name: actor.name,
      width: actor.prototypeToken?.width ?? 1,
      height: actor.prototypeToken?.height ?? 1,
      darkvision: darkvision(actor),
      stealthModifier: skillTotal(actor, "ste"),
      perceptionModifier: skillTotal(actor, "prc"),
      enhancedSenses: enhancedSenses(actor),
      stealthSkill: roster.stealthSkill ?? 0,
      acuities: { visual: roster.acuities?.visual ?? 0, auditory: roster.acuities?.auditory ?? 0, olfactory: roster.acuities?.olfactory ?? 0 },
    };
  }

  /**
   * An `add` action as the table reads it: the actor's numbers under the
   * action's own (what the person typed wins).
   * @param {any} action
   * @param {string} field
   */
  resolve(action, field) {
    if (action?.t !== "add" || action.actor === undefined) return action;
    const base = this.numbers(action.actor, `${field}.actor`);
    return { ...base, ...action, acuities: { ...base.acuities, ...(action.acuities ?? {}) } };
  }
}

/**
 * Builds a table and plays a run's actions; throws a FieldError naming the
 * first action refused (`actions[3].roll: ...`).
 * @param {any} sceneExport
 * @param {any} run
 * @param {Library} library
 */
export function replay(sceneExport, run, library) {
  const table = new Table({ scene: sceneExport, night: run.night, ruleset: run.ruleset, seed: run.seed });
  try {
    run.actions.forEach((action, i) => table.act(library.resolve(action, `actions[${i}]`), `actions[${i}]`));
  } catch (error) {
    table.free();
    throw fieldError(error, "run");
  }
  return table;
}

/**
 * The run as a demo scenario (demo/scenario.mjs), to save in
 * demo/scenarios/ and replay with `node demo/run.mjs --scenario FILE`.
 * The demo plays one hider walking past observers who stay put, in
 * turns: the hider is the first token that hid (or `hiderId`), the
 * observers every other token at their last positions, turn 1 where the
 * hider hid and one turn per move after it; a door opened or closed, or a
 * lantern lit, after the hider hid is a turn of its own (the demo changes
 * the scene at turn starts), before it the scene the walk starts in; night
 * is its `lighting`. The demo rolls its own dice from the seed (a typed
 * total is not kept). Throws a FieldError naming what the format cannot hold.
 * @param {any} run
 * @param {import("./table.js").Table} table the table after the run
 * @param {Library} library
 * @param {string | null} [hiderId]
 */
export function exportScenario(run, table, library, hiderId = null) {
  if (run.scene === "dropped") throw new FieldError("scene", "a dropped scene has no path the demo can read; export from a fixture scene");
  const hides = run.actions.map((action, i) => [action, i]).filter(([action]) => action.t === "hide" && (hiderId === null || action.id === hiderId));
  if (hides.length === 0) throw new FieldError("hider", "nobody has hidden yet: the demo's scenario needs a hider");
  const [firstHide, hideIndex] = hides[0];
  const hider = firstHide.id;
  const adds = new Map(run.actions.filter((a) => a.t === "add").map((a) => [a.id, a]));
  const actorName = (id) => {
    const add = adds.get(id);
    if (!add?.actor) throw new FieldError(`tokens.${id}`, "the demo's scenario format takes tokens from SRD actors only; this one has typed numbers");
    if (!add.actor.startsWith("srd51:")) throw new FieldError(`tokens.${id}`, "the demo's scenario reads one actors file: use SRD 5.1 actors");
    return add.actor.slice("srd51:".length);
  };
  const position = (id) => {
    let at = null;
    for (const action of run.actions) {
      if (action.id !== id) continue;
      if (action.t === "add") at = { x: action.x, y: action.y };
      if (action.t === "move") {
        const path = action.path ?? [[action.x, action.y]];
        const [x, y] = path[path.length - 1];
        at = { x, y };
      }
    }
    return at;
  };
  const start = (() => {
    let at = null;
    for (const action of run.actions.slice(0, hideIndex)) {
      if (action.id !== hider) continue;
      if (action.t === "add") at = { x: action.x, y: action.y };
      if (action.t === "move") {
        const path = action.path ?? [[action.x, action.y]];
        at = { x: path[path.length - 1][0], y: path[path.length - 1][1] };
      }
    }
    return at;
  })();
  const turns = [{ note: "hides", moves: [start] }];
  const lights = [];
  const doors = [];
  const lanterns = new Map(run.actions.filter((a) => a.t === "lantern").map((a) => [a.id, a]));
  /** A change of view after the hider hid: a turn of its own, the hider staying where it is. */
  const changeTurn = (note) => {
    turns.push({ note, moves: [turns[turns.length - 1].moves.at(-1)] });
    return turns.length;
  };
  run.actions.forEach((action, i) => {
    const field = `actions[${i}]`;
    const after = i > hideIndex;
    if (action.t === "move" && action.id === hider && after) {
      turns.push({ note: "moves", moves: (action.path ?? [[action.x, action.y]]).map(([x, y]) => ({ x, y })) });
    } else if (action.t === "door") {
      doors.push({ wallId: action.wall, state: action.state, atTurn: after ? changeTurn(`door ${action.wall} ${action.state}`) : 1 });
    } else if ((action.t === "lantern" && action.on !== false) || action.t === "light") {
      const lantern = lanterns.get(action.id);
      if (!lantern) throw new FieldError(`${field}.id`, "the demo's scenario format cannot turn the scene's own lights on or off");
      if (action.on === false) throw new FieldError(field, "the demo's scenario format cannot put a light out");
      if (!lights.some((l) => l.id === lantern.id)) {
        lights.push({ id: lantern.id, x: lantern.x, y: lantern.y, dim: LANTERN.dim, bright: LANTERN.bright, litAtTurn: after ? changeTurn(`the lantern ${lantern.id} is lit`) : 1 });
      }
    }
  });
  const observers = table.ids().filter((id) => id !== hider).map((id) => {
    const token = table.tokens.get(id);
    const at = position(id);
    const observer = { id, actor: actorName(id), side: token.side || "neutral", x: at.x, y: at.y };
    if (token.name !== actorName(id)) observer.name = token.name;
    if (token.elevation) observer.elevation = token.elevation;
    return observer;
  });
  if (observers.length === 0) throw new FieldError("observers", "the demo's scenario needs at least one observer");
  const hiderToken = table.tokens.get(hider);
  const scenario = {
    name: `Playground run on ${SCENES[run.scene].title}`,
    description: "Exported from the Furtive playground (playground/).",
    scene: `${DEMO_FIXTURES}${SCENES[run.scene].file}`,
    actors: `${DEMO_FIXTURES}${ACTOR_SETS.srd51.file}`,
    ruleset: run.ruleset,
    seed: run.seed,
  };
  if (run.ruleset === "percentile") {
    scenario.roster = {};
    for (const id of [hider, ...observers.map((o) => o.id)]) {
      const token = table.tokens.get(id);
      scenario.roster[actorName(id)] = { stealthSkill: token.stealthSkill ?? 0, acuities: { ...token.acuities } };
    }
  }
  scenario.hider = { id: hider, actor: actorName(hider), side: hiderToken.side || "neutral" };
  if (hiderToken.name !== actorName(hider)) scenario.hider.name = hiderToken.name;
  if (run.ruleset === "percentile" && firstHide.situation?.length) scenario.hider.modifiers = { situation: firstHide.situation, free: [] };
  scenario.observers = observers;
  if (run.night) scenario.lighting = { darkness: 1, globalLight: false };
  if (lights.length > 0) scenario.lights = lights;
  if (doors.length > 0) scenario.doors = doors;
  scenario.turns = turns;
  return scenario;
}
