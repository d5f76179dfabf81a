/**
 * The fake Foundry itself follows the public docs: each test pins one
 * documented behaviour the module's tests rely on. The citations are beside the
 * fake's code (fake/*.mjs).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { startClient, startWorld } from "../node/harness.mjs";
import { ALICE, BOB, GM, TOKENS, makeWorld, placeable, plain, until } from "./world.mjs";

/** A world with the fake only (the module not loaded). */
async function bare({ version = 13, libWrapper = false, socketsClosed = [], users = [GM, BOB] } = {}) {
  const { server, clients } = await startWorld({ world: makeWorld({}), version, libWrapper, loadModule: false, socketsClosed, clients: users.map((userId) => ({ userId })) });
  return { server, clients, close: () => Object.values(clients).forEach((c) => (c.ctx.disconnect(), c.window.close())) };
}

describe("fake: settings, constants, status effects per version", () => {
  it("CONST.SETTING_SCOPES has USER on v13 and v14; the fake refuses an older Foundry", async () => {
    for (const version of [13, 14]) {
      const env = await bare({ version, users: [GM] });
      assert.equal(env.clients[GM].ctx.CONST.SETTING_SCOPES.USER, "user");
      env.close();
    }
    await assert.rejects(bare({ version: 12, users: [GM] }), /Foundry 13 and 14, not 12/);
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

describe("fake: documents and utils the system automation relies on", () => {
  it("preCreateChatMessage: a listener's updateSource reaches the created message on every client (hookEvents.preCreateDocument)", async () => {
    const env = await bare();
    const gm = env.clients[GM].ctx;
    gm.Hooks.on("preCreateChatMessage", (message) => message.updateSource({ "flags.test.stamp": 7 }));
    const created = await gm.ChatMessage.create({ content: "x" });
    await env.server.idle();
    assert.equal(created.flags.test.stamp, 7);
    assert.equal(env.clients[BOB].ctx.game.messages.get(created.id).flags.test.stamp, 7);
    env.close();
  });

  it("a chat message's roll keeps its options on every client (Roll#options, Roll.fromData)", async () => {
    const env = await bare();
    const gm = env.clients[GM].ctx;
    const roll = new gm.Roll("1d20 + 2", {}, { advantageMode: -1 });
    await roll.evaluate();
    const created = await roll.toMessage({ content: "x" });
    await env.server.idle();
    assert.equal(env.clients[BOB].ctx.game.messages.get(created.id).rolls[0].options.advantageMode, -1);
    assert.equal(env.clients[BOB].ctx.game.messages.get(created.id).rolls[0].total, roll.total);
    env.close();
  });

  it("a whisper reaches its recipients, and the GMs too when its author lacks MESSAGE_WHISPER (CHAT_MESSAGE_TYPES.WHISPER)", async () => {
    const world = makeWorld({});
    world.users.find((u) => u._id === ALICE).permissions = { MESSAGE_WHISPER: false };
    const { clients } = await startWorld({ world, version: 13, loadModule: false, clients: [GM, ALICE, BOB].map((userId) => ({ userId })) });
    const close = () => Object.values(clients).forEach((c) => (c.ctx.disconnect(), c.window.close()));
    assert.equal(clients[ALICE].ctx.game.user.can("MESSAGE_WHISPER"), false);
    const bobs = await clients[BOB].ctx.ChatMessage.create({ content: "b", whisper: [BOB] });
    const alices = await clients[ALICE].ctx.ChatMessage.create({ content: "a", whisper: [ALICE] });
    await until(() => clients[GM].ctx.game.messages.get(alices.id), "Alice's whisper at the GM");
    assert.equal(clients[GM].ctx.game.messages.get(bobs.id), undefined, "Bob may whisper: his self whisper stays his");
    assert.equal(clients[BOB].ctx.game.messages.get(alices.id), undefined);
    close();
  });

  it("foundry.utils.isNewerVersion compares dot-separated parts numerically", async () => {
    const env = await bare({ users: [GM] });
    const { isNewerVersion } = env.clients[GM].ctx.global.foundry.utils;
    assert.equal(isNewerVersion("4.4.4", "4.0.99"), true);
    assert.equal(isNewerVersion("4.0.4", "4.0.99"), false);
    assert.equal(isNewerVersion("4.0.4", "3.99.99"), true);
    assert.equal(isNewerVersion("3.3.1", "3.99.99"), false);
    assert.equal(isNewerVersion("12.331", "12.331"), false);
    env.close();
  });

  it("a client that joins renders the chat log's latest messages it may see, firing the render hook for each (ChatLog, renderChatMessage)", async () => {
    for (const version of [13, 14]) {
      const env = await bare({ version, users: [GM] });
      const gm = env.clients[GM].ctx;
      await gm.ChatMessage.create({ content: "<p>public</p>" });
      await gm.ChatMessage.create({ content: "<p>for the GM</p>", whisper: [GM] });
      await env.server.idle();
      const rendered = [];
      const late = await startClient({ server: env.server, userId: BOB, version, loadModule: false, beforeCanvas: (ctx) => ctx.Hooks.on("renderChatMessageHTML", (m) => rendered.push(m.id)) });
      const items = [...late.window.document.querySelectorAll("#chat-log li")].map((li) => li.dataset.messageId);
      const visible = plain(late.ctx.game.messages.contents.filter((m) => m.visible).map((m) => m.id));
      assert.equal(visible.length, 1, "Bob may see the public message only");
      assert.deepEqual(items, visible);
      assert.deepEqual(rendered, visible);
      late.ctx.disconnect();
      late.window.close();
      env.close();
    }
  });

  it("foundry.utils.randomID is random on each client: two GMs' first ids differ (crypto.getRandomValues)", async () => {
    // https://foundryvtt.com/api/v14/functions/foundry.utils.randomID.html: "Generate a random alphanumeric
    // string ID of a given requested length using crypto.getRandomValues()", letters A-Z, a-z and digits.
    const env = await bare({ users: [GM, ALICE] });
    const ids = [GM, ALICE].map((id) => Array.from({ length: 3 }, () => env.clients[id].ctx.global.foundry.utils.randomID()));
    assert.notDeepEqual(ids[0], ids[1]);
    for (const id of ids.flat()) assert.match(id, /^[A-Za-z0-9]{16}$/);
    assert.equal(env.clients[GM].ctx.global.foundry.utils.randomID(5).length, 5);
    env.close();
  });
});

describe("fake: sight collision", () => {
  let env;
  let collide;
  before(async () => {
    env = await bare({ users: [GM] });
    const ctx = env.clients[GM].ctx;
    collide = (walls, origin, destination, type = "sight", options = {}) => {
      ctx.canvas.walls.objects.clear();
      walls.forEach((c, i) => ctx.canvas.walls.objects.set(`w${i}`, { document: { c: c.c, sight: c.sight ?? 20, light: 20, move: 20, sound: 20, dir: c.dir ?? 0, door: 0, ds: 0, threshold: c.threshold ?? {} } }));
      return ctx.CONFIG.Canvas.polygonBackends.sight.testCollision(origin, destination, { type, mode: "any", ...options });
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

  it("with useThreshold, proximity walls let a near source see through; distance walls a far one", () => {
    const near = { x: 480, y: 500 };
    const far = { x: 100, y: 500 };
    const beyond = { x: 700, y: 500 };
    const thresholds = { useThreshold: true };
    const proximity = { c: [500, 0, 500, 1000], sight: 30, threshold: { sight: 10 } };
    assert.equal(collide([proximity], near, beyond, "sight", thresholds), false, "within 10 ft: bypassed");
    assert.equal(collide([proximity], far, beyond, "sight", thresholds), true, "beyond 10 ft: blocks");
    const distance = { c: [500, 0, 500, 1000], sight: 40, threshold: { sight: 10 } };
    assert.equal(collide([distance], near, beyond, "sight", thresholds), true);
    assert.equal(collide([distance], far, beyond, "sight", thresholds), false);
  });

  it("without useThreshold, proximity and distance walls block like walls (thresholds are opt-in)", () => {
    const near = { x: 480, y: 500 };
    const far = { x: 100, y: 500 };
    const beyond = { x: 700, y: 500 };
    for (const sight of [30, 40]) {
      const wall = { c: [500, 0, 500, 1000], sight, threshold: { sight: 10 } };
      assert.equal(collide([wall], near, beyond), true, `sense ${sight}, near`);
      assert.equal(collide([wall], far, beyond), true, `sense ${sight}, far`);
    }
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
    const env = await bare({ users: [GM, BOB] });
    // A package asking for a socket (module.json `socket: true`), enabled after the launch.
    env.server.modules.push({ id: "relay-test", socket: true });
    const heard = [];
    env.clients[GM].ctx.game.socket.on("module.relay-test", (data, senderId) => heard.push([plain(data), senderId]));
    env.clients[BOB].ctx.game.socket.emit("module.relay-test", { hello: 1, userId: GM });
    await env.server.idle();
    assert.deepEqual(heard, [], "not relayed before the relaunch");
    env.server.relaunch();
    env.clients[BOB].ctx.game.socket.emit("module.relay-test", { hello: 2, userId: GM });
    await env.server.idle();
    assert.deepEqual(heard, [[{ hello: 2, userId: GM }, BOB]], "the sender id is Bob's whatever the payload says");
    env.close();
  });

  it("User#query runs the target's handler and resolves with its result", async () => {
    const env = await bare({ users: [GM, BOB] });
    env.clients[GM].ctx.CONFIG.queries["test.echo"] = (data) => ({ echoed: data.n });
    const answer = await env.clients[BOB].ctx.game.users.get(GM).query("test.echo", { n: 7 });
    assert.deepEqual(plain(answer), { echoed: 7 });
    env.close();
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

  it("combatTurn/combatRound updateOptions are {advanceTime, direction} in v13, {direction, worldTime} in v14", async () => {
    for (const [version, expected] of [
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

describe("fake: light and darkness (EffectsCanvasGroup, AmbientLight, SceneEnvironmentData)", () => {
  /** A bare world (no module) whose scene is dark: global light off, darkness level 1. */
  async function dark({ version = 13, edit } = {}) {
    const world = makeWorld({});
    world.scenes[0].environment = { darknessLevel: 1, globalLight: { enabled: false } };
    edit?.(world.scenes[0]);
    const { server, clients } = await startWorld({ world, version, loadModule: false, clients: [{ userId: GM }, { userId: BOB }] });
    return { server, gm: clients[GM], bob: clients[BOB], close: () => Object.values(clients).forEach((c) => (c.ctx.disconnect(), c.window.close())) };
  }
  const scene = (client) => client.ctx.game.scenes.contents[0];

  it("Scene#environment has the schema defaults (darkness 0, global light off, range 0..1)", async () => {
    const env = await dark({ edit: (s) => delete s.environment });
    assert.deepEqual(plain(scene(env.gm).environment), { darknessLevel: 0, globalLight: { enabled: false, darkness: { min: 0, max: 1 } } });
    env.close();
  });

  it("v13 testInsideLight({x, y, elevation}): inside an active light's radius, not behind a wall, not when hidden, not outside its darkness range", async () => {
    // The light at (250, 450), dim 10 ft = 200 px; the wall at x = 500 blocks light.
    const env = await dark({ edit: (s) => (s.lights = [{ _id: "lightTorch000001", x: 250, y: 450, config: { dim: 10, bright: 5 } }]) });
    const effects = env.gm.ctx.canvas.effects;
    assert.equal(effects.testInsideLight({ x: 250, y: 450, elevation: 0 }), true, "at the light");
    assert.equal(effects.testInsideLight({ x: 440, y: 450, elevation: 0 }), true, "190 px away");
    assert.equal(effects.testInsideLight({ x: 250, y: 700, elevation: 0 }), false, "250 px away: out of range");
    assert.equal(effects.testInsideLight({ x: 250, y: 450, elevation: 15 }), false, "v13: 15 ft above a 10 ft light");
    assert.equal(effects.testInsideDarkness({ x: 250, y: 450, elevation: 0 }), false, "a light is not a darkness source");
    const light = scene(env.gm).lights.get("lightTorch000001");
    await light.update({ x: 400 });
    await env.server.idle();
    assert.equal(env.bob.ctx.canvas.effects.testInsideLight({ x: 550, y: 450, elevation: 0 }), false, "a wall blocks light (Bob's canvas followed the update)");
    assert.equal(env.bob.ctx.canvas.effects.testInsideLight({ x: 250, y: 450, elevation: 0 }), true, "the light moved");
    await light.update({ hidden: true });
    await env.server.idle();
    assert.equal(env.bob.ctx.canvas.effects.testInsideLight({ x: 400, y: 450, elevation: 0 }), false, "hidden: off");
    await light.update({ hidden: false, config: { darkness: { min: 0, max: 0.5 } } });
    await env.server.idle();
    assert.equal(env.bob.ctx.canvas.effects.testInsideLight({ x: 400, y: 450, elevation: 0 }), false, "darkness level 1 is outside its range 0..0.5");
    await scene(env.gm).update({ environment: { darknessLevel: 0.25 } });
    await env.server.idle();
    assert.equal(env.bob.ctx.canvas.effects.testInsideLight({ x: 400, y: 450, elevation: 0 }), true, "darkness level 0.25 is inside it");
    env.close();
  });

  it("create, update and delete AmbientLight fire their hooks on every client; a negative light is a darkness source", async () => {
    const env = await dark();
    const seen = [];
    for (const hook of ["createAmbientLight", "updateAmbientLight", "deleteAmbientLight"]) env.bob.ctx.Hooks.on(hook, (doc) => seen.push(`${hook} ${doc.id}`));
    const [created] = await scene(env.gm).createEmbeddedDocuments("AmbientLight", [{ x: 250, y: 450, config: { dim: 10, negative: true } }]);
    await env.server.idle();
    assert.equal(env.bob.ctx.canvas.effects.testInsideDarkness({ x: 250, y: 450, elevation: 0 }), true);
    assert.equal(env.bob.ctx.canvas.effects.testInsideLight({ x: 250, y: 450, elevation: 0 }), false);
    await created.update({ config: { dim: 20 } });
    await env.server.idle();
    await created.delete();
    await env.server.idle();
    assert.equal(env.bob.ctx.canvas.effects.testInsideDarkness({ x: 250, y: 450, elevation: 0 }), false);
    assert.deepEqual(seen, [`createAmbientLight ${created.id}`, `updateAmbientLight ${created.id}`, `deleteAmbientLight ${created.id}`]);
    env.close();
  });

  it("a token's light (TokenData#light) is a light source at its centre that follows it", async () => {
    const env = await dark();
    const rogue = scene(env.gm).tokens.get(TOKENS.rogue);
    assert.deepEqual(plain(rogue.light), { dim: 0, bright: 0, negative: false }, "no light by default");
    await rogue.update({ light: { dim: 10 } });
    await env.server.idle();
    assert.equal(env.bob.ctx.canvas.effects.testInsideLight({ x: 250, y: 450, elevation: 0 }), true, "the rogue's centre");
    await rogue.update({ x: 0, y: 0 });
    await env.server.idle();
    assert.equal(env.bob.ctx.canvas.effects.testInsideLight({ x: 250, y: 450, elevation: 0 }), false, "it went with the rogue");
    assert.equal(env.bob.ctx.canvas.effects.testInsideLight({ x: 50, y: 50, elevation: 0 }), true);
    env.close();
  });
});

describe("fake: application classes (ApplicationV2, FormDataExtended, registerMenu)", () => {
  it("v13 and v14 namespaces; no FormApplication; DEFAULT_OPTIONS merge over the parent's; FormDataExtended casts by input type", async () => {
    for (const version of [13, 14]) {
      const env = await bare({ version, users: [GM] });
      try {
        const w = env.clients[GM].window;
        assert.equal(w.FormApplication, undefined);
        assert.equal(w.foundry.appv1, undefined, "the module uses no v1 application");
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
        assert.deepEqual(plain(new w.foundry.applications.ux.FormDataExtended(form).object), { a: "x", n: 4, c: true });
        const ctx = env.clients[GM].ctx;
        ctx.game.settings.registerMenu("demo", "menu", { name: "Demo", type: ApplicationV2, restricted: true });
        assert.equal(ctx.game.settings.menus.get("demo.menu").restricted, true);
        const opened = await ctx.openSettingsMenu("demo.menu");
        assert.equal(opened.rendered, true);
        await opened.close();
      } finally {
        env.close();
      }
    }
  });
});


describe("fake: a private roll reaches every client as a placeholder", () => {
  it("a GM roll is delivered to every player, shown to the others as \"privately rolled some dice\"; a whisper without rolls is not", async () => {
    const env = await bare({ users: [GM, ALICE, BOB] });
    const { ctx } = env.clients[GM];
    const roll = await new ctx.Roll("1d20").evaluate();
    const secret = await roll.toMessage({ flavor: "secret check" }, { rollMode: "gmroll" });
    const note = await ctx.ChatMessage.create({ content: "a GM note", whisper: [GM] });
    await env.server.idle();
    const bob = env.clients[BOB];
    const held = bob.ctx.game.messages.get(secret.id);
    assert.ok(held, "Bob's client holds the roll message");
    assert.equal(held.visible, true);
    assert.equal(held.isContentVisible, false);
    const entry = bob.window.document.querySelector(`#chat-log [data-message-id="${secret.id}"]`);
    assert.match(entry.textContent, /Gamemaster privately rolled some dice/);
    assert.doesNotMatch(entry.textContent, /secret check/);
    assert.equal(bob.ctx.game.messages.get(note.id), undefined, "a whisper without rolls reaches its recipients only");
    assert.equal(env.clients[GM].ctx.game.messages.get(secret.id).isContentVisible, true);
    env.close();
  });
});
