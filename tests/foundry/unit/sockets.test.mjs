/**
 * Queries: the requester's identity is a user confirmed
 * by a query back to them (v13 and v14).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { ALICE, BOB, GM, SCENE, TOKENS, answerHideDialog, apiOf, plain, rig, setup, shutdown, waitForDialog } from "./world.mjs";

for (const version of [13, 14]) describe(`v${version} queries: a request claiming another user is refused`, () => {
  let env;
  before(async () => {
    env = await setup({ version, users: [GM, ALICE, BOB] });
  });
  after(() => shutdown(env));

  it("Bob querying the GM as Alice gets unverified_user, and no dialog opens", async () => {
    const dialogs = env.gm.ctx.dialogs.length;
    const answer = plain(await env.bob.ctx.game.users.get(GM).query("furtive.request", { kind: "hide", payload: { sceneId: SCENE, tokenId: TOKENS.rogue }, requestId: "forged1", userId: ALICE }));
    assert.equal(answer.ok, false);
    assert.equal(answer.error.code, "unverified_user");
    assert.equal(env.gm.ctx.dialogs.length, dialogs);
  });

  it("Alice's own request goes through", async () => {
    rig(env.gm, [[100, 83]]);
    const pending = apiOf(env.alice).hide(TOKENS.rogue).then(plain);
    answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { situation: ["dark"] });
    assert.equal((await pending).ok, true);
  });
});
