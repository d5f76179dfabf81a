/**
 * Foundry 14 and dnd5e 4.4 to 6.0: what changed under the
 * module, each case on the pairing a GM can run (docs/foundry.md, "Foundry 13
 * and 14"; docs/dnd5e-automation.md):
 * - v14 deletions are `ForcedDeletion` operators, the `-=key` form deprecated;
 * - the v14 bug that hides a GM-private roll from its roller (foundryvtt/foundryvtt#14258);
 * - Scene Levels: the module's sight test runs on the tokens' level, not the viewed one;
 * - dnd5e senses in metres are converted to the scene's feet;
 * - the module's own Stealth check goes through dnd5e's `rollSkill`: armour
 *   stealth disadvantage (5.1+), Reliable Talent.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { PRESETS } from "../../../foundry-module/scripts/systems/presets.mjs";
import { ALICE, GM, SCENE, TOKENS, apiOf, hideRogueOpposed, plain, rig, setup, shutdown } from "./world.mjs";
import { IDS, actorOn, dnd5eWorld, gmState, rollSkill, settle, untilState } from "./system-world.mjs";

describe("Foundry 14: the lookup's deletions are ForcedDeletion operators", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "opposed", version: 14 });
  });
  after(() => shutdown(env));

  it("an observer's token deleted while the rogue hides: its entry is deleted with no deprecated `-=` key, on every client", async () => {
    await hideRogueOpposed(env);
    const hiddenFrom = (client) => client.ctx.game.scenes.get(SCENE).getFlag("furtive", "hiddenFrom") ?? {};
    assert.deepEqual(plain(hiddenFrom(env.gm)[TOKENS.sentry]), [TOKENS.rogue], "the Sentry is published");
    await env.gm.ctx.game.scenes.get(SCENE).deleteEmbeddedDocuments("Token", [TOKENS.sentry]);
    await env.server.idle();
    for (const client of Object.values(env.clients)) {
      assert.equal(TOKENS.sentry in hiddenFrom(client), false, `${client.userId}: the Sentry's entry is deleted`);
      assert.deepEqual(plain(client.ctx.deprecations), [], `${client.userId}: no compatibility warning`);
    }
    assert.equal(apiOf(env.gm).perceives(TOKENS.lookout, TOKENS.rogue), false, "the others' entries stay");
  });
});

describe("Foundry 14, dnd5e 5.3: a Stealth roll the module makes private to the GMs still shows to its roller (foundryvtt/foundryvtt#14258)", () => {
  let env;
  before(async () => {
    env = await dnd5eWorld({ generation: "5.3" });
  });
  after(() => shutdown(env));

  it("Alice's roll is whispered to the GMs and to her, and her chat log shows its total", async () => {
    rig(env.alice, [[20, 14]]);
    await rollSkill(env, env.alice, IDS.hiderActor, "ste");
    await untilState(env, (s) => s.hiders[IDS.hider]?.phase === "hiding", "the Sneak hides");
    const message = env.alice.ctx.game.messages.contents.find((m) => m.flags?.dnd5e?.roll?.skillId === "ste");
    assert.ok(message, "Alice holds her roll");
    assert.ok(message.whisper.includes(env.gm.userId) && message.whisper.includes(env.alice.userId), `whispered to the GM and Alice: ${message.whisper}`);
    assert.equal(message.whisper.includes(env.bob.userId), false, "not to Bob");
    const item = env.alice.window.document.querySelector(`#chat-log li[data-message-id="${message.id}"]`);
    assert.ok(item, "in Alice's chat log");
    assert.ok(!item.textContent.includes("???"), `shown to Alice: ${item.textContent}`);
    assert.ok(item.querySelector(".dice-total"), "with its total");
    assert.deepEqual(plain(env.alice.ctx.deprecations), [], "no deprecated applyRollMode");
  });
});

/** Two levels; every token on the ground; a wall on the upper level only, between the rogue and the fighter. */
const LEVELS = [
  { _id: "levelGround00001", name: "Ground", elevation: { bottom: 0, top: 10 } },
  { _id: "levelUpper000001", name: "Upper", elevation: { bottom: 10, top: 20 } },
];
function levelledKeep(wallLevels) {
  return (world) => {
    const scene = world.scenes[0];
    scene.levels = LEVELS;
    for (const token of scene.tokens) token.level = LEVELS[0]._id;
    scene.walls.push({ _id: "wallLevelled0001", c: [200, 350, 400, 350], move: 20, sight: 20, light: 20, sound: 20, door: 0, ds: 0, levels: wallLevels });
  };
}

