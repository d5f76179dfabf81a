/**
 * The fake's Foundry 14 generation follows the public sources:
 * each test pins one v14 behaviour the module's tests rely on. The citations
 * are beside the fake's code (fake/*.mjs).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { startWorld } from "../node/harness.mjs";
import { BOB, GM, SCENE, TOKENS, makeWorld, plain } from "./world.mjs";

/** A world with the fake only (the module not loaded). */
async function bare({ version = 14, users = [GM, BOB], edit } = {}) {
  const world = makeWorld({});
  edit?.(world);
  const { server, clients } = await startWorld({ world, version, loadModule: false, clients: users.map((userId) => ({ userId })) });
  return { server, clients, gm: clients[GM].ctx, bob: clients[BOB]?.ctx, close: () => Object.values(clients).forEach((c) => (c.ctx.disconnect(), c.window.close())) };
}

describe("fake v14: CONFIG.statusEffects is a record by id that keeps array-style access (foundryvtt/foundryvtt#13122)", () => {
  it("lookup by id, find/some/map/forEach/push, Object.values lists the effects only", async () => {
    const env = await bare({ users: [GM] });
    const effects = env.gm.CONFIG.statusEffects;
    assert.equal(Array.isArray(effects), false);
    assert.equal(effects.blind.id, "blind");
    assert.equal(effects.find((s) => s.id === "prone").id, "prone");
    assert.equal(effects.some((s) => s.id === "dead"), true);
    assert.deepEqual(plain(effects.map((s) => s.id)), Object.keys(effects));
    effects.push({ id: "test.one", name: "One", img: "x.svg" });
    assert.equal(effects["test.one"].name, "One");
    assert.ok(Object.values(effects).every((s) => typeof s === "object" && s.id), "no method among the values");
    env.close();
  });

  it("an array assigned to it becomes the record; a plain object stays as it is", async () => {
    const env = await bare({ users: [GM] });
    env.gm.CONFIG.statusEffects = [{ id: "dead", name: "Dead", img: "d.svg" }];
    assert.equal(env.gm.CONFIG.statusEffects.dead.name, "Dead");
    assert.equal(typeof env.gm.CONFIG.statusEffects.find, "function");
    env.gm.CONFIG.statusEffects = { prone: { id: "prone", name: "Prone", img: "p.svg" } };
    assert.equal(env.gm.CONFIG.statusEffects.find, undefined);
    env.close();
  });

  it("Actor#toggleStatusEffect looks the id up in the record", async () => {
    const env = await bare({ users: [GM] });
    const actor = env.gm.game.actors.get("actorRogue000001");
    await actor.toggleStatusEffect("prone", { active: true });
    await env.server.idle();
    assert.equal(env.gm.game.actors.get("actorRogue000001").statuses.has("prone"), true);
    await assert.rejects(actor.toggleStatusEffect("nope"), /Invalid status ID/);
    env.close();
  });
});

describe("fake v14: TokenDocument#detectionModes is a record by id (foundryvtt/foundryvtt#12976)", () => {
  it("v14 a record of {enabled, range}, v13 an array of {id, enabled, range}", async () => {
    const edit = (w) => (w.scenes[0].tokens[0].detectionModes = [{ id: "seeAll", enabled: true, range: 30 }]);
    const v14 = await bare({ users: [GM], edit });
    const v13 = await bare({ version: 13, users: [GM], edit });
    assert.deepEqual(JSON.parse(JSON.stringify(v14.gm.game.scenes.get(SCENE).tokens.get(TOKENS.rogue).detectionModes)), { seeAll: { enabled: true, range: 30 } });
    assert.deepEqual(JSON.parse(JSON.stringify(v13.gm.game.scenes.get(SCENE).tokens.get(TOKENS.rogue).detectionModes)), [{ id: "seeAll", enabled: true, range: 30 }]);
    v14.close();
    v13.close();
  });
});

describe("fake v14: message modes (CONFIG.ChatMessage.modes, core.messageMode, ChatMessage.applyMode)", () => {
  it("core.messageMode replaces core.rollMode; the modes whisper as v13's roll modes did", async () => {
    const env = await bare();
    assert.equal(env.gm.game.settings.get("core", "messageMode"), "public");
    assert.throws(() => env.gm.game.settings.get("core", "rollMode"), /not a registered game setting/);
    assert.deepEqual(plain(Object.keys(env.gm.CONFIG.ChatMessage.modes)), ["public", "gm", "blind", "self", "ic"]);
    assert.deepEqual(plain(env.gm.ChatMessage.applyMode({}, "gm")), { whisper: [GM], blind: false });
    assert.deepEqual(plain(env.gm.ChatMessage.applyMode({}, "blind")), { whisper: [GM], blind: true });
    assert.deepEqual(plain(env.gm.ChatMessage.applyMode({}, "self")), { whisper: [GM], blind: false });
    assert.deepEqual(plain(env.gm.ChatMessage.applyMode({ whisper: [BOB] }, "public")), { whisper: [], blind: false });
    env.close();
  });

  it("applyRollMode still works, mapped to its v14 mode, with a compatibility warning", async () => {
    const env = await bare();
    assert.deepEqual(plain(env.gm.ChatMessage.applyRollMode({}, "gmroll")), { whisper: [GM], blind: false });
    assert.equal(env.gm.deprecations.length, 1);
    env.close();
  });

  it("a player's own roll private to the GMs is hidden from that player unless they are a recipient (foundryvtt/foundryvtt#14258)", async () => {
    const env = await bare();
    const bob = env.clients[BOB];
    const hiddenTo = async (data) => {
      const roll = await new env.bob.Roll("1d20").evaluate();
      const message = await env.bob.ChatMessage.create({ ...data, rolls: [roll] });
      await env.server.idle();
      return bob.window.document.querySelector(`#chat-log li[data-message-id="${message.id}"]`).textContent.includes("???");
    };
    assert.equal(await hiddenTo(env.bob.ChatMessage.applyMode({}, "gm")), true);
    assert.equal(await hiddenTo({ whisper: [GM, BOB] }), false);
    env.close();
  });
});

