/**
 * Furtive: stealth automation for Foundry VTT (v12, v13).
 *
 * The entry file: starts loading the rules engine (engine.mjs does it when
 * evaluated), registers settings, status effects, the detection-mode
 * wrappers and the hooks at `init`, and exposes the API at `ready`.
 */

import { MODULE_ID } from "./constants.mjs";
import { createApi } from "./api/api.mjs";
import { dropLiveScenes, migrateLegacyStates, resetScenesWithState, syncScene } from "./gm/transaction.mjs";
import { engineReady } from "./engine.mjs";
import { handleRequest } from "./net/requests.mjs";
import { registerHooks } from "./hooks.mjs";
import { ensureStatusEffects, statusEffectsSupported } from "./canvas/statuses.mjs";
import { initializeWorld, readSettings, registerSettings } from "./settings.mjs";
import { initSocket } from "./net/socket.mjs";
import { registerRulesMenus, savingRuleInputs } from "./ui/rules-menu.mjs";
import { isActiveGM } from "./storage/store.mjs";
import { loadBothLanguages } from "./i18n.mjs";
import { installDetectionWrappers, installVisibilityGuard, setViewerIsGM } from "./canvas/visibility.mjs";

/**
 * False on a Foundry newer than 13 (module.json compatibility.maximum) or whose
 * CONFIG.statusEffects is not an array (v14): the module then registers
 * nothing and tells the GM at ready.
 */
let supported = true;

Hooks.once("init", () => {
  if (!statusEffectsSupported() || Number(game.release?.generation ?? 13) > 13) {
    supported = false;
    console.error(`furtive | Foundry ${game.release?.generation ?? "?"} is not supported (Furtive supports 12 and 13): Furtive stays inactive.`);
    return;
  }
  registerSettings({
    onRulesChanged: () => {
      // The engine settings come from the module settings at load: load again.
      dropLiveScenes();
      if (isActiveGM() && canvas?.scene) void syncScene(canvas.scene);
    },
    // Every scene with a state starts over, not only the viewed one (gm-pipeline.mjs).
    onRulesetChanged: () => {
      if (isActiveGM()) void resetScenesWithState().catch((error) => console.error("furtive |", error));
    },
    // A rule input changed (the rules sub-menu): the viewed scene's creatures
    // are read again; a Save on this client syncs once when it is done.
    onInputChanged: () => {
      if (!savingRuleInputs() && isActiveGM() && canvas?.scene) void syncScene(canvas.scene);
    },
  });
  registerRulesMenus({
    onSaved: () => {
      if (isActiveGM() && canvas?.scene) void syncScene(canvas.scene);
    },
  });
  ensureStatusEffects();
  registerHooks();
});

Hooks.once("setup", () => {
  if (!supported) return;
  // The canvas is drawn before `ready`: the wrapper must know the viewer now.
  setViewerIsGM(Boolean(game.user?.isGM));
  // libWrapper registers after init; detection modes exist by setup (modes
  // registered later are wrapped at ready and at each canvasInit).
  installDetectionWrappers(readSettings().ignoredDetectionModes);
  installVisibilityGuard();
});

Hooks.once("ready", async () => {
  if (!supported) {
    if (game.user?.isGM) ui.notifications?.error(game.i18n.format("FURTIVE.Notify.Unsupported", { version: String(game.release?.generation ?? game.version ?? "?") }), { permanent: true });
    return;
  }
  setViewerIsGM(Boolean(game.user?.isGM));
  installDetectionWrappers(readSettings().ignoredDetectionModes);
  initSocket(handleRequest);
  const api = createApi();
  const module = /** @type {any} */ (game.modules.get(MODULE_ID));
  if (module) module.api = api;
  if (isActiveGM()) await initializeWorld();
  await engineReady.catch(() => {});
  // Both languages for the module's notes on GM cards (i18n.mjs bilingual).
  await loadBothLanguages().catch((error) => console.error("furtive |", error));
  // States kept before per-scene storage move into the per-scene records, once.
  if (isActiveGM()) await migrateLegacyStates().catch((error) => console.error("furtive |", error));
  Hooks.callAll("furtive.ready", api);
});
