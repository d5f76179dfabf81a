/**
 * One user action is one transaction, and the stealth state
 * survives any GM.
 *
 * - Two GMs: the active GM hides the rogue and leaves; the other GM takes over
 *   and acts. The rogue's stealth (score, pairs, status, lookup) is kept.
 * - v14 browser change: the GM opens the world again in a new browser (a new
 *   client with empty local storage) and acts. Nothing is lost.
 * - A door toggle in front of 3 hiders is one transaction: at most 2 Scene
 *   updates, at most 3 chat messages (one GM-only message with every
 *   Perception roll, one GM card, at most one public line).
 * - A player's Hide is answered by a GM who was not active when it was asked
 *   (the active GM left with the request unanswered).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { startClient } from "../node/harness.mjs";
import { ALICE, BOB, DOOR, GM, SCENE, TOKENS, answerHideDialog, apiOf, hideRogue, plain, ready, rig, rollsIn, setup, shutdown, until, waitForDialog } from "./world.mjs";

/** A second Gamemaster (sorts after GM: GM is the active one while connected). */
const GM2 = "gmUser0000000002";
const addSecondGM = (world) => world.users.push({ _id: GM2, name: "Second GM", role: 4, flags: {} });

/** Hides a token as the GM of `client` with the dialog (percentile: d100 `d100`). */
async function hideAs(env, client, tokenId, answer = {}, dice = [[100, 50]]) {
  rig(client, dice);
  const pending = apiOf(client).hide(tokenId);
  answerHideDialog(client, await waitForDialog(client, env.server), answer);
  const outcome = await pending;
  await env.server.idle();
  return outcome;
}

/** What must hold after a hand-over: the rogue is still hidden as before (score 221, same pairs). */
function assertRogueKept(env, gmClient, label) {
  const state = apiOf(gmClient).getState();
  assert.ok(state, `${label}: the new GM has the scene's state`);
  const rogue = state.hiders[TOKENS.rogue];
  assert.ok(rogue, `${label}: the rogue is still a hider`);
  assert.equal(rogue.score, 221, `${label}: its score is the one rolled before the hand-over`);
  assert.equal(rogue.pairs[TOKENS.fighter].perceived, false, `${label}: the fighter still does not perceive it`);
  assert.equal(env.server.world.scenes.find((s) => s._id === SCENE).tokens.find((t) => t._id === TOKENS.rogue).actorLink, true);
  const token = gmClient.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.rogue);
  assert.equal(token.hasStatusEffect("furtive.hidden"), true, `${label}: the furtive.hidden status stays`);
  assert.equal(apiOf(env.bob).perceives(TOKENS.fighter, TOKENS.rogue), false, `${label}: Bob's lookup still hides the rogue from his fighter`);
}

describe("Two GMs: the active GM leaves, the other continues the scene", () => {
  for (const version of [13, 14]) {
    it(`v${version}: the rogue hidden by the first GM stays hidden after the second GM's first action`, async () => {
      const env = await setup({ ruleset: "percentile", version, users: [GM, GM2, ALICE, BOB], world: addSecondGM });
      try {
        await hideRogue(env);
        const second = env.clients[GM2];
        assert.equal(apiOf(second).isActiveGM(), false, "the first GM is the active one");
        env.gm.ctx.disconnect();
        await env.server.idle();
        await until(() => apiOf(second).isActiveGM(), "the second GM becomes active");
        // The new GM's first action: the fighter hides.
        await hideAs(env, second, TOKENS.fighter, { situation: ["dark"] }, [[100, 10]]);
        assertRogueKept(env, second, `v${version}`);
        assert.ok(apiOf(second).getState().hiders[TOKENS.fighter], "and the fighter's Hide was applied");
      } finally {
        shutdown(env);
      }
    });
  }
});

describe("v14: the GM opens the world in another browser (empty local storage)", () => {
  it("the new browser continues the scene: nothing is lost", async () => {
    const env = await setup({ ruleset: "percentile", version: 14, users: [GM, ALICE, BOB] });
    try {
      await hideRogue(env);
      env.gm.ctx.disconnect();
      env.gm.window.close();
      await env.server.idle();
      const fresh = await startClient({ server: env.server, userId: GM, version: 14 });
      env.clients[GM] = fresh;
      env.gm = fresh;
      await apiOf(fresh).engineReady;
      await ready(fresh);
      await env.server.idle();
      await hideAs(env, fresh, TOKENS.fighter, { situation: ["dark"] }, [[100, 10]]);
      assertRogueKept(env, fresh, "v14 new browser");
    } finally {
      shutdown(env);
    }
  });
});

