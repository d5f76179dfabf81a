#!/usr/bin/env node
// Furtive's main job, outside Foundry: a hider walks past guards on a real
// Foundry scene, and the engine decides, step by step, who perceives it.
//
// Usage: node demo/run.mjs [--scenario FILE]... [--seed N] [--json] [--lang en|fr]
// Without --scenario it runs the three shipped scenarios (opposed, percentile,
// then the night run).
//
// It uses the npm package `furtive` exactly as a user would (the napi backend
// in Node): clear view from the scene's walls, floors and light (B5), events
// into `apply`, requests answered by the seeded roller (B4), explanations from
// the log (B3).

import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import * as furtive from "furtive";

import { opposedCreature, percentileCreature } from "./actors.mjs";
import { loadScenario, ScenarioError } from "./scenario.mjs";

const SHIPPED = ["scenarios/nort-gate-opposed.json", "scenarios/nort-gate-percentile.json", "scenarios/nort-gate-night.json"].map((p) =>
  fileURLToPath(new URL(p, import.meta.url)),
);

/**
 * Runs one scenario and returns a machine-readable record of every step.
 * @param {ReturnType<typeof loadScenario>} scenario
 * @param {number} seed
 */
export function runScenario(scenario, seed) {
  const { hider, observers, ruleset } = scenario;
  const creatureOf = (/** @type {any} */ token) =>
    ruleset === "opposed" ? opposedCreature(token.actor, token) : percentileCreature(scenario.roster[token.actor.name], token);
  let state = furtive.createState({
    ruleset,
    settings: scenario.settings,
    creatures: [creatureOf(hider), ...observers.map(creatureOf)],
  });
  // The scene as lit at each turn: the scenario's lights lit by then (the
  // engine decides what they reach, B5), and its doors as set by then.
  const scenes = new Map();
  const sceneAt = (/** @type {number} */ turn) => {
    const lit = scenario.lights.filter((l) => l.litAtTurn <= turn);
    const doors = new Map(scenario.doors.filter((d) => d.atTurn <= turn).map((d) => [d.wallId, d.state]));
    const key = `${lit.length}|${[...doors].join(",")}`;
    if (!scenes.has(key)) {
      const walls = scenario.scene.walls.map((/** @type {any} */ w) => (doors.has(w.id) ? { ...w, doorState: doors.get(w.id) } : w));
      scenes.set(key, furtive.parseScene({ ...scenario.scene, walls, lights: [...scenario.scene.lights, ...lit.map((l) => l.normalized)] }));
    }
    return scenes.get(key);
  };
  const names = Object.fromEntries([hider, ...observers].map((t) => [t.id, t.name]));
  let rollCount = 0;
  const steps = [];

  /** Applies an event, answers its requests with the seeded roller until none is left. */
  const send = (/** @type {any} */ event, /** @type {any} */ step) => {
    const outcome = furtive.apply(state, event);
    state = outcome.state;
    step.events.push(event);
    step.timeline.push({ event });
    step.timeline.push(...outcome.log.map((log) => ({ log })));
    step.log.push(...outcome.log);
    step.changes.push(...outcome.changes);
    let requests = outcome.requests;
    while (requests.length > 0) {
      const events = furtive.rollRequests(state, requests, seed * 1000 + rollCount++);
      const next = [];
      // The answers come in the requests' order: one per observer of a
      // Perception check request, one for a new stealth roll.
      let from = 0;
      for (const request of requests) {
        const count = request.kind === "perceptionCheck" ? request.observers.length : 1;
        const answers = events.slice(from, (from += count));
        step.requests.push({ request, answers });
        step.timeline.push({ request, answers });
        for (const answer of answers) {
          const answered = furtive.apply(state, answer);
          state = answered.state;
          step.timeline.push(...answered.log.map((log) => ({ log })));
          step.log.push(...answered.log);
          step.changes.push(...answered.changes);
          next.push(...answered.requests);
        }
      }
      requests = next;
    }
  };

  /**
   * Clear view and distance from each observer to the hider standing at `at`
   * on turn `turn` (walls, floors, light and darkvision: B5, the engine's),
   * and whether the hider stands in darkness there.
   */
  const survey = (/** @type {{x: number, y: number}} */ at, /** @type {number} */ turn) => {
    const tokens = [
      { id: hider.id, x: at.x, y: at.y, width: hider.width, height: hider.height },
      ...observers.map((o) => ({ id: o.id, x: o.x, y: o.y, width: o.width, height: o.height, elevation: o.elevation, darkvision: o.darkvision })),
    ];
    const matrix = furtive.clearViewMatrix(sceneAt(turn), tokens);
    const hiderIndex = matrix.ids.indexOf(hider.id);
    const view = observers.map((o) => {
      const i = matrix.ids.indexOf(o.id);
      return { observer: o.id, clearView: matrix.clearView[i][hiderIndex], distance: matrix.distance[i][hiderIndex] };
    });
    return { view, inDarkness: matrix.inDarkness[hiderIndex] };
  };
  const look = (/** @type {{x: number, y: number}} */ at, /** @type {number} */ turn) => survey(at, turn).view;

  const perceivedNow = () =>
    Object.fromEntries(observers.map((o) => [o.id, furtive.perceives(state, { observer: o.id, hider: hider.id }).allowed]));

  scenario.turns.forEach((turn, index) => {
    const step = { turn: index + 1, note: turn.note, moves: [], events: [], requests: [], log: [], changes: [], timeline: [] };
    // The walk is played in turns, as in a combat. The spy hides before the
    // first turn starts (an ambush): a first roll made in combat would carry
    // already_perceived (P9).
    if (index > 0) send({ type: "turnStart", combatant: hider.id, round: index + 1 }, step);
    const lit = index > 0 ? scenario.lights.filter((l) => l.litAtTurn === index + 1) : [];
    const doors = index > 0 ? scenario.doors.filter((d) => d.atTurn === index + 1) : [];
    if (lit.length > 0 || doors.length > 0) {
      // A light turned on or a door opened is a change of view (B5, O4):
      // the hider has not moved, the view from every observer is asked again.
      const previous = scenario.turns[index - 1].moves[scenario.turns[index - 1].moves.length - 1];
      const { view, inDarkness } = survey(previous, index + 1);
      step.lightsLit = { lights: lit.map(({ normalized, ...light }) => light), doors, at: { x: previous.x, y: previous.y }, view, inDarkness, perceivedBy: null };
      step.timeline.push({ lightsLit: true });
      send({ type: "viewChanged", hider: hider.id, moved: false, view }, step);
      step.lightsLit.perceivedBy = perceivedNow();
    }
    turn.moves.forEach((move, m) => {
      const { view, inDarkness } = survey(move, index + 1);
      step.moves.push({ at: { x: move.x, y: move.y }, view, inDarkness, perceivedBy: null });
      step.timeline.push({ move: m });
      if (index === 0 && m === 0) {
        // O1 / P1: the stealth roll, answered by the seeded roller (B4).
        const request = { kind: "stealthRoll", hider: hider.id, modifiers: hider.modifiers ?? { situation: [], free: [] }, clause: ruleset === "opposed" ? "O1" : "P1" };
        const answers = furtive.rollRequests(state, [request], seed * 1000 + rollCount++);
        const [roll] = answers;
        step.requests.push({ request, answers });
        step.timeline.push({ request, answers });
        send({ ...roll, precautions: hider.precautions, view }, step);
        send({ type: "turnStart", combatant: hider.id, round: 1 }, step);
      } else {
        send({ type: "viewChanged", hider: hider.id, moved: true, view }, step);
      }
      step.moves[m].perceivedBy = perceivedNow();
    });
    if (turn.modifiers && ruleset === "percentile") {
      // P4: the situation changed; the engine asks for a new roll.
      send({ type: "modifiersChanged", hider: hider.id, modifiers: turn.modifiers }, step);
    }
    step.perceivedBy = perceivedNow();
    send({ type: "turnEnd", combatant: hider.id }, step);
    step.afterTurnEnd = perceivedNow();
    steps.push(step);
  });

  let finale = null;
  if (scenario.attack) {
    const attack = scenario.attack;
    const lastTurn = scenario.turns[scenario.turns.length - 1];
    const last = lastTurn.moves[lastTurn.moves.length - 1];
    const step = { turn: scenario.turns.length + 1, note: "attack from hiding", target: attack.target, moves: [{ at: { x: last.x, y: last.y }, ...survey(last, scenario.turns.length + 1), perceivedBy: perceivedNow() }], events: [], requests: [], log: [], changes: [], timeline: [{ move: 0 }] };
    send({ type: "turnStart", combatant: hider.id, round: scenario.turns.length + 1 }, step);
    const event = { type: "attack", attacker: hider.id, target: attack.target, noisy: attack.noisy ?? false, hits: attack.hits ?? 1, area: attack.area ?? false };
    if (ruleset === "percentile" && attack.hitZone) {
      // P7: the zone is the attacker's choice only when the attack is a
      // surprise; the engine refuses it otherwise, and the attack goes on
      // without it.
      try {
        send({ ...event, hitZone: attack.hitZone }, step);
      } catch (error) {
        if (/** @type {any} */ (error).code !== "hit_zone_not_allowed") throw error;
        const refused = { ...event, hitZone: attack.hitZone };
        step.refusals = [{ event: refused, code: /** @type {any} */ (error).code, message: /** @type {Error} */ (error).message }];
        step.timeline.push({ refusal: 0 });
        send(event, step);
      }
    } else {
      send(event, step);
    }
    step.perceivedBy = perceivedNow();
    // P6: who may still defend the target this turn.
    step.defense = ruleset !== "percentile" ? null : observers
      .filter((o) => o.id !== attack.target)
      .map((o) => ({ defender: o.id, ...furtive.canDefend(state, { defender: o.id, target: attack.target, attacker: hider.id }) }));
    step.targetMayDefend = ruleset !== "percentile" ? null : furtive.canDefend(state, { defender: attack.target, target: attack.target, attacker: hider.id });
    if (step.defense) step.timeline.push({ defense: true });
    send({ type: "turnEnd", combatant: hider.id }, step);
    step.afterTurnEnd = perceivedNow();
    steps.push(step);
    finale = step;
  }

  const summary = observers.map((o) => ({
    observer: o.id,
    name: o.name,
    firstPerceivedTurn: steps.find((s) => s.perceivedBy[o.id] || s.afterTurnEnd[o.id])?.turn ?? null,
    perceivesAtEnd: steps[steps.length - 1].afterTurnEnd[o.id],
  }));
  const observerList = observers.map((o) => ({ observer: o.id, x: o.x, y: o.y, elevation: o.elevation, darkvision: o.darkvision }));
  const lighting = { darkness: scenario.scene.darkness, globalLight: scenario.scene.globalLight };
  return { name: scenario.name, ruleset, seed, hider: hider.id, names, lighting, observers: observerList, steps, finale: finale !== null, summary, state };
}

