/**
 * The GM's door: what a player's console sends the active GM on the request
 * channel is checked as strictly as the engine checks its events, before
 * anything runs. Each `describe` is one fault a hostile player's client
 * could use; every refusal changes nothing, posts nothing, and names only
 * what the player sent.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { ALICE, BOB, CAROL, GM, SCENE, TOKENS, setup, shutdown, until } from "./world.mjs";
import { engineFingerprint, playerConsole, worldFingerprint } from "./player-console.mjs";

/** A second scene, the Cellar: a copy of the Keep's tokens under other ids, not active (as in two-scenes.test.mjs). */
const CELLAR = "sceneCellar00001";
const cellar = (id) => id.replace("token", "cellr");
function addCellar(world) {
  const keep = world.scenes[0];
  world.scenes.push({ ...structuredClone(keep), _id: CELLAR, name: "Cellar", active: false, walls: [], tokens: structuredClone(keep.tokens).map((token) => ({ ...token, _id: cellar(token._id) })) });
}

/** Asserts a refusal with `code` whose message starts with the field's path. */
function assertRefused(answer, code, path) {
  assert.equal(answer?.ok, false, `refused: ${JSON.stringify(answer)?.slice(0, 300)}`);
  assert.equal(answer.error.code, code, JSON.stringify(answer).slice(0, 300));
  if (path) assert.ok(answer.error.message.startsWith(`${path}:`), `the message names ${path}: ${answer.error.message.slice(0, 200)}`);
}

/** Runs `body` and asserts that nothing was written, posted or opened meanwhile. */
async function changesNothing(env, body) {
  await env.server.idle();
  const world = worldFingerprint(env);
  const engine = engineFingerprint(env);
  const messages = env.gm.ctx.game.messages.size;
  const dialogs = env.gm.ctx.dialogs.length;
  const errors = Object.values(env.clients).map((c) => c.ctx.errors.length);
  const result = await body();
  await env.server.idle();
  assert.equal(env.gm.ctx.game.messages.size, messages, "no chat message");
  assert.equal(env.gm.ctx.dialogs.length, dialogs, "no dialog for the GM");
  assert.equal(worldFingerprint(env), world, "the world is byte-identical");
  assert.equal(engineFingerprint(env), engine, "the engine states are byte-identical");
  assert.deepEqual(Object.values(env.clients).map((c) => c.ctx.errors.length), errors, "nothing thrown uncaught");
  return result;
}

describe("Action names are looked up as own names only", () => {
  let env;
  let alice;
  before(async () => {
    env = await setup({ users: [GM, ALICE, BOB] });
    alice = playerConsole(env.alice);
  });
  after(() => shutdown(env));

  it("kind `constructor` with a key named after Object's source text is refused (kind), no scene in the answer", async () => {
    const objectSource = String(env.gm.window.Object);
    const answer = await changesNothing(env, () => alice.ask("constructor", { sceneId: SCENE, [objectSource]: TOKENS.rogue }));
    assertRefused(answer, "invalid_input", "kind");
    assert.doesNotMatch(JSON.stringify(answer), /tokens|walls/, "no scene source");
  });

  for (const kind of ["toString", "__proto__", "hasOwnProperty", "valueOf", "isPrototypeOf"]) {
    it(`kind \`${kind}\` is refused invalid_input naming kind`, async () => {
      const answer = await changesNothing(env, () => alice.ask(kind, { sceneId: SCENE, tokenId: TOKENS.rogue }));
      assertRefused(answer, "invalid_input", "kind");
    });
  }

  it("a payload key `__proto__` is refused naming it", async () => {
    const payload = JSON.parse(`{"sceneId":"${SCENE}","tokenId":"${TOKENS.rogue}","__proto__":{"isGM":true}}`);
    const answer = await changesNothing(env, () => alice.ask("reveal", payload));
    assertRefused(answer, "invalid_input", "payload.__proto__");
  });
});

