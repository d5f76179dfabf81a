/**
 * Light and darkness are concealment in the module (B5, O2).
 * A hider in darkness (no light reaches it, or inside a darkness source) is
 * not in clear view of an observer that does not see in darkness at that
 * distance; a light turned on or off, created, moved or deleted, and a change
 * of the scene's darkness level, are changes of view: observers newly in
 * clear view make their O4 check, one transaction per action. Percentile: the
 * Hide dialog pre-ticks `dark` (+50) in darkness and the GM can untick it.
 *
 * Layout (world-data.mjs; grid 100 px = 5 ft): the rogue's centre (250, 450);
 * west of the closed door the fighter (10 ft), the archer (10 ft) and the
 * guard (20 ft); east, behind the wall, the sentry and the lookout.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { GM, SCENE, TOKENS, answerHideDialog, apiOf, messagesOf, rig, rollsIn, setup, shutdown, waitForDialog } from "./world.mjs";

const WEST = [TOKENS.fighter, TOKENS.archer, TOKENS.guard];

/**
 * A dark scene (darkness level 1, global light off) whose tokens see nothing
 * without light (sight range 0), unless `edit` says otherwise.
 */
function darkScene(world) {
  const scene = world.scenes[0];
  scene.environment = { darknessLevel: 1, globalLight: { enabled: false } };
  for (const token of scene.tokens) token.sight = { enabled: true, range: 0 };
}

const sceneOf = (client) => client.ctx.game.scenes.get(SCENE);
const pairsOf = (env) => apiOf(env.gm).getState().hiders[TOKENS.rogue].pairs;

/** Every Perception roll the GM holds (opposed: `1d20 + <prc>`, prc 0, 1, 2, 4 or 5; Stealth is `1d20 + 7`), one entry per roll. */
function perceptionRolls(env) {
  return messagesOf(env.gm).flatMap((m) => rollsIn(m).filter((r) => /^1d20 \+ (0|1|2|4|5)$/.test(r.formula)).map((r) => r.options?.flavor ?? m.flavor ?? ""));
}

/** The rogue hides (opposed, Stealth 1d20 + 7 with a d20 of 14). */
async function opposedHide(env) {
  rig(env.gm, [[20, 14]]);
  const pending = apiOf(env.gm).hide(TOKENS.rogue);
  answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { moved: true });
  await pending;
  await env.server.idle();
}

/**
 * Runs one GM action and counts what it wrote: Scene updates, state records
 * (the save: a base or a delta message, storage/store.mjs) and chat messages other
 * than the record.
 */
async function counted(env, action) {
  const gm = env.gm.ctx;
  const counts = { sceneUpdates: 0, records: 0, messages: 0 };
  const onScene = () => (counts.sceneUpdates += 1);
  const onMessage = (message) => (["state", "stateDelta"].includes(message.getFlag("furtive", "kind")) ? (counts.records += 1) : (counts.messages += 1));
  const ids = [gm.Hooks.on("updateScene", onScene), gm.Hooks.on("createChatMessage", onMessage)];
  await action();
  await env.server.idle();
  gm.Hooks.off("updateScene", ids[0]);
  gm.Hooks.off("createChatMessage", ids[1]);
  return counts;
}