for (const [what, wallLevels, blocked] of [
  ["a wall on the upper level does not block the ground, though the GM views the upper level", ["levelUpper000001"], false],
  ["a wall on the ground level blocks it", ["levelGround00001"], true],
]) {
  describe(`Foundry 14 Scene Levels: ${what}`, () => {
    let env;
    before(async () => {
      env = await setup({ ruleset: "opposed", version: 14, world: levelledKeep(wallLevels) });
      env.gm.ctx.viewLevel("levelUpper000001");
    });
    after(() => shutdown(env));

    it(`the fighter's clear view of the hiding rogue is ${!blocked}`, async () => {
      await hideRogueOpposed(env);
      assert.equal(apiOf(env.gm).getState().hiders[TOKENS.rogue].pairs[TOKENS.fighter].clearView, !blocked);
    });
  });
}

/**
 * A dark scene, the observer 55 ft south of the hider on the east side of the
 * wall, sight without light 0: the observer sees in the dark only through
 * its actor's darkvision, 18 m (60 ft) in dnd5e's simplified conversion.
 */
function darkvisionInMetres(world) {
  const scene = world.scenes[0];
  scene.height = 2000;
  scene.environment = { darknessLevel: 1, globalLight: { enabled: false } };
  for (const token of scene.tokens) token.sight = { enabled: true, range: 0 };
  Object.assign(scene.tokens.find((t) => t._id === IDS.hider), { x: 600, y: 100 });
  Object.assign(scene.tokens.find((t) => t._id === IDS.observer), { x: 600, y: 1200 });
  const observer = world.actors.find((a) => a._id === IDS.observerActor);
  observer.system.attributes.senses = { ranges: { darkvision: 18, blindsight: null, tremorsense: null, truesight: null }, units: "m", special: "" };
}

describe("dnd5e 5.3 on Foundry 14: darkvision 18 m on a 5 ft grid is 60 ft", () => {
  let env;
  before(async () => {
    env = await dnd5eWorld({ generation: "5.3", settings: { darkvisionPath: PRESETS.dnd5e.darkvisionPath }, edit: darkvisionInMetres });
  });
  after(() => shutdown(env));

  it("the observer 55 ft away has the hider in clear view in the dark", async () => {
    rig(env.alice, [[20, 14]]);
    await rollSkill(env, env.alice, IDS.hiderActor, "ste");
    const state = await untilState(env, (s) => s.hiders[IDS.hider]?.phase === "hiding", "the Sneak hides");
    const pair = state.hiders[IDS.hider].pairs[IDS.observer];
    assert.equal(pair.distance, 55);
    assert.equal(pair.clearView, true);
  });
});

/** An equipped armour with the stealthDisadvantage property (release-5.1.0 attributes.mjs L179-180). */
const armour = { _id: "itemHalfPlate001", name: "Half Plate", type: "equipment", system: { equipped: true, type: { value: "medium" }, properties: ["stealthDisadvantage"] }, effects: [], flags: {} };

for (const [generation, what, edit, dice, expected] of [
  ["5.2", "armour with stealth disadvantage: the lower of two d20", (w) => w.actors.find((a) => a._id === IDS.hiderActor).items.push(armour), [[20, 15], [20, 4]], 4],
  ["6.0", "Reliable Talent: a d20 of 3 counts 10", (w) => Object.assign(w.actors.find((a) => a._id === IDS.hiderActor), { flags: { dnd5e: { reliableTalent: true } } }), [[20, 3]], 10],
]) {
  describe(`dnd5e ${generation}: the GM's Hide rolls the hider's Stealth through dnd5e (${what})`, () => {
    let env;
    before(async () => {
      env = await dnd5eWorld({ generation, edit });
    });
    after(() => shutdown(env));

    it(`the held total is ${expected} + the Stealth bonus`, async () => {
      const actor = actorOn(env.gm, IDS.hiderActor);
      assert.ok(Number(actor.system.skills.ste.value) >= 1, "proficient in Stealth");
      const bonus = actor.getRollData().skills.ste.total;
      rig(env.gm, dice);
      await apiOf(env.gm).hide(IDS.hider, { dialog: false, moved: true });
      await settle(env);
      assert.equal(gmState(env).hiders[IDS.hider].heldTotal, expected + bonus);
    });
  });
}

describe("dnd5e older than 4.4: the GM is told the world's dnd5e is not one Furtive supports", () => {
  for (const [version, told] of [["3.3.1", true], ["4.3.0", true], ["4.4.4", false]]) {
    it(`dnd5e ${version}: ${told ? "a warning, the GM's only" : "no warning"}`, async () => {
      const env = await setup({ ruleset: "opposed", users: [GM, ALICE], world: (w) => (w.system = { id: "dnd5e", version }) });
      try {
        const warned = (client) => client.ctx.notifications.some((n) => n.type === "warning" && n.message.includes(`dnd5e ${version}`) && n.message.includes("4.4"));
        assert.equal(warned(env.gm), told);
        assert.equal(warned(env.alice), false);
      } finally {
        shutdown(env);
      }
    });
  }
});
