/**
 * The GM's perception window, "Furtive: who perceives whom"
 * (foundry-module/scripts/ui/perception-window.mjs): opened from the scene
 * controls and the Token HUD; a matrix of hiders (rows) by observers
 * (columns) with each pair's state from the engine's `pairs` query; the
 * decision behind a cell in the GM's language; a click or Enter overrides
 * the pair through the action path (GM card, Undo); filters; live patches;
 * the keyboard; GM only; bad input.
 *
 * The world (unit/world.mjs): the rogue hides with score 221; the fighter
 * (acuity sum 150), the sentry (90) and the guard (150) do not perceive it,
 * the archer (260) and the lookout (310) do.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { ALICE, BOB, DOOR, GM, SCENE, TOKENS, apiOf, clickCard, hideRogue, hideRogueOpposed, placeable, plain, rig, setup, shutdown, startCombat, until } from "./world.mjs";

const WINDOW = "#furtive-perception-window";

/** The window's element on a client, or null. */
function windowOf(client) {
  return client.window.document.querySelector(WINDOW);
}

/** The cell of a pair in the open window: its row by the hider, its column by the observer's header. */
function cellOf(client, hider, observer) {
  const column = columnsOf(client).indexOf(observer);
  const row = windowOf(client)?.querySelector(`tbody tr[data-hider="${hider}"]`);
  return column < 0 || !row ? null : row.cells[column + 1];
}

/** The pair's state class of a cell. */
function stateOf(cell) {
  return ["perceived", "presenceOnly", "unperceived", "exposed"].find((state) => cell.classList.contains(`furtive-pw-${state}`));
}

/** The observer ids of the window's columns, in order. */
function columnsOf(client) {
  return [...windowOf(client).querySelectorAll("th.furtive-pw-observer")].map((th) => th.dataset.observer);
}

/** The hider ids of the window's rows, in order. */
function rowsOf(client) {
  return [...windowOf(client).querySelectorAll("tbody tr")].map((tr) => tr.dataset.hider);
}

/** Waits until the open window has read the state the last action left. */
async function settled(env, client = env.gm) {
  await env.server.idle();
  const app = apiOf(client) && client.ctx.applications.find((a) => a.options?.id === "furtive-perception-window");
  if (app?.refreshing) await app.refreshing;
  await env.server.idle();
}

/** Moves the mouse over a cell. */
function hover(client, cell) {
  cell.dispatchEvent(new client.window.MouseEvent("mouseover", { bubbles: true }));
}

/** The GM's scene-control tools after `getSceneControlButtons` (v13: a record of controls). */
function sceneTools(client) {
  const controls = { tokens: { name: "tokens", tools: {} } };
  client.ctx.Hooks.callAll("getSceneControlButtons", controls);
  return controls.tokens.tools;
}