describe("Darkness conceals (opposed, B5): lights on, off, moved; the scene's darkness level", () => {
  let env;
  let torch;
  before(async () => {
    env = await setup({ ruleset: "opposed", world: darkScene });
    await opposedHide(env);
  });
  after(() => shutdown(env));

  it("in a dark scene with no light, no observer without darkvision has the rogue in clear view", () => {
    const pairs = pairsOf(env);
    for (const id of WEST) assert.equal(pairs[id].clearView, false, `${id}: the rogue stands in darkness, 10-20 ft away, no darkvision`);
    assert.equal(perceptionRolls(env).length, 0, "nobody had clear view: no check (O4)");
  });

  it("a torch is lit at the rogue: the west observers get clear view and make their O4 check, in one transaction", async () => {
    // One check succeeds (a natural 20): the action changes who perceives the rogue, so the GM gets a card.
    rig(env.gm, [[20, 20], [20, 2], [20, 2]]);
    const before = perceptionRolls(env).length;
    const counts = await counted(env, async () => {
      [torch] = await sceneOf(env.gm).createEmbeddedDocuments("AmbientLight", [{ x: 250, y: 450, config: { dim: 10, bright: 5 } }]);
    });
    const pairs = pairsOf(env);
    for (const id of WEST) assert.equal(pairs[id].clearView, true, `${id}: the rogue is lit`);
    assert.equal(pairs[TOKENS.sentry].clearView, false, "the wall still blocks the east");
    const rolls = perceptionRolls(env).slice(before);
    assert.equal(rolls.length, 3, `one check per west observer: ${rolls.join(" | ")}`);
    assert.ok(counts.records <= 1, `one save: ${counts.records}`);
    assert.ok(counts.sceneUpdates <= 2, `Scene updates: ${counts.sceneUpdates}`);
    assert.ok(counts.messages <= 3, `chat messages: ${counts.messages}`);
    const card = messagesOf(env.gm).findLast((m) => m.flags?.furtive?.kind === "log" && m.flags.furtive.gm);
    assert.equal(card?.flags.furtive.titleKey, "FURTIVE.Chat.Event.lightChanged", "the GM's card says light changed who sees whom");
  });

  it("the torch is put out (hidden): the rogue is in darkness again, no check", async () => {
    const before = perceptionRolls(env).length;
    await torch.update({ hidden: true });
    await env.server.idle();
    for (const id of WEST) assert.equal(pairsOf(env)[id].clearView, false, `${id}: concealed again`);
    assert.equal(perceptionRolls(env).length, before);
  });

  it("the scene's darkness level drops into the global light's range: clear view again", async () => {
    rig(env.gm, [[20, 2], [20, 2], [20, 2]]);
    await sceneOf(env.gm).update({ environment: { globalLight: { enabled: true, darkness: { min: 0, max: 0.5 } } } });
    await env.server.idle();
    for (const id of WEST) assert.equal(pairsOf(env)[id].clearView, false, "darkness level 1 is above the global light's range");
    await sceneOf(env.gm).update({ environment: { darknessLevel: 0.2 } });
    await env.server.idle();
    for (const id of WEST) assert.equal(pairsOf(env)[id].clearView, true, `${id}: global illumination`);
  });

  it("nightfall: back to darkness", async () => {
    await sceneOf(env.gm).update({ environment: { darknessLevel: 0.9 } });
    await env.server.idle();
    for (const id of WEST) assert.equal(pairsOf(env)[id].clearView, false);
  });

  it("the guard walks up with a lantern: its light reaches the rogue, and the others' view changes too", async () => {
    const guard = sceneOf(env.gm).tokens.get(TOKENS.guard);
    await guard.update({ light: { dim: 10 } });
    await env.server.idle();
    for (const id of WEST) assert.equal(pairsOf(env)[id].clearView, false, "the lantern (200 px) does not reach the rogue 412 px away");
    rig(env.gm, [[20, 2], [20, 2], [20, 2]]);
    const counts = await counted(env, () => guard.update({ x: 200, y: 600 }));
    for (const id of WEST) assert.equal(pairsOf(env)[id].clearView, true, `${id}: the lantern, 200 px from the rogue, lights it`);
    assert.ok(counts.records <= 1, `one save for the move: ${counts.records}`);
  });

  it("the lantern is deleted with its bearer: the rogue is in darkness again, in one transaction with the removal", async () => {
    const counts = await counted(env, () => sceneOf(env.gm).tokens.get(TOKENS.guard).delete());
    for (const id of [TOKENS.fighter, TOKENS.archer]) assert.equal(pairsOf(env)[id].clearView, false, `${id}: concealed`);
    assert.equal(pairsOf(env)[TOKENS.guard], undefined, "the guard's pair went with it");
    assert.equal(counts.records, 1, "one save for the removal and the change of light");
  });
});

