/**
 * GM-only cards read in each GM's language when two GMs read different
 * ones. A GM card carries its texts in both languages in its own flags
 * (`flags.furtive.texts`, as the players' cards do, ui/chat.mjs), and each GM's
 * client shows its own. Before, only the card's title and the engine's
 * entries were rewritten: a French second GM read the English GM's "GM
 * only", "Fighter is defenseless against Rogue", "No defense against the
 * attacker:", the buttons ("Undo this action") and the knockout card's
 * "Damage dealt: ...", and the Undone card posted when a GM undoes an action.
 *
 * Secrecy: the texts ride in the GM-whispered message itself, created once
 * and never updated (docs/foundry.md, "Where the state lives"), so they
 * reach the GMs only; no player's client receives them.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { ALICE, DOOR, GM, SCENE, TOKENS, answerHideDialog, apiOf, clickCard, hideRogue, rig, setup, shutdown, until, waitForDialog } from "./world.mjs";

const GM2 = "gmUser0000000002";
const addSecondGM = (world) => world.users.push({ _id: GM2, name: "Second GM", role: 4, flags: {} });

/** The rendered text of a client's chat card for a message, text nodes joined, spaces collapsed. */
function cardText(client, message) {
  const content = client.window.document.querySelector(`#chat-log [data-message-id="${message.id}"] .message-content`);
  if (!content) return null;
  const walker = client.window.document.createTreeWalker(content, 4);
  const parts = [];
  while (walker.nextNode()) parts.push(walker.currentNode.nodeValue);
  return parts.join(" ").replace(/\s+/g, " ").trim();
}

/** The newest message of a kind on a client matching `test(flags)`, and its rendered text. */
function newestCard(client, test) {
  const message = client.ctx.game.messages.contents.filter((m) => m.flags?.furtive && test(m.flags.furtive)).at(-1);
  return message ? { message, text: cardText(client, message) } : null;
}

describe("an English GM and a French second GM read the GM cards each in their language", () => {
  let env;
  let second;
  before(async () => {
    env = await setup({ ruleset: "percentile", users: [GM, GM2, ALICE], lang: { [GM2]: "fr" }, world: addSecondGM });
    second = env.clients[GM2];
    await hideRogue(env);
    // A surprise attack to the head: the Fighter is defenseless (P6); the GM card lists it, with its Undo button.
    await apiOf(env.gm).attack(TOKENS.rogue, TOKENS.fighter, { hitZone: "head" });
    await env.server.idle();
  });
  after(() => shutdown(env));

  const defenseless = (flags) => flags.kind === "log" && flags.gm === true && (flags.defenseless ?? []).length > 0;

  it("the attack's GM card: the French GM reads its badge, defenseless notice and button in French", async () => {
    await until(() => newestCard(second, defenseless)?.text, "the GM card on the second GM's client");
    const { text } = newestCard(second, defenseless);
    for (const french of ["MJ seulement", "Fighter est sans défense face à Rogue", "Aucune défense contre l'attaquant : Esquive, Parade, Blocage", "Annuler cette action"]) {
      assert.ok(text.includes(french), `"${french}" in: ${text}`);
    }
    for (const english of ["GM only", "is defenseless against", "No defense against", "Dodge", "Undo this action"]) {
      assert.ok(!text.includes(english), `no "${english}" in: ${text}`);
    }
  });

  it("the English GM reads the same card in English", () => {
    const { text } = newestCard(env.gm, defenseless);
    for (const english of ["GM only", "Fighter is defenseless against Rogue", "No defense against the attacker: Dodge, Parry, Block", "Undo this action"]) {
      assert.ok(text.includes(english), `"${english}" in: ${text}`);
    }
  });

  it("the knockout's GM card: the French GM reads the damage line in French", async () => {
    rig(env.gm, [[100, 12]]);
    await apiOf(env.gm).knockout(TOKENS.rogue, TOKENS.fighter, { rawDamage: 9 });
    await env.server.idle();
    const knockout = (flags) => flags.kind === "knockout";
    await until(() => newestCard(second, knockout)?.text, "the knockout card on the second GM's client");
    const french = newestCard(second, knockout).text;
    assert.match(french, /Dégâts infligés : 2 \(dégâts bruts divisés par 4\)\./, french);
    assert.doesNotMatch(french, /Damage dealt/, french);
    assert.match(newestCard(env.gm, knockout).text, /Damage dealt: 2 \(raw damage divided by 4\)\./);
  });

  it("the Undone card (the English GM undoes the attack): the French GM reads it in French", async () => {
    const attackCard = newestCard(env.gm, defenseless).message;
    clickCard(env.gm, attackCard, "undo");
    await env.server.idle();
    const undone = (flags) => flags.kind === "undone";
    await until(() => newestCard(second, undone)?.text, "the Undone card on the second GM's client");
    const french = newestCard(second, undone).text;
    assert.match(french, /^La dernière action Furtive sur .+ a été annulée : /, french);
    assert.doesNotMatch(french, /was undone/, french);
    assert.match(newestCard(env.gm, undone).text, /^The last Furtive action on .+ was undone: /);
  });

  it("no player's client receives a GM card's texts, in either language", () => {
    const gmTexts = ["MJ seulement", "GM only", "Aucune défense contre", "No defense against", "Dégâts infligés", "Damage dealt", "Annuler cette action", "Undo this action", "La dernière action Furtive", "The last Furtive action"];
    for (const json of env.server.received(ALICE)) {
      for (const text of gmTexts) assert.ok(!json.includes(text), `Alice received "${text}": ${json.slice(0, 300)}`);
    }
    assert.ok(env.server.received(GM2).some((json) => json.includes("MJ seulement")), "the second GM received the French texts");
  });
});

