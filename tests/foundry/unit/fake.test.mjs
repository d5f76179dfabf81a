/**
 * The fake Foundry itself follows the public docs (issue 11): each test pins one
 * documented behaviour the module's tests rely on. The citations are beside the
 * fake's code (fake/*.mjs).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { startWorld } from "../node/harness.mjs";
import { ALICE, BOB, GM, TOKENS, makeWorld, placeable, plain } from "./world.mjs";

/** A world with the fake only (the module not loaded). */
async function bare({ version = 13, libWrapper = false, socketsClosed = [], users = [GM, BOB] } = {}) {
  const { server, clients } = await startWorld({ world: makeWorld({}), version, libWrapper, loadModule: false, socketsClosed, clients: users.map((userId) => ({ userId })) });
  return { server, clients, close: () => Object.values(clients).forEach((c) => (c.ctx.disconnect(), c.window.close())) };
}

describe("fake: settings, constants, status effects per version", () => {
  it("CONST.SETTING_SCOPES has USER from v13 only", async () => {
    const v12 = await bare({ version: 12, users: [GM] });
    const v13 = await bare({ version: 13, users: [GM] });
    assert.equal(v12.clients[GM].ctx.CONST.SETTING_SCOPES.USER, undefined);
    assert.equal(v13.clients[GM].ctx.CONST.SETTING_SCOPES.USER, "user");
    v12.close();
    v13.close();
  });

  it("a world setting cannot be set before ready", async () => {
    const env = await bare({ users: [GM] });
    const ctx = env.clients[GM].ctx;
    ctx.game.settings.register("test", "early", { scope: "world", config: false, type: String, default: "" });
    ctx.game.ready = false;
    await assert.rejects(ctx.game.settings.set("test", "early", "x"), /before the game is ready/);
    ctx.game.ready = true;
    assert.equal(await ctx.game.settings.set("test", "early", "x"), "x");
    env.close();
  });

  it("v14's CONFIG.statusEffects is a record by id; v13's an array", async () => {
    const v14 = await bare({ version: 14, users: [GM] });
    const v13 = await bare({ version: 13, users: [GM] });
    assert.ok(!Array.isArray(v14.clients[GM].ctx.CONFIG.statusEffects));
    assert.equal(v14.clients[GM].ctx.CONFIG.statusEffects.blind.id, "blind");
    assert.ok(Array.isArray(v13.clients[GM].ctx.CONFIG.statusEffects));
    v14.close();
    v13.close();
  });
});

describe("fake: sight collision", () => {
  let env;
  let collide;
  before(async () => {
    env = await bare({ users: [GM] });
    const ctx = env.clients[GM].ctx;
    collide = (walls, origin, destination, type = "sight") => {
      ctx.canvas.walls.objects.clear();
      walls.forEach((c, i) => ctx.canvas.walls.objects.set(`w${i}`, { document: { c: c.c, sight: c.sight ?? 20, light: 20, move: 20, sound: 20, dir: c.dir ?? 0, door: 0, ds: 0, threshold: c.threshold ?? {} } }));
      return ctx.CONFIG.Canvas.polygonBackends.sight.testCollision(origin, destination, { type, mode: "any" });
    };
  });
  after(() => env.close());

  it("requires a type", () => {
    assert.throws(() => env.clients[GM].ctx.CONFIG.Canvas.polygonBackends.sight.testCollision({ x: 0, y: 0 }, { x: 1, y: 1 }, { mode: "any" }), /type/);
  });

  it("one-way walls block from one side only", () => {
    const wall = { c: [500, 0, 500, 1000], dir: 1 };
    const west = { x: 300, y: 500 };
    const east = { x: 700, y: 500 };
    assert.notEqual(collide([wall], west, east), collide([wall], east, west));
  });

  it("proximity walls let a near source see through; distance walls a far one", () => {
    const near = { x: 480, y: 500 };
    const far = { x: 100, y: 500 };
    const beyond = { x: 700, y: 500 };
    const proximity = { c: [500, 0, 500, 1000], sight: 30, threshold: { sight: 10 } };
    assert.equal(collide([proximity], near, beyond), false, "within 10 ft: bypassed");
    assert.equal(collide([proximity], far, beyond), true, "beyond 10 ft: blocks");
    const distance = { c: [500, 0, 500, 1000], sight: 40, threshold: { sight: 10 } };
    assert.equal(collide([distance], near, beyond), true);
    assert.equal(collide([distance], far, beyond), false);
  });

  it("the scene's edges block sight, not movement", () => {
    assert.equal(collide([], { x: 500, y: 500 }, { x: 1500, y: 500 }), true);
    assert.equal(collide([], { x: 500, y: 500 }, { x: 1500, y: 500 }, "move"), false);
  });
});

