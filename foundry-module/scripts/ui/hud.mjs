/**
 * Token HUD buttons and the GM's hover tooltip.
 *
 * Foundry API: hook `renderTokenHUD(hud, html, context, options)`: `html` is
 * the HUD's HTMLElement (v13 and v14, ApplicationV2
 * `foundry.applications.hud.TokenHUD`, https://foundryvtt.com/api/v14/modules/foundry.applications.hud.html);
 * `hud.object` is the Token; the
 * right column is `.col.right`. Buttons use `data-furtive-action` (not
 * `data-action`, which v13's ApplicationV2 TokenHUD dispatches itself).
 * Hook `hoverToken(token, hovered)`; `canvas.clientCoordinatesFromCanvas(point)`;
 * `game.user.targets` (a Set of Tokens).
 */

import { modulePath } from "../constants.mjs";
import * as actions from "../api/macros.mjs";
import { attackWithDialog, knockoutWithDialog } from "./hud-flows.mjs";
import { notify, notifyRefusal, run } from "../net/requests.mjs";
import { sceneState } from "../gm/scene-state.mjs";
import { isActiveGM } from "../storage/store.mjs";
import * as engine from "../engine.mjs";
import { defendDialog, hideDialog, pointOutDialog } from "./dialogs.mjs";
import { engineText, t } from "../i18n.mjs";
import { sideOf } from "../systems/actor-data.mjs";
import { readSettings } from "../settings.mjs";
import { renderModuleTemplate } from "./templates.mjs";
import { lookupHiders, lookupPerceives } from "../canvas/visibility.mjs";
import { nameable } from "./secrecy.mjs";
import { openPerceptionWindow } from "./perception-window.mjs";

/**
 * One HUD button.
 * @param {string} action
 * @param {string} icon file under icons/
 * @param {(event: MouseEvent) => unknown} onClick
 */
function button(action, icon, onClick) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = `control-icon furtive-hud-button furtive-${action}`;
  element.dataset.furtiveAction = action;
  const label = t(`FURTIVE.Action.${action}`);
  element.dataset.tooltip = label;
  element.setAttribute("aria-label", label);
  const image = document.createElement("img");
  image.src = modulePath(`icons/${icon}`);
  image.alt = label;
  image.width = 36;
  image.height = 36;
  element.append(image);
  element.addEventListener("click", (event) => {
    event.preventDefault();
    event.stopPropagation();
    Promise.resolve()
      .then(() => onClick(event))
      .catch(notifyRefusal)
      .catch((/** @type {unknown} */ error) => console.error("furtive |", error));
  });
  return element;
}

/**
 * Tells a player what the GM's answer says (public explanations only).
 * @param {any} result
 */
function showResult(result) {
  if (game.user?.isGM || !Array.isArray(result?.entries)) return;
  const text = result.entries.map((/** @type {{en: string, fr: string}} */ e) => engineText(e)).join(" ");
  if (text) notify(text, "info");
}

/**
 * `renderTokenHUD(hud, html, data)`: adds Hide, Reveal, Point out, Attack,
 * Knockout (when P8 allows it) and Defend.
 * @param {any} hud the TokenHUD; `hud.object` is the Token
 * @param {HTMLElement} html
 */
export function onRenderTokenHUD(hud, html) {
  const root = html instanceof HTMLElement ? html : null;
  const token = /** @type {TokenDocument | undefined} */ (hud?.object?.document);
  if (!root || !token?.actor || !token.isOwner) return;
  const column = root.querySelector(".col.right") ?? root;
  const settings = readSettings();
  const id = /** @type {string} */ (token.id);
  const hiding = lookupHiders().includes(id);
  const group = document.createElement("div");
  group.className = "furtive-hud";

  group.append(button("hide", "hide.svg", (/** @type {MouseEvent} */ event) => actions.hide(token, { event }).then(showResult)));
  if (hiding) group.append(button("reveal", "reveal.svg", () => actions.reveal(token)));

  if (hiding && settings.ruleset === "percentile" && game.user?.isGM) {
    group.append(button("situation", "situation.svg", () => situationFlow(token)));
  }

  if (settings.ruleset === "opposed") {
    const spotted = lookupHiders().filter((h) => h !== id && lookupPerceives(id, h));
    // Offered only with someone to tell: its default choice names the observer's allies.
    // Who is an ally is the engine's to say: without it (still loading, failed) Point out could not be answered anyway.
    if (spotted.length && engine.isEngineReady() && pointOutCandidates(token, spotted).some((ally) => ally.checked)) {
      group.append(button("pointOut", "point-out.svg", () => pointOutFlow(token, spotted)));
    }
  }

  const targets = [...(game.user?.targets ?? [])].map((t) => /** @type {TokenDocument} */ (t.document)).filter((d) => d && d.id !== id);
  if (targets.length) group.append(button("attack", "attack.svg", () => attackWithDialog(token, targets)));
  // Offered only when the Defend dialog has an attacker to name (else a click would do nothing).
  if (defendAttackerCandidates(token).length) group.append(button("defend", "defend.svg", () => defendFlow(token)));
  // GM: the perception window, its focus on this token's row (or column).
  if (game.user?.isGM) group.append(button("perceptionWindow", "perceive.svg", () => openPerceptionWindow({ token })));
  column.append(group);

  if (settings.ruleset === "percentile" && targets.length === 1) {
    const target = targets[0];
    actions
      .canKnockout(token, target)
      .then((/** @type {any} */ answer) => {
        if (answer?.allowed) group.append(button("knockout", "knockout.svg", () => knockoutWithDialog(token, target, answer)));
      })
      .catch(() => {});
  }
}

