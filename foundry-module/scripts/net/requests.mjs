/**
 * Routing and permissions: an action runs where it belongs.
 *
 * - `run(kind, payload)` runs an action on the active GM directly, else
 *   asks the active GM for it (a query, net/socket.mjs).
 * - `handleRequest(kind, payload, user, remote)` is the active GM's side: a
 *   `remote` request has passed the door (net/request-shapes.mjs) and its
 *   user was verified (net/socket.mjs); it runs unprivileged. A player acts only on
 *   the scene their user views (`scene_not_viewed`), must own the acting
 *   token (`not_owner`) and is refused the GM-only kinds (`gm_only`), which
 *   another GM may ask for. The handlers are in gm/actions.mjs.
 * - `notifyRefusal(error)` shows a refusal to the user, localized; `notify(text)`
 *   any other notice, with the same "Furtive:" prefix.
 */

import { FurtiveError } from "../errors.mjs";
import { GM_ACTIONS } from "../gm/actions.mjs";
import { t } from "../i18n.mjs";
import { REQUESTS } from "./request-shapes.mjs";
import { requireScene, shortText } from "./resolve.mjs";
import { askActiveGM } from "./socket.mjs";
import { isActiveGM } from "../storage/store.mjs";

/**
 * The active GM's side of every action. A GM-only kind runs only for a GM:
 * this client's (`remote` false) or another GM's request, whose user net/socket.mjs
 * verified. A player acts only on the scene their user views
 * (`User#viewedScene`, "Track the ID of the Scene that is currently being
 * viewed by the User", https://foundryvtt.com/api/v14/classes/foundry.documents.User.html)
 * and must own the acting token there; a refusal quotes the ids the player
 * sent, never a token's name. A remote request runs unprivileged whoever
 * asks: number-free result, Hide options ignored (the active GM's dialog
 * decides). The GM and the module's own automation (system rolls, combat,
 * run on the active GM's client) are not limited to a viewed scene.
 * @param {string} kind
 * @param {Record<string, any>} payload ids only: `sceneId`, `tokenId`, ...
 * @param {User} user the asking user (for a remote request: verified by net/socket.mjs)
 * @param {boolean} [remote] the request came from another client (checked at the door)
 * @param {{event?: Event}} [local] a local caller's click, for the system's roll dialog (gm/actions.mjs `hide`)
 * @returns {Promise<any>} number-free unless a local GM asked
 */
export async function handleRequest(kind, payload, user, remote = false, local = {}) {
  if (!Object.hasOwn(REQUESTS, kind) || !Object.hasOwn(GM_ACTIONS, kind)) throw FurtiveError.of("invalid_input", `kind: unknown request kind ${JSON.stringify(shortText(kind))}`);
  const acting = REQUESTS[kind].acting;
  if (!user.isGM) {
    if (payload.sceneId !== user.viewedScene) throw FurtiveError.of("scene_not_viewed", `payload.sceneId: you are not viewing scene \`${shortText(payload.sceneId)}\``);
    if (!acting) throw FurtiveError.of("gm_only", `kind: only a GM may ask for ${kind}`);
  }
  const scene = requireScene(payload.sceneId);
  const privileged = Boolean(user.isGM) && !remote;
  if (!user.isGM && acting) {
    const id = payload[acting];
    const token = typeof id === "string" ? scene.tokens.get(id) : undefined;
    if (!token) throw FurtiveError.of("unknown_token", `payload.${acting}: unknown token \`${shortText(id)}\``);
    if (!token.testUserPermission(user, "OWNER")) throw FurtiveError.of("not_owner", `payload.${acting}: you do not own token \`${shortText(id)}\``);
  }
  const result = await GM_ACTIONS[kind](scene, payload, user, privileged, remote ? {} : local);
  // The GM tools answer the engine's outcome (numbers in its GM lines and state): a remote GM
  // gets what a player would, its public lines.
  return remote && !acting ? numberFree(result) : result;
}

/**
 * A GM tool's result as a remote caller may receive it: an outcome becomes
 * `{ok, entries}` with its public lines only; anything else, nothing.
 * @param {any} result
 */
function numberFree(result) {
  if (!Array.isArray(result?.log)) return null;
  return { ok: true, entries: result.log.filter((/** @type {any} */ e) => e.audience === "public").map((/** @type {any} */ e) => ({ clause: e.clause, en: e.en, fr: e.fr })) };
}

/**
 * Runs an action: here on the active GM, else asks the active GM for it (a query).
 * @param {string} kind
 * @param {Record<string, any>} payload
 * @param {{event?: Event}} [local] kept on this client: the click, when the action runs here
 */
export function run(kind, payload, local = {}) {
  if (isActiveGM()) return handleRequest(kind, payload, /** @type {User} */ (game.user), false, local);
  return askActiveGM(kind, payload);
}

/**
 * Shows a notice to this user, prefixed with the module's name ("Furtive:
 * ..."), as every refusal is, so the user knows which module speaks.
 * `ui.notifications` (`info`, `warn`, `error`):
 * https://foundryvtt.com/api/classes/foundry.applications.ui.Notifications.html
 * @param {string} text already in the user's language
 * @param {"info" | "warn" | "error"} [level]
 */
export function notify(text, level = "warn") {
  ui.notifications?.[level](`${t("FURTIVE.Title")}: ${text}`);
}

/**
 * Shows an action's refusal to the user (localized, {@link notify}) once and
 * returns null: an error this client already showed (`shown`, e.g. an engine
 * panic the GM was told about as it happened) is not shown again.
 * @param {unknown} error
 */
export function notifyRefusal(error) {
  if (error instanceof FurtiveError) {
    if (!error.shown) notify(error.localized());
    error.shown = true;
    return null;
  }
  throw error;
}