/** The demo's own words, in both languages (the engine's explanations come with both). */
const FRAME = {
  en: { lighting: (l) => `scene darkness ${l.darkness}, global light ${l.globalLight ? "on" : "off"}`, posted: "posted at", elevation: "elevation", seesInDark: "sees in darkness to", lightLit: "light lit", door: "door", doorStates: { open: "open", closed: "closed", locked: "locked" }, brightDim: (l) => `bright ${l.bright} ft, dim ${l.dim} ft`, inDarkness: "in darkness", lit: "lit", at: "at", clearView: "clear view", nobody: "nobody", event: "event", request: "request", roll: "roll", roller: "seeded roller", refused: "refused", yes: "yes", no: "no", turn: "Turn", summary: "Summary", observer: "observer", firstTurn: "first perceives on turn", atEnd: "perceives at the end", never: "never", ruleset: "ruleset", hider: "hider", perceivedBy: "perceived by, at the end of the turn", mayDefendItself: (n) => `may ${n} defend itself?`, mayDefend: (n) => `may ${n} defend it?` },
  fr: { lighting: (l) => `obscurité de la scène ${l.darkness}, lumière globale ${l.globalLight ? "allumée" : "éteinte"}`, posted: "posté en", elevation: "altitude", seesInDark: "voit dans le noir jusqu'à", lightLit: "lumière allumée", door: "porte", doorStates: { open: "ouverte", closed: "fermée", locked: "verrouillée" }, brightDim: (l) => `vive ${l.bright} ft, faible ${l.dim} ft`, inDarkness: "dans le noir", lit: "éclairé", at: "en", clearView: "vue dégagée", nobody: "personne", event: "évènement", request: "demande", roll: "jet", roller: "dés à graine", refused: "refusé", yes: "oui", no: "non", turn: "Tour", summary: "Résumé", observer: "observateur", firstTurn: "perçoit à partir du tour", atEnd: "perçoit à la fin", never: "jamais", ruleset: "règles", hider: "personnage caché", perceivedBy: "perçu, à la fin du tour, par", mayDefendItself: (n) => `${n} peut-il se défendre ?`, mayDefend: (n) => `${n} peut-il le défendre ?` },
};

