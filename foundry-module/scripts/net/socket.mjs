/**
 * Players' requests to the active GM, and the answers, over Foundry's
 * queries: the player calls
 * `game.users.activeGM.query("furtive.request", {kind, payload, requestId, userId})`
 * and the promise resolves with the GM's answer, delivered to that player
 * only. `CONFIG.queries[name] = handler` registers a handler (names prefixed
 * with the package id); `User#query(name, data, {timeout})` runs it on that
 * user's client and resolves with its return value; queries travel on
 * core's socket, so the module asks for no socket of its own
 * (https://foundryvtt.com/api/v13/variables/CONFIG.queries.html,
 * https://foundryvtt.com/api/v13/classes/foundry.documents.User.html#query;
 * community wiki "Sockets", https://foundryvtt.wiki/en/development/api/sockets,
 * queries). Every supported Foundry (13, 14) has them.
 *
 * Every request from another client passes the GM's door first
 * (`checkRequest`, net/request-shapes.mjs): its shape is checked before
 * anything is looked up, asked or run. A query handler is given the query
 * data only, so the claimed `userId` is then confirmed by asking that user
 * back (`user.query("furtive.confirm", {requestId})`): only the claimed
 * user's own client answers its queries, and it confirms only a request it
 * is waiting for. Requests carry ids only; answers carry no hidden numbers.
 *
 * Foundry API: `game.users.activeGM`, `User#query`, `CONFIG.queries`, hook
 * `userConnected(user, connected)`.
 */

import { MODULE_ID } from "../constants.mjs";
import { BadRequest, FurtiveError } from "../errors.mjs";
import { t } from "../i18n.mjs";
import { isActiveGM } from "../storage/store.mjs";
import { checkRequest } from "./request-shapes.mjs";
import { shortText } from "./resolve.mjs";

/** @typedef {(kind: string, payload: Record<string, any>, user: User, remote: boolean) => Promise<unknown>} RequestHandler */

/** Error codes whose engine message may quote a hidden number. */
const NUMERIC_CODES = new Set(["out_of_range", "invalid_input", "failed"]);

/** The query names (system and module queries must be prefixed). */
const QUERY_REQUEST = `${MODULE_ID}.request`;
const QUERY_CONFIRM = `${MODULE_ID}.confirm`;
/** The active GM's page is ready (a reload): requests sent to that GM before go again. */
const QUERY_GM_READY = `${MODULE_ID}.gmReady`;

/**
 * Delays (ms). `confirmMs`: how long the GM waits for a user to confirm a
 * request (and for a player's page to hear that the GM is ready);
 * `requestMs`: how long a request may wait for the GM (who may have a
 * dialog open).
 */
export const timing = { confirmMs: 5_000, requestMs: 600_000 };

/** Answers waiting on this client, by request id. */
const waiting = /** @type {Map<string, {resolve: (value: unknown) => void, reject: (error: Error) => void, timer: ReturnType<typeof setTimeout>}>} */ (new Map());
/** Request ids this client sent over a query and still waits for (for `furtive.confirm`). */
const asked = /** @type {Set<string>} */ (new Set());

/**
 * What a failed request answers: the code, and the message unless it may
 * quote a number. A {@link BadRequest} is worded by the module for the
 * asking user (it names the field, never an engine number nor a token the
 * user does not perceive): its message is kept whatever its code, so bad
 * input the player's request met reads naming the field (errors.mjs).
 * @param {unknown} error
 */
function failure(error) {
  const e = /** @type {any} */ (error);
  const code = typeof e?.code === "string" ? e.code : "failed";
  if (code === "failed") console.error("furtive | request failed", error);
  const quotable = error instanceof BadRequest || !NUMERIC_CODES.has(code);
  return { ok: false, error: { code, message: quotable ? String(e?.message ?? e).slice(0, MAX_MESSAGE_CHARS) : "" } };
}