/**
 * P4, GM: the situation of a hiding token changed. The Hide dialog opens with
 * the modifiers in force as the GM chose them: the pending ones of a roll
 * asked for, else those of the roll, without the `already_perceived` P9 added
 * on its own (`alreadyPerceivedAdded`, state format 2, docs/state.md), and
 * with the free modifiers. Accepted unchanged it changes nothing; after a
 * change the engine asks for a new roll.
 * @param {TokenDocument} token
 */
async function situationFlow(token) {
  const scene = /** @type {Scene} */ (token.parent);
  const hider = /** @type {any} */ (sceneState(scene)?.state.hiders[/** @type {string} */ (token.id)]);
  const chosen = hider?.pendingModifiers ?? hider?.modifiers ?? { situation: [], free: [] };
  const added = !hider?.pendingModifiers && hider?.alreadyPerceivedAdded === true;
  const situation = (chosen.situation ?? []).filter((/** @type {string} */ id) => !(added && id === "already_perceived"));
  const answer = await hideDialog({ tokenName: token.name ?? "", intro: t("FURTIVE.Dialog.SituationIntro", { name: token.name ?? "" }), ruleset: "percentile", senses: [], precautions: [], situation, free: chosen.free ?? [] });
  if (!answer) return;
  await run("changeModifiers", { sceneId: scene.id, hiderId: token.id, situation: answer.situation, free: answer.free });
}

/**
 * The tokens the Point out dialog lists, ticked when they are the
 * observer's allies as the engine decides (its `alliedSides` export, one
 * call for every token listed, from the sides `sideOf` reads: the rule is
 * the core's `Creature::is_ally_of`; O3 tells allies only, any other token
 * is refused with `not_allied`). Throws `EngineFailure` when the engine has
 * not loaded.
 * @param {TokenDocument} observer
 * @param {string[]} hiderIds hiders the observer perceives
 * @returns {{id: string, name: string, checked: boolean}[]}
 */
function pointOutCandidates(observer, hiderIds) {
  const scene = /** @type {Scene} */ (observer.parent);
  const settings = readSettings();
  // B1: only tokens this user may see named (no GM-hidden token, no hider none of their tokens perceives).
  const candidates = nameable(/** @type {User} */ (game.user), scene.tokens.filter((t) => t.id !== observer.id && Boolean(t.actor) && !hiderIds.includes(/** @type {string} */ (t.id))));
  const allied = engine.alliedSides({ side: sideOf(observer, settings), sides: candidates.map((t) => sideOf(t, settings)) });
  return candidates.map((t, i) => ({ id: /** @type {string} */ (t.id), name: t.name ?? "", checked: allied[i] }));
}

/**
 * Point out: pick the hider and the allies, then ask.
 * @param {TokenDocument} observer
 * @param {string[]} hiderIds hiders the observer perceives
 */
async function pointOutFlow(observer, hiderIds) {
  const scene = /** @type {Scene} */ (observer.parent);
  const hiders = hiderIds.map((id) => ({ id, name: scene.tokens.get(id)?.name ?? id }));
  const allies = pointOutCandidates(observer, hiderIds);
  const values = await pointOutDialog({ hiders, allies });
  if (!values) return;
  await actions.pointOut(observer, values.hider, values.allies ?? []);
}

