/**
 * Fuzz of the GM's door: a player's console sends the active GM generated
 * requests of every kind, each made wrong in one way (a wrong type, a
 * prototype key, a huge or deep value, an unknown kind, another scene, a
 * claimed identity, a token the player does not own, a GM-only kind, a
 * missing or extra field, a bad envelope). Every answer must be a coded
 * refusal; the world the server keeps and the GM's engine states stay
 * byte-identical; no chat message is posted, no dialog opens, nothing is
 * thrown uncaught. On Foundry v13 and v14.
 *
 * FURTIVE_FUZZ_SEED and FURTIVE_FUZZ_COUNT (requests per version) choose
 * the run: CI runs the fixed seed below; scripts/fuzz-requests.sh runs
 * longer ones.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { ALICE, BOB, CAROL, GM, SCENE, TOKENS, setup, shutdown } from "./world.mjs";
import { engineFingerprint, playerConsole, worldFingerprint } from "./player-console.mjs";

const SEED = Number(process.env.FURTIVE_FUZZ_SEED ?? 34);
const COUNT = Number(process.env.FURTIVE_FUZZ_COUNT ?? 150);

/** The codes a refused request may answer. */
const REFUSALS = new Set(["invalid_input", "unknown_user", "unverified_user", "scene_not_viewed", "not_owner", "gm_only", "unknown_token", "unknown_scene"]);

/** mulberry32: a small seeded generator, so a failing run can be replayed from its seed. */
function generator(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (n) => Math.floor(next() * n),
    pick(list) {
      return list[this.int(list.length)];
    },
  };
}

/** A second scene Alice does not view, with her own rogue on it. */
const CELLAR = "sceneCellar00001";
const cellar = (id) => id.replace("token", "cellr");
function addCellar(world) {
  const keep = world.scenes[0];
  world.scenes.push({ ...structuredClone(keep), _id: CELLAR, name: "Cellar", active: false, walls: [], tokens: structuredClone(keep.tokens).map((token) => ({ ...token, _id: cellar(token._id) })) });
}

/**
 * Every request kind as Alice (owner of the rogue, viewing the Keep) would
 * send it well formed: its fields, which are required, what each holds
 * (the test's own reading of the module's API, not the module's table),
 * and which field names the acting token.
 */
