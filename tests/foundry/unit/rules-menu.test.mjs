/**
 * The 15 rule inputs are grouped in one settings sub-menu per
 * ruleset (`game.settings.registerMenu`): a
 * HandlebarsApplicationMixin(ApplicationV2) form on v13 and v14 (the fake's
 * application classes, tests/foundry/fake/applications.mjs). Opened like the
 * settings window's menu button, changed and saved like a user; the engine
 * reads the new value.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { ALICE, GM, TOKENS, apiOf, hideRogue, setup, shutdown } from "./world.mjs";

/** The rendered menu's form on a client. */
function formOf(app) {
  const element = app.element?.[0] ?? app.element;
  return element.querySelector("form") ?? element.closest("form") ?? element;
}

describe("Rule inputs: one settings sub-menu per ruleset", () => {
  for (const version of [13, 14]) {
    it(`v${version}: the GM opens the percentile menu, changes an acuity path, saves; the engine reads it`, async () => {
      const env = await setup({ ruleset: "percentile", version, users: [GM, ALICE] });
      try {
        const gm = env.gm.ctx;
        const menus = [...gm.game.settings.menus.keys()].filter((id) => id.startsWith("furtive."));
        assert.deepEqual(menus.sort(), ["furtive.rules-opposed", "furtive.rules-percentile"]);
        for (const id of menus) assert.equal(gm.game.settings.menus.get(id).restricted, true, `${id} is for GMs`);
        // The inputs left the main settings list.
        assert.equal(gm.game.settings.settings.get("furtive.visualAcuityPath").config, false);
        await hideRogue(env);
        assert.equal(apiOf(env.gm).getState().creatures[TOKENS.fighter].acuities.visual, 50);

        const app = await gm.openSettingsMenu("furtive.rules-percentile");
        assert.equal(app instanceof env.gm.window.foundry.applications.api.ApplicationV2, true, "an ApplicationV2");
        const form = formOf(app);
        assert.equal(form.tagName, "FORM");
        const names = [...form.querySelectorAll("input[name]")].map((input) => input.name);
        assert.equal(names.length, 12, `percentile inputs: ${names}`);
        const visual = form.elements.visualAcuityPath;
        assert.equal(visual.value, "system.attributes.visual_acuity.value");
        assert.equal(visual.placeholder, "system.attributes.visual_acuity.value", "the preset's value is the default");
        visual.value = "system.attributes.auditory_acuity.value";
        form.querySelector('button[type="submit"]').dispatchEvent(new env.gm.window.MouseEvent("click", { bubbles: true, cancelable: true }));
        await env.server.idle();
        assert.equal(app.rendered, false, "closed on submit");
        for (const client of [env.gm, env.alice]) assert.equal(client.ctx.game.settings.get("furtive", "visualAcuityPath"), "system.attributes.auditory_acuity.value", client.userId);
        // The fighter's visual acuity is now read from its auditory acuity (60).
        assert.equal(apiOf(env.gm).getState().creatures[TOKENS.fighter].acuities.visual, 60);

        const opposed = await gm.openSettingsMenu("furtive.rules-opposed");
        assert.equal([...formOf(opposed).querySelectorAll("input[name]")].length, 9, "opposed inputs");
        await opposed.close();
        await assert.rejects(async () => env.alice.ctx.openSettingsMenu("furtive.rules-percentile"), /restricted/);
      } finally {
        shutdown(env);
      }
    });
    it(`v${version}: one Save changing three inputs is one transaction: one scene sync, one record write`, async () => {
      const env = await setup({ ruleset: "percentile", version, users: [GM, ALICE] });
      try {
        const gm = env.gm.ctx;
        await hideRogue(env);
        const app = await gm.openSettingsMenu("furtive.rules-percentile");
        const form = formOf(app);
        form.elements.visualAcuityPath.value = "system.attributes.auditory_acuity.value";
        form.elements.auditoryAcuityPath.value = "system.attributes.visual_acuity.value";
        form.elements.olfactoryAcuityPath.value = "system.attributes.visual_acuity.value";
        let recordsWritten = 0;
        const onRecord = (m) => ["state", "stateDelta"].includes(m.getFlag("furtive", "kind")) && (recordsWritten += 1);
        gm.Hooks.on("createChatMessage", onRecord);
        try {
          form.querySelector('button[type="submit"]').dispatchEvent(new env.gm.window.MouseEvent("click", { bubbles: true, cancelable: true }));
          await env.server.idle();
        } finally {
          gm.Hooks.off?.("createChatMessage", onRecord);
        }
        for (const key of ["auditoryAcuityPath", "olfactoryAcuityPath"]) assert.equal(gm.game.settings.get("furtive", key), "system.attributes.visual_acuity.value", key);
        const acuities = apiOf(env.gm).getState().creatures[TOKENS.fighter].acuities;
        assert.deepEqual([acuities.visual, acuities.auditory], [60, 50], "the engine reads the three new paths");
        assert.equal(recordsWritten, 1, "one scene sync: one record write");
      } finally {
        shutdown(env);
      }
    });
  }
});
