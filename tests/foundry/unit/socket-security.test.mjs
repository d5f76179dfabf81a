/**
 * Socket security: what a malicious player's client can send straight on the
 * module socket (`game.socket.emit("module.furtive", ...)` from its console).
 * - The payload's `userId` is ignored: the identity is the sender id Foundry's
 *   server passes to socket listeners (wiki "Sockets"), so a request claiming the
 *   GM's id is still the player's and cannot run GM-only actions.
 * - Replies go to every client: they carry ok/error and public entries only,
 *   never the engine state, GM-audience entries or a hidden number.
 * - A player's Hide options (dialog off, modifiers, moved, precautions) are
 *   ignored: the active GM's dialog always decides.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { ALICE, BOB, CAROL, GM, SCENE, TOKENS, answerHideDialog, apiOf, hideRogue, openDialog, rig, setup, shutdown, until, waitForDialog } from "./world.mjs";

/** The numbers of the rogue's hide (score 221, d100 83, free +27, total 77) as standalone numbers in a text. */
function numbersIn(text, numbers = [221, 83, 27, 77]) {
  return numbers.filter((n) => new RegExp(`(?<![\\w.])${n}(?![\\w])`).test(text));
}

const SOCKET = "module.furtive";

/** Emits a raw module-socket message from a client, like a player's console would. */
function emitRaw(client, message) {
  client.ctx.game.socket.emit(SOCKET, message);
}

/** Every module-socket reply a user's client received, as parsed messages. */
function repliesTo(env, userId, id) {
  return env.server
    .received(userId)
    .filter((json) => json.includes('"op":"socket"'))
    .map((json) => JSON.parse(json))
    .map((m) => m.args?.[0])
    .filter((m) => m?.type === "reply" && (id === undefined || m.id === id));
}

async function reply(env, userId, id) {
  await until(() => repliesTo(env, userId, id).length > 0, `reply ${id} reaches ${userId}`);
  return repliesTo(env, userId, id)[0];
}

describe("A player claiming the GM's user id on the socket", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile" });
    await hideRogue(env);
  });
  after(() => shutdown(env));

  it("cannot override a pair: refused gm_only, the state is unchanged", async () => {
    const before = JSON.stringify(apiOf(env.gm).getState());
    emitRaw(env.bob, { type: "request", id: "spoof-override", userId: GM, kind: "override", payload: { sceneId: SCENE, hiderId: TOKENS.rogue, observerId: TOKENS.fighter, perceived: true } });
    const answer = await reply(env, BOB, "spoof-override");
    await env.server.idle();
    assert.equal(answer.ok, false);
    assert.equal(answer.error.code, "gm_only");
    assert.equal(JSON.stringify(apiOf(env.gm).getState()), before);
    assert.equal(apiOf(env.bob).perceives(TOKENS.fighter, TOKENS.rogue), false, "the fighter still does not perceive the rogue");
  });

  it("cannot reset the scene: the rogue still hides", async () => {
    emitRaw(env.bob, { type: "request", id: "spoof-reset", userId: GM, kind: "reset", payload: { sceneId: SCENE } });
    const answer = await reply(env, BOB, "spoof-reset");
    await env.server.idle();
    assert.equal(answer.ok, false);
    assert.equal(answer.error.code, "gm_only");
    assert.ok(apiOf(env.gm).getState().hiders[TOKENS.rogue], "the rogue is still a hider");
  });

  it("is Bob all the same: hiding Carol's archer is refused (not_owner), no dialog opens", async () => {
    const dialogs = env.gm.ctx.dialogs.length;
    emitRaw(env.bob, { type: "request", id: "spoof-hide", userId: GM, kind: "hide", payload: { sceneId: SCENE, tokenId: TOKENS.archer, options: { dialog: false } } });
    const answer = await reply(env, BOB, "spoof-hide");
    assert.equal(answer.ok, false);
    assert.equal(answer.error.code, "not_owner");
    assert.match(answer.error.message, /Bob/);
    assert.equal(env.gm.ctx.dialogs.length, dialogs, "no Hide dialog for the GM");
    assert.equal(apiOf(env.gm).getState().hiders[TOKENS.archer], undefined, "the archer does not hide");
  });
});

