/**
 * The GM's perception window, "Furtive: who perceives whom": for the viewed
 * scene, a matrix whose rows are the hiders and whose columns are the
 * observers. Each cell shows the pair's state as the engine holds it
 * (perceived; presence only, O13; unperceived; exposed, O5; and whether the
 * observer is defenseless against the hider until the end of its turn, P6);
 * hovering or focusing a cell shows the decision behind it, its numbers and
 * its clause, in the GM's language, as the chat cards write it. Clicking a
 * cell (or Enter / Space on it) overrides the pair through the module's
 * action path (api/macros.mjs `override`: one transaction, the GM card and
 * its Undo).
 *
 * GM only: the pairs are read on the GM's own client from the scene's state
 * (`sceneState`, whose records only GMs can read) with the engine's `pairs`
 * query; nothing of it is sent to anyone.
 *
 * The window follows every transaction: a record written or dropped (each
 * transaction, undo and reset writes or drops one, storage/store.mjs), a
 * token created or deleted, the selection, the combatants. The pairs are
 * asked again and only the cells whose reading changed are patched; the
 * table is drawn again only when its rows or columns change.
 *
 * Foundry API:
 * - `foundry.applications.api.ApplicationV2` with `HandlebarsApplicationMixin`,
 *   `static DEFAULT_OPTIONS` `{id, classes, window: {title, icon, resizable},
 *   position}`, `static PARTS`, `_prepareContext(options)`,
 *   `_onRender(context, options)` ("Actions performed after any render of the
 *   Application"), `render({force})`, `close()`, `rendered`, `element`:
 *   v13 https://foundryvtt.com/api/classes/foundry.applications.api.ApplicationV2.html (the
 *   unversioned /api/ pages are v13's), the mixin
 *   https://foundryvtt.com/api/functions/foundry.applications.api.HandlebarsApplicationMixin.html;
 *   v14 lists both in the same namespace,
 *   https://foundryvtt.com/api/v14/modules/foundry.applications.api.html and
 *   https://foundryvtt.com/api/v14/classes/foundry.applications.api.ApplicationV2.html;
 *   how to write one ("Application Basics", "Default Options"):
 *   https://foundryvtt.com/api/modules/foundry.applications.html.
 * - A cell's `data-tooltip` is shown by the core TooltipManager on hover
 *   (https://foundryvtt.com/api/classes/foundry.helpers.interaction.TooltipManager.html);
 *   the window also writes the focused or hovered cell's decision in a line
 *   of its own, so focus alone shows it.
 * - `canvas.tokens.controlled` (the selected tokens), `game.combats`,
 *   `Combat#combatants`, `Combatant#tokenId`, `Combat#scene`:
 *   https://foundryvtt.com/api/classes/foundry.canvas.layers.TokenLayer.html,
 *   https://foundryvtt.com/api/classes/foundry.documents.Combat.html,
 *   https://foundryvtt.com/api/classes/foundry.documents.Combatant.html.
 */

import { MODULE_ID, modulePath } from "../constants.mjs";
import * as engine from "../engine.mjs";
import { FurtiveError } from "../errors.mjs";
import { engineText, escapeHtml, t } from "../i18n.mjs";
import { override } from "../api/macros.mjs";
import { sceneState } from "../gm/scene-state.mjs";
import { enqueue } from "../gm/queue.mjs";
import { notifyRefusal } from "../net/requests.mjs";
import { requireSceneLike, requireToken } from "../net/resolve.mjs";
import { isActiveGM, DELTA_KIND, STATE_KIND } from "../storage/store.mjs";

/** The window's element id (one window per client). */
export const WINDOW_ID = `${MODULE_ID}-perception-window`;

/** The states of a pair, as the engine's `pairs` query names them. */
const STATES = Object.freeze(["perceived", "presenceOnly", "unperceived", "exposed"]);

/**
 * One pair as the engine's `pairs` query gives it (npm `PairStanding`),
 * with its decision rendered in both languages.
 * @typedef {object} PairStanding
 * @property {string} hider
 * @property {string} observer
 * @property {"perceived" | "presenceOnly" | "unperceived" | "exposed"} state
 * @property {boolean} perceived
 * @property {boolean} located
 * @property {boolean} exposed
 * @property {boolean} defenseless
 * @property {string} clause
 * @property {string} en
 * @property {string} fr
 */

