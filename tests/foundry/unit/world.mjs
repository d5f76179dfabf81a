/**
 * Worlds for the tests: one GM and players, a scene with tokens, both
 * rulesets. Numbers are chosen so every hidden number is distinctive (scanned
 * for in what players receive).
 *
 * percentile (generic preset, Simple Worldbuilding-style paths):
 *   rogue (Alice)     Furtivité 61; hides with d100 83 + dark +50 + free +27 = score 221
 *   fighter (Bob)     acuities 50+60+40 = 150  -> does not perceive the rogue (221 > 150)
 *   archer (Carol)    acuities 100+90+70 = 260 -> perceives the rogue (221 <= 260)
 *   sentry (Dave)     acuities 40+30+20 = 90   -> does not perceive
 *   lookout (Dave)    acuities 120+100+90 = 310 -> perceives (Dave sees the rogue, B2)
 *   guard (GM, NPC)   acuities 70+50+30 = 150, unlinked -> does not perceive
 *
 * opposed (dnd5e preset): Stealth 1d20 + skills.ste.total, Perception 1d20 + skills.prc.total.
 */
import { startWorld } from "../node/harness.mjs";

export const USERS = [
  { _id: "gmUser0000000001", name: "Gamemaster", role: 4 },
  { _id: "aliceUser0000001", name: "Alice", role: 1, character: "actorRogue000001" },
  { _id: "bobUser000000001", name: "Bob", role: 1, character: "actorFighter0001" },
  { _id: "carolUser0000001", name: "Carol", role: 1, character: "actorArcher00001" },
  { _id: "daveUser00000001", name: "Dave", role: 1 },
];
export const GM = USERS[0]._id;
export const ALICE = USERS[1]._id;
export const BOB = USERS[2]._id;
export const CAROL = USERS[3]._id;
export const DAVE = USERS[4]._id;

export const TOKENS = {
  rogue: "tokenRogue000001",
  fighter: "tokenFighter0001",
  archer: "tokenArcher00001",
  sentry: "tokenSentry00001",
  lookout: "tokenLookout0001",
  guard: "tokenGuard000001",
};
export const SCENE = "sceneKeep0000001";
export const DOOR = "wallDoor00000001";

const owned = (userId) => ({ default: 0, [userId]: 3 });

function percentileActor(id, name, ownership, { stealth = 0, visual = 0, auditory = 0, olfactory = 0, strength = 40 } = {}) {
  return {
    _id: id,
    name,
    type: "character",
    ownership,
    system: {
      attributes: {
        stealth: { value: stealth },
        stealth_base: { value: stealth },
        visual_acuity: { value: visual },
        auditory_acuity: { value: auditory },
        olfactory_acuity: { value: olfactory },
        strength: { value: strength },
        perception: { value: 0 },
      },
    },
    items: [],
    effects: [],
    flags: {},
  };
}

function dnd5eActor(id, name, ownership, { ste = 0, prc = 0, blindsight = 0, str = 10 } = {}) {
  return {
    _id: id,
    name,
    type: "character",
    ownership,
    system: {
      abilities: { str: { value: str, mod: Math.floor((str - 10) / 2) } },
      skills: { ste: { total: ste }, prc: { total: prc }, acr: { total: 2 }, ath: { total: 3 } },
      attributes: { senses: { blindsight, tremorsense: 0, darkvision: 60 } },
    },
    items: [],
    effects: [],
    flags: {},
  };
}

function token(id, name, actorId, x, y, { link = true, disposition = 1, sight = 60 } = {}) {
  return { _id: id, name, actorId, actorLink: link, x, y, width: 1, height: 1, disposition, hidden: false, sight: { enabled: true, range: sight }, detectionModes: [], delta: { effects: [] }, flags: {} };
}

/**
 * Layout (grid 100 px, 5 ft): a wall with a door at x = 500 from y = 0 to 1000.
 * West of the door: rogue (200,400), fighter (300,200), archer (300,600), guard (100,800).
 * East of the door: sentry (700,400), lookout (800,600).
 * With the door closed the east tokens have no clear view of the rogue.
 */