describe("Wrongly typed fields are refused, not coerced", () => {
  let env;
  let alice;
  before(async () => {
    env = await setup({ users: [GM, ALICE, BOB] });
    alice = playerConsole(env.alice);
  });
  after(() => shutdown(env));

  const attack = (fields) => ({ sceneId: SCENE, attackerId: TOKENS.rogue, targetId: TOKENS.fighter, ...fields });

  // NaN and Infinity travel as null (JSON), as they do over Foundry's socket.
  for (const [label, hits] of [["the text \"2\"", "2"], ["NaN", NaN], ["Infinity", Infinity], ["the text \"NaN\"", "NaN"], ["1.5", 1.5], ["-1", -1], ["101", 101]]) {
    it(`hits ${label}: refused naming payload.hits, no attack saved, no card`, async () => {
      const answer = await changesNothing(env, () => alice.ask("attack", attack({ hits })));
      assertRefused(answer, "invalid_input", "payload.hits");
    });
  }

  it("noisy \"false\": refused naming payload.noisy", async () => {
    const answer = await changesNothing(env, () => alice.ask("attack", attack({ noisy: "false" })));
    assertRefused(answer, "invalid_input", "payload.noisy");
  });

  it("targetIds nested 1,000 deep around one id: refused, not read as that id", async () => {
    let nested = [TOKENS.fighter];
    for (let i = 0; i < 1000; i += 1) nested = [nested];
    const answer = await changesNothing(env, () => alice.ask("attack", { sceneId: SCENE, attackerId: TOKENS.rogue, targetIds: nested }));
    assertRefused(answer, "invalid_input");
    assert.match(answer.error.message, /^payload(\.targetIds)?/);
  });

  it("damageTaken hits 0 as the text \"0\": refused naming payload.hits", async () => {
    const answer = await changesNothing(env, () => alice.ask("damageTaken", { sceneId: SCENE, targetId: TOKENS.rogue, attackerId: TOKENS.fighter, hits: "0" }));
    assertRefused(answer, "invalid_input", "payload.hits");
  });
});

describe("Point out with allies that are not a list", () => {
  let env;
  let alice;
  before(async () => {
    env = await setup({ users: [GM, ALICE, BOB] });
    alice = playerConsole(env.alice);
  });
  after(() => shutdown(env));

  for (const [label, allies] of [["an object", { 0: TOKENS.archer, length: 1 }], ["a text", TOKENS.archer]]) {
    it(`allies as ${label}: invalid_input naming payload.allies, not failed`, async () => {
      const answer = await changesNothing(env, () => alice.ask("pointOut", { sceneId: SCENE, observerId: TOKENS.rogue, hiderId: TOKENS.fighter, allies }));
      assertRefused(answer, "invalid_input", "payload.allies");
    });
  }
});

describe("A refusal names nothing the player cannot see", () => {
  let env;
  let bob;
  before(async () => {
    env = await setup({ users: [GM, ALICE, BOB] });
    bob = playerConsole(env.bob);
  });
  after(() => shutdown(env));

  it("Bob asking to hide Alice's rogue: not_owner quotes the id he sent, not the token's name nor his", async () => {
    const answer = await changesNothing(env, () => bob.ask("hide", { sceneId: SCENE, tokenId: TOKENS.rogue }));
    assertRefused(answer, "not_owner", "payload.tokenId");
    assert.ok(answer.error.message.includes(TOKENS.rogue));
    // The id itself spells "Rogue": the rest of the message must not.
    assert.doesNotMatch(answer.error.message.replaceAll(TOKENS.rogue, ""), /Rogue|Bob/);
  });

  it("an attack on a token not on the scene: unknown_token quotes the ids sent, not the scene's name", async () => {
    const answer = await changesNothing(env, () => bob.ask("attack", { sceneId: SCENE, attackerId: TOKENS.fighter, targetId: "tokenNowhere0001" }));
    assertRefused(answer, "unknown_token", "targetId");
    assert.ok(answer.error.message.includes("tokenNowhere0001"));
    // The scene's id spells "Keep": the rest of the message must not name the scene.
    assert.doesNotMatch(answer.error.message.replaceAll(SCENE, ""), /Keep/);
  });

  it("the same refusal through Bob's API reads the id too", async () => {
    const api = env.bob.ctx.game.modules.get("furtive").api;
    await assert.rejects(api.reveal(TOKENS.rogue), (error) => error.code === "not_owner" && error.message.includes(TOKENS.rogue) && !/Rogue|Bob/.test(error.message.replaceAll(TOKENS.rogue, "")));
  });
});

