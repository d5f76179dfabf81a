/**
 * The Token HUD's Attack with several targets is ONE attack instance.
 *
 * O8 (rules-interpretation.md): "an area effect counts once, whatever the
 * number of creatures it hits (one attack instance with several targets is
 * one -5)"; each target makes its own O9 check. The engine's `attack` takes
 * a list of `targets` for this. Before, the HUD opened one dialog per
 * target and sent one `attack` per target: a fireball on two targets cost
 * the hider -10 instead of -5, in two saves and two sets of cards.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { GM, TOKENS, apiOf, clickDialogButton, hideRogueOpposed, messagesOf, placeable, plain, setup, shutdown, until } from "./world.mjs";

describe("HUD Attack on two targets (opposed): one attack instance (O8)", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "opposed", users: [GM] });
    await hideRogueOpposed(env);
  });
  after(() => shutdown(env));

  it("one dialog, one -5 (area, noisy), one attack card with Defend buttons for each target", async () => {
    const client = env.gm;
    placeable(client, TOKENS.fighter).setTarget(true, { releaseOthers: false });
    placeable(client, TOKENS.archer).setTarget(true, { releaseOthers: false });
    const hud = client.ctx.canvas.hud.token;
    hud.bind(placeable(client, TOKENS.rogue));
    const dialogs = client.ctx.dialogs.length;
    const messages = messagesOf(client).length;
    hud.element.querySelector('[data-furtive-action="attack"]').dispatchEvent(new client.window.MouseEvent("click", { bubbles: true }));
    await until(() => client.ctx.dialogs.length > dialogs, "the Attack dialog");
    const dialog = client.ctx.dialogs.at(-1);
    const form = dialog.element.querySelector("form");
    assert.match(form.textContent, /Fighter/);
    assert.match(form.textContent, /Archer/);
    form.elements.noisy.checked = true;
    form.elements.area.checked = true;
    clickDialogButton(client, dialog, "ok");
    await until(() => messagesOf(client).some((m, i) => i >= messages && m.flags?.furtive?.kind === "attack"), "the attack card");
    await env.server.idle();
    hud.clear();
    assert.equal(client.ctx.dialogs.length, dialogs, "one dialog for both targets: none opens after it");

    const penalties = apiOf(client).getState().hiders[TOKENS.rogue].penalties;
    assert.deepEqual(plain(penalties.map((p) => [p.amount, p.clause])), [[5, "O8"]], "one area attack: one -5");

    const cards = messagesOf(client).slice(messages).filter((m) => m.flags?.furtive?.kind === "attack");
    assert.equal(cards.length, 1, "one attack card");
    const [card] = cards;
    assert.deepEqual([...card.flags.furtive.targets], [TOKENS.fighter, TOKENS.archer]);
    const html = new client.window.DOMParser().parseFromString(card.content, "text/html");
    const buttons = [...html.querySelectorAll('[data-furtive-action="defend"]')];
    assert.deepEqual([...new Set(buttons.map((b) => b.dataset.target))], [TOKENS.fighter, TOKENS.archer], "Defend buttons for each target");
    assert.equal(buttons.length, 6, "three defenses for each target");
    assert.match(html.querySelector(".furtive-title").textContent, /Fighter and Archer/);

    const gmCards = messagesOf(client).slice(messages).filter((m) => m.flags?.furtive?.gm === true);
    assert.equal(gmCards.length, 1, "one GM card for the action");
  });

  it("the card's Archer row defends the Archer (furtive.preDefend sees it as the target)", async () => {
    const client = env.gm;
    const seen = [];
    const id = client.ctx.Hooks.on("furtive.preDefend", (context) => {
      seen.push(context.target.id);
      return false;
    });
    const rendered = [...client.window.document.querySelectorAll(`#chat-log [data-furtive-action="defend"][data-target="${TOKENS.archer}"]`)];
    assert.equal(rendered.length, 3, "the rendered card has the Archer's three defenses");
    rendered[0].dispatchEvent(new client.window.MouseEvent("click", { bubbles: true, cancelable: true }));
    await until(() => seen.length > 0, "the Defend action");
    client.ctx.Hooks.off("furtive.preDefend", id);
    assert.deepEqual(seen, [TOKENS.archer]);
  });
});

describe("the API's attack on a list of targets", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "opposed", users: [GM] });
    await hideRogueOpposed(env);
  });
  after(() => shutdown(env));

  it("a target that is the attacker itself is refused naming its place in the list, and nothing changes", async () => {
    const before = apiOf(env.gm).getState();
    await assert.rejects(apiOf(env.gm).attack(TOKENS.rogue, [TOKENS.fighter, TOKENS.rogue], { noisy: true, area: true }), (error) => error.code === "self_reference" && /targets\[1\]/.test(error.message));
    assert.deepEqual(plain(apiOf(env.gm).getState()), plain(before));
  });

  it("the furtive.attack hook gets every target", async () => {
    const seen = [];
    const id = env.gm.ctx.Hooks.on("furtive.attack", (context) => seen.push([...context.targetIds]));
    await apiOf(env.gm).attack(TOKENS.rogue, [TOKENS.fighter, TOKENS.archer], { noisy: true, area: true });
    await env.server.idle();
    env.gm.ctx.Hooks.off("furtive.attack", id);
    assert.deepEqual(seen, [[TOKENS.fighter, TOKENS.archer]]);
    assert.equal(apiOf(env.gm).getState().hiders[TOKENS.rogue].penalties.length, 1);
  });
});
