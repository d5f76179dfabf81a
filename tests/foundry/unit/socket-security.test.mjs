/**
 * Request security: what a malicious player's client can send the active GM
 * straight from its console, on the only channel the module listens to
 * (`furtive.request` queries; the module has no socket of its own).
 * - A claimed `userId` is confirmed by that user's own client: a request
 *   claiming the GM is refused, and cannot run GM-only actions.
 * - Answers carry ok/error and public entries only, never the engine state,
 *   GM-audience entries or a hidden number.
 * - A player's Hide options (dialog off, modifiers, moved, precautions) are
 *   ignored: the active GM's dialog always decides.
 * - The module asks for no socket (every supported Foundry has queries): a
 *   request on the module socket gets no answer and changes nothing.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";

import { moduleDir } from "../node/harness.mjs";

import { ALICE, BOB, GM, SCENE, TOKENS, answerHideDialog, apiOf, hideRogue, openDialog, rig, setup, shutdown, until, waitForDialog } from "./world.mjs";
import { playerConsole, worldFingerprint } from "./player-console.mjs";

/** The numbers of the rogue's hide (score 221, d100 83, free +27, total 77) as standalone numbers in a text. */
function numbersIn(text, numbers = [221, 83, 27, 77]) {
  return numbers.filter((n) => new RegExp(`(?<![\\w.])${n}(?![\\w])`).test(text));
}

describe("A player claiming the GM's user id", () => {
  let env;
  let bob;
  before(async () => {
    env = await setup({ ruleset: "percentile" });
    await hideRogue(env);
    bob = playerConsole(env.bob);
  });
  after(() => shutdown(env));

  it("cannot override a pair: refused, the state is unchanged", async () => {
    const before = JSON.stringify(apiOf(env.gm).getState());
    const answer = await bob.ask("override", { sceneId: SCENE, hiderId: TOKENS.rogue, observerId: TOKENS.fighter, perceived: true }, { userId: GM });
    await env.server.idle();
    assert.equal(answer.ok, false);
    assert.equal(answer.error.code, "unverified_user");
    assert.equal(JSON.stringify(apiOf(env.gm).getState()), before);
    assert.equal(apiOf(env.bob).perceives(TOKENS.fighter, TOKENS.rogue), false, "the fighter still does not perceive the rogue");
  });

  it("in his own name, a GM tool is refused gm_only: the rogue still hides", async () => {
    const answer = await bob.ask("reset", { sceneId: SCENE });
    await env.server.idle();
    assert.equal(answer.ok, false);
    assert.equal(answer.error.code, "gm_only");
    assert.ok(apiOf(env.gm).getState().hiders[TOKENS.rogue], "the rogue is still a hider");
  });

  it("hiding Carol's archer is refused (not_owner), no dialog opens", async () => {
    const dialogs = env.gm.ctx.dialogs.length;
    const answer = await bob.ask("hide", { sceneId: SCENE, tokenId: TOKENS.archer, options: { dialog: false } });
    assert.equal(answer.ok, false);
    assert.equal(answer.error.code, "not_owner");
    assert.ok(answer.error.message.includes(TOKENS.archer), "quotes the id Bob sent");
    assert.equal(env.gm.ctx.dialogs.length, dialogs, "no Hide dialog for the GM");
    assert.equal(apiOf(env.gm).getState().hiders[TOKENS.archer], undefined, "the archer does not hide");
  });
});

describe("Answers carry no state and no hidden number", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile" });
  });
  after(() => shutdown(env));

  it("a Hide asked from the console answers ok and public entries only, and reaches no one else", async () => {
    rig(env.gm, [[100, 83]]);
    const alice = playerConsole(env.alice);
    const bobHeard = env.server.received(BOB).length;
    const pending = alice.ask("hide", { sceneId: SCENE, tokenId: TOKENS.rogue, options: {} });
    answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { situation: ["dark"], freeLabel: "torch", freeValue: 27 });
    const answer = await pending;
    await env.server.idle();
    assert.equal(answer.ok, true);
    const text = JSON.stringify(answer);
    assert.doesNotMatch(text, /"state"/, "no engine state");
    assert.doesNotMatch(text, /"audience":"gm"/, "no GM entry");
    assert.deepEqual(numbersIn(text), [], "no hidden number");
    const entries = answer.result?.entries ?? [];
    assert.ok(entries.length > 0);
    for (const entry of entries) assert.deepEqual(Object.keys(entry).sort(), ["clause", "en", "fr"]);
    assert.equal(env.server.received(BOB).slice(bobHeard).filter((json) => json.includes('"queryResult"') || json.includes('"furtive.request"')).length, 0, "Bob's client saw neither the request nor its answer");
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
    const alice = playerConsole(env.alice);
    const dialogs = env.gm.ctx.dialogs.length;
    const pending = alice.ask("hide", { sceneId: SCENE, tokenId: TOKENS.rogue, options: { dialog: false, free: [{ label: "cheat", value: 500 }], situation: ["dark", "camouflage"], moved: true, precautions: ["x"] } });
    await until(() => env.gm.ctx.dialogs.length > dialogs, "the GM's Hide dialog opens");
    const dialog = openDialog(env.gm);
    const form = dialog.element.querySelector("form");
    const preChecked = [...form.querySelectorAll('input[name="situation"]')].filter((i) => i.checked).map((i) => i.value);
    assert.deepEqual(preChecked, [], "the player's situation is not pre-filled");
    answerHideDialog(env.gm, dialog, { situation: ["dark"], freeLabel: "torch", freeValue: 27 });
    const answer = await pending;
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

describe("The module socket is not a request channel", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile", users: [GM, ALICE, BOB] });
  });
  after(() => shutdown(env));

  it("module.json asks for no socket", async () => {
    const manifest = JSON.parse(await readFile(path.join(moduleDir, "module.json"), "utf8"));
    assert.equal(manifest.socket, undefined);
  });

  it("a request emitted on module.furtive gets no reply, opens no dialog, changes nothing", async () => {
    await env.server.idle();
    const world = worldFingerprint(env);
    const dialogs = env.gm.ctx.dialogs.length;
    const heard = env.server.received(ALICE).length;
    env.alice.ctx.game.socket.emit("module.furtive", { type: "request", id: "socket1", kind: "hide", payload: { sceneId: SCENE, tokenId: TOKENS.rogue, options: {} } });
    for (let i = 0; i < 20; i += 1) await env.server.idle();
    assert.equal(env.gm.ctx.dialogs.length, dialogs, "no Hide dialog for the GM");
    assert.deepEqual(env.server.received(ALICE).slice(heard).filter((json) => json.includes('"reply"')), [], "no reply");
    assert.equal(worldFingerprint(env), world);
  });
});
