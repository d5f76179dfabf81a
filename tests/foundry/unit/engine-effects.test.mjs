/**
 * The live scene follows what the engine says changed (its effects'
 * `attempts` and `views`), not the module's own list of which events end
 * a stealth attempt or change a stored view. The module kept such lists:
 * after a percentile `turnEnd` (P9 reveal) it read the whole state again
 * to learn who still hides, and it kept the views of a token that had
 * left the scene and of a hider that had stopped, which the engine had
 * dropped. The module's engine also answers the GM queries `standing` and
 * `pairs` (where a hider and each pair stand, and why).
 */
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { pathToFileURL } from "node:url";

import { moduleDir } from "../node/harness.mjs";
import { ALICE, BOB, GM, SCENE, TOKENS, apiOf, hideRogue, hideRogueOpposed, plain, setup, shutdown, startCombat } from "./world.mjs";

const moduleUrl = (file) => pathToFileURL(path.join(moduleDir, file)).href;

/** Counts the engine snapshots the GM's client takes from now on. */
async function countSnapshots(client) {
  const { SceneSession } = await client.loader.import(moduleUrl("scripts/engine.mjs"));
  const counter = { count: 0 };
  const original = SceneSession.prototype.snapshot;
  SceneSession.prototype.snapshot = function snapshot() {
    counter.count += 1;
    return original.call(this);
  };
  counter.restore = () => (SceneSession.prototype.snapshot = original);
  return counter;
}

describe("P9: the turn end that reveals a hider, followed from the engine's attempts", () => {
  let env;
  let snapshots;
  before(async () => {
    env = await setup({ ruleset: "percentile", users: [GM, ALICE, BOB] });
    const combat = await startCombat(env);
    await hideRogue(env);
    await apiOf(env.gm).attack(TOKENS.rogue, TOKENS.fighter);
    await env.server.idle();
    snapshots = await countSnapshots(env.gm);
    await env.gm.ctx.game.combats.get(combat.id).nextTurn();
    await env.server.idle();
    snapshots.restore();
  });
  after(() => shutdown(env));

  it("publishes the hiders list without the rogue, without reading the whole state again", () => {
    assert.notEqual(apiOf(env.gm).getState().hiders[TOKENS.rogue]?.phase, "hiding", "the engine revealed the rogue (P9)");
    const published = env.server.world.scenes.find((s) => s._id === SCENE).flags.furtive?.hiders ?? [];
    assert.deepEqual(plain(published), [], "the published list of hiders");
    assert.equal(snapshots.count, 0, "no snapshot: the turn end's effects said the attempt ended");
  });
});

describe("B5, O4: the stored views, followed from the engine's views", () => {
  let env;
  let sceneState;
  before(async () => {
    env = await setup({ ruleset: "opposed", users: [GM, ALICE, BOB] });
    await hideRogueOpposed(env);
    ({ sceneState } = await env.gm.loader.import(moduleUrl("scripts/gm/scene-state.mjs")));
  });
  after(() => shutdown(env));

  /** The views the live scene holds, and those the engine holds, of the rogue. */
  function views() {
    const scene = env.gm.ctx.game.scenes.get(SCENE);
    const live = /** @type {any} */ (sceneState(scene, "live"));
    const state = apiOf(env.gm).getState();
    const pairs = state.hiders[TOKENS.rogue]?.pairs ?? {};
    const ids = Object.values(TOKENS).filter((id) => id !== TOKENS.rogue);
    return {
      live: Object.fromEntries(ids.map((id) => [id, plain(live.view(TOKENS.rogue, id)) ?? null])),
      engine: Object.fromEntries(ids.map((id) => [id, pairs[id] ? { clearView: pairs[id].clearView, ...(pairs[id].distance == null ? {} : { distance: pairs[id].distance }) } : null])),
    };
  }

  it("after the hide, they are the engine's", () => {
    const { live, engine } = views();
    assert.ok(Object.values(engine).some((v) => v !== null), "the engine holds pairs");
    assert.deepEqual(live, engine);
  });

  it("the door opens: the east observers' views change, as the engine holds them", async () => {
    const before = views();
    await env.gm.ctx.game.scenes.get(SCENE).walls.get("wallDoor00000001").update({ ds: 1 });
    await env.server.idle();
    const { live, engine } = views();
    assert.equal(before.engine[TOKENS.sentry]?.clearView, false, "no clear view through the shut door");
    assert.equal(engine[TOKENS.sentry]?.clearView, true, "clear view through the open door");
    assert.deepEqual(live, engine);
  });

  it("a token that leaves takes its view with it", async () => {
    await env.gm.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.sentry).delete();
    await env.server.idle();
    const { live, engine } = views();
    assert.equal(engine[TOKENS.sentry], null, "the engine dropped the pair");
    assert.deepEqual(live, engine);
  });

  it("a hider that stops hiding has no views left", async () => {
    await apiOf(env.gm).reveal(TOKENS.rogue);
    await env.server.idle();
    const { live, engine } = views();
    assert.ok(Object.values(engine).every((v) => v === null), "the engine dropped the record");
    assert.deepEqual(live, engine);
  });
});

describe("B3: the module's engine answers standing and pairs for the GM", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile", users: [GM, ALICE] });
    await hideRogue(env);
  });
  after(() => shutdown(env));

  it("from the scene's live session: the rogue's score and its parts, and each pair with its reason in both languages", async () => {
    const { sceneState } = await env.gm.loader.import(moduleUrl("scripts/gm/scene-state.mjs"));
    const { session } = /** @type {any} */ (sceneState(env.gm.ctx.game.scenes.get(SCENE), "live"));
    const standing = plain(session.standing({ hider: TOKENS.rogue }));
    assert.equal(standing.phase, "hiding");
    assert.equal(standing.percentile.score, 221, "61 + 83 + dark 50 + torch 27 (world.mjs)");
    const fighter = plain(session.pairs({ hider: TOKENS.rogue, observer: TOKENS.fighter }))[0];
    assert.equal(fighter.state, "unperceived");
    assert.equal(fighter.clause, "P3");
    assert.match(fighter.en, /^score 221 > acuity sum 150: .* does not perceive .* \(P3\)\.$/);
    assert.match(fighter.fr, /somme des acuités 150/);
  });
});
