/**
 * The cards one client posts for others read in each reader's language: the
 * attack card (its title, the Defend prompt and the defense buttons), the
 * one-line results (a knockout, a refused defense) and the Perception check
 * offered to a player. Before, they were written once in the poster's
 * language: a French player read the English GM's "Rogue attacks Guard",
 * "Defend (select your token first):" and "Rogue knocks Guard out.", and the
 * English GM read a French player's refused defense in French.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { settle } from "./system-world.mjs";
import { ALICE, BOB, DAVE, DOOR, GM, SCENE, TOKENS, answerHideDialog, apiOf, hideRogue, rig, setup, shutdown, until, waitForDialog } from "./world.mjs";

/** The rendered text of a client's chat card for a message (its content, each text node apart), spaces collapsed. */
function cardText(client, message) {
  const content = client.window.document.querySelector(`#chat-log [data-message-id="${message.id}"] .message-content`);
  if (!content) return null;
  const walker = client.window.document.createTreeWalker(content, 4);
  const parts = [];
  while (walker.nextNode()) parts.push(walker.currentNode.nodeValue);
  return parts.join(" ").replace(/\s+/g, " ").trim();
}

/** The newest message on a client whose rendered text matches. */
function newest(client, pattern) {
  const found = client.ctx.game.messages.contents.filter((m) => pattern.test(cardText(client, m) ?? "")).at(-1);
  return found ? cardText(client, found) : null;
}

describe("an English GM, French players: the attack card, the knockout line and a refused defense", () => {
  let env;
  before(async () => {
    env = await setup({
      ruleset: "percentile",
      users: [GM, ALICE, BOB],
      lang: { [ALICE]: "fr", [BOB]: "fr" },
      world: (w) => {
        w.scenes[0].tokens = w.scenes[0].tokens.filter((t) => [TOKENS.rogue, TOKENS.fighter, TOKENS.guard].includes(t._id));
      },
    });
    await hideRogue(env);
    await apiOf(env.alice).attack(TOKENS.rogue, TOKENS.guard, { hitZone: "head" });
    await settle(env);
  });
  after(() => shutdown(env));

  it("Alice reads the attack card in French, the GM in English", async () => {
    await until(() => newest(env.gm, /Defend/), "the attack card");
    await until(() => newest(env.alice, /Esquive/), "the attack card in French on Alice's client");
    assert.equal(newest(env.alice, /Esquive/), "Rogue attaque Guard Se défendre (sélectionnez d'abord votre pion) : Esquive Parade Blocage");
    assert.equal(newest(env.gm, /Dodge/), "Rogue attacks Guard Defend (select your token first): Dodge Parry Block");
  });

  it("the GM's knockout line reads French for Alice", async () => {
    rig(env.gm, [[100, 20]]);
    await apiOf(env.alice).knockout(TOKENS.rogue, TOKENS.guard, { rawDamage: 8 });
    await settle(env);
    assert.equal(newest(env.alice, /^Rogue \S+ Guard/), "Rogue assomme Guard.");
    assert.equal(newest(env.gm, /^Rogue knocks/), "Rogue knocks Guard out.");
  });

  it("Bob's refused defense (his fighter does not perceive the rogue, P6) reads English for the GM", async () => {
    const result = await apiOf(env.bob).defend(TOKENS.fighter, TOKENS.guard, TOKENS.rogue, "dodge");
    assert.equal(result.allowed, false);
    await settle(env);
    assert.match(newest(env.bob, /^Fighter ne peut pas/) ?? "", /^Fighter ne peut pas se défendre : Fighter ne perçoit pas Rogue/);
    assert.match(newest(env.gm, /^Fighter cannot/) ?? "", /^Fighter cannot defend: Fighter does not perceive Rogue/);
  });
});

describe("a French GM offers the sentry's Perception check to Dave: Dave reads it in English", () => {
  let env;
  before(async () => {
    env = await setup({
      ruleset: "opposed",
      users: [GM, DAVE],
      lang: { [GM]: "fr" },
      settings: { systemOfferChecks: true },
      world: (w) => {
        w.system = { id: "worldbuilding", version: "0.8.2" };
      },
    });
    rig(env.gm, [[20, 14]]);
    const pending = apiOf(env.gm).hide(TOKENS.rogue);
    answerHideDialog(env.gm, await waitForDialog(env.gm, env.server), { moved: true });
    await pending;
    await env.server.idle();
  });
  after(() => shutdown(env));

  it("the door opens: Dave's offer card and its button are English, the GM's French", async () => {
    await env.gm.ctx.game.scenes.get(SCENE).walls.get(DOOR).update({ ds: 1 });
    await until(() => newest(env.dave, /Sentry\./), "the offer on Dave's client");
    await settle(env);
    assert.equal(newest(env.dave, /Sentry\./), "Roll a Perception check for Sentry. Roll Perception");
    assert.equal(newest(env.gm, /^Faites.*Sentry\./), "Faites un test de Perception pour Sentry. Lancer Perception");
  });
});