describe("Socket replies carry no state and no hidden number", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile" });
  });
  after(() => shutdown(env));

  it("a Hide asked over the socket (even claiming the GM's id) answers ok and public entries only, to every client", async () => {
    rig(env.gm, [[100, 83]]);
    emitRaw(env.alice, { type: "request", id: "hide-1", userId: GM, kind: "hide", payload: { sceneId: SCENE, tokenId: TOKENS.rogue, options: {} } });
    answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { situation: ["dark"], freeLabel: "torch", freeValue: 27 });
    const answer = await reply(env, ALICE, "hide-1");
    await env.server.idle();
    assert.equal(answer.ok, true);
    for (const userId of [ALICE, BOB, CAROL]) {
      for (const message of repliesTo(env, userId)) {
        const text = JSON.stringify(message);
        assert.doesNotMatch(text, /"state"/, `no engine state in a reply to ${userId}`);
        assert.doesNotMatch(text, /"audience":"gm"/, `no GM entry in a reply to ${userId}`);
        assert.deepEqual(numbersIn(text), [], `no hidden number in a reply to ${userId}`);
        const entries = message.result?.entries ?? [];
        assert.ok(entries.length > 0);
        for (const entry of entries) assert.deepEqual(Object.keys(entry).sort(), ["clause", "en", "fr"]);
      }
    }
  });
});

describe("A player's Hide options are ignored: the GM's dialog decides", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile" });
  });
  after(() => shutdown(env));

  it("dialog:false and a +500 free modifier from the player still open the GM's dialog, and only the GM's modifiers count", async () => {
    rig(env.gm, [[100, 83]]);
    const dialogs = env.gm.ctx.dialogs.length;
    emitRaw(env.alice, {
      type: "request",
      id: "hide-opts",
      userId: ALICE,
      kind: "hide",
      payload: { sceneId: SCENE, tokenId: TOKENS.rogue, options: { dialog: false, free: [{ label: "cheat", value: 500 }], situation: ["dark", "camouflage"], moved: true, precautions: ["x"] } },
    });
    await until(() => env.gm.ctx.dialogs.length > dialogs, "the GM's Hide dialog opens");
    const dialog = openDialog(env.gm);
    const form = dialog.element.querySelector("form");
    const preChecked = [...form.querySelectorAll('input[name="situation"]')].filter((i) => i.checked).map((i) => i.value);
    assert.deepEqual(preChecked, [], "the player's situation is not pre-filled");
    answerHideDialog(env.gm, dialog, { situation: ["dark"], freeLabel: "torch", freeValue: 27 });
    const answer = await reply(env, ALICE, "hide-opts");
    assert.equal(answer.ok, true);
    const hider = apiOf(env.gm).getState().hiders[TOKENS.rogue];
    assert.ok(hider, "the rogue hides");
    const text = JSON.stringify(hider);
    assert.doesNotMatch(text, /cheat/);
    assert.doesNotMatch(text, /(?<![\w.])500(?!\w)/);
    assert.match(text, /torch/);
  });

  it("a player's Hide through the API also opens the GM's dialog even with dialog:false", async () => {
    await apiOf(env.gm).reveal(TOKENS.rogue);
    rig(env.gm, [[100, 83]]);
    const dialogs = env.gm.ctx.dialogs.length;
    const pending = apiOf(env.alice).hide(TOKENS.rogue, { dialog: false, free: [{ label: "cheat", value: 500 }] });
    await until(() => env.gm.ctx.dialogs.length > dialogs, "the GM's Hide dialog opens");
    answerHideDialog(env.gm, openDialog(env.gm), { situation: [], freeLabel: "", freeValue: 0 });
    await pending;
    assert.doesNotMatch(JSON.stringify(apiOf(env.gm).getState().hiders[TOKENS.rogue]), /cheat/);
  });
});
