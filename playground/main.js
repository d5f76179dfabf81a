// The playground page: loads the engine (the npm package's wasm), the
// fixtures, and the run in the URL; wires the controls and the canvas to
// the table (table.js). Every action goes through `perform`: refused, it
// shows a message naming the field and changes nothing.

import { init, situationModifiers } from "../npm/browser.js";
import { COLOURS, Viewport, doorControl, draw, tokenCircle } from "./draw.js";
import { ACTOR_SETS, DEFAULT_RUN, Library, SCENES, checkRun, decodeRun, encodeRun, exportScenario, replay } from "./run.js";
import { FieldError, moveStep } from "./table.js";
import { WORDS } from "./words.js";

const $ = (id) => /** @type {any} */ (document.getElementById(id));
const canvas = /** @type {HTMLCanvasElement} */ ($("map"));
const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d"));
const viewport = new Viewport();

/** The page's state: the run (what the URL holds), its table, the scene export, the selection. */
const page = {
  /** @type {any} */ run: null,
  /** @type {import("./table.js").Table | null} */ table: null,
  /** @type {any} */ sceneExport: null,
  /** @type {Library | null} */ library: null,
  /** @type {string | null} */ selected: null,
  /** A dropped scene: { name, scene }. */
  dropped: null,
  /** Set when a frame is due. */
  frame: 0,
};

const words = () => WORDS[page.run?.lang ?? "en"];

/** Shows a message over the map until the next action. */
function say(text, kind = "error") {
  const box = $("message");
  box.textContent = text;
  box.className = kind === "error" ? "" : "info";
  box.hidden = false;
}
function quiet() {
  $("message").hidden = true;
}
/** A refused action: its field and why, nothing changed. */
function refuse(error) {
  const e = /** @type {any} */ (error);
  const detail = e instanceof FieldError ? `${e.field}: ${e.detail}` : String(e?.message ?? e);
  say(`${words().refused}. ${detail}`);
  window.playground.lastError = { field: e?.field ?? null, code: e?.code ?? null, message: detail };
}