describe("A door toggle in front of 3 hiders is one transaction (opposed)", () => {
  const HIDERS = [TOKENS.rogue, TOKENS.archer, TOKENS.guard];
  const EAST = [TOKENS.sentry, TOKENS.lookout];
  let env;
  before(async () => {
    env = await setup({ ruleset: "opposed" });
    // Three hiders west of the closed door: the east observers (sentry, lookout) have no clear view.
    for (const id of HIDERS) await hideAs(env, env.gm, id, { moved: true }, [[20, 19], [20, 1], [20, 1], [20, 1], [20, 1], [20, 1]]);
  });
  after(() => shutdown(env));

  it("opening the door: at most 2 Scene updates and 3 chat messages, every Perception roll GM-only", async () => {
    const gm = env.gm.ctx;
    let sceneUpdates = 0;
    const created = [];
    const patched = [];
    gm.Hooks.on("updateScene", (scene, changed) => {
      sceneUpdates += 1;
      patched.push(...Object.keys(changed.flags?.furtive?.hiddenFrom ?? {}));
    });
    let records = 0;
    // The state record (GM-only messages the chat log does not show: a base and a delta per action, storage/store.mjs) is the save, not a card.
    gm.Hooks.on("createChatMessage", (message) => (["state", "stateDelta"].includes(message.getFlag("furtive", "kind")) ? (records += 1) : created.push(plain(message._source))));
    const before = apiOf(env.gm).getState();
    rig(env.gm, Array.from({ length: 12 }, () => [20, 2]));
    await gm.game.scenes.get(SCENE).walls.get(DOOR).update({ ds: 1 });
    await env.server.idle();
    const state = apiOf(env.gm).getState();
    // O4: a check for each pair newly in clear view whose observer did not perceive the hider.
    const opened = HIDERS.flatMap((hider) =>
      EAST.filter((observer) => {
        const was = before.hiders[hider].pairs[observer];
        return state.hiders[hider].pairs[observer]?.clearView && !was?.clearView && !was?.perceived;
      }),
    );
    assert.ok(opened.length >= 3, `pairs newly in clear view: ${opened.length}`);
    assert.ok(sceneUpdates <= 2, `Scene updates: ${sceneUpdates}`);
    assert.ok(records <= 1, `one save: ${records} state records written`);
    // The lookup is published key by key: the update names only observers whose list changed (the east ones).
    for (const key of patched) assert.ok(EAST.includes(key.replace(/^-=/, "")), `the Scene update names ${key}`);
    assert.ok(created.length <= 3, `chat messages: ${created.length} (${created.map((m) => m.flags?.furtive?.kind ?? m.flavor ?? "roll").join(", ")})`);
    const rolls = created.filter((m) => rollsIn(m).length);
    assert.ok(rolls.length >= 1, "the Perception checks were rolled as Foundry rolls");
    for (const message of rolls) assert.deepEqual(message.whisper, [GM], "GM-only rolls");
    const checks = rolls.reduce((n, m) => n + rollsIn(m).length, 0);
    assert.equal(checks, opened.length, "one Perception check per pair newly in clear view (O4)");
  });
});

describe("A player's Hide answered by a GM who was not active when it was asked", () => {
  for (const version of [13, 14]) {
    it(`v${version}: the first GM leaves with the request open; the second GM's dialog answers it`, async () => {
      const env = await setup({ ruleset: "percentile", version, users: [GM, GM2, ALICE, BOB], world: addSecondGM });
      try {
        const second = env.clients[GM2];
        const pending = apiOf(env.alice).hide(TOKENS.rogue);
        await waitForDialog(env.gm, env.server);
        env.gm.ctx.disconnect();
        await env.server.idle();
        await until(() => apiOf(second).isActiveGM(), "the second GM becomes active");
        rig(second, [[100, 83]]);
        answerHideDialog(second, await waitForDialog(second, env.server), { situation: ["dark"], freeLabel: "torch", freeValue: 27 });
        const answer = await pending;
        assert.equal(answer.ok, true);
        await env.server.idle();
        assert.equal(apiOf(second).getState().hiders[TOKENS.rogue].score, 221);
        assert.equal(apiOf(env.bob).perceives(TOKENS.fighter, TOKENS.rogue), false);
      } finally {
        shutdown(env);
      }
    });
  }
});