/**
 * The filters of the window.
 * @typedef {object} WindowFilters
 * @property {boolean} combatants only tokens that are combatants of a combat on the scene
 * @property {boolean} selected   only the selected tokens' rows and columns (see {@link visibleAxes})
 * @property {boolean} unseen     only pairs whose hider the observer does not perceive
 */

/**
 * What one cell shows.
 * @typedef {object} CellView
 * @property {string} state    the pair's state ("none": no pair)
 * @property {boolean} defenseless
 * @property {string} classes
 * @property {string} clause
 * @property {string} text     the decision in the GM's language
 * @property {boolean} empty   no pair (the hider itself)
 */

/** The open window of this client, if any. @type {any} */
let openWindow = null;

/**
 * Every pair of the scene's state with its decision, read on this GM's
 * client: the active GM asks its live session; any other GM loads the
 * saved state into a session of its own for the question. No state: none.
 * @param {Scene} scene
 * @returns {PairStanding[]}
 */
export function scenePairs(scene) {
  const live = isActiveGM() ? sceneState(scene, "live") : null;
  if (live?.session) return live.session.pairs({});
  const saved = sceneState(scene, "saved");
  if (!saved) return [];
  if (saved.session) return saved.session.pairs({});
  const session = engine.SceneSession.load(saved.state);
  try {
    return session.pairs({});
  } finally {
    session.free();
  }
}

/**
 * The token ids of the combatants of every combat on the scene.
 * @param {Scene} scene
 * @returns {Set<string>}
 */
function combatantTokens(scene) {
  const ids = new Set();
  for (const combat of /** @type {any} */ (game).combats ?? []) {
    const sceneOf = /** @type {any} */ (combat).scene;
    if (sceneOf && sceneOf.id !== scene.id) continue;
    for (const combatant of /** @type {any} */ (combat).combatants ?? []) if (combatant.tokenId) ids.add(String(combatant.tokenId));
  }
  return ids;
}

/**
 * The ids of this user's selected tokens on the scene (on the canvas only
 * when it shows that scene).
 * @param {Scene} scene
 * @returns {Set<string>}
 */
function selectedTokens(scene) {
  if (canvas?.scene?.id !== scene.id) return new Set();
  return new Set((canvas?.tokens?.controlled ?? []).map((token) => String(/** @type {any} */ (token).document?.id)));
}

/**
 * The rows and columns the filters keep, each sorted by token name.
 * - `combatants`: only tokens of a combat on the scene, as rows and columns.
 * - `selected`: the selected hiders' rows (every row when none is
 *   selected), and the columns of the other selected tokens (every column
 *   when there is none): select a hider to see who perceives it, an
 *   observer to see whom it perceives, both for their one pair.
 * - `unseen`: only the rows and columns with a pair whose hider is unseen.
 * @param {Scene} scene
 * @param {PairStanding[]} pairs
 * @param {WindowFilters} filters
 * @returns {{hiders: string[], observers: string[], cells: Map<string, PairStanding>}}
 */
export function visibleAxes(scene, pairs, filters) {
  const present = (/** @type {string} */ id) => Boolean(scene.tokens.get(id));
  const fighting = filters.combatants ? combatantTokens(scene) : null;
  const kept = (/** @type {string} */ id) => present(id) && (!fighting || fighting.has(id));
  let shown = pairs.filter((p) => kept(p.hider) && kept(p.observer));
  if (filters.selected) {
    const selected = selectedTokens(scene);
    const hiderIds = new Set(shown.map((p) => p.hider));
    const selectedHiders = [...selected].filter((id) => hiderIds.has(id));
    const selectedObservers = [...selected].filter((id) => !selectedHiders.includes(id));
    shown = shown.filter((p) => (!selectedHiders.length || selectedHiders.includes(p.hider)) && (!selectedObservers.length || selectedObservers.includes(p.observer)));
  }
  if (filters.unseen) shown = shown.filter((p) => !p.perceived);
  const cells = new Map(shown.map((p) => [cellKey(p.hider, p.observer), p]));
  const byName = (/** @type {string} */ a, /** @type {string} */ b) => tokenName(scene, a).localeCompare(tokenName(scene, b)) || a.localeCompare(b);
  const hiders = [...new Set(shown.map((p) => p.hider))].sort(byName);
  const observers = [...new Set(shown.map((p) => p.observer))].sort(byName);
  return { hiders, observers, cells };
}

/** @param {string} hider @param {string} observer */
function cellKey(hider, observer) {
  return `${hider}|${observer}`;
}