const KINDS = {
  hide: { fields: { sceneId: "id", tokenId: "id", options: "options" }, required: ["sceneId", "tokenId"], acting: "tokenId", base: { sceneId: SCENE, tokenId: TOKENS.rogue, options: {} } },
  reveal: { fields: { sceneId: "id", tokenId: "id" }, required: ["sceneId", "tokenId"], acting: "tokenId", base: { sceneId: SCENE, tokenId: TOKENS.rogue } },
  sprint: { fields: { sceneId: "id", tokenId: "id" }, required: ["sceneId", "tokenId"], acting: "tokenId", base: { sceneId: SCENE, tokenId: TOKENS.rogue } },
  pointOut: { fields: { sceneId: "id", observerId: "id", hiderId: "id", allies: "ids" }, required: ["sceneId", "observerId", "hiderId", "allies"], acting: "observerId", base: { sceneId: SCENE, observerId: TOKENS.rogue, hiderId: TOKENS.fighter, allies: [TOKENS.archer] } },
  attack: { fields: { sceneId: "id", attackerId: "id", targetId: "id", noisy: "bool", hits: "hits", area: "bool", hitZone: "zone", aimedAtSpace: "bool" }, required: ["sceneId", "attackerId", "targetId"], acting: "attackerId", base: { sceneId: SCENE, attackerId: TOKENS.rogue, targetId: TOKENS.fighter, noisy: false, hits: 1 } },
  damageTaken: { fields: { sceneId: "id", targetId: "id", attackerId: "id", hits: "hits" }, required: ["sceneId", "targetId", "attackerId"], acting: "targetId", base: { sceneId: SCENE, targetId: TOKENS.rogue, attackerId: TOKENS.fighter, hits: 1 } },
  canKnockout: { fields: { sceneId: "id", attackerId: "id", targetId: "id" }, required: ["sceneId", "attackerId", "targetId"], acting: "attackerId", base: { sceneId: SCENE, attackerId: TOKENS.rogue, targetId: TOKENS.fighter } },
  knockout: { fields: { sceneId: "id", attackerId: "id", targetId: "id", rawDamage: "damage" }, required: ["sceneId", "attackerId", "targetId"], acting: "attackerId", base: { sceneId: SCENE, attackerId: TOKENS.rogue, targetId: TOKENS.fighter, rawDamage: 10 } },
  canDefend: { fields: { sceneId: "id", defenderId: "id", targetId: "id", attackerId: "id" }, required: ["sceneId", "defenderId", "targetId", "attackerId"], acting: "defenderId", base: { sceneId: SCENE, defenderId: TOKENS.rogue, targetId: TOKENS.rogue, attackerId: TOKENS.fighter } },
  override: { fields: { sceneId: "id", hiderId: "id", observerId: "id", perceived: "bool" }, required: ["sceneId", "hiderId", "observerId", "perceived"], gmOnly: true, base: { sceneId: SCENE, hiderId: TOKENS.rogue, observerId: TOKENS.fighter, perceived: true } },
  changeModifiers: { fields: { sceneId: "id", hiderId: "id", situation: "texts", free: "free" }, required: ["sceneId", "hiderId"], gmOnly: true, base: { sceneId: SCENE, hiderId: TOKENS.rogue, situation: ["dark"], free: [{ label: "torch", value: 5 }] } },
  endTurn: { fields: { sceneId: "id", tokenId: "id" }, required: ["sceneId", "tokenId"], gmOnly: true, base: { sceneId: SCENE, tokenId: TOKENS.rogue } },
  reset: { fields: { sceneId: "id" }, required: ["sceneId"], gmOnly: true, base: { sceneId: SCENE } },
  undo: { fields: { sceneId: "id", actionId: "id" }, required: ["sceneId", "actionId"], gmOnly: true, base: { sceneId: SCENE, actionId: "action0000000001" } },
  rollPerception: { fields: { sceneId: "id", hiderId: "id", observerId: "id" }, required: ["sceneId", "hiderId", "observerId"], gmOnly: true, base: { sceneId: SCENE, hiderId: TOKENS.rogue, observerId: TOKENS.fighter } },
  reroll: { fields: { sceneId: "id", hiderId: "id" }, required: ["sceneId", "hiderId"], gmOnly: true, base: { sceneId: SCENE, hiderId: TOKENS.rogue } },
};

/** A value nested `depth` arrays (or objects) deep around `core`. */
function deep(core, depth, asObject = false) {
  let value = core;
  for (let i = 0; i < depth; i += 1) value = asObject ? { a: value } : [value];
  return value;
}

/** Values that are no value of the given sort (each refused for that field whatever the rest). */
function wrongValues(sort, rng) {
  const huge = "x".repeat(rng.pick([300, 70_000, 1 << 20]));
  const common = [null, {}, [], deep(TOKENS.fighter, rng.pick([10, 1000, 1500])), deep(1, 50, true), huge];
  switch (sort) {
    case "id":
      return [...common, 12, 0, true, false, "", "has space", "tok/../en", [TOKENS.fighter], { id: TOKENS.fighter }, "t".repeat(100_000)];
    case "ids":
      return [...common.filter((v) => !Array.isArray(v) || v.length), TOKENS.archer, { 0: TOKENS.archer, length: 1 }, [12], [null], [[TOKENS.archer]], [{}], Array.from({ length: 1001 }, () => TOKENS.archer), ["x".repeat(300)], 7, true];
    case "bool":
      return [...common, "false", "true", 0, 1, "", "yes"];
    case "hits":
      return [...common, "2", "NaN", NaN, Infinity, -Infinity, 1.5, -1, 101, 1e300, true, "1"];
    case "damage":
      return [...common, "10", -1, 100_001, 2.5, NaN, true];
    case "zone":
      return [...common.filter((v) => v !== null), "neck", "HEAD", 3, true, ["head"]];
    case "texts":
      return [...common.filter((v) => !Array.isArray(v) || v.length), "dark", [1], [null], [["dark"]], ["x".repeat(300)], Array.from({ length: 33 }, () => "dark"), 3];
    case "free":
      return [...common.filter((v) => !Array.isArray(v) || v.length), [{ label: "a", value: "5" }], [{ label: "a", value: null }], [{ label: 3, value: 1 }], [{ label: "a", value: 1, extra: 1 }], [1], "torch", Array.from({ length: 33 }, () => ({ label: "a", value: 1 }))];
    case "options":
      return [null, "dialog", 3, [], deep(1, 50, true), { dialog: "false" }, { moved: 1 }, { free: "x" }, { situation: "dark" }, { roll: 99 }, { requester: "GM" }, { precautions: [3] }];
    default:
      throw new Error(`no wrong values for ${sort}`);
  }
}

