/**
 * English and French: every FURTIVE.* key the module uses exists in both
 * lang files (a static scan of scripts and templates, plus what the fake's
 * `game.i18n` was asked at run time), and a French client gets French text.
 */
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";

import { moduleDir } from "../node/harness.mjs";
import { ALICE, BOB, GM, TOKENS, apiOf, hideRogue, messagesOf, setup, shutdown } from "./world.mjs";

function flatten(object, prefix = "", out = new Map()) {
  for (const [key, value] of Object.entries(object)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === "object") flatten(value, full, out);
    else out.set(full, value);
  }
  return out;
}

async function langKeys(lang) {
  return flatten(JSON.parse(await readFile(path.join(moduleDir, "lang", `${lang}.json`), "utf8")));
}

/** FURTIVE.* keys in the module's code: complete literals, and prefixes of template literals `FURTIVE.X.${...}`. */
async function usedKeys() {
  const literal = new Set();
  const prefixes = new Set();
  for (const dir of ["scripts", "templates"]) {
    for (const file of await readdir(path.join(moduleDir, dir), { recursive: true })) {
      if (!/\.(mjs|hbs|html)$/.test(file)) continue;
      const text = await readFile(path.join(moduleDir, dir, file), "utf8");
      for (const match of text.matchAll(/FURTIVE\.[A-Za-z0-9_.]*[A-Za-z0-9_](\.\$\{)?/g)) {
        if (match[1]) prefixes.add(match[0].slice(0, -3));
        else literal.add(match[0]);
      }
    }
  }
  return { literal, prefixes };
}

describe("lang files", () => {
  it("en.json and fr.json have the same keys, none empty", async () => {
    const en = await langKeys("en");
    const fr = await langKeys("fr");
    assert.deepEqual([...en.keys()].filter((k) => !fr.has(k)), [], "keys missing in fr.json");
    assert.deepEqual([...fr.keys()].filter((k) => !en.has(k)), [], "keys missing in en.json");
    for (const [key, value] of [...en, ...fr]) assert.ok(typeof value === "string" && value.trim(), `${key} is empty`);
  });

  it("every FURTIVE.* key used in scripts and templates exists in both files", async () => {
    const { literal, prefixes } = await usedKeys();
    assert.ok(literal.size > 20, `found ${literal.size} keys`);
    for (const lang of ["en", "fr"]) {
      const keys = await langKeys(lang);
      const missing = [...literal].filter((k) => !keys.has(k) && ![...keys.keys()].some((known) => known.startsWith(`${k}.`)));
      assert.deepEqual(missing, [], `${lang}.json`);
      for (const prefix of prefixes) assert.ok([...keys.keys()].some((k) => k.startsWith(`${prefix}.`)), `${lang}.json has no ${prefix}.*`);
    }
  });

  it("French uses the French rule terms", async () => {
    const fr = [...(await langKeys("fr")).values()].join("\n");
    for (const term of ["Furtivité", "acuités", "MJ"]) assert.ok(fr.includes(term), term);
  });
});

describe("a French GM and an English player", () => {
  let env;
  before(async () => {
    env = await setup({ ruleset: "percentile", users: [GM, ALICE, BOB], lang: { [GM]: "fr" } });
    await hideRogue(env);
    await apiOf(env.alice).attack(TOKENS.rogue, TOKENS.fighter, { hitZone: "head" });
    await apiOf(env.bob).defend(TOKENS.fighter, TOKENS.fighter, TOKENS.rogue, "dodge");
    await env.server.idle();
  });
  after(() => shutdown(env));

  it("no key was looked up that the lang files lack", () => {
    for (const client of Object.values(env.clients)) {
      const missing = [...client.ctx.game.i18n.missing].filter((k) => k.startsWith("FURTIVE."));
      assert.deepEqual(missing, [], client.userId);
    }
  });

  it("the GM's HUD and chat are in French, the player's in English", () => {
    const hud = env.gm.ctx.canvas.hud.token;
    hud.bind(env.gm.ctx.canvas.tokens.get(TOKENS.rogue));
    const label = hud.element.querySelector('[data-furtive-action="hide"]').dataset.tooltip;
    assert.equal(label, env.gm.ctx.game.i18n.localize("FURTIVE.Action.hide"));
    assert.notEqual(label, env.alice.ctx.game.i18n.localize("FURTIVE.Action.hide"), "French differs from English");
    const gmLog = env.gm.window.document.getElementById("chat-log").textContent;
    assert.match(gmLog, /perçoit|Furtivité|sans défense/, "engine explanations in French for the French GM");
    const bobLog = env.bob.window.document.getElementById("chat-log").textContent;
    assert.match(bobLog, /defenseless|defend/, "English for Bob");
    assert.doesNotMatch(bobLog, /sans défense/);
  });

  it("every engine error code has a localized refusal in both languages", async () => {
    const codes = [...apiOf(env.gm).errorCodes()];
    assert.ok(codes.length > 10);
    for (const lang of ["en", "fr"]) {
      const keys = await langKeys(lang);
      assert.deepEqual(codes.filter((code) => !keys.has(`FURTIVE.Error.${code}`)), [], `${lang}.json`);
    }
  });

  it("the GM-only card holds both languages so each GM reads their own", () => {
    const card = messagesOf(env.gm).find((m) => m.flags?.furtive?.kind === "log" && m.flags.furtive.gm);
    assert.ok(card.flags.furtive.entries.every((e) => e.en && e.fr));
  });
});
