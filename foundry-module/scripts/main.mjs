/**
 * Furtive: stealth automation for Foundry VTT (v13, v14).
 *
 * The entry file. What is where (foundry-module/README.md has the map and
 * follows a Hide from the GM's click to every client's canvas):
 * - engine.mjs: the rules engine (wasm), loading from the moment this file is evaluated;
 * - hooks.mjs: every hook, starting with `init`, `setup` and `ready`;
 * - settings.mjs: every setting;
 * - api/: `game.modules.get("furtive").api` and its actions;
 * - net/: where an action runs (the active GM), the request queries and their door;
 * - gm/: the active GM's side: the actions, the scenes' state, one transaction per action;
 * - storage/: the scenes' records;
 * - canvas/: what each client draws (visibility), clear view, light, status effects;
 * - ui/: Token HUD, dialogs, chat cards, the rules menu;
 * - systems/: game systems (dnd5e, generic presets) and their rolls.
 */

import "./engine.mjs";
import { registerHooks } from "./hooks.mjs";

registerHooks();