describe("fake v14: ForcedDeletion (foundry.data.operators)", () => {
  it("an operator deletes the key on every client, whose updateScene `changed` holds a ForcedDeletion", async () => {
    const env = await bare();
    const scene = env.gm.game.scenes.get(SCENE);
    await scene.update({ "flags.test.keep": 1, "flags.test.drop": 2 });
    const seen = [];
    env.bob.Hooks.on("updateScene", (_scene, changed) => seen.push(changed));
    await scene.update({ "flags.test.drop": new env.gm.global.foundry.data.operators.ForcedDeletion() });
    await env.server.idle();
    assert.deepEqual(JSON.parse(JSON.stringify(env.bob.game.scenes.get(SCENE).flags.test)), { keep: 1 });
    assert.ok(seen.at(-1).flags.test.drop instanceof env.bob.global.foundry.data.operators.ForcedDeletion);
    assert.equal(env.gm.deprecations.length, 0);
    env.close();
  });

  it("the legacy `-=key` still deletes, with a compatibility warning, and reaches the others as a ForcedDeletion", async () => {
    const env = await bare();
    const scene = env.gm.game.scenes.get(SCENE);
    await scene.update({ "flags.test.drop": 2 });
    const seen = [];
    env.bob.Hooks.on("updateScene", (_scene, changed) => seen.push(changed));
    await scene.update({ "flags.test.-=drop": null });
    await env.server.idle();
    assert.equal(env.bob.game.scenes.get(SCENE).flags.test.drop, undefined);
    assert.ok(seen.at(-1).flags.test.drop instanceof env.bob.global.foundry.data.operators.ForcedDeletion);
    assert.equal(env.gm.deprecations.length, 1);
    assert.equal(env.gm.global._del instanceof env.gm.global.foundry.data.operators.ForcedDeletion, true, "the global _del");
    env.close();
  });
});

describe("fake v14: Scene Levels and visibility test points", () => {
  const levelled = (w) => {
    const scene = w.scenes[0];
    scene.levels = [
      { _id: "levelGround00001", name: "Ground", elevation: { bottom: 0, top: 10 } },
      { _id: "levelUpper000001", name: "Upper", elevation: { bottom: 10, top: 20 } },
    ];
    scene.walls.push({ _id: "wallUpper0000001", c: [200, 350, 400, 350], move: 20, sight: 20, light: 20, sound: 20, door: 0, ds: 0, levels: ["levelUpper000001"] });
  };
  it("a collision test runs on the level of its config, else on the viewed level; walls of no level count everywhere", async () => {
    const env = await bare({ users: [GM], edit: levelled });
    const test = (level) => env.gm.CONFIG.Canvas.polygonBackends.sight.testCollision({ x: 350, y: 250 }, { x: 250, y: 450 }, { type: "sight", mode: "any", ...(level ? { level } : {}) });
    const scene = env.gm.game.scenes.get(SCENE);
    assert.equal(env.gm.canvas.level.id, "levelGround00001", "the first level is viewed");
    assert.equal(test(), false, "the ground: no wall");
    assert.equal(test(scene.levels.get("levelUpper000001")), true, "the upper level's wall");
    env.gm.viewLevel("levelUpper000001");
    assert.equal(test(), true, "the viewed level by default");
    assert.equal(test(scene.levels.get("levelGround00001")), false, "the config's level wins");
    assert.equal(env.gm.CONFIG.Canvas.polygonBackends.sight.testCollision({ x: 250, y: 450 }, { x: 750, y: 450 }, { type: "sight", mode: "any", level: scene.levels.get("levelGround00001") }), true, "the door wall has no level: it blocks");
    env.close();
  });

  it("TokenDocument#getVisibilityTestPoints gives each grid space's centre at the token's elevation (foundryvtt/foundryvtt#13633, #13834)", async () => {
    const env = await bare({ users: [GM], edit: (w) => Object.assign(w.scenes[0].tokens[0], { width: 2, height: 1, elevation: 5 }) });
    const token = env.gm.game.scenes.get(SCENE).tokens.get(TOKENS.rogue);
    assert.deepEqual(plain(token.getVisibilityTestPoints()), [
      { x: token.x + 50, y: token.y + 50, elevation: 5 },
      { x: token.x + 150, y: token.y + 50, elevation: 5 },
    ]);
    env.close();
  });
});
