/**
 * Every way a hider could show on a player's canvas in a real world:
 * Token Vision off, other detection modes (core and one a
 * system registers later), a light that provides vision, a player controlling a
 * token that does not perceive their own hider, an observer the engine refused,
 * and an observer without a lookup entry. Each ran against the module before its
 * fix and failed (see the commit message).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { ALICE, BOB, GM, SCENE, TOKENS, apiOf, hideRogue, placeable, setup, shutdown, until, visibleOn } from "./world.mjs";

/** A system script registering its own detection mode at `setup` (after the module's init). */
function systemWithEcholocation(ctx) {
  ctx.Hooks.once("setup", () => {
    const { DetectionMode } = ctx.global.foundry.canvas?.perception ?? { DetectionMode: ctx.global.DetectionMode };
    ctx.CONFIG.Canvas.detectionModes.echolocation = new DetectionMode({ id: "echolocation", label: "Echolocation", type: DetectionMode.DETECTION_TYPES.SOUND, walls: false });
  });
}

for (const libWrapper of [false, true]) {
  describe(`Token Vision off (fault 1, libWrapper ${libWrapper ? "present" : "absent"})`, () => {
    let env;
    before(async () => {
      env = await setup({ libWrapper, world: (w) => (w.scenes[0].tokenVision = false) });
      await hideRogue(env);
    });
    after(() => shutdown(env));

    it("the failed observer's owner does not see the hider", () => {
      assert.equal(visibleOn(env.bob, TOKENS.rogue), false);
    });
    it("the observer who succeeded sees it, the hider's owner and the GM too", () => {
      assert.equal(visibleOn(env.carol, TOKENS.rogue), true);
      assert.equal(visibleOn(env.alice, TOKENS.rogue), true);
      assert.equal(visibleOn(env.gm, TOKENS.rogue), true);
    });
    it("other tokens stay visible", () => {
      assert.equal(visibleOn(env.bob, TOKENS.archer), true);
    });
  });
}

describe("Token Vision off where the visibility guard cannot be installed (fault 1)", () => {
  let env;
  before(async () => {
    // A system that leaves no Token class in CONFIG.Token.objectClass: the guard has nothing to wrap.
    const system = (ctx) => ctx.Hooks.once("init", () => (ctx.CONFIG.Token.objectClass = undefined));
    env = await setup({ system, users: [GM, BOB], world: (w) => (w.scenes[0].tokenVision = false) });
    await hideRogue(env);
  });
  after(() => shutdown(env));

  it("the GM is told at the moment they hide", () => {
    assert.ok(env.gm.ctx.notifications.some((n) => /Token Vision is off/.test(n.message)), JSON.stringify(env.gm.ctx.notifications.map((n) => n.message)));
  });
});

describe("Every detection mode, a system's mode and a vision light (fault 2)", () => {
  let env;
  before(async () => {
    env = await setup({
      system: systemWithEcholocation,
      world: (w) => {
        const fighter = w.scenes[0].tokens.find((t) => t._id === TOKENS.fighter);
        fighter.detectionModes = ["seeAll", "senseAll", "feelTremor", "seeInvisibility", "senseInvisibility", "echolocation"].map((id) => ({ id, enabled: true, range: 100 }));
        w.scenes[0].lights = [{ _id: "lightVision00001", x: 250, y: 450, vision: true, config: { dim: 20, bright: 10 } }];
      },
    });
    await hideRogue(env);
  });
  after(() => shutdown(env));

  it("every core mode and the system's mode are wrapped by default", () => {
    const modes = env.bob.ctx.CONFIG.Canvas.detectionModes;
    const fighter = placeable(env.bob, TOKENS.fighter);
    const rogue = placeable(env.bob, TOKENS.rogue);
    for (const id of Object.keys(modes)) {
      assert.equal(modes[id]._canDetect({ object: fighter }, rogue), false, `${id} must not detect a hider the engine hides`);
    }
  });

  it("no sense and no light shows the hider to the failed observer", () => {
    assert.equal(visibleOn(env.bob, TOKENS.rogue), false);
  });

  it("the observer who succeeded still sees it", () => {
    assert.equal(visibleOn(env.carol, TOKENS.rogue), true);
  });
});

