/**
 * Players: a player's Hide goes to the active GM through the module socket
 * and comes back; a player who does not own the token is refused and nothing
 * changes; a player's client never receives a hidden number (scores, totals,
 * modifiers) unless the P2 setting shows them, and then sees their own score.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { ALICE, BOB, CAROL, GM, SCENE, TOKENS, answerHideDialog, apiOf, messagesOf, placeable, plain, rig, setup, shutdown, until, waitForDialog } from "./world.mjs";

/**
 * The numbers the rogue's hide produces and players must not see:
 * 221 stealth score, 83 the d100, 27 the free modifier, 77 the modifier total,
 * 150/260/310 acuity sums the engine compares against (not in actor data as such).
 */
const HIDDEN_NUMBERS = [221, 83, 27, 77, 150, 260, 310];

/** Where each hidden number occurs in a text, as a standalone number. */
export function numbersIn(text, numbers = HIDDEN_NUMBERS) {
  const found = [];
  for (const n of numbers) {
    const re = new RegExp(`(?<![\\w.])${n}(?![\\w])`, "g");
    let match;
    while ((match = re.exec(text))) found.push({ number: n, context: text.slice(Math.max(0, match.index - 80), match.index + 40) });
  }
  return found;
}

/** Everything a client was sent or shows: server messages, notifications, the DOM, its documents' data. */
function visibleTo(env, client) {
  const parts = [];
  for (const json of env.server.received(client.userId)) parts.push(["received", json]);
  for (const n of client.ctx.notifications) parts.push(["notification", n.message]);
  parts.push(["dom", client.window.document.body.innerHTML]);
  const g = client.ctx.game;
  for (const collection of [g.scenes, g.actors, g.journal, g.messages, g.users, g.combats]) {
    for (const doc of collection) parts.push([`${doc.documentName} ${doc.id}`, JSON.stringify(doc._source)]);
  }
  return parts;
}

function leaks(env, client) {
  const found = [];
  for (const [where, text] of visibleTo(env, client)) for (const hit of numbersIn(text)) found.push({ where, ...hit });
  return found;
}

async function playerHides(env, { viaHud = true } = {}) {
  rig(env.gm, [[100, 83]]);
  let pending;
  if (viaHud) {
    const hud = env.alice.ctx.canvas.hud.token;
    hud.bind(placeable(env.alice, TOKENS.rogue));
    hud.element.querySelector('[data-furtive-action="hide"]').dispatchEvent(new env.alice.window.MouseEvent("click", { bubbles: true }));
  } else {
    pending = apiOf(env.alice).hide(TOKENS.rogue);
  }
  const dialog = await waitForDialog(env.gm, env.server);
  const intro = dialog.element.querySelector(".furtive-intro")?.textContent ?? "";
  answerHideDialog(env.gm, dialog, { situation: ["dark"], freeLabel: "torch", freeValue: 27 });
  const result = pending ? plain(await pending) : null;
  await until(() => apiOf(env.gm).getState()?.hiders?.[TOKENS.rogue], "the rogue hides");
  await env.server.idle();
  return { result, intro, dialog };
}