/** @param {Scene} scene @param {string} id */
function tokenName(scene, id) {
  return scene.tokens.get(id)?.name ?? id;
}

/**
 * What a cell shows for a pair (none: the cell is empty). Cheap: a cell is
 * its class (styles/furtive.css draws each state's mark), and its words are
 * written when it is hovered or focused ({@link describeCell}), so a large
 * table stays light to draw.
 * @param {PairStanding | undefined} pair
 * @returns {CellView}
 */
export function cellView(pair) {
  if (!pair) return { state: "none", defenseless: false, classes: "furtive-pw-none", clause: "", text: "", empty: true };
  const state = STATES.includes(pair.state) ? pair.state : "unperceived";
  return {
    state,
    defenseless: pair.defenseless,
    classes: pair.defenseless ? `furtive-pw-${state} furtive-pw-defenseless` : `furtive-pw-${state}`,
    clause: pair.clause,
    text: engineText(pair),
    empty: false,
  };
}

/**
 * A cell in words: its accessible name ("Fighter → Rogue: unperceived")
 * and the line its tooltip and the window's decision line show: the state,
 * then the decision with its clause, as the cards write it.
 * @param {Scene} scene
 * @param {string} hider
 * @param {string} observer
 * @param {CellView} view
 * @returns {{label: string, line: string}}
 */
export function describeCell(scene, hider, observer, view) {
  const names = { hider: tokenName(scene, hider), observer: tokenName(scene, observer) };
  if (view.empty) {
    const label = t("FURTIVE.PerceptionWindow.NoPair", names);
    return { label, line: label };
  }
  const words = [t(`FURTIVE.PerceptionWindow.State.${view.state}`)];
  if (view.defenseless) words.push(t("FURTIVE.PerceptionWindow.Defenseless", names));
  const label = t("FURTIVE.PerceptionWindow.CellLabel", { ...names, state: words.join(", ") });
  return { label, line: `${label}. ${view.clause} ${view.text}` };
}

/**
 * Reads the window's options as a macro or the HUD gives them; bad input
 * is refused naming the field, and nothing opens.
 * @param {{scene?: Scene | string, token?: import("../net/resolve.mjs").TokenLike, filters?: Partial<WindowFilters>}} options
 * @returns {{scene: Scene, token: TokenDocument | null, filters: WindowFilters}}
 */
function readOptions(options) {
  if (options === null || typeof options !== "object" || Array.isArray(options)) throw FurtiveError.of("invalid_input", `options: expected an object, got ${options === null ? "null" : Array.isArray(options) ? "a list" : typeof options}`);
  const token = options.token === undefined || options.token === null ? null : requireToken(options.token, "token");
  const scene = token ? /** @type {Scene} */ (token.parent) : requireSceneLike(options.scene, "scene");
  const filters = { combatants: false, selected: false, unseen: false };
  const given = options.filters ?? {};
  if (typeof given !== "object" || Array.isArray(given)) throw FurtiveError.of("invalid_input", `filters: expected an object, got ${Array.isArray(given) ? "a list" : typeof given}`);
  for (const [key, value] of Object.entries(given)) {
    if (!(key in filters)) throw FurtiveError.of("invalid_input", `filters.${key}: unknown filter (combatants, selected, unseen)`);
    if (typeof value !== "boolean") throw FurtiveError.of("invalid_input", `filters.${key}: expected true or false, got ${typeof value}`);
    filters[/** @type {keyof WindowFilters} */ (key)] = value;
  }
  return { scene, token, filters };
}

/**
 * Opens the window (or brings the open one to the scene and filters
 * asked for). GM only: a player is refused with `gm_only` and nothing opens.
 * @param {{scene?: Scene | string, token?: import("../net/resolve.mjs").TokenLike, filters?: Partial<WindowFilters>}} [options]
 *   `scene`: a Scene or its id (default: the viewed scene); `token`: a token
 *   whose row (or else column) gets the focus; `filters`: the filters on at opening
 * @returns {Promise<any>} the window
 */
export async function openPerceptionWindow(options = {}) {
  if (!game.user?.isGM) throw FurtiveError.of("gm_only", "the perception window is for GMs");
  const { scene, token, filters } = readOptions(options);
  await engine.engineReady;
  const Window = windowClass();
  const app = openWindow?.rendered ? openWindow : new Window();
  app.sceneId = scene.id;
  app.filters = filters;
  app.focusToken = token?.id ?? null;
  openWindow = app;
  // After the action under way, if any: it reads the state that action leaves.
  await enqueue(() => app.render({ force: true }));
  return app;
}