async function fetchJson(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

/** The scene export a run uses. */
async function sceneFor(run) {
  if (run.scene === "dropped") {
    if (page.dropped) return page.dropped.scene;
    const saved = sessionStorage.getItem("furtive-playground-dropped");
    if (saved) {
      page.dropped = JSON.parse(saved);
      return page.dropped.scene;
    }
    throw new FieldError("run.scene", words().droppedMissing);
  }
  return fetchJson(`fixtures/${SCENES[run.scene].file}`);
}

/** Writes the run into the URL (replaceState: the back button leaves the page). */
function saveUrl() {
  history.replaceState(null, "", `#run=${encodeRun(page.run)}`);
}

/**
 * Adopts a new run: replays it on `sceneExport`; refused, keeps the old one.
 * @returns {boolean}
 */
function adopt(run, sceneExport, { fit = false } = {}) {
  let table;
  try {
    checkRun(run);
    table = replay(sceneExport, run, page.library);
  } catch (error) {
    refuse(error);
    return false;
  }
  page.table?.free();
  page.table = table;
  shown.matrix = "";
  shown.log = "";
  page.run = run;
  page.sceneExport = sceneExport;
  if (page.selected && !table.tokens.has(page.selected)) page.selected = null;
  if (fit) fitView();
  saveUrl();
  syncControls();
  render();
  return true;
}

/**
 * Runs one action on the table and adds it to the run; refused, shows why
 * and changes nothing.
 * @returns {any} what the action did, or null when refused
 */
function perform(action) {
  const index = page.run.actions.length;
  let done;
  try {
    done = page.table.act(page.library.resolve(action, `actions[${index}]`), `actions[${index}]`);
  } catch (error) {
    if (!lost(error) || !recover()) {
      refuse(error);
      return null;
    }
    // The run played again on a fresh engine: the action once more.
    try {
      done = page.table.act(page.library.resolve(action, `actions[${index}]`), `actions[${index}]`);
    } catch (again) {
      refuse(again);
      return null;
    }
  }
  quiet();
  page.run.actions.push(action);
  saveUrl();
  render();
  return done;
}

/**
 * Whether the engine lost the table: a panic (a bug in the engine) resets
 * its wasm instance, and every handle of the old one throws `session_lost`
 * (npm/README.md, "Losing a session").
 */
function lost(error) {
  const code = /** @type {any} */ (error)?.code;
  return code === "session_lost" || code === "engine_panicked" || code === "engine_poisoned";
}

/** Plays the run again on a fresh engine (the run is the page's saved state). */
function recover() {
  return adopt({ ...page.run, actions: [...page.run.actions] }, page.sceneExport);
}

/**
 * Runs `read` (a query of the table: drawing, the panels); when the engine
 * was lost, plays the run again and reads once more. Anything else is
 * shown, never thrown.
 */
function reading(read) {
  try {
    return read();
  } catch (error) {
    if (lost(error) && recover()) {
      try {
        return read();
      } catch (again) {
        refuse(again);
        return undefined;
      }
    }
    refuse(error);
    return undefined;
  }
}

/** Changes the setup (scene, night, ruleset, seed): the run is played again under it. */
async function changeSetup(patch) {
  const run = { ...page.run, ...patch, actions: patch.actions ?? page.run.actions };
  let scene = page.sceneExport;
  if (patch.scene !== undefined && patch.scene !== page.run.scene) {
    try {
      scene = await sceneFor(run);
    } catch (error) {
      refuse(error);
      syncControls();
      return false;
    }
  }
  const ok = adopt(run, scene, { fit: patch.scene !== undefined });
  if (!ok) syncControls();
  return ok;
}

/** Fits the view to the scene's walls and tokens (a map's outer area is mostly empty). */
function fitView() {
  const scene = page.table.normalized;
  const xs = [];
  const ys = [];
  for (const wall of scene.walls) xs.push(wall.c[0], wall.c[2]), ys.push(wall.c[1], wall.c[3]);
  for (const token of page.table.tokens.values()) xs.push(token.x), ys.push(token.y);
  if (xs.length === 0) {
    viewport.fit(scene.width ?? 1000, scene.height ?? 1000, canvas.width, canvas.height);
    return;
  }
  const [left, right, top, bottom] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const margin = page.table.grid.size;
  viewport.fit(right - left + 2 * margin, bottom - top + 2 * margin, canvas.width, canvas.height);
  viewport.x += left - margin;
  viewport.y += top - margin;
}

/** The lantern ids and token ids the page makes. */
function freshId(prefix) {
  const taken = new Set([...page.table.tokens.keys(), ...page.table.lanterns.keys()]);
  let n = 1;
  while (taken.has(`${prefix}-${n}`)) n++;
  return `${prefix}-${n}`;
}

// ---------------------------------------------------------------- drawing

function labels(id) {
  const token = page.table.tokens.get(id);
  return page.table.hiders.has(id) ? `${token.name} (${words().hiding})` : token.name;
}

function sides() {
  return [...new Set([...page.table.tokens.values()].map((t) => t.side))];
}

/** The elevation the map shows walls for: the selected token's. */
function level() {
  const token = page.selected && page.table.tokens.get(page.selected);
  return token?.elevation ?? 0;
}

/** Paints the map now. */
function paint() {
  page.frame = 0;
  if (!page.table) return;
  reading(() => draw(ctx, page.table, viewport, { selected: page.selected, level: level(), sides: sides(), labels }));
}

/**
 * Redraws the map (next frame) and the panels (now). `touched`: the one
 * token a drag step moved; only pairs naming it can have changed (the
 * step's events name no other pair), so only their cells are asked again.
 * @param {string} [touched]
 */
function render(touched) {
  if (!page.table) return;
  if (!page.frame) page.frame = requestAnimationFrame(paint);
  reading(() => renderPanels(touched));
}

/** What the panels show now, to redraw only what changed: the matrix's shape, each cell, the log. */
const shown = { matrix: "", cells: new Map(), log: "" };

/** Sets the text of an element when it differs (writing the DOM costs more than comparing). */
function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

/** @param {string} [touched] see `render` */
function renderPanels(touched) {
  const table = page.table;
  const w = words();
  const lang = page.run.lang;
  setText($("status"), w.ready(page.run.actions.length));
  // Selected token.
  const token = page.selected && table.tokens.get(page.selected);
  $("selected-none").hidden = Boolean(token);
  $("selected-body").hidden = !token;
  if (token) {
    const light = table.sight.lightingOf(token.id);
    setText($("selected-name"), `${token.name} (${token.id}${table.hiders.has(token.id) ? `, ${w.hiding}` : ""}; ${light.dark ? w.inDarkness : w.lit}): ${w.stats(token)}`);
    // What it sees of each other token (B5), as the engine answered; for a
    // hider, what each other token sees of it.
    const hides = table.hiders.has(token.id);
    const seen = { clear: [], concealed: [], blocked: [] };
    for (const [id, other] of table.tokens) {
      if (id === token.id) continue;
      const v = hides ? table.view(id, token.id) : table.view(token.id, id);
      seen[v.clearView ? "clear" : v.sightLine ? "concealed" : "blocked"].push(other.name);
    }
    const list = (names) => (names.length ? names.join(", ") : w.nobody);
    const [clear, concealed, blocked] = hides ? [w.seenClearlyBy, w.concealedFrom, w.noSightLineFrom] : [w.clearView, w.concealed, w.blocked];
    setText($("selected-sees"), `${clear}: ${list(seen.clear)}. ${concealed}: ${list(seen.concealed)}. ${blocked}: ${list(seen.blocked)}.`);
  }
  renderMatrix(table, w, lang, touched);
  // The engine's explanations, newest first; rebuilt when there are new ones.
  const logKey = `${lang}|${table.logged}`;
  if (shown.log === logKey) return;
  shown.log = logKey;
  const log = $("log");
  log.replaceChildren();
  for (const entry of table.log.slice(-60).reverse()) {
    const li = document.createElement("li");
    const clause = document.createElement("span");
    clause.className = "clause";
    clause.textContent = `[${entry.clause}] `;
    li.append(clause);
    if (entry.audience === "gm") {
      const gm = document.createElement("span");
      gm.className = "gm";
      gm.textContent = "GM ";
      li.append(gm);
    }
    li.append(lang === "fr" ? entry.fr : entry.en);
    log.append(li);
  }
}

/**
 * Who perceives whom: a row per observer, a column per hider, each cell the
 * engine's decision (`perceives`) and what the observer sees of the hider.
 * The table is built when its rows, columns or language change; otherwise
 * each cell is rewritten only when its answer changed (a drag step asks
 * every pair again, and most stay as they were).
 */
function renderMatrix(table, w, lang, touched) {
  const matrix = $("matrix");
  const hiders = [...table.hiders];
  const observers = table.ids();
  const names = (ids) => ids.map((id) => `${id}:${table.tokens.get(id).name}`).join(",");
  const key = `${lang}|${names(hiders)}|${names(observers)}`;
  if (shown.matrix !== key) {
    touched = undefined;
    shown.matrix = key;
    shown.cells.clear();
    matrix.replaceChildren();
    if (hiders.length === 0) {
      const p = document.createElement("p");
      p.textContent = w.nobodyHides;
      matrix.append(p);
      return;
    }
    const t = document.createElement("table");
    const head = t.insertRow();
    const corner = document.createElement("th");
    corner.textContent = w.observerHider;
    head.append(corner);
    for (const hider of hiders) {
      const th = document.createElement("th");
      th.textContent = table.tokens.get(hider).name;
      head.append(th);
    }
    for (const observer of observers) {
      const row = t.insertRow();
      const th = document.createElement("th");
      th.className = "row";
      th.textContent = table.tokens.get(observer).name;
      row.append(th);
      for (const hider of hiders) {
        const td = row.insertCell();
        td.dataset.observer = observer;
        td.dataset.hider = hider;
        if (observer === hider) {
          td.className = "self";
          td.textContent = "—";
          continue;
        }
        const mark = document.createElement("span");
        const why = document.createElement("span");
        why.className = "why";
        td.append(mark, why);
        shown.cells.set(`${observer}\u0000${hider}`, { td, mark, why, answer: "" });
      }
    }
    matrix.append(t);
  }
  // The pairs' states and the decisions behind them (`Session.pairs`): all
  // of them, or those naming the token a drag step moved.
  const answers = new Map();
  const queries = touched === undefined ? [{}] : [{ hider: touched }, { observer: touched }];
  for (const query of queries) {
    if (query.hider !== undefined && !table.hiders.has(query.hider)) continue;
    for (const pair of table.pairs(query)) answers.set(`${pair.observer}\u0000${pair.hider}`, pair);
  }
  if (touched === undefined) {
    // A pair the engine keeps no record of: its answer to `perceives`.
    for (const key of shown.cells.keys()) {
      if (answers.has(key)) continue;
      const [observer, hider] = key.split("\u0000");
      const d = table.perceives(observer, hider);
      answers.set(key, { observer, hider, perceived: d.allowed, state: d.allowed ? "perceived" : "unperceived", located: false, defenseless: false, clause: d.clause, en: d.en, fr: d.fr });
    }
  }
  for (const [key, pair] of answers) {
    const cell = shown.cells.get(key);
    if (!cell) continue;
    const view = table.view(pair.observer, pair.hider);
    const seen = view.clearView ? w.clearView : view.sightLine ? w.concealed : w.blocked;
    const text = lang === "fr" ? pair.fr : pair.en;
    const state = w.states[pair.state === "presenceOnly" && pair.located ? "located" : pair.state] + (pair.defenseless ? `, ${w.defenseless}` : "");
    const answer = `${pair.perceived}|${state}|${pair.clause}|${seen}|${text}`;
    if (cell.answer === answer) continue;
    cell.answer = answer;
    const { td } = cell;
    td.className = pair.perceived ? "perceived" : "unperceived";
    td.dataset.perceives = String(pair.perceived);
    td.dataset.state = pair.state;
    td.dataset.clearView = String(view.clearView);
    td.dataset.clause = pair.clause;
    cell.mark.textContent = `${pair.perceived ? "✔" : "✘"} ${state} (${pair.clause})`;
    cell.why.textContent = `${seen}; ${text}`;
    td.title = `${table.tokens.get(pair.observer).name} ${pair.perceived ? w.perceives : w.doesNotPerceive} ${table.tokens.get(pair.hider).name}`;
  }
}

/** Puts the run's setup into the controls, and the page's words in its language. */
function syncControls() {
  const run = page.run;
  $("scene").value = run.scene;
  $("scene").querySelector('option[value="dropped"]').disabled = !page.dropped;
  $("night").checked = run.night;
  $("ruleset").value = run.ruleset;
  $("lang").value = run.lang;
  $("seed").value = String(run.seed);
  document.body.classList.toggle("opposed", run.ruleset === "opposed");
  document.body.classList.toggle("percentile", run.ruleset === "percentile");
  document.documentElement.lang = run.lang;
  const w = words();
  for (const element of document.querySelectorAll("[data-i18n]")) {
    const value = w[element.dataset.i18n];
    if (typeof value === "string") element.textContent = value;
  }
  $("add-actor").querySelector('option[value=""]').textContent = w.plain;
  // Percentile situation modifiers (P2), as the engine lists them.
  const box = $("situation");
  if (box.childElementCount === 0) {
    for (const { id, value } of situationModifiers()) {
      const label = document.createElement("label");
      label.className = "check";
      const input = document.createElement("input");
      input.type = "checkbox";
      input.value = id;
      label.append(input, ` ${id} (${value > 0 ? "+" : ""}${value})`);
      box.append(label);
    }
  }
}

// ---------------------------------------------------------------- controls

/**
 * Selects a token. Its percentile situation modifiers start from where it
 * stands: `dark` ticked when the engine says its place is dark, as the
 * Foundry module's Hide dialog does (the GM may untick it).
 * @param {string | null} id
 */
function select(id) {
  if (id !== page.selected && id && page.table.tokens.has(id)) {
    const dark = $("situation").querySelector('input[value="dark"]');
    if (dark) dark.checked = reading(() => page.table.sight.lightingOf(id).dark) ?? false;
  }
  page.selected = id;
  render();
}

function fillActorForm() {
  const ref = $("add-actor").value;
  if (!ref) return;
  const numbers = page.library.numbers(ref, "actor");
  $("add-name").value = numbers.name;
  $("add-stealth").value = numbers.stealthModifier;
  $("add-perception").value = numbers.perceptionModifier;
  $("add-skill").value = numbers.stealthSkill;
  $("add-visual").value = numbers.acuities.visual;
  $("add-auditory").value = numbers.acuities.auditory;
  $("add-olfactory").value = numbers.acuities.olfactory;
  $("add-darkvision").value = numbers.darkvision;
}

/**
 * A typed number: empty is `undefined`, anything else must be a number
 * (the engine checks its range); refused with the field's name.
 */
function typed(id, field) {
  const raw = $(id).value.trim();
  if (raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new FieldError(field, `expected a number, got ${JSON.stringify(raw)}`);
  return value;
}

function addToken() {
  let action;
  try {
    const ref = $("add-actor").value;
    const centre = viewport.toScene(canvas.width / 2, canvas.height / 2);
    const grid = page.table.grid;
    const name = $("add-name").value.trim();
    action = {
      t: "add",
      id: freshId((name || "token").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "token"),
      side: $("add-side").value.trim(),
      x: Math.round(centre.x / grid.size) * grid.size,
      y: Math.round(centre.y / grid.size) * grid.size,
    };
    if (ref) action.actor = ref;
    if (name) action.name = name;
    const elevation = typed("add-elevation", "Elevation");
    if (elevation) action.elevation = elevation;
    const numbers = { stealthModifier: typed("add-stealth", "Stealth modifier"), perceptionModifier: typed("add-perception", "Perception modifier"), stealthSkill: typed("add-skill", "Furtivité"), darkvision: typed("add-darkvision", "Sees in darkness") };
    const base = ref ? page.library.numbers(ref, "actor") : null;
    for (const [key, value] of Object.entries(numbers)) if (value !== undefined && (!base || base[key] !== value)) action[key] = value;
    const acuities = { visual: typed("add-visual", "Visual acuity"), auditory: typed("add-auditory", "Auditory acuity"), olfactory: typed("add-olfactory", "Olfactory acuity") };
    for (const [key, value] of Object.entries(acuities)) {
      if (value !== undefined && (!base || base.acuities[key] !== value)) (action.acuities ??= {})[key] = value;
    }
  } catch (error) {
    refuse(error);
    return;
  }
  if (perform(action)) select(action.id);
}

function hide() {
  if (!page.selected) return;
  const action = { t: "hide", id: page.selected };
  const raw = $("hide-roll").value.trim();
  if (raw !== "") {
    const roll = Number(raw);
    if (!Number.isFinite(roll)) {
      refuse(new FieldError("Total", `expected a number, got ${JSON.stringify(raw)}`));
      return;
    }
    action.roll = roll;
  }
  if (page.run.ruleset === "percentile") {
    const situation = [...$("situation").querySelectorAll("input:checked")].map((input) => input.value);
    if (situation.length) action.situation = situation;
  }
  const done = perform(action);
  if (done) say(words().rolled(page.table.tokens.get(action.id).name, done.roll), "info");
}

async function onDrop(file) {
  let scene;
  try {
    scene = JSON.parse(await file.text());
  } catch (error) {
    refuse(new FieldError(`scene file ${file.name}`, `not JSON (${error.message})`));
    return;
  }
  const previous = page.dropped;
  page.dropped = { name: file.name, scene };
  // A new scene starts a new run: its tokens would stand on another map.
  const run = { ...page.run, scene: "dropped", actions: [] };
  if (adopt(run, scene, { fit: true })) {
    try {
      sessionStorage.setItem("furtive-playground-dropped", JSON.stringify(page.dropped));
    } catch {
      // Too large to keep: the link then asks for the file again.
    }
    say(words().droppedLoaded(file.name), "info");
  } else {
    page.dropped = previous;
    syncControls();
  }
}

function download(name, text) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

function exportRun() {
  try {
    const scenario = exportScenario(page.run, page.table, page.library, page.selected && page.table.hiders.has(page.selected) ? page.selected : null);
    const name = `playground-${page.run.scene}-${page.run.ruleset}.json`;
    download(name, `${JSON.stringify(scenario, null, 2)}\n`);
    say(words().exported(name), "info");
    return scenario;
  } catch (error) {
    refuse(error);
    return null;
  }
}

// ---------------------------------------------------------------- canvas

/** What is under a canvas point: a token, a door control, a light control, or nothing. */
function hit(sx, sy) {
  const table = page.table;
  const at = viewport.toScene(sx, sy);
  const tolerance = 10 / viewport.scale;
  const ids = table.ids().reverse();
  for (const id of ids) {
    const c = tokenCircle(table.tokens.get(id), table.grid);
    if (Math.hypot(at.x - c.x, at.y - c.y) <= c.r) return { kind: "token", id };
  }
  for (const wall of table.normalized.walls) {
    if (wall.door === "none") continue;
    const bottom = wall.height?.bottom ?? -Infinity;
    const top = wall.height?.top ?? Infinity;
    if (level() < bottom || level() > top) continue;
    const c = doorControl(wall);
    if (Math.abs(at.x - c.x) <= tolerance && Math.abs(at.y - c.y) <= tolerance) return { kind: "door", wall };
  }
  for (const light of table.normalized.lights) {
    if (light.darkness) continue;
    if (Math.hypot(at.x - light.x, at.y - light.y) <= tolerance) return { kind: "light", light };
  }
  return null;
}

let drag = null;

function canvasPoint(event) {
  const rect = canvas.getBoundingClientRect();
  return { x: (event.clientX - rect.left) * (canvas.width / rect.width), y: (event.clientY - rect.top) * (canvas.height / rect.height) };
}

canvas.addEventListener("pointerdown", (event) => {
  if (!page.table) return;
  const p = canvasPoint(event);
  const target = hit(p.x, p.y);
  canvas.setPointerCapture(event.pointerId);
  if (target?.kind === "token") {
    select(target.id);
    const token = page.table.tokens.get(target.id);
    const at = viewport.toScene(p.x, p.y);
    drag = { kind: "token", id: target.id, dx: at.x - token.x, dy: at.y - token.y, path: [], failed: false };
    quiet();
    render();
  } else if (target?.kind === "door") {
    const next = target.wall.doorState === "open" ? "closed" : target.wall.doorState === "closed" ? "open" : "locked";
    if (next === "locked") refuse(new FieldError(`door ${target.wall.id}`, "the door is locked"));
    else perform({ t: "door", wall: target.wall.id, state: next });
  } else if (target?.kind === "light") {
    perform({ t: "light", id: target.light.id, on: Boolean(target.light.hidden) });
  } else {
    drag = { kind: "pan", x: p.x, y: p.y, vx: viewport.x, vy: viewport.y };
  }
});

canvas.addEventListener("pointermove", (event) => {
  if (!drag) return;
  const p = canvasPoint(event);
  if (drag.kind === "pan") {
    viewport.x = drag.vx - (p.x - drag.x) / viewport.scale;
    viewport.y = drag.vy - (p.y - drag.y) / viewport.scale;
    render();
    return;
  }
  if (drag.failed) return;
  const table = page.table;
  const token = table.tokens.get(drag.id);
  const at = viewport.toScene(p.x, p.y);
  // Tokens move by half grid squares: each step is one move the engine hears of.
  const step = table.grid.size / 2;
  const x = Math.round((at.x - drag.dx) / step) * step;
  const y = Math.round((at.y - drag.dy) / step) * step;
  if (x === token.x && y === token.y) return;
  try {
    moveStep(table, token, x, y, `actions[${page.run.actions.length}]`);
    drag.path.push([x, y]);
    render(token.id);
  } catch (error) {
    drag.failed = true;
    if (lost(error) && recover()) drag.path = [];
    else refuse(error);
    render();
  }
});

function endDrag() {
  if (drag?.kind === "token" && drag.path.length > 0) {
    page.run.actions.push({ t: "move", id: drag.id, path: drag.path });
    page.table.actionCount++;
    saveUrl();
    render();
  }
  drag = null;
}
canvas.addEventListener("pointerup", endDrag);
canvas.addEventListener("pointercancel", endDrag);

// The keyboard, on the focused map: arrows move the selected token by half a
// grid square (one move), [ and ] select the previous or next token, Escape
// clears the selection.
canvas.addEventListener("keydown", (event) => {
  if (!page.table) return;
  const ids = page.table.ids();
  if (event.key === "[" || event.key === "]") {
    event.preventDefault();
    if (ids.length === 0) return;
    const at = ids.indexOf(page.selected);
    const next = at < 0 ? 0 : (at + (event.key === "]" ? 1 : ids.length - 1)) % ids.length;
    select(ids[next]);
    return;
  }
  if (event.key === "Escape") {
    select(null);
    return;
  }
  const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  const step = steps[event.key];
  const token = page.selected && page.table.tokens.get(page.selected);
  if (!step || !token) return;
  event.preventDefault();
  const half = page.table.grid.size / 2;
  perform({ t: "move", id: token.id, path: [[token.x + step[0] * half, token.y + step[1] * half]] });
});

canvas.addEventListener("wheel", (event) => {
  event.preventDefault();
  const p = canvasPoint(event);
  viewport.zoom(Math.exp(-event.deltaY * 0.0015), p.x, p.y);
  render();
}, { passive: false });

function resize() {
  const rect = canvas.getBoundingClientRect();
  canvas.width = Math.max(100, Math.round(rect.width));
  canvas.height = Math.max(100, Math.round(rect.height));
  render();
}
new ResizeObserver(resize).observe(canvas);

// Drop a scene export on the map.
const stage = $("stage");
stage.addEventListener("dragover", (event) => {
  event.preventDefault();
  stage.classList.add("dragover");
});
stage.addEventListener("dragleave", () => stage.classList.remove("dragover"));
stage.addEventListener("drop", (event) => {
  event.preventDefault();
  stage.classList.remove("dragover");
  const file = event.dataTransfer?.files?.[0];
  if (file) onDrop(file);
});
$("scene-file").addEventListener("change", (event) => {
  const file = event.target.files?.[0];
  if (file) onDrop(file);
  event.target.value = "";
});

// Another scene starts a new run: the tokens, doors and lights of a run belong to its map.
$("scene").addEventListener("change", () => changeSetup({ scene: $("scene").value, actions: [] }));
$("night").addEventListener("change", () => changeSetup({ night: $("night").checked }));
$("ruleset").addEventListener("change", () => changeSetup({ ruleset: $("ruleset").value }));
$("lang").addEventListener("change", () => {
  page.run.lang = $("lang").value;
  saveUrl();
  syncControls();
  render();
});
$("seed").addEventListener("change", () => {
  const raw = $("seed").value.trim();
  const seed = raw === "" ? NaN : Number(raw);
  if (!Number.isSafeInteger(seed)) {
    refuse(new FieldError("seed", `expected an integer from 0 to 9000000000, got ${JSON.stringify(raw)}`));
    syncControls();
    return;
  }
  changeSetup({ seed });
});
$("add-actor").addEventListener("change", fillActorForm);
$("add").addEventListener("click", addToken);
$("add-lantern").addEventListener("click", () => {
  const centre = viewport.toScene(canvas.width / 2, canvas.height / 2);
  perform({ t: "lantern", id: freshId("lantern"), x: Math.round(centre.x), y: Math.round(centre.y), on: false });
});
$("hide").addEventListener("click", hide);
$("reveal").addEventListener("click", () => page.selected && perform({ t: "reveal", id: page.selected }));
$("remove").addEventListener("click", () => {
  if (page.selected && perform({ t: "remove", id: page.selected })) page.selected = null, render();
});
$("copy-link").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(location.href);
    say(words().linkCopied, "info");
  } catch {
    say(location.href, "info");
  }
});
$("export").addEventListener("click", exportRun);
$("undo").addEventListener("click", () => {
  if (page.run.actions.length === 0) return;
  adopt({ ...page.run, actions: page.run.actions.slice(0, -1) }, page.sceneExport);
});
$("reset").addEventListener("click", async () => {
  const run = structuredClone(DEFAULT_RUN);
  run.lang = page.run.lang;
  adopt(run, await sceneFor(run), { fit: true });
});
window.addEventListener("hashchange", async () => {
  try {
    const run = decodeRun(location.hash);
    if (run && JSON.stringify(run) !== JSON.stringify(page.run)) adopt(run, await sceneFor(run), { fit: run.scene !== page.run.scene });
  } catch (error) {
    refuse(error);
  }
});