const PROTOTYPE_NAMES = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf", "__defineGetter__", "toLocaleString"];

/**
 * One malformed or unauthorized request: `{label, data}` where `data` is the
 * query's whole data. Each way is sure to make the request one the GM must refuse.
 */
function generate(rng, ask) {
  const kind = rng.pick(Object.keys(KINDS));
  const spec = KINDS[kind];
  const payload = structuredClone(spec.base);
  const envelope = { kind, payload, requestId: ask.nextId(), userId: ALICE };
  const way = rng.pick(["wrongType", "wrongType", "wrongType", "protoKey", "protoKind", "unknownKind", "huge", "deep", "otherScene", "unknownScene", "claimed", "notOwned", "gmOnly", "missing", "extra", "envelope"]);
  const fields = Object.keys(spec.fields);
  switch (way) {
    case "wrongType": {
      const field = rng.pick(fields);
      const value = rng.pick(wrongValues(spec.fields[field], rng));
      payload[field] = value;
      return { label: `${kind}.${field} = ${JSON.stringify(value)?.slice(0, 60)}`, data: envelope };
    }
    case "protoKey": {
      const name = rng.pick(PROTOTYPE_NAMES);
      const json = JSON.stringify(envelope).replace(/"payload":\{/, `"payload":{${JSON.stringify(name)}:${JSON.stringify(rng.pick([{ isGM: true }, TOKENS.rogue, 1, [TOKENS.rogue]]))},`);
      return { label: `${kind} with payload key ${name}`, data: JSON.parse(json) };
    }
    case "protoKind": {
      const name = rng.pick(PROTOTYPE_NAMES);
      const json = JSON.stringify({ ...envelope, kind: name, payload: {} }).replace(/"payload":\{/, `"payload":{${JSON.stringify(String(Object))}:"${TOKENS.rogue}","sceneId":"${SCENE}"`);
      return { label: `kind ${name}`, data: JSON.parse(json) };
    }
    case "unknownKind": {
      const value = rng.pick(["", "Hide", "hide ", "HIDE", "gmHide", "delete", "x".repeat(rng.pick([40, 100_000])), 12, null, true, ["hide"], { hide: 1 }]);
      return { label: `kind ${JSON.stringify(value)?.slice(0, 40)}`, data: { ...envelope, kind: value } };
    }
    case "huge": {
      const size = rng.pick([70_000, 1 << 20, 3 << 20]);
      if (rng.int(2)) payload[rng.pick(fields)] = "h".repeat(size);
      else payload.extra = "h".repeat(size);
      return { label: `${kind} with ${size} characters`, data: envelope };
    }
    case "deep": {
      const depth = rng.pick([20, 1000, 1500]);
      const field = rng.pick(fields);
      payload[field] = deep(payload[field] ?? TOKENS.rogue, depth, rng.int(2) === 1);
      return { label: `${kind}.${field} ${depth} deep`, data: rng.int(4) === 0 ? { ...envelope, payload: deep(payload, depth, true) } : envelope };
    }
    case "otherScene": {
      // Alice's own rogue on the Cellar, which she does not view.
      for (const field of fields) if (typeof payload[field] === "string") payload[field] = field === "sceneId" ? CELLAR : cellar(payload[field]);
      if (Array.isArray(payload.allies)) payload.allies = payload.allies.map(cellar);
      return { label: `${kind} on the Cellar`, data: envelope };
    }
    case "unknownScene":
      payload.sceneId = rng.pick(["sceneNowhere0001", "x", SCENE.toLowerCase()]);
      return { label: `${kind} on scene ${payload.sceneId}`, data: envelope };
    case "claimed": {
      const userId = rng.pick([BOB, CAROL, GM, "userNobody000001", ""]);
      return { label: `${kind} claiming ${userId || "no one"}`, data: { ...envelope, userId } };
    }
    case "notOwned": {
      if (spec.gmOnly) return { label: `${kind} (GM only)`, data: envelope };
      payload[spec.acting] = rng.pick([TOKENS.fighter, TOKENS.archer, TOKENS.guard, TOKENS.sentry]);
      return { label: `${kind} acting with ${payload[spec.acting]}`, data: envelope };
    }
    case "gmOnly": {
      const gmKind = rng.pick(Object.keys(KINDS).filter((k) => KINDS[k].gmOnly));
      return { label: `${gmKind} (GM only)`, data: { ...envelope, kind: gmKind, payload: structuredClone(KINDS[gmKind].base) } };
    }
    case "missing": {
      const field = rng.pick(spec.required);
      delete payload[field];
      return { label: `${kind} without ${field}`, data: envelope };
    }
    case "extra": {
      const name = rng.pick(["userId", "isGM", "options2", "targetIds2", "privileged", "remote"]);
      payload[name] = rng.pick([true, GM, 1, {}]);
      return { label: `${kind} with ${name}`, data: envelope };
    }
    case "envelope": {
      const change = rng.pick([
        { payload: null },
        { payload: [] },
        { payload: "sceneId" },
        { payload: 3 },
        { requestId: 7 },
        { requestId: "" },
        { requestId: "has space" },
        { requestId: null },
        { requestId: "r".repeat(rng.pick([33, 1 << 20])) },
        { userId: 42 },
        { userId: null },
        { extra: true },
      ]);
      const data = { ...envelope, ...change };
      return { label: `envelope ${JSON.stringify(change).slice(0, 60)}`, data };
    }
    default:
      throw new Error(way);
  }
}

for (const version of [13, 14]) {
  describe(`v${version}: generated hostile requests from a player's console (seed ${SEED}, ${COUNT} requests)`, () => {
    let env;
    let unhandled = [];
    const onUnhandled = (reason) => unhandled.push(reason);
    before(async () => {
      env = await setup({ version, users: [GM, ALICE, BOB, CAROL], world: addCellar });
      process.on("unhandledRejection", onUnhandled);
    });
    after(() => {
      process.off("unhandledRejection", onUnhandled);
      shutdown(env);
    });

    it("every request is refused with a code, and nothing changes, is posted, opens or throws", async () => {
      const rng = generator(SEED + version);
      const alice = playerConsole(env.alice);
      await env.server.idle();
      const world = worldFingerprint(env);
      const engine = engineFingerprint(env);
      const dialogs = env.gm.ctx.dialogs.length;
      const errors = Object.values(env.clients).map((c) => c.ctx.errors.length);
      const codes = new Map();
      for (let i = 0; i < COUNT; i += 1) {
        const { label, data } = generate(rng, alice);
        const answer = await alice.send(data);
        const what = `#${i} ${label}: ${JSON.stringify(answer).slice(0, 300)}`;
        assert.equal(answer?.ok, false, what);
        assert.ok(REFUSALS.has(answer.error?.code), what);
        assert.equal(typeof answer.error.message, "string", what);
        assert.ok(answer.error.message.length <= 512, `${what}: a short message`);
        codes.set(answer.error.code, (codes.get(answer.error.code) ?? 0) + 1);
        assert.equal(env.gm.ctx.dialogs.length, dialogs, `${what}: no dialog`);
        if (i % 25 === 24 || i === COUNT - 1) {
          await env.server.idle();
          assert.equal(worldFingerprint(env), world, `${what}: the world is byte-identical`);
          assert.equal(engineFingerprint(env), engine, `${what}: the engine states are byte-identical`);
        }
      }
      assert.deepEqual(Object.values(env.clients).map((c) => c.ctx.errors.length), errors, "nothing thrown uncaught on any client");
      assert.deepEqual(unhandled, [], "no unhandled rejection");
      // The run reached past the door: identity, scene, ownership and GM-only refusals too.
      for (const code of ["invalid_input", "unverified_user", "scene_not_viewed", "not_owner", "gm_only"]) assert.ok(codes.has(code), `some request was refused ${code}: ${JSON.stringify([...codes])}`);
    });
  });
}
