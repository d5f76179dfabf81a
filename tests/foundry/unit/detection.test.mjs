/**
 * The `_canDetect` hot path: the wrapped detection modes answer from the
 * published lookup for an observer who failed, one who succeeded, the GM, and
 * a player with two tokens (B2); fail closed before the lookup is built (B1);
 * with and without libWrapper; v13 and v14. Also: every client refreshes in the
 * frame of the scene update (no flash of a hidden token).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { startClient } from "../node/harness.mjs";
import { ALICE, BOB, DAVE, DOOR, GM, SCENE, TOKENS, hideRogue, placeable, plain, setup, shutdown, visibleOn } from "./world.mjs";

/** `_canDetect` of a detection mode on a client, for observer token -> target token. */
function canDetect(client, modeId, observerId, targetId) {
  const mode = client.ctx.CONFIG.Canvas.detectionModes[modeId];
  const observer = placeable(client, observerId);
  const target = placeable(client, targetId);
  return mode._canDetect(observer.vision ?? { object: observer, x: observer.center.x, y: observer.center.y }, target);
}

for (const version of [13, 14]) {
  for (const libWrapper of [false, true]) {
    describe(`_canDetect lookup (v${version}, libWrapper ${libWrapper ? "present" : "absent"})`, () => {
      let env;
      before(async () => {
        env = await setup({ ruleset: "percentile", version, libWrapper });
        // Open the door so Dave's east tokens have line of sight (Foundry's own LOS test).
        await env.gm.ctx.game.scenes.get(SCENE).walls.get(DOOR).update({ ds: 1 });
        await env.server.idle();
        await hideRogue(env);
      });
      after(() => shutdown(env));

      it("wraps every detection mode, through libWrapper when it is active, and the Token#isVisible guard", () => {
        for (const client of Object.values(env.clients)) {
          const modes = client.ctx.CONFIG.Canvas.detectionModes;
          for (const id of Object.keys(modes)) {
            if (libWrapper) {
              assert.deepEqual(plain(client.ctx.global.libWrapper._wrappersOf(`CONFIG.Canvas.detectionModes.${id}._canDetect`)), [{ packageId: "furtive", type: "MIXED" }], `${id} on ${client.userId}`);
            } else {
              assert.ok(Object.hasOwn(modes[id], "_canDetect"), `${id} wrapped on the instance`);
            }
          }
          if (libWrapper) assert.deepEqual(plain(client.ctx.global.libWrapper._wrappersOf("CONFIG.Token.objectClass.prototype.isVisible")), [{ packageId: "furtive", type: "MIXED" }]);
        }
      });

      it("an observer who failed does not detect the hider", () => {
        assert.equal(canDetect(env.bob, "basicSight", TOKENS.fighter, TOKENS.rogue), false);
        assert.equal(canDetect(env.bob, "lightPerception", TOKENS.fighter, TOKENS.rogue), false);
        assert.equal(visibleOn(env.bob, TOKENS.rogue), false, "Bob's canvas hides the rogue");
        assert.equal(env.bob.ctx.canvas.visibility.testVisibility(placeable(env.bob, TOKENS.rogue).center, { object: placeable(env.bob, TOKENS.rogue) }), false);
      });

      it("an observer who succeeded detects the hider", () => {
        assert.equal(canDetect(env.carol, "basicSight", TOKENS.archer, TOKENS.rogue), true);
        assert.equal(visibleOn(env.carol, TOKENS.rogue), true, "Carol's canvas shows the rogue");
      });

      it("the failed observer still detects other tokens (the original test decides)", () => {
        assert.equal(canDetect(env.bob, "basicSight", TOKENS.fighter, TOKENS.archer), true);
        assert.equal(visibleOn(env.bob, TOKENS.archer), true);
      });

      it("the GM detects the hider through any vision source, even a failed observer's", () => {
        assert.equal(canDetect(env.gm, "basicSight", TOKENS.fighter, TOKENS.rogue), true);
        assert.equal(visibleOn(env.gm, TOKENS.rogue), true);
        // A GM controlling the failed observer still sees the hider (B2).
        placeable(env.gm, TOKENS.fighter).control();
        assert.equal(visibleOn(env.gm, TOKENS.rogue), true);
        placeable(env.gm, TOKENS.fighter).release();
        env.gm.ctx.frame();
      });

      it("a player with two tokens sees the hider when one of them perceives it (B2)", () => {
        assert.equal(canDetect(env.dave, "basicSight", TOKENS.sentry, TOKENS.rogue), false, "the sentry failed");
        assert.equal(canDetect(env.dave, "basicSight", TOKENS.lookout, TOKENS.rogue), true, "the lookout succeeded");
        assert.equal(env.dave.ctx.canvas.effects.visionSources.size, 2, "both of Dave's tokens are vision sources");
        assert.equal(visibleOn(env.dave, TOKENS.rogue), true);
        // Controlling only the sentry, Dave sees through the sentry alone.
        placeable(env.dave, TOKENS.sentry).control();
        assert.equal(visibleOn(env.dave, TOKENS.rogue), false);
        placeable(env.dave, TOKENS.sentry).release();
        assert.equal(visibleOn(env.dave, TOKENS.rogue), true);
      });

      it("the hider's owner sees their own token", () => {
        assert.equal(visibleOn(env.alice, TOKENS.rogue), true);
      });

      it("refreshes in the same frame as the scene update: no frame shows the hider to the failed observer after the lookup arrived", () => {
        const frames = env.bob.ctx.frames;
        const after = frames.filter((f) => JSON.stringify(f.sceneFlags?.furtive?.hiddenFrom ?? {}).includes(TOKENS.rogue));
        assert.ok(after.length > 0, "Bob rendered frames after the lookup arrived");
        for (const frame of after) assert.equal(frame.visible[TOKENS.rogue], false, `frame with flags ${JSON.stringify(frame.flags)}`);
      });

      it("reveal makes the hider visible again on the failed observer's canvas, in the update's frame", async () => {
        const api = env.gm.ctx.game.modules.get("furtive").api;
        await api.reveal(TOKENS.rogue);
        await env.server.idle();
        assert.equal(canDetect(env.bob, "basicSight", TOKENS.fighter, TOKENS.rogue), true);
        const last = env.bob.ctx.frames.at(-1);
        assert.equal(last.visible[TOKENS.rogue], true, "the last drawn frame shows the rogue");
        // Hide again for the next tests of this suite.
        await hideRogue(env);
      });
    });
  }
}