// ---------------------------------------------------------------- start

/** What the tests and the benchmark read: the page's state and its answers. */
window.playground = {
  ready: false,
  lastError: null,
  get run() { return page.run; },
  get table() { return page.table; },
  get selected() { return page.selected; },
  viewport,
  perform,
  select,
  paint,
  renderPanels,
  exportScenario: () => exportScenario(page.run, page.table, page.library),
  /** The centre of a token on the canvas, in CSS pixels from the canvas's top-left. */
  tokenOnCanvas(id) {
    const c = tokenCircle(page.table.tokens.get(id), page.table.grid);
    const rect = canvas.getBoundingClientRect();
    return { x: ((c.x - viewport.x) * viewport.scale) * (rect.width / canvas.width), y: ((c.y - viewport.y) * viewport.scale) * (rect.height / canvas.height) };
  },
  /** A scene point on the canvas, in CSS pixels from the canvas's top-left. */
  pointOnCanvas(x, y) {
    const rect = canvas.getBoundingClientRect();
    return { x: (x - viewport.x) * viewport.scale * (rect.width / canvas.width), y: (y - viewport.y) * viewport.scale * (rect.height / canvas.height) };
  },
  colours: COLOURS,
};

async function start() {
  await init();
  const [sets, percentile] = await Promise.all([
    Promise.all(Object.entries(ACTOR_SETS).map(async ([key, { file }]) => [key, await fetchJson(`fixtures/${file}`)])),
    fetchJson("../demo/scenarios/nort-gate-percentile.json"),
  ]);
  page.library = new Library(Object.fromEntries(sets), percentile.roster ?? {});
  const select = $("add-actor");
  const plain = document.createElement("option");
  plain.value = "";
  select.append(plain);
  for (const { ref, label } of page.library.list()) {
    const option = document.createElement("option");
    option.value = ref;
    option.textContent = label;
    select.append(option);
  }
  select.value = "srd51:Guard";
  page.run = structuredClone(DEFAULT_RUN);
  resize();
  let run = null;
  try {
    run = decodeRun(location.hash);
  } catch (error) {
    refuse(error);
  }
  let loaded = false;
  if (run) {
    try {
      loaded = adopt(run, await sceneFor(run), { fit: true });
    } catch (error) {
      refuse(error);
    }
  }
  if (!loaded) {
    const message = $("message").hidden ? null : $("message").textContent;
    adopt(structuredClone(DEFAULT_RUN), await sceneFor(DEFAULT_RUN), { fit: true });
    if (message) say(message);
  }
  fillActorForm();
  paint();
  // The first frame with the run in it: the next animation frame after drawing.
  requestAnimationFrame(() => {
    window.playground.firstPaint = performance.now();
    window.playground.ready = true;
  });
}

start().catch((error) => {
  say(`The playground could not start: ${error?.message ?? error}`);
  window.playground.startError = String(error?.message ?? error);
});