/**
 * The open window, if any (tests and macros).
 * @returns {any}
 */
export function perceptionWindow() {
  return openWindow?.rendered ? openWindow : null;
}

/**
 * Asks the open window to read the pairs again and patch what changed; a
 * record message of another scene, or any other message, is left alone.
 * Runs after the action under way (gm/queue.mjs), so it reads the state the
 * action left; several asks in a row read once.
 * @param {unknown} [document] what changed (a ChatMessage, a Token, a Combatant, ...)
 */
export function refreshPerceptionWindow(document) {
  const app = perceptionWindow();
  if (!app) return;
  const any = /** @type {any} */ (document);
  if (any?.documentName === "ChatMessage") {
    const flags = any.flags?.[MODULE_ID];
    if (![STATE_KIND, DELTA_KIND].includes(flags?.kind) || flags?.sceneId !== app.sceneId) return;
  }
  app.scheduleRefresh();
}

/**
 * The selection changed (`controlToken`): the window reads again only when
 * it keeps the selected tokens.
 */
export function followSelection() {
  const app = perceptionWindow();
  if (app?.filters.selected) app.scheduleRefresh();
}

/**
 * The viewed scene changed (`canvasReady`): the window shows the new one.
 * @param {any} board the Canvas
 */
export function followViewedScene(board) {
  const app = perceptionWindow();
  if (!app || !board?.scene || board.scene.id === app.sceneId) return;
  app.sceneId = board.scene.id;
  app.scheduleRefresh(true);
}

/** @type {any} */
let windowClassCache = null;

/**
 * The window's class, built when first asked (the application classes exist
 * once Foundry has started).
 * @returns {any}
 */