describe("fake: libWrapper and DialogV2", () => {
  it("every WRAPPER runs before every MIXED, whatever the registration order; getters can be wrapped", async () => {
    const env = await bare({ libWrapper: true, users: [GM] });
    const { ctx, window } = env.clients[GM];
    const calls = [];
    window.furtiveTarget = { run: () => calls.push("original"), get value() {
      return 1;
    } };
    window.libWrapper.register("mixed-first", "furtiveTarget.run", (wrapped) => (calls.push("mixed"), wrapped()), "MIXED");
    window.libWrapper.register("wrapper-later", "furtiveTarget.run", (wrapped) => (calls.push("wrapper"), wrapped()), "WRAPPER");
    window.furtiveTarget.run();
    assert.deepEqual(calls, ["wrapper", "mixed", "original"]);
    window.libWrapper.register("getter", "furtiveTarget.value", (wrapped) => wrapped() + 1, "WRAPPER");
    assert.equal(window.furtiveTarget.value, 2);
    assert.ok(ctx);
    env.close();
  });

  it("a DialogV2 button callback that returns nothing submits the button's action", async () => {
    const env = await bare({ users: [GM] });
    const { ctx, window } = env.clients[GM];
    const pending = ctx.global.foundry.applications.api.DialogV2.wait({ content: "<p>x</p>", buttons: [{ action: "go", label: "Go", callback: () => {} }] });
    await new Promise((r) => setTimeout(r, 0));
    ctx.dialogs.at(-1).element.querySelector('button[data-action="go"]').dispatchEvent(new window.MouseEvent("click", { bubbles: true }));
    assert.equal(await pending, "go");
    env.close();
  });
});

describe("fake: sockets and queries", () => {
  it("a listener gets the sender's id; a package enabled after launch gets no relay until the world is relaunched", async () => {
    const env = await bare({ socketsClosed: ["furtive"], users: [GM, BOB] });
    const heard = [];
    env.clients[GM].ctx.game.socket.on("module.furtive", (data, senderId) => heard.push([plain(data), senderId]));
    env.clients[BOB].ctx.game.socket.emit("module.furtive", { hello: 1, userId: GM });
    await env.server.idle();
    assert.deepEqual(heard, [], "not relayed before the relaunch");
    env.server.relaunch();
    env.clients[BOB].ctx.game.socket.emit("module.furtive", { hello: 2, userId: GM });
    await env.server.idle();
    assert.deepEqual(heard, [[{ hello: 2, userId: GM }, BOB]], "the sender id is Bob's whatever the payload says");
    env.close();
  });

  it("v13 User#query runs the target's handler and resolves with its result; v12 has no queries", async () => {
    const env = await bare({ users: [GM, BOB] });
    env.clients[GM].ctx.CONFIG.queries["test.echo"] = (data) => ({ echoed: data.n });
    const answer = await env.clients[BOB].ctx.game.users.get(GM).query("test.echo", { n: 7 });
    assert.deepEqual(plain(answer), { echoed: 7 });
    env.close();
    const v12 = await bare({ version: 12, users: [GM] });
    assert.equal(v12.clients[GM].ctx.CONFIG.queries, undefined);
    assert.equal(typeof v12.clients[GM].ctx.game.users.get(GM).query, "undefined");
    v12.close();
  });
});

