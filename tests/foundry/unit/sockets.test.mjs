/**
 * Sockets and queries (issue 11, fault 6): the requester's identity is the
 * sender id Foundry passes to socket listeners (v12) or a user confirmed by a
 * query back to them (v13); replies cannot be forged by another player; a
 * module socket that is not open yet (the world was not relaunched since the
 * module was enabled) is detected and explained.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { ALICE, BOB, GM, SCENE, TOKENS, answerHideDialog, apiOf, plain, rig, setup, shutdown, until, waitForDialog } from "./world.mjs";

const SOCKET = "module.furtive";

/** Socket messages of the module a user's client received. */
function socketMessages(env, userId) {
  return env.server
    .received(userId)
    .map((json) => JSON.parse(json))
    .filter((m) => m.op === "socket" && m.event === SOCKET)
    .map((m) => m.args?.[0]);
}

/** Waits real time (the hello delay is measured in milliseconds, not turns). */
async function waitFor(predicate, what, ms = 15_000) {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("v12 module socket: the sender id is the identity", () => {
  let env;
  before(async () => {
    env = await setup({ version: 12, users: [GM, ALICE, BOB] });
  });
  after(() => shutdown(env));

  it("Bob claiming Alice's id cannot ask a Hide of her rogue", async () => {
    const dialogs = env.gm.ctx.dialogs.length;
    env.bob.ctx.game.socket.emit(SOCKET, { type: "request", id: "claimAlice", userId: ALICE, kind: "hide", payload: { sceneId: SCENE, tokenId: TOKENS.rogue, options: {} } });
    await until(() => socketMessages(env, BOB).some((m) => m?.type === "reply" && m.id === "claimAlice"), "the reply to Bob");
    const reply = socketMessages(env, BOB).find((m) => m?.type === "reply" && m.id === "claimAlice");
    assert.equal(reply.ok, false);
    assert.equal(reply.error.code, "not_owner");
    assert.equal(reply.to, BOB);
    assert.equal(env.gm.ctx.dialogs.length, dialogs, "no Hide dialog naming Alice");
  });

  it("a reply forged by Bob for Alice's waiting request is ignored; the GM's answer settles it", async () => {
    rig(env.gm, [[100, 83]]);
    const pending = apiOf(env.alice).hide(TOKENS.rogue).then(plain);
    const dialog = await waitForDialog(env.gm, env.server);
    const request = socketMessages(env, BOB).find((m) => m?.type === "request" && m.kind === "hide");
    assert.ok(request, "v12 requests reach every client, Bob's too");
    env.bob.ctx.game.socket.emit(SOCKET, { type: "reply", id: request.id, to: ALICE, userId: ALICE, ok: false, error: { code: "forged", message: "forged" } });
    await env.server.idle();
    answerHideDialog(env.gm, dialog, { situation: ["dark"], freeLabel: "torch", freeValue: 27 });
    const result = await pending;
    assert.equal(result.ok, true, "Alice got the GM's answer, not Bob's");
    assert.ok(apiOf(env.gm).getState().hiders[TOKENS.rogue]);
  });
});

describe("v13 queries: a request claiming another user is refused", () => {
  let env;
  before(async () => {
    env = await setup({ users: [GM, ALICE, BOB] });
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

describe("v12: the module was enabled after the world was launched (its socket is not open)", () => {
  let env;
  before(async () => {
    env = await setup({ version: 12, users: [GM, ALICE], socketsClosed: ["furtive"] });
  });
  after(() => shutdown(env));

  it("the GM is told to relaunch the world", async () => {
    await waitFor(() => env.gm.ctx.notifications.some((n) => /relaunch|launch the world again/i.test(n.message)), "the GM's notice");
    const notice = env.gm.ctx.notifications.find((n) => /launch the world again/.test(n.message));
    assert.match(notice.message, /Alice/);
    assert.equal(notice.type, "error");
  });

  it("a player's request is refused at once (socket_closed), not after the 10-minute timeout", async () => {
    const started = Date.now();
    await assert.rejects(apiOf(env.alice).hide(TOKENS.rogue), (error) => error.code === "socket_closed" && /relaunch/.test(error.message));
    assert.ok(Date.now() - started < 30_000);
  });

  it("after the relaunch, requests go through", async () => {
    env.server.relaunch();
    rig(env.gm, [[100, 83]]);
    const pending = apiOf(env.alice).hide(TOKENS.rogue).then(plain);
    answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { situation: ["dark"] });
    assert.equal((await pending).ok, true);
  });
});