export function makeWorld({ ruleset = "percentile", settings = {} } = {}) {
  const percentile = ruleset === "percentile";
  const actor = percentile ? percentileActor : dnd5eActor;
  const stats = percentile
    ? {
        rogue: { stealth: 61 },
        fighter: { visual: 50, auditory: 60, olfactory: 40 },
        archer: { visual: 100, auditory: 90, olfactory: 70 },
        sentry: { visual: 40, auditory: 30, olfactory: 20 },
        lookout: { visual: 120, auditory: 100, olfactory: 90 },
        guard: { visual: 70, auditory: 50, olfactory: 30 },
      }
    : {
        rogue: { ste: 7 },
        fighter: { prc: 1 },
        archer: { prc: 5 },
        sentry: { prc: 0 },
        lookout: { prc: 4 },
        guard: { prc: 2 },
      };
  const worldSettings = [
    { key: "furtive.initialized", value: "true", user: null },
    { key: "furtive.preset", value: JSON.stringify(percentile ? "generic" : "dnd5e"), user: null },
    ...Object.entries(settings).map(([key, value]) => ({ key: `furtive.${key}`, value: JSON.stringify(value), user: null })),
  ];
  if (!percentile) {
    const preset = {
      ruleset: "opposed",
      stealthFormula: "1d20 + @skills.ste.total",
      perceptionFormula: "1d20 + @skills.prc.total",
      enhancedSenses: "blindsight=system.attributes.senses.blindsight:targeting; tremorsense=system.attributes.senses.tremorsense:targeting",
      strengthPath: "system.abilities.str.value",
      dodgeFormula: "1d20 + @skills.acr.total",
      parryFormula: "1d20 + @skills.ath.total",
      blockFormula: "1d20 + @abilities.str.mod",
    };
    for (const [key, value] of Object.entries(preset)) if (!(key in settings)) worldSettings.push({ key: `furtive.${key}`, value: JSON.stringify(value), user: null });
  }
  return {
    id: "furtive-test-world",
    system: { id: percentile ? "worldbuilding" : "dnd5e", version: percentile ? "0.8.2" : "4.3.0" },
    users: USERS.map((u) => ({ ...u, flags: {} })),
    actors: [
      actor("actorRogue000001", "Rogue", owned(ALICE), stats.rogue),
      actor("actorFighter0001", "Fighter", owned(BOB), stats.fighter),
      actor("actorArcher00001", "Archer", owned(CAROL), stats.archer),
      actor("actorSentry00001", "Sentry", owned(DAVE), stats.sentry),
      actor("actorLookout0001", "Lookout", owned(DAVE), stats.lookout),
      actor("actorGuard000001", "Guard", { default: 0 }, stats.guard),
    ],
    scenes: [
      {
        _id: SCENE,
        name: "Keep",
        active: true,
        width: 1000,
        height: 1000,
        tokenVision: true,
        grid: { size: 100, distance: 5, units: "ft", type: 1 },
        environment: { globalLight: { enabled: true } },
        tokens: [
          token(TOKENS.rogue, "Rogue", "actorRogue000001", 200, 400),
          token(TOKENS.fighter, "Fighter", "actorFighter0001", 300, 200),
          token(TOKENS.archer, "Archer", "actorArcher00001", 300, 600),
          token(TOKENS.sentry, "Sentry", "actorSentry00001", 700, 400),
          token(TOKENS.lookout, "Lookout", "actorLookout0001", 800, 600),
          token(TOKENS.guard, "Guard", "actorGuard000001", 100, 800, { link: false, disposition: -1 }),
        ],
        walls: [
          { _id: "wallNorth0000001", c: [500, 0, 500, 350], move: 20, sight: 20, light: 20, sound: 20, door: 0, ds: 0 },
          { _id: DOOR, c: [500, 350, 500, 650], move: 20, sight: 20, light: 20, sound: 20, door: 1, ds: 0 },
          { _id: "wallSouth0000001", c: [500, 650, 500, 1000], move: 20, sight: 20, light: 20, sound: 20, door: 0, ds: 0 },
        ],
        flags: {},
      },
    ],
    journal: [],
    messages: [],
    combats: [],
    settings: worldSettings,
  };
}

/**
 * Dice the GM's client will roll, in order: `rig(client, [[100, 83], [20, 15]])`.
 * Each entry is `[faces, result]`; `CONFIG.Dice.randomUniform` returns the
 * matching uniform. Rolls beyond the list get 0.5 and are recorded in `extra`.
 */