describe("fake: vision", () => {
  it("a light that provides vision shows a token before any detection mode is asked", async () => {
    const world = makeWorld({});
    world.scenes[0].lights = [{ _id: "lightVision00001", x: 250, y: 450, vision: true, config: { dim: 10, bright: 5 } }];
    const { server, clients } = await startWorld({ world, loadModule: false, clients: [{ userId: BOB }] });
    const ctx = clients[BOB].ctx;
    ctx.CONFIG.Canvas.detectionModes.basicSight._canDetect = () => false;
    ctx.CONFIG.Canvas.detectionModes.lightPerception._canDetect = () => false;
    const rogue = placeable(clients[BOB], TOKENS.rogue);
    const archer = placeable(clients[BOB], TOKENS.archer);
    assert.equal(ctx.canvas.visibility.testVisibility(rogue.center, { object: rogue }), true, "inside the light");
    assert.equal(ctx.canvas.visibility.testVisibility(archer.center, { object: archer }), false, "outside the light, no mode detects");
    clients[BOB].ctx.disconnect();
    assert.ok(server);
  });

  it("with Token Vision off every token that is not GM-hidden is visible", async () => {
    const world = makeWorld({});
    world.scenes[0].tokenVision = false;
    const { clients } = await startWorld({ world, loadModule: false, clients: [{ userId: ALICE }] });
    const ctx = clients[ALICE].ctx;
    ctx.CONFIG.Canvas.detectionModes.basicSight._canDetect = () => false;
    assert.equal(placeable(clients[ALICE], TOKENS.guard).isVisible, true);
    clients[ALICE].ctx.disconnect();
  });
});

describe("fake: independent review against the public docs", () => {
  it("seeInvisibility and seeAll need sight (a blind source detects nothing through them); the Sense versions do not", async () => {
    // DetectionModeInvisibility page (v11): "The "See" version needs sight and is affected by blindness";
    // foundryvtt/foundryvtt#8001: See All is suppressed by Blindness.
    const env = await bare({ users: [GM] });
    const ctx = env.clients[GM].ctx;
    const modes = ctx.CONFIG.Canvas.detectionModes;
    const withStatuses = (...ids) => ({ document: { hasStatusEffect: (id) => ids.includes(id) } });
    const blindSource = { object: withStatuses("blind") };
    const seeingSource = { object: withStatuses() };
    const invisible = withStatuses("invisible");
    assert.equal(modes.seeInvisibility._canDetect(seeingSource, invisible), true);
    assert.equal(modes.seeInvisibility._canDetect(blindSource, invisible), false);
    assert.equal(modes.senseInvisibility._canDetect(blindSource, invisible), true);
    assert.equal(modes.seeInvisibility._canDetect(seeingSource, withStatuses()), false, "only invisible targets");
    assert.equal(modes.seeAll._canDetect(seeingSource, invisible), true);
    assert.equal(modes.seeAll._canDetect(blindSource, invisible), false);
    assert.equal(modes.senseAll._canDetect(blindSource, invisible), true);
    env.close();
  });

  it("feelTremor detects only targets in contact with the ground (not flying, not hovering)", async () => {
    // DetectionModeTremor page: "Detection mode that see creatures in contact with the ground".
    const env = await bare({ users: [GM] });
    const tremor = env.clients[GM].ctx.CONFIG.Canvas.detectionModes.feelTremor;
    const withStatuses = (...ids) => ({ document: { hasStatusEffect: (id) => ids.includes(id) } });
    const source = { object: withStatuses("blind") };
    assert.equal(tremor._canDetect(source, withStatuses()), true, "on the ground, even from a blind source");
    assert.equal(tremor._canDetect(source, withStatuses("fly")), false);
    assert.equal(tremor._canDetect(source, withStatuses("hover")), false);
    env.close();
  });

  it("combatTurn/combatRound updateOptions are {advanceTime, direction} in v12 and v13, {direction, worldTime} in v14", async () => {
    for (const [version, expected] of [
      [12, { advanceTime: 0, direction: 1 }],
      [13, { advanceTime: 0, direction: 1 }],
      [14, { direction: 1, worldTime: { delta: 0 } }],
    ]) {
      const env = await bare({ version, users: [GM] });
      const ctx = env.clients[GM].ctx;
      const combat = new ctx.Combat({ _id: "combatReview0001", round: 1, turn: 0, combatants: [] });
      combat.update = async () => combat;
      const seen = [];
      ctx.Hooks.on("combatTurn", (_combat, _data, options) => seen.push(plain(options)));
      Object.defineProperty(combat, "turns", { get: () => [{}, {}] });
      await combat.nextTurn();
      assert.deepEqual(seen, [expected], `v${version}`);
      env.close();
    }
  });

  it("a WRAPPER that does not call wrapped is unregistered by libWrapper (no throw); unregister of nothing throws unless fail is false", async () => {
    const env = await bare({ libWrapper: true, users: [GM] });
    const { window } = env.clients[GM];
    const calls = [];
    window.furtiveReview = { run: () => (calls.push("original"), "original") };
    window.libWrapper.register("lazy", "furtiveReview.run", () => (calls.push("lazy"), "lazy"), "WRAPPER");
    assert.doesNotThrow(() => window.furtiveReview.run());
    assert.equal(window.furtiveReview.run(), "original", "the wrapper is gone after its first call");
    assert.deepEqual(calls, ["lazy", "original"]);
    assert.equal(window.libWrapper._errors.length, 1);
    assert.throws(() => window.libWrapper.unregister("lazy", "furtiveReview.run"));
    assert.doesNotThrow(() => window.libWrapper.unregister("lazy", "furtiveReview.run", false));
    env.close();
  });

  it("a token whose sight range is null sees without limit through basic sight (TokenSightData#range: null is unlimited)", async () => {
    for (const [range, expected] of [
      [null, true],
      [5, false],
    ]) {
      const world = makeWorld({});
      world.scenes[0].environment = { globalLight: { enabled: false } };
      world.scenes[0].tokens.find((t) => t._id === TOKENS.fighter).sight = { enabled: true, range };
      const { clients } = await startWorld({ world, loadModule: false, clients: [{ userId: BOB }] });
      const fighter = placeable(clients[BOB], TOKENS.fighter);
      fighter.control();
      clients[BOB].ctx.frame();
      const archer = placeable(clients[BOB], TOKENS.archer);
      assert.equal(clients[BOB].ctx.canvas.visibility.testVisibility(archer.center, { object: archer }), expected, `sight range ${range}`);
      clients[BOB].ctx.disconnect();
      clients[BOB].window.close();
    }
  });
});