describe("A player acts only on the scene their user views", () => {
  let env;
  let alice;
  before(async () => {
    env = await setup({ users: [GM, ALICE, BOB], world: addCellar });
    alice = playerConsole(env.alice);
  });
  after(() => shutdown(env));

  it("the GM's client knows which scene each player views (User#viewedScene)", () => {
    assert.equal(env.gm.ctx.game.users.get(ALICE).viewedScene, SCENE);
  });

  it("Alice, viewing the Keep, asking to hide her rogue on the Cellar: refused, no dialog, no state, no card", async () => {
    const answer = await changesNothing(env, async () => {
      const reply = alice.ask("hide", { sceneId: CELLAR, tokenId: cellar(TOKENS.rogue) });
      // Today's main opens the GM's Hide dialog and waits on it: fail at once instead.
      const dialogs = env.gm.ctx.dialogs.length;
      let settled = null;
      reply.then((value) => (settled = value));
      await until(() => settled !== null || env.gm.ctx.dialogs.length > dialogs, "an answer or a dialog");
      assert.equal(env.gm.ctx.dialogs.length, dialogs, "no Hide dialog for the GM");
      return settled;
    });
    assertRefused(answer, "scene_not_viewed", "payload.sceneId");
    assert.ok(answer.error.message.includes(CELLAR), "quotes the scene id sent");
    assert.doesNotMatch(answer.error.message.replaceAll(CELLAR, ""), /Cellar/, "not the scene's name");
  });

  it("once Alice's client reports viewing the Cellar, her request there reaches the GM, and one on the Keep is refused", async () => {
    env.alice.ctx.game.user.broadcastActivity({ sceneId: CELLAR });
    await until(() => env.gm.ctx.game.users.get(ALICE).viewedScene === CELLAR, "the GM learns Alice views the Cellar");
    const keep = await changesNothing(env, () => alice.ask("reveal", { sceneId: SCENE, tokenId: TOKENS.rogue }));
    assertRefused(keep, "scene_not_viewed", "payload.sceneId");
    // The rogue hides on no scene: the Cellar's reveal reaches the engine, which refuses it by its rule.
    const there = await alice.ask("reveal", { sceneId: CELLAR, tokenId: cellar(TOKENS.rogue) });
    assertRefused(there, "not_hiding");
    env.alice.ctx.game.user.broadcastActivity({ sceneId: SCENE });
    await until(() => env.gm.ctx.game.users.get(ALICE).viewedScene === SCENE, "back on the Keep");
  });

  it("reveal, sprint and attack on the Cellar are refused the same way", async () => {
    for (const [kind, payload] of [
      ["reveal", { sceneId: CELLAR, tokenId: cellar(TOKENS.rogue) }],
      ["sprint", { sceneId: CELLAR, tokenId: cellar(TOKENS.rogue) }],
      ["attack", { sceneId: CELLAR, attackerId: cellar(TOKENS.rogue), targetId: cellar(TOKENS.fighter) }],
    ]) {
      const answer = await changesNothing(env, () => alice.ask(kind, payload));
      assertRefused(answer, "scene_not_viewed", "payload.sceneId");
    }
  });
});