export function rig(client, dice) {
  const queue = [...dice];
  const state = { extra: 0, queue };
  client.ctx.CONFIG.Dice.randomUniform = () => {
    const next = queue.shift();
    if (!next) {
      state.extra += 1;
      return 0.5;
    }
    const [faces, result] = next;
    return (result - 0.5) / faces;
  };
  return state;
}

/**
 * Starts the world with the GM and the four players, the real module and the
 * real wasm, and waits until every client's engine is ready.
 */
export async function setup({ ruleset = "percentile", version = 13, libWrapper = false, settings = {}, lang = {}, users = [GM, ALICE, BOB, CAROL, DAVE] } = {}) {
  const world = makeWorld({ ruleset, settings });
  const { server, clients } = await startWorld({ world, version, libWrapper, clients: users.map((userId) => ({ userId, lang: lang[userId] ?? "en" })) });
  for (const client of Object.values(clients)) {
    const api = client.ctx.game.modules.get("furtive").api;
    if (!api) throw new Error(`furtive api missing on ${client.userId}`);
    await api.engineReady;
  }
  await server.idle();
  return { server, clients, gm: clients[GM], alice: clients[ALICE], bob: clients[BOB], carol: clients[CAROL], dave: clients[DAVE], world };
}

/** The open DialogV2 of a client (the last rendered), or null. */
export function openDialog(client) {
  return client.ctx.dialogs.at(-1) ?? null;
}

/** Waits until a client has an open dialog. */
export async function waitForDialog(client, server) {
  for (let i = 0; i < 2000; i += 1) {
    const dialog = openDialog(client);
    if (dialog) return dialog;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  throw new Error(`no dialog opened on ${client.userId}`);
}

/** Clicks a button of a dialog like a user (a real click event on the button). */
export function clickDialogButton(client, dialog, action) {
  const button = dialog.element.querySelector(`button[data-action="${action}"]`);
  if (!button) throw new Error(`dialog has no button ${action}`);
  button.dispatchEvent(new client.window.MouseEvent("click", { bubbles: true, cancelable: true }));
}

/** Answers the Hide dialog: situation toggles, free modifier, then the Hide button. */
export function answerHideDialog(client, dialog, { situation = [], freeLabel = "", freeValue = 0, moved, precautions } = {}) {
  const form = dialog.element.querySelector("form");
  for (const input of form.querySelectorAll('input[name="situation"]')) input.checked = situation.includes(input.value);
  if (form.elements.freeLabel) form.elements.freeLabel.value = freeLabel;
  if (form.elements.freeValue) form.elements.freeValue.value = String(freeValue);
  if (moved !== undefined && form.elements.moved) form.elements.moved.checked = moved;
  if (precautions) for (const input of form.querySelectorAll('input[name="precautions"]')) input.checked = precautions.includes(input.value);
  clickDialogButton(client, dialog, "ok");
}

/** A token placeable on a client's canvas. */
export function placeable(client, tokenId) {
  return client.ctx.canvas.tokens.get(tokenId);
}

/** Runs one frame on the client and returns whether the token is drawn visible. */
export function visibleOn(client, tokenId) {
  client.ctx.frame();
  return placeable(client, tokenId).visible;
}

/** Ends all clients. */
export function shutdown(env) {
  for (const client of Object.values(env.clients)) {
    client.ctx.disconnect();
    client.window.close();
  }
}

/** A value from another realm as plain JSON data (for deepEqual across realms). */
export function plain(value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/** The furtive API of a client. */
export function apiOf(client) {
  return client.ctx.game.modules.get("furtive").api;
}

/** Every chat message a client holds, as plain data. */
export function messagesOf(client) {
  return client.ctx.game.messages.contents.map((m) => plain(m._source));
}

/** Waits until `predicate()` is true, letting the world run. */
export async function until(predicate, what = "condition") {
  for (let i = 0; i < 5000; i += 1) {
    if (predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Hides the rogue as the GM: dark + free "torch" +27, d100 83 -> score 221. */
export async function hideRogue(env) {
  rig(env.gm, [[100, 83]]);
  const pending = apiOf(env.gm).hide(TOKENS.rogue);
  answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { situation: ["dark"], freeLabel: "torch", freeValue: 27 });
  const outcome = await pending;
  await env.server.idle();
  return outcome;
}