describe("What sees in darkness (B5): darkvision paths, the token's sight range; darkness sources", () => {
  it("darkvision at that distance: the setting's attribute, and Foundry's sight range", async () => {
    // dnd5e actors: darkvision 60 ft; the guard's only 15 ft (it stands 20 ft away). The archer's
    // token sees 15 ft without light (sight range), its actor has no darkvision.
    const env = await setup({
      ruleset: "opposed",
      settings: { darkvisionPath: "system.attributes.senses.darkvision" },
      world: (world) => {
        darkScene(world);
        world.actors.find((a) => a._id === "actorGuard000001").system.attributes.senses.darkvision = 15;
        world.actors.find((a) => a._id === "actorArcher00001").system.attributes.senses.darkvision = 0;
        world.scenes[0].tokens.find((t) => t._id === TOKENS.archer).sight = { enabled: true, range: 15 };
      },
    });
    try {
      rig(env.gm, [[20, 14], [20, 2], [20, 2]]);
      await opposedHide(env);
      const pairs = pairsOf(env);
      assert.equal(pairs[TOKENS.fighter].clearView, true, "darkvision 60 ft at 10 ft");
      assert.equal(pairs[TOKENS.archer].clearView, true, "sight range 15 ft at 10 ft");
      assert.equal(pairs[TOKENS.guard].clearView, false, "darkvision 15 ft at 20 ft");
      assert.equal(pairs[TOKENS.sentry].clearView, false, "darkvision does not see through walls");
    } finally {
      shutdown(env);
    }
  });

  it("an actor's darkvision grows (updateActor): its view of the hider is tested again", async () => {
    const env = await setup({
      ruleset: "opposed",
      settings: { darkvisionPath: "system.attributes.senses.darkvision" },
      world: (world) => {
        darkScene(world);
        for (const actor of world.actors) actor.system.attributes.senses.darkvision = 0;
      },
    });
    try {
      await opposedHide(env);
      assert.equal(pairsOf(env)[TOKENS.fighter].clearView, false, "no darkvision, 10 ft, dark");
      rig(env.gm, [[20, 2]]);
      await env.gm.ctx.game.actors.get("actorFighter0001").update({ "system.attributes.senses.darkvision": 60 });
      await env.server.idle();
      assert.equal(pairsOf(env)[TOKENS.fighter].clearView, true, "darkvision 60 ft now");
      assert.equal(pairsOf(env)[TOKENS.archer].clearView, false, "the others' views are unchanged");
    } finally {
      shutdown(env);
    }
  });

  it("inside a darkness source the rogue is concealed even in daylight", async () => {
    const env = await setup({
      ruleset: "opposed",
      world: (world) => {
        for (const token of world.scenes[0].tokens) token.sight = { enabled: true, range: 0 };
        world.scenes[0].lights = [{ _id: "lightDarkness001", x: 250, y: 450, config: { dim: 5, negative: true } }];
      },
    });
    try {
      await opposedHide(env);
      for (const id of WEST) assert.equal(pairsOf(env)[id].clearView, false, `${id}: inside the darkness source`);
    } finally {
      shutdown(env);
    }
  });
});

describe("v14: the same light test on v14", () => {
  it("a torch lit at the rogue gives the west observers clear view", async () => {
    const env = await setup({ ruleset: "opposed", version: 14, world: darkScene });
    try {
      await opposedHide(env);
      for (const id of WEST) assert.equal(pairsOf(env)[id].clearView, false, `${id}: dark`);
      rig(env.gm, [[20, 2], [20, 2], [20, 2]]);
      await sceneOf(env.gm).createEmbeddedDocuments("AmbientLight", [{ x: 250, y: 450, config: { dim: 10 } }]);
      await env.server.idle();
      for (const id of WEST) assert.equal(pairsOf(env)[id].clearView, true, `${id}: lit`);
    } finally {
      shutdown(env);
    }
  });
});

describe("Percentile: the Hide dialog pre-ticks dark (+50) in darkness; the GM can untick it", () => {
  it("in darkness: pre-ticked; unticked, the score has no +50", async () => {
    const env = await setup({ ruleset: "percentile", world: darkScene });
    try {
      rig(env.gm, [[100, 83]]);
      const pending = apiOf(env.gm).hide(TOKENS.rogue);
      const dialog = await waitForDialog(env.gm, env.server);
      assert.equal(dialog.element.querySelector('input[name="situation"][value="dark"]').checked, true, "dark is pre-ticked");
      answerHideDialog(env.gm, dialog, { situation: [] });
      await pending;
      await env.server.idle();
      // Furtivité 61 + d100 83, no modifier.
      assert.equal(apiOf(env.gm).getState().hiders[TOKENS.rogue].score, 144);
    } finally {
      shutdown(env);
    }
  });

  it("in light: not pre-ticked", async () => {
    const env = await setup({ ruleset: "percentile" });
    try {
      rig(env.gm, [[100, 83]]);
      const pending = apiOf(env.gm).hide(TOKENS.rogue);
      const dialog = await waitForDialog(env.gm, env.server);
      assert.equal(dialog.element.querySelector('input[name="situation"][value="dark"]').checked, false);
      answerHideDialog(env.gm, dialog, { situation: ["dark"] });
      await pending;
      await env.server.idle();
      assert.equal(apiOf(env.gm).getState().hiders[TOKENS.rogue].score, 194, "the GM may still tick it: 61 + 83 + 50");
      assert.equal(GM, env.gm.userId);
    } finally {
      shutdown(env);
    }
  });
});