function windowClass() {
  if (windowClassCache) return windowClassCache;
  const api = /** @type {any} */ (foundry).applications.api;
  windowClassCache = class PerceptionWindow extends api.HandlebarsApplicationMixin(api.ApplicationV2) {
    static DEFAULT_OPTIONS = {
      id: WINDOW_ID,
      classes: ["furtive-perception-window"],
      window: { title: "FURTIVE.PerceptionWindow.Title", icon: "fa-solid fa-user-secret", resizable: true },
      position: { width: 720, height: "auto" },
    };

    static PARTS = { matrix: { template: modulePath("templates/perception-window.hbs") } };

    constructor(options = {}) {
      super(options);
      /** @type {string | null} */
      this.sceneId = null;
      /** @type {WindowFilters} */
      this.filters = { combatants: false, selected: false, unseen: false };
      /** @type {string | null} */
      this.focusToken = null;
      /** The drawn table: its axes and each cell's view by key. */
      this.drawn = /** @type {{hiders: string[], observers: string[], views: Map<string, CellView>} | null} */ (null);
      /** A refresh is waiting in the queue. */
      this.refreshing = /** @type {Promise<void> | null} */ (null);
      /** A refresh must draw the table again (the scene changed). */
      this.redraw = false;
      /** The cells the last refresh patched (tests read it). */
      this.lastPatched = /** @type {string[]} */ ([]);
    }

    get title() {
      return t("FURTIVE.PerceptionWindow.Title");
    }

    /** The scene shown. @returns {Scene | null} */
    get scene() {
      return (this.sceneId && game.scenes.get(this.sceneId)) || null;
    }

    /** The pairs, then the rows and columns the filters keep. */
    readMatrix() {
      const scene = this.scene;
      if (!scene) return { scene: null, hiders: [], observers: [], cells: new Map() };
      return { scene, ...visibleAxes(scene, scenePairs(scene), this.filters) };
    }

    async _prepareContext() {
      const { scene, hiders, observers, cells } = this.readMatrix();
      /** @type {Map<string, CellView>} */
      const views = new Map();
      const rows = hiders.map((hider) => ({
        hider,
        name: tokenName(/** @type {Scene} */ (scene), hider),
        cells: observers.map((observer) => {
          const view = cellView(cells.get(cellKey(hider, observer)));
          views.set(cellKey(hider, observer), view);
          return view.classes;
        }),
      }));
      this.drawn = { hiders, observers, views };
      return {
        sceneName: scene?.name ?? "",
        empty: rows.length === 0,
        emptyText: t(scene ? "FURTIVE.PerceptionWindow.Empty" : "FURTIVE.PerceptionWindow.NoScene"),
        axes: t("FURTIVE.PerceptionWindow.Axes"),
        filters: ["combatants", "selected", "unseen"].map((key) => ({ key, label: t(`FURTIVE.PerceptionWindow.Filter.${key}`), checked: this.filters[/** @type {keyof WindowFilters} */ (key)] })),
        legend: [...STATES, "defenseless"].map((state) => ({ state, label: t(`FURTIVE.PerceptionWindow.State.${state}`) })),
        observers: observers.map((id) => ({ id, name: tokenName(/** @type {Scene} */ (scene), id) })),
        rows,
        hint: t("FURTIVE.PerceptionWindow.Hint"),
      };
    }

    /**
     * After each render: the listeners (delegated on the table), one cell in
     * the tab order, and the focus on the asked token's first cell.
     * @param {object} _context
     * @param {object} _options
     */
    _onRender(_context, _options) {
      const root = /** @type {HTMLElement} */ (this.element);
      root.querySelector(".furtive-pw-filters")?.addEventListener("change", (event) => {
        const input = /** @type {HTMLInputElement} */ (event.target);
        const key = /** @type {keyof WindowFilters} */ (input.name);
        if (!(key in this.filters)) return;
        this.filters[key] = input.checked;
        this.scheduleRefresh(true);
      });
      const table = root.querySelector("table.furtive-pw-matrix");
      if (!table) return;
      table.addEventListener("click", (event) => {
        const cell = cellOf(event.target);
        if (cell) void this.overrideCell(cell);
      });
      table.addEventListener("keydown", (event) => this.onKey(/** @type {KeyboardEvent} */ (event)));
      for (const type of ["focusin", "mouseover"]) {
        table.addEventListener(type, (event) => {
          const cell = cellOf(event.target);
          if (cell) this.describe(cell);
        });
      }
      const asked = this.focusToken;
      const first = asked ? this.cellAt(asked, this.drawn?.observers[0] ?? "") ?? this.cellAt(this.drawn?.hiders[0] ?? "", asked) : null;
      const start = first ?? /** @type {HTMLElement | null} */ (table.querySelector("tbody td"));
      if (start) start.tabIndex = 0;
      if (first) {
        first.focus();
        this.focusToken = null;
      }
    }

    /**
     * The cell of a pair in the drawn table: its row by the hider, its
     * column by the observer's place (the table's cells carry no ids, so
     * a large table stays light to draw).
     * @param {string} hider
     * @param {string} observer
     * @returns {HTMLElement | null}
     */
    cellAt(hider, observer) {
      const column = this.drawn?.observers.indexOf(observer) ?? -1;
      if (column < 0) return null;
      const row = /** @type {HTMLTableRowElement | null} */ (/** @type {HTMLElement} */ (this.element).querySelector(`table.furtive-pw-matrix tr[data-hider="${hider}"]`));
      return /** @type {HTMLElement | null} */ (row?.cells[column + 1] ?? null);
    }

    /**
     * The pair of a cell: the hider from its row, the observer from its column.
     * @param {HTMLElement} cell
     */
    pairOf(cell) {
      const row = /** @type {HTMLElement} */ (cell.parentElement);
      return { hider: row.dataset.hider ?? "", observer: this.drawn?.observers[/** @type {HTMLTableCellElement} */ (cell).cellIndex - 1] ?? "" };
    }

    /**
     * Writes a cell's words when it is hovered or focused: its accessible
     * name, its tooltip (`data-tooltip`), and the window's decision line.
     * @param {HTMLElement} cell
     */
    describe(cell) {
      const scene = this.scene;
      const { hider, observer } = this.pairOf(cell);
      const view = this.drawn?.views.get(cellKey(hider, observer));
      if (!scene || !view) return;
      const { label, line } = describeCell(scene, hider, observer, view);
      cell.setAttribute("aria-label", label);
      cell.dataset.tooltip = line;
      const decision = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (this.element).querySelector(".furtive-pw-decision"));
      // The decision as the cards write an entry (ui/chat.mjs): the clause, then the text.
      if (decision) decision.innerHTML = view.empty ? escapeHtml(label) : `${escapeHtml(label)}. <span class="furtive-clause">${escapeHtml(view.clause)}</span> <span class="furtive-text">${escapeHtml(view.text)}</span>`;
    }

    /**
     * Arrow keys move the focus from cell to cell (one cell in the tab
     * order, the focused one); Enter and Space override the focused pair.
     * @param {KeyboardEvent} event
     */
    onKey(event) {
      const cell = cellOf(event.target);
      if (!cell) return;
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        void this.overrideCell(cell);
        return;
      }
      const row = /** @type {HTMLTableRowElement} */ (cell.parentElement);
      const cells = [...row.querySelectorAll("td")];
      const column = cells.indexOf(/** @type {HTMLTableCellElement} */ (cell));
      const rows = [.../** @type {HTMLElement} */ (row.parentElement).children];
      const rowIndex = rows.indexOf(row);
      /** @type {Element | undefined} */
      let next;
      if (event.key === "ArrowRight") next = cells[column + 1];
      else if (event.key === "ArrowLeft") next = cells[column - 1];
      else if (event.key === "ArrowDown") next = rows[rowIndex + 1]?.querySelectorAll("td")[column];
      else if (event.key === "ArrowUp") next = rows[rowIndex - 1]?.querySelectorAll("td")[column];
      else if (event.key === "Home") next = cells[0];
      else if (event.key === "End") next = cells.at(-1);
      else return;
      event.preventDefault();
      if (!next) return;
      cell.tabIndex = -1;
      const target = /** @type {HTMLElement} */ (next);
      target.tabIndex = 0;
      target.focus();
    }

    /**
     * Overrides the cell's pair: a perceived hider (located or presence
     * only) becomes unperceived, any other state perceived (`gmOverride`),
     * through the module's action path. A refusal (a token deleted
     * meanwhile, ...) is told, nothing changes.
     * @param {HTMLElement} cell
     */
    async overrideCell(cell) {
      const scene = this.scene;
      const { hider, observer } = this.pairOf(cell);
      const view = this.drawn?.views.get(cellKey(hider, observer));
      if (!scene || !view || view.empty) return;
      const perceived = view.state === "perceived" || view.state === "presenceOnly";
      try {
        await override(scene.tokens.get(hider) ?? hider, scene.tokens.get(observer) ?? observer, !perceived);
      } catch (error) {
        try {
          notifyRefusal(error);
        } catch (other) {
          console.error("furtive |", other);
        }
      }
    }

    /**
     * Reads the pairs again after the action under way, once for several asks.
     * @param {boolean} [redraw] draw the whole table again (the scene or the filters changed)
     * @returns {Promise<void>}
     */
    scheduleRefresh(redraw = false) {
      if (redraw) this.redraw = true;
      if (this.refreshing) return this.refreshing;
      this.refreshing = enqueue(async () => {
        this.refreshing = null;
        if (!this.rendered) return;
        try {
          await this.refresh();
        } catch (error) {
          console.error("furtive |", error);
        }
      });
      return this.refreshing;
    }

    /**
     * Reads the pairs and patches the cells whose reading changed; draws
     * the table again when its rows or columns changed (or when asked).
     */
    async refresh() {
      const redraw = this.redraw;
      this.redraw = false;
      const { scene, hiders, observers, cells } = this.readMatrix();
      const drawn = this.drawn;
      if (redraw || !scene || !drawn || !sameList(drawn.hiders, hiders) || !sameList(drawn.observers, observers)) {
        this.lastPatched = [];
        await this.render();
        return;
      }
      const patched = [];
      for (const hider of hiders) {
        for (const observer of observers) {
          const key = cellKey(hider, observer);
          const view = cellView(cells.get(key));
          const before = drawn.views.get(key);
          if (before && sameView(before, view)) continue;
          drawn.views.set(key, view);
          const cell = this.cellAt(hider, observer);
          if (cell) {
            cell.className = view.classes;
            // Words written for the old reading are written again now.
            if (cell.hasAttribute("aria-label")) this.describe(cell);
          }
          patched.push(key);
        }
      }
      this.lastPatched = patched;
    }

    /** @param {any} options */
    async close(options) {
      if (openWindow === this) openWindow = null;
      return super.close(options);
    }
  };
  return windowClassCache;
}

/**
 * The matrix cell an event happened in, or null.
 * @param {EventTarget | null} target
 * @returns {HTMLElement | null}
 */
function cellOf(target) {
  return /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (target)?.closest?.(".furtive-pw-matrix tbody td") ?? null);
}

/** @param {CellView} a @param {CellView} b */
function sameView(a, b) {
  return a.classes === b.classes && a.clause === b.clause && a.text === b.text;
}

/** @param {string[]} a @param {string[]} b */
function sameList(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
