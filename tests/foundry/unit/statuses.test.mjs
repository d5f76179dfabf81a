/**
 * Status effects in real worlds: a system that replaces
 * `CONFIG.statusEffects` at `i18nInit` or `ready`, the Token HUD's palette,
 * duplicated linked tokens, v14's record-shaped `CONFIG.statusEffects`, and
 * a Foundry newer than 14.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { readManifest, startClient } from "../node/harness.mjs";
import { ALICE, BOB, GM, SCENE, TOKENS, apiOf, hideRogue, makeWorld, placeable, setup, shutdown, until } from "./world.mjs";
import { startWorld } from "../node/harness.mjs";

/** A system script replacing CONFIG.statusEffects with its own list at `hook`. */
const replacingAt = (hook) => (ctx) => {
  ctx.Hooks.once(hook, () => {
    ctx.CONFIG.statusEffects = [{ id: "dead", name: "Dead", img: "icons/svg/skull.svg" }, { id: "prone", name: "Prone", img: "icons/svg/falling.svg" }];
  });
};

for (const hook of ["i18nInit", "ready"]) {
  describe(`A system replaces CONFIG.statusEffects at ${hook}`, () => {
    let env;
    before(async () => {
      env = await setup({ system: replacingAt(hook) });
    });
    after(() => shutdown(env));

    it("hiding still works, and the hidden status follows the engine", async () => {
      await hideRogue(env);
      assert.ok(apiOf(env.gm).getState().hiders[TOKENS.rogue], "the engine has the rogue hiding");
      assert.equal(env.gm.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.rogue).hasStatusEffect("furtive.hidden"), true);
      assert.equal(env.gm.ctx.errors.length, 0, env.gm.ctx.errors.map((e) => String(e.error)).join("; "));
    });

    it("reveal takes the status off", async () => {
      await apiOf(env.gm).reveal(TOKENS.rogue);
      await env.server.idle();
      assert.equal(env.gm.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.rogue).hasStatusEffect("furtive.hidden"), false);
    });
  });
}

describe("The Token HUD's status palette", () => {
  let env;
  before(async () => {
    env = await setup({});
  });
  after(() => shutdown(env));

  it("does not offer Furtive's statuses (they follow the engine only)", () => {
    const hud = env.gm.ctx.canvas.hud.token;
    hud.bind(placeable(env.gm, TOKENS.rogue));
    const ids = [...hud.element.querySelectorAll(".status-effects [data-status-id]")].map((e) => e.dataset.statusId);
    assert.ok(ids.includes("prone"), "core statuses are offered");
    assert.ok(!ids.includes("furtive.hidden") && !ids.includes("furtive.defenseless"), ids.join(","));
    hud.clear();
  });

  it("a status toggled by hand (a macro, a system palette) asks the engine instead: Hidden on asks for a Hide", async () => {
    const actor = env.gm.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.rogue).actor;
    const dialogs = env.gm.ctx.dialogs.length;
    void actor.toggleStatusEffect("furtive.hidden", { active: true });
    await until(() => env.gm.ctx.dialogs.length > dialogs, "the Hide dialog opens");
    assert.equal(actor.statuses.has("furtive.hidden"), false, "no status without the engine");
    env.gm.ctx.dialogs.at(-1).element.querySelector('button[data-action="cancel"]').dispatchEvent(new env.gm.window.MouseEvent("click", { bubbles: true }));
    await env.server.idle();
  });
});

describe("A Furtive status taken off by hand asks for a Reveal", () => {
  let env;
  before(async () => {
    env = await setup({});
    await hideRogue(env);
  });
  after(() => shutdown(env));

  it("deleting furtive.hidden from the rogue's actor reveals it instead", async () => {
    const actor = env.gm.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.rogue).actor;
    await actor.toggleStatusEffect("furtive.hidden", { active: false });
    const hiding = () => apiOf(env.gm).getState()?.hiders?.[TOKENS.rogue]?.phase === "hiding";
    await until(() => apiOf(env.gm).getState() && !hiding(), "the engine reveals the rogue");
    await env.server.idle();
    assert.equal(hiding(), false);
    assert.equal(actor.statuses.has("furtive.hidden"), false, "and the status follows the engine");
  });
});