/**
 * The tokens the Defend dialog may name as the attacker: every other token
 * with an actor that this user may see named (B1: no GM-hidden token, no
 * hider none of their tokens perceives).
 * @param {TokenDocument} defender
 * @returns {TokenDocument[]}
 */
function defendAttackerCandidates(defender) {
  const scene = /** @type {Scene} */ (defender.parent);
  return nameable(/** @type {User} */ (game.user), scene.tokens.filter((t) => t.id !== defender.id && Boolean(t.actor)));
}

/**
 * Defend from the HUD: the defender is this token, by default defending
 * itself; the default attacker is the user's target (in Foundry one targets
 * the enemy), else the first other token. Another target (an ally the
 * defender protects) is chosen in the dialog.
 * @param {TokenDocument} defender
 */
async function defendFlow(defender) {
  const others = defendAttackerCandidates(defender);
  // `game.user.targets`, a Set of the Tokens this user targets
  // (https://foundryvtt.com/api/v12/classes/client.UserTargets.html); only
  // one the dialog offers counts.
  const targeted = [...(game.user?.targets ?? [])].map((t) => /** @type {TokenDocument} */ (t.document)).find((d) => d?.id !== defender.id && others.some((t) => t.id === d?.id));
  const attacker = targeted ?? others[0];
  if (!attacker) return;
  // The default target is the defender itself, never the default attacker:
  // the engine refuses one token as both (self_reference).
  const targets = [{ id: /** @type {string} */ (defender.id), name: defender.name ?? "", selected: true }, ...others.map((t) => ({ id: /** @type {string} */ (t.id), name: t.name ?? "", selected: false }))];
  const attackers = others.map((t) => ({ id: /** @type {string} */ (t.id), name: t.name ?? "", selected: t.id === attacker.id }));
  const values = await defendDialog({ targets, attackers });
  if (!values) return;
  await actions.defend(defender, values.target, values.attacker, values.defense);
}

let tooltip = /** @type {HTMLElement | null} */ (null);
/** Counts hovers, so a slow render never shows a stale tooltip. */
let hoverSerial = 0;

/**
 * `hoverToken(token, hovered)`, GM only: a tooltip on a hiding token listing
 * who perceives it and why (the engine's explanation per observer); on a
 * hider P9 revealed (phase `revealed`, its record kept), titled as no longer hiding.
 * @param {Token} token
 * @param {boolean} hovered
 */
export async function onHoverToken(token, hovered) {
  tooltip?.remove();
  tooltip = null;
  const serial = ++hoverSerial;
  if (!hovered || !game.user?.isGM || !engine.isEngineReady()) return;
  const document = /** @type {TokenDocument} */ (token.document);
  const scene = /** @type {Scene} */ (document.parent);
  const state = sceneState(scene)?.state;
  const hider = state?.hiders[/** @type {string} */ (document.id)];
  if (!state || !hider) return;
  // One query for every observer (hiddenFrom), not one per observer.
  const hidden = isActiveGM() ? sceneState(scene, "open").session.hiddenFrom() : engine.hiddenFrom(state);
  const hiderId = /** @type {string} */ (document.id);
  const rows = Object.keys(hider.pairs)
    .filter((observer) => state.creatures[observer])
    .map((observer) => {
      const perceived = !(hidden[observer] ?? []).includes(hiderId);
      const reason = hider.pairs[observer].reason;
      const why = game.i18n.has?.(`FURTIVE.Reason.${reason}`) ? t(`FURTIVE.Reason.${reason}`) : reason;
      const name = state.creatures[observer].name ?? scene.tokens.get(observer)?.name ?? observer;
      return { perceived, clause: "", text: `${t(perceived ? "FURTIVE.Tooltip.Perceives" : "FURTIVE.Tooltip.DoesNotPerceive", { name })} ${why ?? ""}`.trim() };
    });
  const title = t(/** @type {any} */ (hider).phase === "revealed" ? "FURTIVE.Tooltip.TitleRevealed" : "FURTIVE.Tooltip.Title", { name: document.name ?? "" });
  const html = await renderModuleTemplate("tooltip.hbs", { title, rows });
  if (serial !== hoverSerial) return;
  const element = globalThis.document.createElement("div");
  element.id = "furtive-tooltip";
  element.innerHTML = html;
  const board = /** @type {any} */ (canvas);
  const point = board.clientCoordinatesFromCanvas?.({ x: document.x + document.width * scene.grid.size, y: document.y });
  if (point) Object.assign(element.style, { left: `${Math.round(point.x + 8)}px`, top: `${Math.round(point.y)}px` });
  globalThis.document.body.append(element);
  tooltip = element;
}