describe("fake: application classes (FormApplication, ApplicationV2, FormDataExtended, registerMenu)", () => {
  it("v12 globals and v13 namespaces; DEFAULT_OPTIONS merge over the parent's; FormDataExtended casts by input type", async () => {
    const v12 = await bare({ version: 12, users: [GM] });
    const v13 = await bare({ version: 13, users: [GM] });
    try {
      const w12 = v12.clients[GM].window;
      const w13 = v13.clients[GM].window;
      assert.equal(typeof w12.FormApplication, "function", "v12: FormApplication is a global");
      assert.equal(w13.FormApplication, undefined, "v13: it lives in foundry.appv1.api");
      assert.equal(typeof w13.foundry.appv1.api.FormApplication, "function");
      for (const w of [w12, w13]) {
        const { ApplicationV2 } = w.foundry.applications.api;
        class Child extends ApplicationV2 {
          static DEFAULT_OPTIONS = { id: "child", form: { closeOnSubmit: true } };
        }
        const app = new Child({ window: { title: "T" } });
        assert.equal(app.options.id, "child");
        assert.equal(app.options.form.closeOnSubmit, true);
        assert.equal(app.options.form.submitOnChange, false, "the parent's keys stay");
        assert.equal(app.title, "T");
        const form = w.document.createElement("form");
        form.innerHTML = '<input name="a" value="x"><input name="n" type="number" value="4"><input name="c" type="checkbox" checked><input name="d" value="y" disabled>';
        const FormDataExtended = w.foundry.applications.ux?.FormDataExtended ?? w.FormDataExtended;
        assert.deepEqual(plain(new FormDataExtended(form).object), { a: "x", n: 4, c: true });
        // A FormApplication subclass must define _updateObject.
        const Form = w.FormApplication ?? w.foundry.appv1.api.FormApplication;
        await assert.rejects(new Form()._updateObject(), /_updateObject/);
      }
      const ctx = v13.clients[GM].ctx;
      ctx.game.settings.registerMenu("demo", "menu", { name: "Demo", type: ctx.global.foundry.applications.api.ApplicationV2, restricted: true });
      assert.equal(ctx.game.settings.menus.get("demo.menu").restricted, true);
      const app = await ctx.openSettingsMenu("demo.menu");
      assert.equal(app.rendered, true);
      await app.close();
    } finally {
      v12.close();
      v13.close();
    }
  });
});