describe("B1: fail closed before the lookup is built", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile", version: 13, users: [GM, ALICE, DAVE] });
    await hideRogue(env);
  });
  after(() => shutdown(env));

  async function probe(userId) {
    const answers = {};
    const client = await startClient({
      server: env.server,
      userId,
      version: 13,
      beforeCanvas: (ctx) => {
        const scene = ctx.game.scenes.get(SCENE);
        const Token = ctx.global.foundry.canvas.placeables.Token;
        const rogue = new Token(scene.tokens.get(TOKENS.rogue));
        const archer = new Token(scene.tokens.get(TOKENS.archer));
        for (const observerId of [TOKENS.fighter, TOKENS.sentry, TOKENS.rogue]) {
          const observer = new Token(scene.tokens.get(observerId));
          answers[`${observerId}->rogue`] = ctx.CONFIG.Canvas.detectionModes.basicSight._canDetect({ object: observer }, rogue);
          answers[`${observerId}->archer`] = ctx.CONFIG.Canvas.detectionModes.basicSight._canDetect({ object: observer }, archer);
        }
        answers.hiddenStatus = scene.tokens.get(TOKENS.rogue).hasStatusEffect("furtive.hidden");
      },
    });
    await env.server.idle();
    return { answers, client };
  }

  it("a player who does not own the hider cannot detect a token with the hidden status", async () => {
    const { answers, client } = await probe(BOB);
    assert.equal(answers.hiddenStatus, true, "the rogue carries furtive.hidden");
    assert.equal(answers[`${TOKENS.fighter}->rogue`], false);
    assert.equal(answers[`${TOKENS.sentry}->rogue`], false, "even an observer who perceives it: the lookup is not known yet");
    assert.equal(answers[`${TOKENS.fighter}->archer`], true, "tokens that are not hidden stay detectable");
    // Once the canvas is ready the lookup decides.
    assert.equal(canDetect(client, "basicSight", TOKENS.fighter, TOKENS.rogue), false);
    client.ctx.disconnect();
  });

  it("the hider's owner detects it", async () => {
    const owner = await probe(ALICE);
    assert.equal(owner.answers[`${TOKENS.fighter}->rogue`], true);
    owner.client.ctx.disconnect();
  });
});
