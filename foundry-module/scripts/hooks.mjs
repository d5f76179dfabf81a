/**
 * Every Foundry hook the module listens to, registered in one place: the
 * module's start (`init`, `setup`, `ready`), then, at `init`, the hooks of
 * the canvas, the Token HUD, chat, automation and the game system.
 */

import { MODULE_ID } from "./constants.mjs";
import { engineReady } from "./engine.mjs";
import { loadBothLanguages } from "./i18n.mjs";
import { initializeWorld, readSettings, registerSettings } from "./settings.mjs";
import { createApi } from "./api/api.mjs";
import * as actions from "./api/macros.mjs";
import { ensureStatusEffects, registerStatusGuards } from "./canvas/statuses.mjs";
import { forgetViewerObservers, installDetectionWrappers, installVisibilityGuard, onLookupPublished, rebuildLookup, refreshLights, refreshPerception, resetLookup, setViewerIsGM } from "./canvas/visibility.mjs";
import * as automation from "./gm/automation.mjs";
import { onCreateCombatant, onUpdateCombatant } from "./gm/initiative.mjs";
import { resetScenesWithState } from "./gm/reset.mjs";
import { dropLiveScenes } from "./gm/scene-state.mjs";
import { syncScene } from "./gm/sync.mjs";
import { handleRequest, notify, notifyRefusal, run } from "./net/requests.mjs";
import { initRequests } from "./net/socket.mjs";
import { forgetRecordMessage, isActiveGM, noteRecordMessage } from "./storage/store.mjs";
import { registerSystemAreaHooks } from "./systems/areas.mjs";
import { registerSystemAttackHooks } from "./systems/attacks.mjs";
import { unsupportedDnd5eVersion } from "./systems/dnd5e.mjs";
import { registerSystemRollHooks, rollOfferedPerception } from "./systems/sheet-rolls.mjs";
import { decorateChatMessage } from "./ui/chat.mjs";
import { hidePlaceholder, onPreCreateChatMessage } from "./ui/chat-secrecy.mjs";
import { onRenderCombatTracker, refreshCombatTracker } from "./ui/combat-tracker.mjs";
import { confirmDialog } from "./ui/dialogs.mjs";
import { onHoverToken, onRenderTokenHUD } from "./ui/hud.mjs";
import { followSelection, followViewedScene, openPerceptionWindow, refreshPerceptionWindow } from "./ui/perception-window.mjs";
import { registerRulesMenus, savingRuleInputs } from "./ui/rules-menu.mjs";

/**
 * A chat card button was clicked.
 * @param {string} action
 * @param {ChatMessage} message
 * @param {HTMLElement} button
 * @param {Event} [event] the click
 */
function onChatAction(action, message, button, event) {
  const flags = /** @type {any} */ (message.flags?.[MODULE_ID] ?? {});
  const attempt = (/** @type {() => Promise<unknown>} */ task) =>
    task()
      .catch(notifyRefusal)
      .catch((error) => console.error("furtive |", error));
  if (action === "defend") {
    attempt(async () => {
      // The button names its target (cards of an attack on several targets); older cards name one in their flags.
      const target = game.scenes.get(flags.sceneId)?.tokens.get(button.dataset.target ?? flags.target);
      // The target token (or its scene) was deleted since the card: no selection can help.
      // The notice names no token (the reader may not perceive it, B1).
      if (!target) {
        notify(game.i18n.localize("FURTIVE.Notify.TargetGone"));
        return;
      }
      const controlled = canvas?.tokens?.controlled?.map((t) => /** @type {TokenDocument} */ (t.document)) ?? [];
      const defender = controlled.find((d) => d.isOwner && d.id !== flags.attacker) ?? (target.isOwner ? target : null);
      if (!defender) {
        notify(game.i18n.localize("FURTIVE.Notify.SelectDefender"));
        return;
      }
      await actions.defend(defender, target, flags.attacker, /** @type {any} */ (button.dataset.defense));
    });
  } else if (action === "perception") {
    // The action's GM card names the pair on its button (data-hider, data-observer).
    attempt(() => run("rollPerception", { sceneId: flags.sceneId, hiderId: button.dataset.hider ?? flags.hider, observerId: button.dataset.observer ?? flags.observer }));
  } else if (action === "sheetPerception") {
    // A Perception check offered to the observer's owner: rolled from the sheet (systems/sheet-rolls.mjs),
    // with the click, whose keys dnd5e reads to skip its roll dialog.
    attempt(() => rollOfferedPerception(flags, event));
  } else if (action === "reroll") {
    attempt(() => run("reroll", { sceneId: flags.sceneId, hiderId: button.dataset.hider ?? flags.hider }));
  } else if (action === "undo") {
    // The GM undoes the scene's last action from its card (gm/undo.mjs undoAction).
    attempt(() => run("undo", { sceneId: flags.sceneId, actionId: flags.actionId }));
  } else if (action === "reset") {
    // The scene's state was lost: the GM chooses to start it over (storage/store.mjs).
    const scene = game.scenes.get(flags.sceneId);
    if (scene) attempt(() => confirmReset(scene));
  }
}