/** @param {string} lang */
const text = (/** @type {any} */ entry, lang) => (lang === "fr" ? entry.fr : entry.en);

/**
 * Prints a run for a person.
 * @param {ReturnType<typeof runScenario>} run
 * @param {string} lang
 */
function print(run, lang) {
  const t = FRAME[lang];
  const out = (/** @type {string} */ line = "") => process.stdout.write(`${line}\n`);
  const name = (/** @type {string} */ id) => run.names[id] ?? id;
  out(`# ${run.name}`);
  out(`${t.ruleset} ${run.ruleset}, seed ${run.seed}, ${t.hider} ${name(run.hider)}; ${t.lighting(run.lighting)}`);
  for (const o of run.observers) {
    const extras = [o.elevation ? `${t.elevation} ${o.elevation} ft` : "", o.darkvision ? `${t.seesInDark} ${o.darkvision} ft` : ""].filter(Boolean);
    out(`- ${name(o.observer)} ${t.posted} (${o.x}, ${o.y})${extras.length ? `, ${extras.join(", ")}` : ""}`);
  }
  // Say where the hider stands lit or dark only in a run where some place is dark.
  const anyDark = run.steps.some((step) => step.moves.some((move) => move.inDarkness));
  for (const step of run.steps) {
    out();
    out(`## ${t.turn} ${step.turn}${step.note ? `: ${step.note}` : ""}`);
    const gmKeys = new Set(step.log.filter((e) => e.audience === "gm").map((e) => `${e.clause}|${e.hider}|${e.observer}`));
    const position = (/** @type {any} */ move) => {
      const inView = move.view.filter((/** @type {any} */ v) => v.clearView).map((/** @type {any} */ v) => `${name(v.observer)} (${Math.round(v.distance)} ft)`);
      const light = anyDark ? ` (${move.inDarkness ? t.inDarkness : t.lit})` : "";
      out(`${name(run.hider)} ${t.at} (${move.at.x}, ${move.at.y})${light}; ${t.clearView}: ${inView.length ? inView.join(", ") : t.nobody}`);
    };
    for (const item of step.timeline) {
      if ("move" in item) {
        position(step.moves[item.move]);
      } else if ("lightsLit" in item) {
        for (const l of step.lightsLit.lights) out(`  ${t.lightLit} "${l.id}" (${l.x}, ${l.y}), ${t.brightDim(l)}${l.note ? `: ${l.note}` : ""}`);
        for (const d of step.lightsLit.doors) out(`  ${t.door} "${d.wallId}": ${t.doorStates[d.state]}`);
        position(step.lightsLit);
      } else if ("event" in item) {
        out(`  ${t.event}   ${JSON.stringify(item.event, (k, v) => (k === "view" ? `[${v.length} observers]` : v))}`);
      } else if ("request" in item) {
        const { request, answers } = item;
        const values = answers.map((/** @type {any} */ answer) => (answer.type === "perceptionRolled" ? `Perception ${answer.total}` : `${t.roll} ${answer.roll}`));
        const observers = request.kind === "perceptionCheck" ? `${request.observers.map(name).join(", ")} vs ` : "";
        out(`  ${t.request} ${request.kind} ${observers}${name(request.hider)} (${request.clause}) -> ${t.roller}: ${values.join(", ")}`);
      } else if ("refusal" in item) {
        const refusal = step.refusals[item.refusal];
        out(`  ${t.event}   ${JSON.stringify(refusal.event)}`);
        out(`  ${t.refused} [${refusal.code}] ${refusal.message}`);
      } else if ("defense" in item) {
        out(`  ${t.mayDefendItself(name(step.target))} ${step.targetMayDefend.allowed ? t.yes : t.no} — ${text(step.targetMayDefend, lang)}`);
        for (const d of step.defense) out(`  ${t.mayDefend(name(d.defender))} ${d.allowed ? t.yes : t.no} — ${text(d, lang)}`);
      } else if (item.log.clause !== "B3") {
        const key = `${item.log.clause}|${item.log.hider}|${item.log.observer}`;
        if (item.log.audience === "gm" || !gmKeys.has(key)) out(`    [${item.log.clause}] ${text(item.log, lang)}`);
      }
    }
    const perceived = Object.entries(step.afterTurnEnd).filter(([, p]) => p).map(([id]) => name(id));
    out(`${t.perceivedBy}: ${perceived.length ? perceived.join(", ") : t.nobody}`);
  }
  out();
  out(`## ${t.summary}`);
  out(`| ${t.observer} | ${t.firstTurn} | ${t.atEnd} |`);
  out("|---|---|---|");
  for (const row of run.summary) out(`| ${row.name} | ${row.firstPerceivedTurn ?? t.never} | ${row.perceivesAtEnd ? t.yes : t.no} |`);
  out();
}