describe("Linked actors: the statuses of one token do not change another token of the same actor", () => {
  let env;
  let copyId;
  before(async () => {
    env = await setup({ users: [GM, ALICE, BOB] });
    await hideRogue(env);
    const scene = env.gm.ctx.game.scenes.get(SCENE);
    const source = scene.tokens.get(TOKENS.rogue).toObject();
    delete source._id;
    const [copy] = await scene.createEmbeddedDocuments("Token", [{ ...source, x: 100, y: 100, name: "Rogue copy" }]);
    copyId = copy.id;
    await env.server.idle();
  });
  after(() => shutdown(env));

  it("revealing the copy leaves the original hidden, status included", async () => {
    await apiOf(env.gm).reveal(copyId).catch(() => null);
    await env.server.idle();
    assert.ok(apiOf(env.gm).getState().hiders[TOKENS.rogue], "the engine still has the original hiding");
    assert.equal(env.gm.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.rogue).hasStatusEffect("furtive.hidden"), true);
  });

  it("a freshly loaded player tab never draws the original to an observer that does not perceive it", async () => {
    const seen = [];
    const client = await startClient({
      server: env.server,
      userId: BOB,
      beforeCanvas: (ctx) => ctx.Hooks.on("fake.frame", (board) => seen.push(board.tokens.get(TOKENS.rogue)?.visible)),
    });
    await env.server.idle();
    client.ctx.frame();
    assert.equal(placeable(client, TOKENS.rogue).visible, false);
    assert.ok(!seen.includes(true), "no frame showed it");
    client.ctx.disconnect();
  });
});

describe("Foundry 13 and 14 only: module.json and a newer Foundry", () => {
  it("module.json says compatibility minimum 13, verified 14, maximum 14", async () => {
    const { compatibility } = await readManifest();
    assert.deepEqual({ minimum: compatibility.minimum, verified: compatibility.verified, maximum: compatibility.maximum }, { minimum: "13", verified: "14", maximum: "14" });
  });

  it("Foundry 15: init fails soft: nothing throws, nothing is registered, and the GM is told why", async () => {
    const { clients } = await startWorld({ world: makeWorld({}), version: 15, clients: [{ userId: GM }] });
    const ctx = clients[GM].ctx;
    assert.equal(ctx.errors.length, 0, ctx.errors.map((e) => String(e.error)).join("; "));
    assert.ok(ctx.notifications.some((n) => n.type === "error" && /Furtive/.test(n.message) && /15/.test(n.message) && /13 and 14/.test(n.message)), JSON.stringify(ctx.notifications));
    assert.equal(ctx.CONFIG.statusEffects["furtive.hidden"], undefined, "no status registered");
    assert.equal(ctx.game.modules.get("furtive").api, undefined, "no API");
    ctx.disconnect();
  });
});

/**
 * v14's `CONFIG.statusEffects` is a record by id that keeps array-style
 * access (foundryvtt/foundryvtt#13122); a system may assign an array (dnd5e
 * 5.3.3 does, which core turns into the record) or a plain object with no
 * array methods (pf2e, mclemente/healthEstimate#337).
 */
const systemsOn14 = {
  "core's record": () => {},
  "an array assigned at ready (dnd5e 5.3's way)": (ctx) => ctx.Hooks.once("ready", () => (ctx.CONFIG.statusEffects = [{ id: "dead", name: "Dead", img: "icons/svg/skull.svg" }])),
  "a plain object assigned at ready (pf2e's way)": (ctx) => ctx.Hooks.once("ready", () => (ctx.CONFIG.statusEffects = { dead: { id: "dead", name: "Dead", img: "icons/svg/skull.svg" } })),
};
for (const [what, system] of Object.entries(systemsOn14)) {
  describe(`Foundry 14, CONFIG.statusEffects from ${what}`, () => {
    let env;
    before(async () => {
      env = await setup({ version: 14, system });
    });
    after(() => shutdown(env));

    it("the module's statuses are in it by id, outside the Token HUD's palette", () => {
      const effects = env.gm.ctx.CONFIG.statusEffects;
      assert.equal(Array.isArray(effects), false);
      assert.equal(effects["furtive.hidden"]?.id, "furtive.hidden");
      assert.equal(effects["furtive.hidden"].hud, false);
      assert.equal(effects["furtive.defenseless"]?.id, "furtive.defenseless");
    });

    it("hiding works and the hidden status follows the engine; reveal takes it off", async () => {
      await hideRogue(env);
      const rogue = () => env.gm.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.rogue);
      assert.ok(apiOf(env.gm).getState().hiders[TOKENS.rogue], "the engine has the rogue hiding");
      assert.equal(rogue().hasStatusEffect("furtive.hidden"), true);
      await apiOf(env.gm).reveal(TOKENS.rogue);
      await env.server.idle();
      assert.equal(rogue().hasStatusEffect("furtive.hidden"), false);
      assert.equal(env.gm.ctx.errors.length, 0, env.gm.ctx.errors.map((e) => String(e.error)).join("; "));
    });
  });
}