describe("the state-lost card and the Perception rolls card, for an English GM and a French second GM", () => {
  let env;
  let second;
  before(async () => {
    env = await setup({ ruleset: "opposed", users: [GM, GM2, ALICE], lang: { [GM2]: "fr" }, world: addSecondGM });
    second = env.clients[GM2];
  });
  after(() => shutdown(env));

  it("the GM's Perception checks rolled together: each roll's line reads French for the French GM", async () => {
    // The Rogue hides behind the closed door; the door opens: the Sentry and the Lookout roll Perception (O4), together.
    rig(env.gm, [[20, 14]]);
    const pending = apiOf(env.gm).hide(TOKENS.rogue);
    answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { moved: true });
    await pending;
    await env.server.idle();
    rig(env.gm, [[20, 2], [20, 3]]);
    await env.gm.ctx.game.scenes.get(SCENE).walls.get(DOOR).update({ ds: 1 });
    await env.server.idle();
    const rolls = (flags) => flags.kind === "perceptionRolls";
    await until(() => newestCard(second, rolls)?.text, "the Perception rolls on the second GM's client");
    const french = newestCard(second, rolls).text;
    const english = newestCard(env.gm, rolls).text;
    // Sentry 1d20 + 0 = 2, Lookout 1d20 + 4 = 7. The message's own flavor too (roll-flavor-language.test.mjs).
    assert.match(french, /Tests de Perception \(2\)/, french);
    assert.match(english, /Perception checks \(2\)/, english);
    for (const [observer, total] of [["Sentry", 2], ["Lookout", 7]]) {
      assert.match(english, new RegExp(`Perception: ${observer} looks for Rogue ?: ${total}\\b`), english);
      assert.match(french, new RegExp(`Perception : ${observer} cherche Rogue ?: ${total}\\b`), french);
    }
    assert.doesNotMatch(french, /looks for/, french);
  });

  it("the state-lost card: its text and its button read French for the French GM", async () => {
    const record = env.gm.ctx.game.messages.find((m) => m.getFlag("furtive", "kind") === "state");
    await record.delete();
    await env.server.idle();
    await assert.rejects(apiOf(env.gm).reveal(TOKENS.rogue), (error) => error.code === "state_lost");
    await env.server.idle();
    const lost = (flags) => flags.kind === "stateLost";
    await until(() => newestCard(second, lost)?.text, "the state-lost card on the second GM's client");
    const french = newestCard(second, lost).text;
    assert.match(french, /^Furtive : l'état de furtivité de .* est introuvable/, french);
    assert.match(french, /Furtive : remettre à zéro la furtivité de la scène$/, french);
    assert.match(newestCard(env.gm, lost).text, /^Furtive: the stealth state of .* cannot be found.*Furtive: start this scene's stealth over$/);
  });
});
