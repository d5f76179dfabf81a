/**
 * Routing and permissions: an action runs where it belongs.
 *
 * - `run(kind, payload)` runs an action on the active GM directly, else
 *   sends it through the socket (net/socket.mjs).
 * - `handleRequest(kind, payload, user, remote)` is the active GM's side: a
 *   `remote` request (identity verified by net/socket.mjs) runs unprivileged; a
 *   player must own the acting token (`NotOwner`) and is refused the GM-only
 *   kinds (`gm_only`), which another GM may ask for. The handlers are in gm/actions.mjs.
 * - `notifyRefusal(error)` shows a refusal to the user, localized; `notify(text)`
 *   any other notice, with the same "Furtive:" prefix.
 */

import { FurtiveError } from "../errors.mjs";
import { GM_ACTIONS } from "../gm/actions.mjs";
import { t } from "../i18n.mjs";
import { requireScene, shortText } from "./resolve.mjs";
import { socketRequest } from "./socket.mjs";
import { isActiveGM } from "../storage/store.mjs";

/**
 * Which token of a request the asking user must own, per request kind.
 * Kinds missing here are GM-only.
 * @type {Record<string, string>}
 */
const OWNED = {
  hide: "tokenId",
  reveal: "tokenId",
  sprint: "tokenId",
  pointOut: "observerId",
  attack: "attackerId",
  knockout: "attackerId",
  canKnockout: "attackerId",
  canDefend: "defenderId",
  damageTaken: "targetId",
};

/**
 * The active GM's side of every action. A GM-only kind runs only for a GM:
 * this client's (`remote` false) or another GM's request, whose user net/socket.mjs
 * verified (the server's sender id on v12, the confirm query on v13). A
 * player must own the acting token. A remote request runs unprivileged
 * whoever asks: number-free result (a v12 reply travels on the module socket
 * to every client), Hide options ignored (the active GM's dialog decides).
 * @param {string} kind
 * @param {Record<string, any>} payload ids only: `sceneId`, `tokenId`, ...
 * @param {User} user the asking user (for a remote request: verified by net/socket.mjs)
 * @param {boolean} [remote] the request came over the socket
 * @returns {Promise<any>} number-free unless a local GM asked
 */
export async function handleRequest(kind, payload, user, remote = false) {
  const handler = GM_ACTIONS[kind];
  if (!handler) throw FurtiveError.of("unknown_action", `kind: unknown action \`${shortText(kind)}\``);
  const scene = requireScene(payload.sceneId);
  const privileged = Boolean(user.isGM) && !remote;
  if (!user.isGM) {
    const field = OWNED[kind];
    if (!field) throw FurtiveError.of("gm_only", `${kind}: only a GM may do this`);
    const token = scene.tokens.get(payload[field]);
    if (!token) throw FurtiveError.of("unknown_token", `${field}: unknown token \`${shortText(payload[field])}\``);
    if (!token.testUserPermission(user, "OWNER")) throw FurtiveError.of("not_owner", `${field}: ${user.name} does not own ${token.name}`);
  }
  const result = await handler(scene, payload, user, privileged);
  // The GM tools answer the engine's outcome (numbers in its GM lines and state): a remote GM
  // gets what a player would, its public lines.
  return remote && !OWNED[kind] ? numberFree(result) : result;
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
 * Runs an action: here on the active GM, else through the socket.
 * @param {string} kind
 * @param {Record<string, any>} payload
 */
export function run(kind, payload) {
  if (isActiveGM()) return handleRequest(kind, payload, /** @type {User} */ (game.user), false);
  return socketRequest(kind, payload);
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