/**
 * GM tool in the token controls: start the viewed scene's stealth over.
 */
async function onResetTool() {
  const scene = canvas?.scene;
  if (scene) await confirmReset(scene);
}

/**
 * Asks the GM to confirm, then starts the scene's stealth over.
 * @param {Scene} scene
 */
async function confirmReset(scene) {
  if (!game.user?.isGM) return;
  const yes = await confirmDialog({ title: game.i18n.localize("FURTIVE.Control.Reset"), text: game.i18n.format("FURTIVE.Control.ResetConfirm", { scene: scene.name ?? "" }) });
  if (yes) await run("reset", { sceneId: scene.id }).catch(notifyRefusal);
}

/**
 * `getSceneControlButtons(controls)`: a record of controls whose `tools` is a
 * record (`onChange`, `order`), v13 and v14; the pages' example adds a
 * `button: true` tool that opens an Application
 * (https://foundryvtt.com/api/functions/hookEvents.getSceneControlButtons.html,
 * https://foundryvtt.com/api/v14/functions/hookEvents.getSceneControlButtons.html).
 * GM tools: start the scene's stealth over, and the perception window.
 * @param {any} controls
 */
function onSceneControls(controls) {
  if (!game.user?.isGM || !controls?.tokens?.tools) return;
  const openWindow = () => void openPerceptionWindow().catch(notifyRefusal).catch((error) => console.error("furtive |", error));
  const tools = [
    { name: "furtive-reset", title: "FURTIVE.Control.Reset", icon: "fa-solid fa-user-secret", button: true, visible: true, onChange: () => void onResetTool() },
    { name: "furtive-perception", title: "FURTIVE.Control.PerceptionWindow", icon: "fa-solid fa-eye-low-vision", button: true, visible: true, onChange: openWindow },
  ];
  for (const tool of tools) controls.tokens.tools[tool.name] = { ...tool, order: Object.keys(controls.tokens.tools).length };
}

/**
 * Registers the module's start. Call once, when the module is loaded (main.mjs).
 */
export function registerHooks() {
  Hooks.once("init", onInit);
  Hooks.once("setup", onSetup);
  Hooks.once("ready", onReady);
}

/** The newest Foundry generation the module knows (module.json `compatibility.maximum`). */
const NEWEST_GENERATION = 14;

/**
 * False on a Foundry newer than {@link NEWEST_GENERATION} (`game.release.generation`, as
 * dnd5e release-5.3.3 reads it to tell 13 from 14): the module then
 * registers nothing and tells the GM at ready. Foundry itself refuses a module
 * below its `compatibility.minimum` (13).
 */
let supported = true;