function main() {
  const { values } = parseArgs({
    options: {
      scenario: { type: "string", multiple: true },
      seed: { type: "string" },
      json: { type: "boolean", default: false },
      lang: { type: "string", default: "en" },
    },
  });
  if (values.lang !== "en" && values.lang !== "fr") throw new ScenarioError("--lang", 'expected "en" or "fr"');
  let seedOverride;
  if (values.seed !== undefined) {
    seedOverride = /^\d{1,10}$/.test(values.seed) ? Number(values.seed) : NaN;
    if (!Number.isSafeInteger(seedOverride) || seedOverride > 9_000_000_000) {
      throw new ScenarioError("--seed", "expected an integer from 0 to 9000000000");
    }
  }
  const runs = (values.scenario ?? SHIPPED).map((file) => {
    const scenario = loadScenario(file);
    return runScenario(scenario, seedOverride ?? scenario.seed);
  });
  if (values.json) {
    process.stdout.write(`${JSON.stringify(runs.map(({ state, ...run }) => run), null, 2)}\n`);
  } else {
    runs.forEach((run) => print(run, values.lang));
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // A closed pipe (`| head`) ends the demo quietly.
  process.stdout.on("error", (error) => {
    if (error.code === "EPIPE") process.exit(0);
    throw error;
  });
  try {
    main();
  } catch (error) {
    const e = /** @type {any} */ (error);
    process.stderr.write(`furtive demo: ${e.code ? `[${e.code}] ` : ""}${e.message}\n`);
    process.exit(2);
  }
}