describe("A player's Hide through the socket", () => {
  let env;
  let answer;
  before(async () => {
    env = await setup({ ruleset: "percentile" });
    answer = await playerHides(env, { viaHud: false });
  });
  after(() => shutdown(env));

  it("the GM gets the dialog, naming the player who asked", () => {
    assert.match(answer.intro, /Alice/);
    assert.equal(env.alice.ctx.dialogs.length, 0, "the player never sees the GM's dialog");
  });

  it("the player receives the result: success and public explanations only", () => {
    assert.equal(answer.result.ok, true);
    assert.ok(Array.isArray(answer.result.entries));
    assert.ok(answer.result.entries.length > 0);
    for (const entry of answer.result.entries) assert.ok(entry.clause && entry.en && entry.fr);
    assert.deepEqual(numbersIn(JSON.stringify(answer.result)), []);
  });

  it("the request went to the GM only, as ids, through a v13 query (no other client saw it)", () => {
    const queries = env.server.received(GM).map((json) => JSON.parse(json)).filter((m) => m.op === "query" && m.queryName === "furtive.request");
    const request = queries.find((m) => m.queryData.kind === "hide");
    assert.ok(request, "the GM received the request");
    assert.equal(request.queryData.userId, ALICE);
    assert.equal(request.queryData.payload.tokenId, TOKENS.rogue);
    for (const userId of [BOB, CAROL]) assert.ok(!env.server.received(userId).some((json) => json.includes("furtive.request")), `${userId} never received it`);
    const confirm = env.server.received(ALICE).map((json) => JSON.parse(json)).find((m) => m.op === "query" && m.queryName === "furtive.confirm");
    assert.equal(confirm?.queryData.requestId, request.queryData.requestId, "the GM asked Alice to confirm her own request");
  });

  it("the result changed the world for everyone", () => {
    assert.equal(apiOf(env.bob).perceives(TOKENS.fighter, TOKENS.rogue), false);
    assert.equal(env.carol.ctx.game.scenes.get(SCENE).tokens.get(TOKENS.rogue).hasStatusEffect("furtive.hidden"), true);
  });

  it("a player who does not own the token is refused, and nothing changes", async () => {
    const world = JSON.stringify(env.server.world);
    const dialogs = env.gm.ctx.dialogs.length;
    await assert.rejects(apiOf(env.bob).hide(TOKENS.archer), (error) => error.code === "not_owner" && error.message.includes(TOKENS.archer) && !/Bob|Archer/.test(error.message.replaceAll(TOKENS.archer, "")));
    await assert.rejects(apiOf(env.bob).reveal(TOKENS.rogue), (error) => error.code === "not_owner");
    await env.server.idle();
    assert.equal(env.gm.ctx.dialogs.length, dialogs, "no dialog for the GM");
    assert.equal(JSON.stringify(env.server.world), world, "the world is unchanged");
    assert.equal(apiOf(env.bob).perceives(TOKENS.fighter, TOKENS.rogue), false, "the rogue still hides");
  });

  it("a player's refusal is shown to that player, localized", async () => {
    const hud = env.bob.ctx.canvas.hud.token;
    hud.bind(placeable(env.bob, TOKENS.fighter));
    // Bob owns the fighter: the HUD works; the engine decides.
    assert.ok(hud.element.querySelector('[data-furtive-action="hide"]'));
  });
});

describe("A player never sees a hidden number", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile" });
    await playerHides(env);
    // More activity: a surprise attack and a defense refusal.
    await apiOf(env.alice).attack(TOKENS.rogue, TOKENS.fighter, { hitZone: "head" });
    await apiOf(env.bob).defend(TOKENS.fighter, TOKENS.fighter, TOKENS.rogue, "dodge");
    await env.server.idle();
  });
  after(() => shutdown(env));

  it("the GM does see the numbers (the scan can find them)", () => {
    assert.ok(leaks(env, env.gm).some((l) => l.number === 221), "the GM's client holds the score");
  });

  for (const [name, id] of [
    ["the hider's owner (Alice)", ALICE],
    ["an observer who failed (Bob)", BOB],
    ["an observer who succeeded (Carol)", CAROL],
  ]) {
    it(`${name}: no score, total or modifier in anything the client received or shows`, () => {
      const client = env.clients[id];
      const found = leaks(env, client);
      assert.deepEqual(
        found.map((f) => `${f.number} in ${f.where}: …${f.context}…`),
        [],
      );
    });
  }
});

describe("P2 setting on: the player sees their own score", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile", settings: { showNumbers: true } });
    await playerHides(env);
  });
  after(() => shutdown(env));

  it("Alice's chat shows her stealth score", async () => {
    // The line is posted after the state is saved (template render: real I/O the server does not see).
    const chat = () => env.alice.window.document.getElementById("chat-log").textContent;
    await until(() => /(?<![\w.])221(?!\w)/.test(chat()), "Alice's line with her score");
    assert.match(chat(), /(?<![\w.])221(?!\w)/);
  });
});