describe("Request ids and sizes are bounded", () => {
  let env;
  let alice;
  before(async () => {
    env = await setup({ users: [GM, ALICE, BOB] });
    alice = playerConsole(env.alice);
  });
  after(() => shutdown(env));

  /** The longest message a user's client received since `from` (an index into its log). */
  const longestSince = (userId, from) => Math.max(0, ...env.server.received(userId).slice(from).map((json) => json.length));

  it("a 1 MiB request id is refused naming requestId and is echoed to no one", async () => {
    const from = { [ALICE]: env.server.received(ALICE).length, [BOB]: env.server.received(BOB).length };
    const answer = await changesNothing(env, () => alice.ask("reveal", { sceneId: SCENE, tokenId: TOKENS.rogue }, { requestId: "r".repeat(1 << 20) }));
    assertRefused(answer, "invalid_input", "requestId");
    assert.ok(longestSince(ALICE, from[ALICE]) < 4096, `Alice received nothing large (${longestSince(ALICE, from[ALICE])})`);
    assert.ok(longestSince(BOB, from[BOB]) < 4096, "nor Bob");
  });

  it("a request carrying 1 MiB in a field it does not have is refused, not run", async () => {
    const answer = await changesNothing(env, () => alice.ask("reveal", { sceneId: SCENE, tokenId: TOKENS.rogue, note: "x".repeat(1 << 20) }));
    assertRefused(answer, "invalid_input", "payload.note");
    assert.ok(answer.error.message.length < 512, "the refusal is short");
  });

  it("a 100,000-character token id is refused naming the field, and not quoted whole", async () => {
    const answer = await changesNothing(env, () => alice.ask("reveal", { sceneId: SCENE, tokenId: "t".repeat(100_000) }));
    assertRefused(answer, "invalid_input", "payload.tokenId");
    assert.ok(answer.error.message.length < 512);
  });

  it("the GM remembers at most the last 256 request ids of a user: an older id runs again", async () => {
    const gm = env.gm.ctx;
    let runs = 0;
    const hook = gm.Hooks.on("furtive.preReveal", () => {
      runs += 1;
    });
    try {
      const first = alice.nextId();
      const reveal = (requestId) => alice.ask("reveal", { sceneId: SCENE, tokenId: TOKENS.rogue }, { requestId });
      await reveal(first);
      assert.equal(runs, 1);
      await reveal(first);
      assert.equal(runs, 1, "sent again at once: answered from memory, not run twice");
      for (let i = 0; i < 256; i += 1) await reveal(alice.nextId());
      assert.equal(runs, 257);
      await reveal(first);
      assert.equal(runs, 258, "forgotten after 256 newer ids: it runs again");
    } finally {
      gm.Hooks.off("furtive.preReveal", hook);
    }
  });
});

describe("The GM hears of refused requests at most once per sender per minute", () => {
  let env;
  before(async () => {
    env = await setup({ users: [GM, ALICE, BOB, CAROL] });
  });
  after(() => shutdown(env));

  it("five malformed requests from Alice and two from Bob: one notice each, naming them", async () => {
    const alice = playerConsole(env.alice);
    const bob = playerConsole(env.bob);
    const notices = () => env.gm.ctx.notifications.filter((n) => /refused a request from|demande de .+ refusée/i.test(n.message));
    const before = notices().length;
    for (let i = 0; i < 5; i += 1) assertRefused(await alice.ask("attack", { sceneId: SCENE, attackerId: TOKENS.rogue, targetId: TOKENS.fighter, hits: "2" }), "invalid_input");
    for (let i = 0; i < 2; i += 1) assertRefused(await bob.ask("toString", {}), "invalid_input");
    await env.server.idle();
    const seen = notices().slice(before);
    assert.equal(seen.length, 2, seen.map((n) => n.message).join(" | "));
    assert.match(seen[0].message, /Alice/);
    assert.match(seen[1].message, /Bob/);
    for (const notice of seen) assert.ok(notice.message.length < 400, "a short notice");
  });
});