/** Longest error message an answer carries. */
const MAX_MESSAGE_CHARS = 512;
/** Request ids the active GM remembers per user (a request sent again runs once); the oldest are forgotten first. */
const MAX_REMEMBERED = 256;
/** GM side: when the GM was last told of a sender's refused request, by user id. */
const toldRefused = /** @type {Map<string, number>} */ (new Map());

/**
 * The GM's door for a request's data as it arrived: checked (request-shapes.mjs)
 * or refused, and then the GM is told, at most once a minute per sender (the
 * claimed user: the request is refused before anyone is asked to confirm it).
 * @param {unknown} data
 * @returns {{request: {kind: string, payload: Record<string, any>, requestId: string, userId: string}} | {refusal: {ok: false, error: {code: string, message: string}}}}
 */
function door(data) {
  try {
    return { request: checkRequest(data) };
  } catch (error) {
    const claimed = /** @type {any} */ (data)?.userId;
    const sender = typeof claimed === "string" ? game.users.get(claimed) : undefined;
    const key = sender?.id ?? "";
    const now = Date.now();
    if (now - (toldRefused.get(key) ?? -Infinity) >= 60_000) {
      toldRefused.set(key, now);
      const detail = shortText(String(/** @type {any} */ (error)?.message ?? ""));
      ui.notifications?.warn(`${t("FURTIVE.Title")}: ${t("FURTIVE.Notify.RequestRefused", { name: sender?.name ?? t("FURTIVE.Notify.UnknownSender"), detail })}`);
    }
    return { refusal: /** @type {any} */ (failure(error)) };
  }
}

/**
 * Runs one checked request on the active GM for a verified user; never throws.
 * A request sent again to this GM (its first GM left) runs once, while the
 * GM remembers its id: the last {@link MAX_REMEMBERED} of each user.
 * @param {RequestHandler} handle
 * @param {User} user
 * @param {{kind: string, payload: Record<string, any>, requestId: string}} request
 */
async function answer(handle, user, request) {
  const userId = String(user.id);
  let mine = answered.get(userId);
  if (!mine) answered.set(userId, (mine = new Map()));
  const running = mine.get(request.requestId);
  if (running) return running;
  const result = run(handle, user, request);
  mine.set(request.requestId, result);
  if (mine.size > MAX_REMEMBERED) mine.delete(/** @type {string} */ (mine.keys().next().value));
  return result;
}

/** GM side: answers by user id, then request id, so a request sent twice runs once. */
const answered = /** @type {Map<string, Map<string, Promise<any>>>} */ (new Map());

/**
 * @param {RequestHandler} handle
 * @param {User} user
 * @param {{kind: string, payload: Record<string, any>}} request
 */
async function run(handle, user, request) {
  try {
    return { ok: true, result: await handle(request.kind, request.payload, user, true) };
  } catch (error) {
    return failure(error);
  }
}

/**
 * Registers the request queries: the active GM answers requests; players
 * confirm their own and send them again to a GM whose page reloaded. Call
 * once, at `ready`.
 * @param {RequestHandler} handle runs a request on the active GM
 */
export function initRequests(handle) {
  const queries = /** @type {Record<string, Function>} */ (/** @type {any} */ (CONFIG).queries);
  queries[QUERY_REQUEST] = async (/** @type {unknown} */ data) => {
    // The door first: nothing is looked up, asked or run for a request it refuses.
    const checked = door(data);
    if (!("request" in checked)) return checked.refusal;
    const { request } = checked;
    if (!isActiveGM()) return { ok: false, error: { code: "no_gm", message: "this user is not the active GM" } };
    const user = game.users.get(request.userId);
    if (!user) return { ok: false, error: { code: "unknown_user", message: `userId: unknown user \`${request.userId}\`` } };
    const confirmed = await /** @type {any} */ (user).query(QUERY_CONFIRM, { requestId: request.requestId }, { timeout: timing.confirmMs }).catch(() => false);
    if (confirmed !== true) return { ok: false, error: { code: "unverified_user", message: `userId: user \`${request.userId}\` did not confirm this request` } };
    return answer(handle, user, request);
  };
  queries[QUERY_CONFIRM] = (/** @type {any} */ data) => typeof data?.requestId === "string" && asked.has(data.requestId);
  // A player: the active GM's page just became ready. Requests sent to that GM before
  // (a reload: the new page knows nothing of them) go again, with their ids (run once).
  queries[QUERY_GM_READY] = () => {
    const gm = game.users.activeGM;
    for (const [id, request] of sent) if (gm && request.gmId === gm.id) send(id);
    return true;
  };
  // The active GM, at ready: tells each connected player, so their waiting requests reach
  // this page. A query needs the target's handler, registered at its own ready, so the
  // players' userConnected (which fires before this page is ready) cannot send them.
  if (isActiveGM()) for (const user of game.users.filter((u) => u.active && !u.isGM)) void (/** @type {any} */ (user)).query(QUERY_GM_READY, {}, { timeout: timing.confirmMs }).catch(() => null);
  if (!game.user?.isGM) watchGMChange();
}