/** `init`: settings, menus, status effects and every other hook (nothing on an unsupported Foundry). */
function onInit() {
  if (Number(game.release?.generation ?? NEWEST_GENERATION) > NEWEST_GENERATION) {
    supported = false;
    console.error(`furtive | Foundry ${game.release?.generation ?? "?"} is not supported (Furtive supports 13 and 14): Furtive stays inactive.`);
    return;
  }
  registerSettings({
    onRulesChanged: () => {
      // The engine settings come from the module settings at load: load again.
      dropLiveScenes();
      if (isActiveGM() && canvas?.scene) void syncScene(canvas.scene);
    },
    // Every scene with a state starts over, not only the viewed one (gm/reset.mjs).
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
  registerGameHooks();
}

/** `setup`: the detection-mode wrappers and the visibility guard. */
function onSetup() {
  if (!supported) return;
  // The canvas is drawn before `ready`: the wrapper must know the viewer now.
  setViewerIsGM(Boolean(game.user?.isGM));
  // libWrapper registers after init; detection modes exist by setup (modes
  // registered later are wrapped at ready and at each canvasInit).
  installDetectionWrappers(readSettings().ignoredDetectionModes);
  installVisibilityGuard();
}

/** `ready`: the request queries, the API, the world's first settings, both languages, then `furtive.ready`. */
async function onReady() {
  if (!supported) {
    if (game.user?.isGM) ui.notifications?.error(game.i18n.format("FURTIVE.Notify.Unsupported", { version: String(game.release?.generation ?? game.version ?? "?") }), { permanent: true });
    return;
  }
  setViewerIsGM(Boolean(game.user?.isGM));
  installDetectionWrappers(readSettings().ignoredDetectionModes);
  const oldDnd5e = unsupportedDnd5eVersion();
  if (oldDnd5e && game.user?.isGM) ui.notifications?.warn(game.i18n.format("FURTIVE.Notify.Dnd5eUnsupported", { version: oldDnd5e }), { permanent: true });
  initRequests(handleRequest);
  const api = createApi();
  const module = /** @type {any} */ (game.modules.get(MODULE_ID));
  if (module) module.api = api;
  if (isActiveGM()) await initializeWorld();
  await engineReady.catch(() => {});
  // Both languages for the module's notes on GM cards (i18n.mjs bilingual).
  await loadBothLanguages().catch((error) => console.error("furtive |", error));
  Hooks.callAll("furtive.ready", api);
}

/**
 * Registers every other hook, at `init`.
 */
function registerGameHooks() {
  // Status effects: again after systems may have replaced CONFIG.statusEffects (canvas/statuses.mjs).
  for (const hook of ["i18nInit", "setup", "ready"]) Hooks.once(hook, () => ensureStatusEffects());
  registerStatusGuards({ hide: (token) => actions.hide(token), reveal: (token) => actions.reveal(token), onError: (error) => Promise.resolve(error).then(notifyRefusal).catch((e) => console.error("furtive |", e)) });

  // Visibility lookup: every client, same frame as the scene update.
  // canvasInit(canvas): the scene is known before any token is drawn, so the
  // lookup is built from its flags now (B1: no frame before it); modes a
  // system registered since setup are wrapped too.
  Hooks.on("canvasInit", (/** @type {any} */ board) => {
    resetLookup();
    installDetectionWrappers(readSettings().ignoredDetectionModes);
    if (board?.scene) rebuildLookup(board.scene);
  });
  // The user's observer tokens (controlled, else observed) change with control and ownership.
  for (const hook of ["controlToken", "createToken", "deleteToken", "updateActor", "updateToken"]) Hooks.on(hook, () => forgetViewerObservers());
  // Which hiders' lights this client draws follows the tokens it sees through (canvas/visibility.mjs guardLight).
  Hooks.on("controlToken", () => refreshLights());
  // A player's tokens are those they observe: when an actor's or an unlinked token's
  // ownership changes (`Actor#ownership`, an unlinked token's `TokenDocument#delta`,
  // https://foundryvtt.com/api/v13/classes/foundry.documents.TokenDocument.html; the
  // update<Document> hooks' `changed` differential data,
  // https://foundryvtt.com/api/v13/functions/hookEvents.updateDocument.html), what they may
  // see follows (visibility, lights, targets: canvas/visibility.mjs; the tracker's rows: ui/combat-tracker.mjs).
  for (const hook of ["updateActor", "updateToken"]) {
    Hooks.on(hook, (/** @type {any} */ document, /** @type {Record<string, any>} */ changed) => {
      if (game.user?.isGM || !(foundry.utils.hasProperty(changed, "ownership") || foundry.utils.hasProperty(changed, "delta.ownership"))) return;
      forgetViewerObservers();
      refreshPerception();
      const scene = /** @type {any} */ (globalThis).canvas?.scene;
      if (scene) refreshCombatTracker(scene);
    });
  }
  Hooks.on("canvasReady", (/** @type {any} */ board) => {
    if (!board.scene) return;
    rebuildLookup(board.scene);
    refreshPerception();
    void automation.onSceneReady(board.scene);
  });
  Hooks.on("updateScene", onLookupPublished);
  // The combat tracker shows only the hiders this user may see named (ui/combat-tracker.mjs), any scene's.
  Hooks.on("renderCombatTracker", onRenderCombatTracker);
  Hooks.on("updateScene", (/** @type {Scene} */ scene, /** @type {Record<string, any>} */ changed) => {
    if (foundry.utils.hasProperty(changed, `flags.${MODULE_ID}`)) refreshCombatTracker(scene);
  });

  // Scene controls (a record, v13 and v14).
  Hooks.on("getSceneControlButtons", onSceneControls);

  // Token HUD (an HTMLElement, v13 and v14) and the GM tooltip.
  Hooks.on("renderTokenHUD", onRenderTokenHUD);
  Hooks.on("hoverToken", onHoverToken);

  // Chat cards (and the module's roll flavors): renderChatMessageHTML (HTMLElement, v13
  // and v14) "for each ChatMessage which is rendered for addition to the ChatLog" with
  // "the pending HTML": https://foundryvtt.com/api/functions/hookEvents.renderChatMessageHTML.html.
  Hooks.on("renderChatMessageHTML", (/** @type {ChatMessage} */ message, /** @type {HTMLElement} */ html) => {
    if (!(html instanceof HTMLElement)) return;
    hidePlaceholder(message, html);
    decorateChatMessage(message, html, onChatAction);
  });
  // The per-scene record index of storage/store.mjs follows the chat log: the generic
  // document hooks createChatMessage / deleteChatMessage (v12
  // https://foundryvtt.com/api/v12/functions/hookEvents.createDocument.html,
  // https://foundryvtt.com/api/v12/functions/hookEvents.deleteDocument.html).
  Hooks.on("createChatMessage", noteRecordMessage);
  Hooks.on("deleteChatMessage", forgetRecordMessage);
  // The GM's perception window follows the records (every transaction, undo and reset writes or drops
  // one: after the record index above, so it reads the record just written), the tokens, the selection,
  // the combatants, and the viewed scene (ui/perception-window.mjs).
  for (const hook of ["createChatMessage", "deleteChatMessage", "createToken", "deleteToken", "createCombatant", "deleteCombatant", "deleteCombat"]) Hooks.on(hook, refreshPerceptionWindow);
  Hooks.on("controlToken", followSelection);
  Hooks.on("canvasReady", followViewedScene);

  // Automation (active GM only; each handler checks).
  Hooks.on("updateToken", automation.onUpdateToken);
  Hooks.on("createToken", automation.onCreateToken);
  Hooks.on("deleteToken", automation.onDeleteToken);
  Hooks.on("updateActor", automation.onUpdateActor);
  Hooks.on("deleteActor", automation.onDeleteActor);
  Hooks.on("updateScene", automation.onUpdateScene);
  // Walls, lights and combatants: the generic document hooks (create<Document>,
  // update<Document>, delete<Document>), fired on every connected client after
  // the change is processed, so each handler checks for the active GM (v12
  // https://foundryvtt.com/api/v12/functions/hookEvents.createDocument.html;
  // hook lists v12 https://foundryvtt.com/api/v12/modules/hookEvents.html,
  // v13 https://foundryvtt.com/api/modules/hookEvents.html).
  for (const hook of ["createWall", "updateWall", "deleteWall"]) Hooks.on(hook, automation.onSightChanged);
  for (const hook of ["createAmbientLight", "updateAmbientLight", "deleteAmbientLight"]) Hooks.on(hook, automation.onLightChanged);
  Hooks.on("combatTurnChange", automation.onCombatTurnChange);
  Hooks.on("createCombatant", onCreateCombatant);
  Hooks.on("updateCombatant", onUpdateCombatant);
  Hooks.on("deleteCombat", automation.onDeleteCombat);
  Hooks.on("deleteScene", automation.onDeleteScene);

  // The game system's rolls, attacks and damage: every client stamps its roll messages, the active GM acts.
  registerSystemRollHooks();
  registerSystemAttackHooks();
  registerSystemAreaHooks();
  // The system's cards of a hider reach only who may see it named, and secret rolls make no sound
  // (ui/chat-secrecy.mjs): on the creating client, after the stamps above (a Stealth roll made a GM roll stays one).
  Hooks.on("preCreateChatMessage", (/** @type {ChatMessage} */ message) => onPreCreateChatMessage(message));
}