describe("The GM can opt a detection mode out (fault 2)", () => {
  let env;
  before(async () => {
    env = await setup({ settings: { ignoredDetectionModes: "feelTremor" } });
    await hideRogue(env);
  });
  after(() => shutdown(env));

  it("the opted-out mode answers as core does; the others are wrapped", () => {
    const modes = env.bob.ctx.CONFIG.Canvas.detectionModes;
    const fighter = placeable(env.bob, TOKENS.fighter);
    const rogue = placeable(env.bob, TOKENS.rogue);
    assert.equal(modes.feelTremor._canDetect({ object: fighter }, rogue), true);
    assert.equal(modes.seeAll._canDetect({ object: fighter }, rogue), false);
  });
});

describe("A player always sees the tokens they own (fault 3, B2)", () => {
  let env;
  before(async () => {
    // Alice also owns the guard, who does not perceive the rogue.
    env = await setup({ world: (w) => (w.actors.find((a) => a._id === "actorGuard000001").ownership = { default: 0, [ALICE]: 3 }) });
    await hideRogue(env);
  });
  after(() => shutdown(env));

  it("controlling the guard, Alice still sees her own rogue", () => {
    placeable(env.alice, TOKENS.guard).control();
    assert.equal(visibleOn(env.alice, TOKENS.rogue), true);
    placeable(env.alice, TOKENS.guard).release();
  });
});

describe("Fail closed on an observer the engine refused (fault 4) or without a lookup entry (fault 8)", () => {
  let env;
  before(async () => {
    env = await setup({ world: (w) => (w.actors.find((a) => a._id === "actorFighter0001").system.attributes.visual_acuity.value = -10) });
    await hideRogue(env);
  });
  after(() => shutdown(env));

  it("the refused observer's owner does not see the hider", () => {
    assert.equal(apiOf(env.gm).getState().creatures[TOKENS.fighter], undefined, "the engine refused the fighter");
    assert.equal(visibleOn(env.bob, TOKENS.rogue), false);
  });

  it("the GM was told which token and which field", () => {
    const warnings = env.gm.ctx.notifications.filter((n) => /Fighter/.test(n.message));
    assert.ok(warnings.some((n) => /visual/.test(n.message)), JSON.stringify(env.gm.ctx.notifications.map((n) => n.message)));
  });

  it("an observer without a lookup entry perceives no hider (mayDetect)", () => {
    const fighter = placeable(env.bob, TOKENS.fighter);
    const rogue = placeable(env.bob, TOKENS.rogue);
    assert.equal(env.bob.ctx.CONFIG.Canvas.detectionModes.basicSight._canDetect({ object: fighter }, rogue), false);
    assert.equal(env.bob.ctx.game.scenes.get(SCENE).getFlag("furtive", "hiders").includes(TOKENS.rogue), true);
  });

  it("a known observer who perceives every hider still has an entry", () => {
    const entries = env.bob.ctx.game.scenes.get(SCENE).getFlag("furtive", "hiddenFrom");
    const observers = Object.keys(entries);
    assert.ok(observers.includes(TOKENS.archer), "the archer perceives the rogue and has an (empty) entry");
  });
});

describe("Fail closed on an observer whose actor edit the engine refuses (B1)", () => {
  let env;
  before(async () => {
    env = await setup();
    await hideRogue(env);
  });
  after(() => shutdown(env));

  it("the GM sets the fighter's visual acuity to -10: the fighter leaves the state, the GM is told which token and field", async () => {
    assert.ok(apiOf(env.gm).getState().creatures[TOKENS.fighter], "the fighter is known before");
    await env.gm.ctx.game.actors.get("actorFighter0001").update({ "system.attributes.visual_acuity.value": -10 });
    await until(() => !apiOf(env.gm).getState().creatures[TOKENS.fighter], "the fighter leaves the state");
    await env.server.idle();
    const warnings = env.gm.ctx.notifications.filter((n) => /Fighter/.test(n.message));
    assert.ok(warnings.some((n) => /visual/.test(n.message)), JSON.stringify(env.gm.ctx.notifications.map((n) => n.message)));
    assert.equal(visibleOn(env.bob, TOKENS.rogue), false, "Bob's fighter perceives no hider");
  });
});

export { BOB, GM };