/**
 * Resolves or rejects a waiting request.
 * @param {string} id
 * @param {any} message `{ok, result}` or `{ok: false, error}`
 */
function settle(id, message) {
  const entry = waiting.get(id);
  if (!entry) return;
  waiting.delete(id);
  asked.delete(id);
  sent.delete(id);
  clearTimeout(entry.timer);
  if (message?.ok) entry.resolve(message.result);
  else entry.reject(FurtiveError.of(message?.error?.code ?? "failed", message?.error?.message ?? ""));
}

/**
 * Sends a request to the active GM and waits for the answer.
 * @param {string} kind
 * @param {Record<string, any>} payload
 * @returns {Promise<any>} the GM's result; rejects with FurtiveError (`no_gm`,
 *   `timeout`, or the GM's refusal)
 */
export async function askActiveGM(kind, payload) {
  if (!game.users.activeGM) throw FurtiveError.of("no_gm", "no GM is connected");
  const id = foundry.utils.randomID();
  const done = new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      asked.delete(id);
      sent.delete(id);
      reject(FurtiveError.of("timeout", "the GM did not answer"));
    }, timing.requestMs);
    waiting.set(id, { resolve, reject, timer });
  });
  sent.set(id, { kind, payload, gmId: "" });
  send(id);
  return done;
}

/** Requests this client sent and still waits for: what, and to which GM. */
const sent = /** @type {Map<string, {kind: string, payload: Record<string, any>, gmId: string}>} */ (new Map());

/**
 * Sends (or sends again) a waiting request to the current active GM.
 * @param {string} id
 */
function send(id) {
  const request = sent.get(id);
  const gm = game.users.activeGM;
  if (!request || !waiting.has(id)) return;
  if (!gm) return; // Sent again when a GM connects (watchGMChange).
  request.gmId = String(gm.id);
  const { kind, payload } = request;
  asked.add(id);
  /** @type {any} */ (gm).query(QUERY_REQUEST, { kind, payload, requestId: id, userId: game.user?.id }, { timeout: timing.requestMs }).then(
    (/** @type {any} */ reply) => settle(id, reply),
    (/** @type {any} */ error) => {
      // The GM left before answering: the request goes to the next active GM.
      if (game.users.activeGM?.id !== request.gmId) return;
      settle(id, { ok: false, error: { code: "failed", message: String(error?.message ?? error) } });
    },
  );
}

/**
 * Player side: when the GM a request was sent to is no longer the active GM
 * (they left; another GM took over), the request goes to the new active GM.
 * When that same GM's page reloads, its page asks for the requests once it
 * is ready (`furtive.gmReady`): a query reaches a page only after its
 * handlers are registered. The request keeps its id, so a GM runs it at
 * most once.
 * Foundry API: hook `userConnected(user, connected)`
 * (https://foundryvtt.com/api/v13/functions/hookEvents.userConnected.html), `game.users.activeGM`.
 */
function watchGMChange() {
  Hooks.on("userConnected", () => {
    const gm = game.users.activeGM;
    for (const [id, request] of sent) if (gm && request.gmId !== gm.id) send(id);
  });
}
