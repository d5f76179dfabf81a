/**
 * The GM's hover tooltip on a hider (ui/hud.mjs onHoverToken) explains each
 * pair with `FURTIVE.Reason.<reason>`, for every reason the engine gives a
 * pair (`PairReason`, npm/furtive.schema.json, generated from the Rust
 * types). Before, `attacked` (P9: the hider attacked from hiding without a
 * surprise and its turn ended) had no text in either language, so the
 * tooltip showed the raw id: "Archer le perçoit. attacked". And the title
 * of a hider P9 revealed (phase `revealed`: everyone perceives it, the
 * record stays for the next roll's -100) said it was hiding ("Rogue se cache").
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";

import { moduleDir, repoRoot } from "../node/harness.mjs";
import { GM, TOKENS, apiOf, hideRogue, setup, shutdown, until } from "./world.mjs";

async function lang(name) {
  return JSON.parse(await readFile(path.join(moduleDir, "lang", `${name}.json`), "utf8"));
}

describe("every pair reason has a tooltip text", () => {
  it("each PairReason of the engine's schema is in FURTIVE.Reason of en.json and fr.json", async () => {
    const schema = JSON.parse(await readFile(path.join(repoRoot, "npm", "furtive.schema.json"), "utf8"));
    const reasons = schema.definitions.PairReason.oneOf.map((variant) => variant.const);
    assert.ok(reasons.includes("attacked") && reasons.length > 5, "the schema lists the reasons");
    for (const name of ["en", "fr"]) {
      const texts = (await lang(name)).FURTIVE.Reason;
      assert.deepEqual(reasons.filter((reason) => typeof texts[reason] !== "string"), [], `${name}.json`);
    }
  });
});

describe("a French GM hovers the rogue after it attacked the archer, who perceived it (P9)", () => {
  let env;
  before(async () => {
    env = await setup({
      ruleset: "percentile",
      users: [GM],
      lang: { [GM]: "fr" },
      world: (w) => {
        w.scenes[0].tokens = w.scenes[0].tokens.filter((t) => [TOKENS.rogue, TOKENS.archer].includes(t._id));
      },
    });
    await hideRogue(env);
    await apiOf(env.gm).attack(TOKENS.rogue, TOKENS.archer, {});
    await apiOf(env.gm).endTurn(TOKENS.rogue);
    await env.server.idle();
  });
  after(() => shutdown(env));

  it("the tooltip gives the reason in French, not the raw id", async () => {
    assert.equal(apiOf(env.gm).getState().hiders[TOKENS.rogue].pairs[TOKENS.archer].reason, "attacked");
    env.gm.ctx.canvas.tokens.get(TOKENS.rogue)._onHoverIn();
    const tooltip = () => env.gm.window.document.getElementById("furtive-tooltip");
    await until(() => tooltip(), "the tooltip");
    const text = tooltip().textContent.replace(/\s+/g, " ");
    assert.match(text, /Archer le perçoit\. \(/);
    assert.doesNotMatch(text, /attacked/);
  });

  it("the tooltip's title says the rogue no longer hides (P9 revealed it)", async () => {
    assert.equal(apiOf(env.gm).getState().hiders[TOKENS.rogue].phase, "revealed");
    const tooltip = env.gm.window.document.getElementById("furtive-tooltip");
    assert.ok(tooltip);
    assert.match(tooltip.textContent.replace(/\s+/g, " "), /Rogue ne se cache plus/);
    assert.doesNotMatch(tooltip.textContent, /Rogue se cache\b/);
  });
});