describe("Perception window: who perceives whom", () => {
  it("opens from the scene controls: title, one row per hider, one column per observer, each cell's state", async () => {
    const env = await setup({ users: [GM, ALICE] });
    try {
      await hideRogue(env);
      const tool = sceneTools(env.gm)["furtive-perception"];
      assert.ok(tool, "a GM tool in the token controls");
      assert.equal(tool.button, true);
      tool.onChange();
      await until(() => windowOf(env.gm), "the window");
      const element = windowOf(env.gm);
      assert.equal(element.querySelector(".window-header").textContent, "Furtive: who perceives whom");
      assert.deepEqual(rowsOf(env.gm), [TOKENS.rogue]);
      assert.deepEqual(columnsOf(env.gm).sort(), [TOKENS.archer, TOKENS.fighter, TOKENS.guard, TOKENS.lookout, TOKENS.sentry].sort());
      const expected = { fighter: "unperceived", archer: "perceived", sentry: "unperceived", lookout: "perceived", guard: "unperceived" };
      for (const [name, state] of Object.entries(expected)) assert.equal(stateOf(cellOf(env.gm, TOKENS.rogue, TOKENS[name])), state, name);
      // Columns sorted by name: Archer, Fighter, Guard, Lookout, Sentry.
      assert.deepEqual(columnsOf(env.gm), [TOKENS.archer, TOKENS.fighter, TOKENS.guard, TOKENS.lookout, TOKENS.sentry]);
      assert.deepEqual(plain(env.gm.ctx.errors), []);
    } finally {
      shutdown(env);
    }
  });

  it("opens from the Token HUD with the focus on the token's row", async () => {
    const env = await setup({ users: [GM, ALICE] });
    try {
      await hideRogue(env);
      const hud = env.gm.ctx.canvas.hud.token;
      hud.bind(placeable(env.gm, TOKENS.rogue));
      const button = hud.element.querySelector('[data-furtive-action="perceptionWindow"]');
      assert.ok(button, "a GM button on the HUD");
      button.dispatchEvent(new env.gm.window.MouseEvent("click", { bubbles: true }));
      await until(() => windowOf(env.gm), "the window");
      await until(() => env.gm.window.document.activeElement?.tagName === "TD", "the focus on a cell");
      assert.equal(env.gm.window.document.activeElement.parentElement.dataset.hider, TOKENS.rogue);
      hud.clear();
    } finally {
      shutdown(env);
    }
  });

  it("a cell's decision, with its numbers and clause, in English", async () => {
    const env = await setup({ users: [GM, ALICE] });
    try {
      await hideRogue(env);
      await apiOf(env.gm).perceptionWindow();
      const fighter = cellOf(env.gm, TOKENS.rogue, TOKENS.fighter);
      hover(env.gm, fighter);
      assert.equal(fighter.dataset.tooltip, "Fighter → Rogue: unperceived. P3 score 221 > acuity sum 150: Fighter does not perceive Rogue (P3).");
      assert.equal(fighter.getAttribute("aria-label"), "Fighter → Rogue: unperceived");
      assert.equal(windowOf(env.gm).querySelector(".furtive-pw-decision").textContent, fighter.dataset.tooltip, "the decision line shows it too");
      // Focus shows it (keyboard users get no hover): the first cell (Archer) is in the tab order.
      const archer = cellOf(env.gm, TOKENS.rogue, TOKENS.archer);
      archer.focus();
      assert.equal(windowOf(env.gm).querySelector(".furtive-pw-decision").textContent, "Archer → Rogue: perceived, located. P3 score 221 ≤ acuity sum 260: Archer perceives Rogue (P3).");
    } finally {
      shutdown(env);
    }
  });

  it("a cell's decision in French for a French GM", async () => {
    const env = await setup({ users: [GM, ALICE], lang: { [GM]: "fr" } });
    try {
      await hideRogue(env);
      await apiOf(env.gm).perceptionWindow();
      assert.equal(windowOf(env.gm).querySelector(".window-header").textContent, "Furtive : qui perçoit qui");
      const fighter = cellOf(env.gm, TOKENS.rogue, TOKENS.fighter);
      hover(env.gm, fighter);
      assert.equal(fighter.dataset.tooltip, "Fighter → Rogue : non perçu. P3 score 221 > somme des acuités 150 : Fighter ne perçoit pas Rogue (P3).");
      assert.equal(windowOf(env.gm).querySelector(".furtive-pw-legend").textContent.includes("présence seulement"), true);
    } finally {
      shutdown(env);
    }
  });

  it("a click overrides the pair in one transaction, with the GM card and its Undo; the window follows both", async () => {
    const env = await setup({ users: [GM, ALICE] });
    try {
      await hideRogue(env);
      await apiOf(env.gm).perceptionWindow();
      const recordsBefore = env.gm.ctx.game.messages.filter((m) => ["state", "stateDelta"].includes(m.getFlag("furtive", "kind"))).length;
      const cardsBefore = env.gm.ctx.game.messages.size;
      cellOf(env.gm, TOKENS.rogue, TOKENS.fighter).dispatchEvent(new env.gm.window.MouseEvent("click", { bubbles: true }));
      await until(() => apiOf(env.gm).perceives(TOKENS.fighter, TOKENS.rogue), "the override");
      await settled(env);
      assert.equal(stateOf(cellOf(env.gm, TOKENS.rogue, TOKENS.fighter)), "perceived");
      hover(env.gm, cellOf(env.gm, TOKENS.rogue, TOKENS.fighter));
      assert.match(cellOf(env.gm, TOKENS.rogue, TOKENS.fighter).dataset.tooltip, /^Fighter → Rogue: perceived, located\. GM /, "the GM's override decided");
      const records = env.gm.ctx.game.messages.filter((m) => ["state", "stateDelta"].includes(m.getFlag("furtive", "kind")));
      assert.equal(records.length, recordsBefore + 1, "one record written: one transaction");
      const card = env.gm.ctx.game.messages.contents.slice(cardsBefore).find((m) => m.getFlag("furtive", "actionId"));
      assert.ok(card, "the action's GM card with its Undo");
      clickCard(env.gm, card, "undo");
      await until(() => !apiOf(env.gm).perceives(TOKENS.fighter, TOKENS.rogue), "the undo");
      await settled(env);
      assert.equal(stateOf(cellOf(env.gm, TOKENS.rogue, TOKENS.fighter)), "unperceived");
      assert.deepEqual(plain(env.gm.ctx.errors), []);
    } finally {
      shutdown(env);
    }
  });

  it("after an action, only the changed cell is patched: the other cells are the same elements", async () => {
    const env = await setup({ users: [GM, ALICE] });
    try {
      await hideRogue(env);
      const app = await apiOf(env.gm).perceptionWindow();
      const before = new Map(columnsOf(env.gm).map((observer) => [observer, cellOf(env.gm, TOKENS.rogue, observer)]));
      const table = windowOf(env.gm).querySelector("table");
      await apiOf(env.gm).override(TOKENS.rogue, TOKENS.sentry, true);
      await settled(env);
      assert.equal(windowOf(env.gm).querySelector("table"), table, "the table was not drawn again");
      for (const [observer, cell] of before) assert.equal(cellOf(env.gm, TOKENS.rogue, observer), cell, `the ${observer} cell is the same element`);
      assert.deepEqual(plain(app.lastPatched), [`${TOKENS.rogue}|${TOKENS.sentry}`]);
      assert.equal(stateOf(before.get(TOKENS.sentry)), "perceived");
      assert.equal(stateOf(before.get(TOKENS.fighter)), "unperceived");
    } finally {
      shutdown(env);
    }
  });

  it("filters: combatants only, the selected tokens, only unseen hiders", async () => {
    const env = await setup({ users: [GM, ALICE] });
    try {
      await hideRogue(env);
      await apiOf(env.gm).perceptionWindow();
      const toggle = async (name) => {
        const input = windowOf(env.gm).querySelector(`.furtive-pw-filters input[name="${name}"]`);
        input.checked = !input.checked;
        input.dispatchEvent(new env.gm.window.Event("change", { bubbles: true }));
        await settled(env);
      };
      await toggle("unseen");
      assert.deepEqual(columnsOf(env.gm), [TOKENS.fighter, TOKENS.guard, TOKENS.sentry], "only the observers that do not perceive the rogue");
      await toggle("unseen");
      assert.equal(columnsOf(env.gm).length, 5);

      await startCombat(env, [[TOKENS.rogue, 20], [TOKENS.fighter, 10], [TOKENS.archer, 5]]);
      await toggle("combatants");
      assert.deepEqual(columnsOf(env.gm), [TOKENS.archer, TOKENS.fighter]);
      await toggle("combatants");

      placeable(env.gm, TOKENS.lookout).control({ releaseOthers: true });
      await toggle("selected");
      assert.deepEqual(rowsOf(env.gm), [TOKENS.rogue]);
      assert.deepEqual(columnsOf(env.gm), [TOKENS.lookout], "a selected observer: its column");
      // The selection changes: the window follows it.
      placeable(env.gm, TOKENS.guard).control({ releaseOthers: true });
      await settled(env);
      assert.deepEqual(columnsOf(env.gm), [TOKENS.guard]);
      placeable(env.gm, TOKENS.rogue).control({ releaseOthers: true });
      await settled(env);
      assert.equal(columnsOf(env.gm).length, 5, "a selected hider: its row with every observer");
    } finally {
      shutdown(env);
    }
  });

  it("keyboard: one cell in the tab order, arrows move the focus, Enter overrides the focused pair", async () => {
    const env = await setup({ users: [GM, ALICE] });
    try {
      await hideRogue(env);
      await apiOf(env.gm).perceptionWindow();
      const cells = [...windowOf(env.gm).querySelectorAll("tbody td")];
      assert.deepEqual(cells.map((c) => c.tabIndex), [0, -1, -1, -1, -1], "one cell in the tab order");
      const key = (target, name) => target.dispatchEvent(new env.gm.window.KeyboardEvent("keydown", { key: name, bubbles: true, cancelable: true }));
      cells[0].focus();
      key(cells[0], "ArrowRight");
      assert.equal(env.gm.window.document.activeElement, cells[1]);
      assert.deepEqual(cells.map((c) => c.tabIndex), [-1, 0, -1, -1, -1]);
      key(cells[1], "End");
      assert.equal(env.gm.window.document.activeElement, cells[4]);
      key(cells[4], "ArrowLeft");
      const focused = env.gm.window.document.activeElement;
      assert.equal(focused, cells[3]);
      // Columns: Archer, Fighter, Guard, Lookout, Sentry: the Lookout perceives the rogue.
      assert.equal(focused, cellOf(env.gm, TOKENS.rogue, TOKENS.lookout));
      key(focused, "Enter");
      await until(() => !apiOf(env.gm).perceives(TOKENS.lookout, TOKENS.rogue), "the override from the keyboard");
      await settled(env);
      assert.equal(stateOf(cellOf(env.gm, TOKENS.rogue, TOKENS.lookout)), "unperceived");
      key(cellOf(env.gm, TOKENS.rogue, TOKENS.lookout), " ");
      await until(() => apiOf(env.gm).perceives(TOKENS.lookout, TOKENS.rogue), "Space overrides back");
    } finally {
      shutdown(env);
    }
  });

  it("GM only: a player can neither open it nor receive anything of it", async () => {
    const env = await setup({ users: [GM, ALICE, BOB] });
    try {
      await hideRogue(env);
      // No tool, no HUD button for a player.
      assert.equal(sceneTools(env.alice)["furtive-perception"], undefined);
      const hud = env.alice.ctx.canvas.hud.token;
      hud.bind(placeable(env.alice, TOKENS.rogue));
      assert.equal(hud.element.querySelector('[data-furtive-action="perceptionWindow"]'), null);
      hud.clear();
      await assert.rejects(apiOf(env.alice).perceptionWindow(), (error) => error.code === "gm_only");
      assert.equal(windowOf(env.alice), null);
      // The GM uses the window: no player is sent its readings.
      const sentBefore = { [ALICE]: env.server.received(ALICE).length, [BOB]: env.server.received(BOB).length };
      await apiOf(env.gm).perceptionWindow();
      hover(env.gm, cellOf(env.gm, TOKENS.rogue, TOKENS.guard));
      await settled(env);
      for (const user of [ALICE, BOB]) {
        const sent = env.server.received(user).slice(sentBefore[user]).join("\n");
        assert.equal(sent, "", `${user} was sent nothing while the GM read the window`);
      }
      cellOf(env.gm, TOKENS.rogue, TOKENS.guard).dispatchEvent(new env.gm.window.MouseEvent("click", { bubbles: true }));
      await until(() => apiOf(env.gm).perceives(TOKENS.guard, TOKENS.rogue), "the override");
      await settled(env);
      for (const user of [ALICE, BOB]) {
        const sent = env.server.received(user).slice(sentBefore[user]).join("\n");
        assert.doesNotMatch(sent, /acuity sum|somme des acuités|221|perceives whom|furtive-pw/, `${user} receives no reading of the window`);
      }
    } finally {
      shutdown(env);
    }
  });

  it("bad input: a clear message naming the field, nothing opens, nothing changes", async () => {
    const env = await setup({ users: [GM, ALICE] });
    try {
      await hideRogue(env);
      const api = apiOf(env.gm);
      const stateBefore = JSON.stringify(api.getState());
      const cases = [
        [{ scene: "noSuchScene" }, "unknown_scene", /^scene: unknown scene `noSuchScene`/],
        [{ token: "noSuchToken" }, "unknown_token", /^token: unknown token `noSuchToken`/],
        [{ filters: { unseen: "yes" } }, "invalid_input", /^filters\.unseen: expected true or false, got string/],
        [{ filters: { hidden: true } }, "invalid_input", /^filters\.hidden: unknown filter/],
        [{ filters: [] }, "invalid_input", /^filters: expected an object, got a list/],
        ["everything", "invalid_input", /^options: expected an object, got string/],
      ];
      for (const [options, code, message] of cases) {
        await assert.rejects(api.perceptionWindow(options), (error) => error.code === code && message.test(error.message), JSON.stringify(options));
        assert.equal(windowOf(env.gm), null, `nothing opens for ${JSON.stringify(options)}`);
      }
      // A cell whose observer is gone by the click: the refusal names the field, nothing changes.
      const app = await api.perceptionWindow();
      const cell = cellOf(env.gm, TOKENS.rogue, TOKENS.fighter);
      // The table as drawn names an observer the scene no longer has.
      app.drawn.observers[app.drawn.observers.indexOf(TOKENS.fighter)] = "tokenGone0000001";
      app.drawn.views.set(`${TOKENS.rogue}|tokenGone0000001`, app.drawn.views.get(`${TOKENS.rogue}|${TOKENS.fighter}`));
      const notices = env.gm.ctx.notifications.length;
      cell.dispatchEvent(new env.gm.window.MouseEvent("click", { bubbles: true }));
      await until(() => env.gm.ctx.notifications.length > notices, "the refusal");
      assert.match(JSON.stringify(env.gm.ctx.notifications.at(-1)), /observer: unknown token `tokenGone0000001`/);
      await settled(env);
      assert.equal(JSON.stringify(api.getState()), stateBefore, "nothing changed");
      assert.deepEqual(plain(env.gm.ctx.errors), [], "nothing thrown uncaught");
    } finally {
      shutdown(env);
    }
  });

  it("a surprise attack from hiding: the target's cell reads defenseless until the end of the hider's turn (P6), patched live", async () => {
    const env = await setup({ users: [GM, ALICE] });
    try {
      await hideRogue(env);
      const app = await apiOf(env.gm).perceptionWindow();
      const guard = cellOf(env.gm, TOKENS.rogue, TOKENS.guard);
      assert.equal(guard.classList.contains("furtive-pw-defenseless"), false);
      await apiOf(env.alice).attack(TOKENS.rogue, TOKENS.guard, { hitZone: "trunk" });
      await settled(env);
      assert.equal(cellOf(env.gm, TOKENS.rogue, TOKENS.guard), guard, "patched in place");
      assert.equal(guard.classList.contains("furtive-pw-defenseless"), true);
      assert.ok(plain(app.lastPatched).includes(`${TOKENS.rogue}|${TOKENS.guard}`));
      hover(env.gm, guard);
      assert.match(guard.getAttribute("aria-label"), /defenseless against Rogue until the end of its turn \(P6\)/);
    } finally {
      shutdown(env);
    }
  });

  it("opposed: observers that fail their check in clear view read exposed (O5), perceived once the hider's turn ends", async () => {
    const env = await setup({ ruleset: "opposed", users: [GM, ALICE] });
    try {
      const combat = await startCombat(env, [[TOKENS.rogue, 20], [TOKENS.sentry, 10], [TOKENS.lookout, 5]]);
      await hideRogueOpposed(env);
      await apiOf(env.gm).perceptionWindow();
      const sentry = cellOf(env.gm, TOKENS.rogue, TOKENS.sentry);
      assert.equal(stateOf(sentry), "unperceived", "no clear view through the closed door (O2)");
      // The door opens; the sentry and the lookout fail their checks (2 and 3 on the d20).
      rig(env.gm, [[20, 2], [20, 3]]);
      await env.gm.ctx.game.scenes.get(SCENE).walls.get(DOOR).update({ ds: 1 });
      await settled(env);
      assert.equal(stateOf(sentry), "exposed");
      hover(env.gm, sentry);
      assert.match(sentry.getAttribute("aria-label"), /Sentry → Rogue: exposed/);
      await env.gm.ctx.game.combats.get(combat.id).nextTurn();
      await settled(env);
      assert.equal(stateOf(cellOf(env.gm, TOKENS.rogue, TOKENS.sentry)), "perceived", "O5: perceived at the end of the rogue's turn");
    } finally {
      shutdown(env);
    }
  });

  it("opposed: an observer sensing the hider by a non-targeting sense reads presence only (O13)", async () => {
    const echo = (world) => {
      const sentry = world.actors.find((a) => a._id === "actorSentry00001");
      sentry.system.attributes.senses = { ...(sentry.system.attributes.senses ?? {}), echo: 1000 };
    };
    const env = await setup({ ruleset: "opposed", users: [GM, ALICE], settings: { enhancedSenses: "echolocation=system.attributes.senses.echo" }, world: echo });
    try {
      await hideRogueOpposed(env);
      await apiOf(env.gm).perceptionWindow();
      const sentry = cellOf(env.gm, TOKENS.rogue, TOKENS.sentry);
      assert.equal(stateOf(sentry), "presenceOnly");
      hover(env.gm, sentry);
      assert.match(sentry.dataset.tooltip, /^Sentry → Rogue: presence only, not located \(O13\)\. O13 /);
      assert.equal(stateOf(cellOf(env.gm, TOKENS.rogue, TOKENS.lookout)), "unperceived", "no such sense: unperceived");
    } finally {
      shutdown(env);
    }
  });

  it("a second GM, not the active one, reads the saved state and follows the active GM's actions", async () => {
    const GM2 = "gmUser0000000002";
    const env = await setup({ users: [GM, GM2, ALICE], world: (world) => world.users.push({ _id: GM2, name: "Second GM", role: 4, flags: {} }) });
    try {
      const second = env.clients[GM2];
      assert.equal(apiOf(second).isActiveGM(), false);
      await hideRogue(env);
      await apiOf(second).perceptionWindow();
      assert.equal(stateOf(cellOf(second, TOKENS.rogue, TOKENS.fighter)), "unperceived");
      assert.equal(stateOf(cellOf(second, TOKENS.rogue, TOKENS.archer)), "perceived");
      const fighter = cellOf(second, TOKENS.rogue, TOKENS.fighter);
      await apiOf(env.gm).override(TOKENS.rogue, TOKENS.fighter, true);
      await settled(env, second);
      await until(() => stateOf(fighter) === "perceived", "the second GM's cell patched");
      assert.equal(cellOf(second, TOKENS.rogue, TOKENS.fighter), fighter);
    } finally {
      shutdown(env);
    }
  });

  it("v14: the same tool, window and cells", async () => {
    const env = await setup({ version: 14, users: [GM, ALICE] });
    try {
      await hideRogue(env);
      const tool = sceneTools(env.gm)["furtive-perception"];
      assert.equal(tool.title, "FURTIVE.Control.PerceptionWindow", "a localization path, as the pages' example gives");
      tool.onChange();
      await until(() => windowOf(env.gm)?.querySelector("tbody tr"), "the window");
      assert.deepEqual(rowsOf(env.gm), [TOKENS.rogue]);
      assert.equal(stateOf(cellOf(env.gm, TOKENS.rogue, TOKENS.fighter)), "unperceived");
      assert.equal(sceneTools(env.alice)["furtive-perception"], undefined, "no tool for a player");
    } finally {
      shutdown(env);
    }
  });

  it("a scene with nobody hiding: the window says so", async () => {
    const env = await setup({ users: [GM, ALICE] });
    try {
      await apiOf(env.gm).perceptionWindow({ scene: SCENE });
      assert.match(windowOf(env.gm).querySelector(".furtive-pw-empty").textContent, /No token is hiding/);
      // The rogue hides: the window draws its row.
      await hideRogue(env);
      await settled(env);
      assert.deepEqual(rowsOf(env.gm), [TOKENS.rogue]);
    } finally {
      shutdown(env);
    }
  });
});
