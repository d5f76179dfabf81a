/**
 * Chat output (B3): a GM-only card with the full explanation and a public
 * line without hidden numbers, plus action cards (attack with Defend
 * buttons, defenseless notice, Perception check to roll).
 *
 * Messages carry their explanation entries in `flags.furtive.entries`
 * (`{clause, en, fr}`), so each client shows them in its own language when
 * the message renders (`renderChatMessage` v12 jQuery / `renderChatMessageHTML` v13).
 * Public messages carry public entries only.
 *
 * Foundry API: `ChatMessage.create(data)`, `ChatMessage#whisper`,
 * `ChatMessage#getFlag`, `game.users` (`User#isGM`), `ChatMessage.getSpeaker`.
 */

import { DEFENSES, MODULE_ID } from "./constants.mjs";
import { engineText, escapeHtml, t } from "./i18n.mjs";
import { renderModuleTemplate } from "./templates.mjs";
import { audienceOf } from "./secrecy.mjs";

/** @typedef {import("./types.mjs").LogEntry} LogEntry */

/** Ids of every GM user (whisper recipients of GM cards). */
export function gmUserIds() {
  return game.users.filter((u) => u.isGM).map((u) => /** @type {string} */ (u.id));
}

/** The speaker of the module's messages. */
function speaker() {
  return { alias: t("FURTIVE.Title") };
}

/**
 * @param {{clause: string, en: string, fr: string}[]} entries
 */
function lines(entries) {
  return entries.map((e) => ({ clause: e.clause, text: engineText(e) }));
}

/**
 * Posts the explanation of one outcome: a GM card with the `gm` entries and a
 * public message with the `public` entries. Either is skipped when empty.
 * The public message goes to `audience` only when given (B1: the users who may
 * see every token it names, secrecy.mjs `audienceOf`).
 * @param {LogEntry[]} log
 * @param {{titleKey: string, titleData?: Record<string, string>, audience?: string[] | null}} title
 */
export async function postLog(log, { titleKey, titleData, audience = null }) {
  const strip = (/** @type {LogEntry} */ e) => ({ clause: e.clause, en: e.en, fr: e.fr });
  const gm = log.filter((e) => e.audience === "gm").map(strip);
  const pub = log.filter((e) => e.audience === "public").map(strip);
  const title = t(titleKey, titleData);
  if (gm.length) {
    await ChatMessage.create({
      speaker: speaker(),
      whisper: gmUserIds(),
      content: await renderModuleTemplate("log-card.hbs", { title, gm: true, label: t("FURTIVE.Chat.GMOnly"), lines: lines(gm) }),
      flags: { [MODULE_ID]: { kind: "log", titleKey, titleData: titleData ?? {}, entries: gm, gm: true } },
    });
  }
  if (pub.length) {
    await ChatMessage.create({
      speaker: speaker(),
      ...(audience ? { whisper: audience } : {}),
      content: await renderModuleTemplate("log-card.hbs", { title, gm: false, lines: lines(pub) }),
      flags: { [MODULE_ID]: { kind: "log", titleKey, titleData: titleData ?? {}, entries: pub, gm: false } },
    });
  }
}

/**
 * Posts a card for an attack on `target`, with one Defend button per defense
 * (the Defend action asks the engine first, P6), to the users who may see both
 * tokens named (B1; public when everyone may).
 * @param {{sceneId: string, attacker: TokenDocument, target: TokenDocument, lines?: {clause: string, en: string, fr: string}[]}} data
 */
export async function postAttackCard({ sceneId, attacker, target, lines: extra = [] }) {
  const content = await renderModuleTemplate("attack-card.hbs", {
    title: t("FURTIVE.Chat.AttackTitle", { attacker: attacker.name ?? "", target: target.name ?? "" }),
    lines: lines(extra),
    defendLabel: t("FURTIVE.Chat.DefendPrompt"),
    defenses: DEFENSES.map((id) => ({ id, label: t(`FURTIVE.Defense.${id}`) })),
  });
  const audience = audienceOf([attacker, target]);
  await ChatMessage.create({
    speaker: speaker(),
    ...(audience ? { whisper: audience } : {}),
    content,
    flags: { [MODULE_ID]: { kind: "attack", sceneId, attacker: attacker.id, target: target.id, entries: extra } },
  });
}

/**
 * Tells the GM that a target is defenseless (P6): which defenses are blocked
 * and which creatures may not defend it, each with the engine's explanation.
 * @param {{target: TokenDocument, attacker: TokenDocument | null, self: {clause: string, en: string, fr: string}, blocked: {name: string, decision: {clause: string, en: string, fr: string}}[]}} data
 */
export async function postDefenselessCard({ target, attacker, self, blocked }) {
  const entries = [self, ...blocked.map((b) => b.decision)];
  const content = await renderModuleTemplate("defenseless-card.hbs", {
    title: t("FURTIVE.Chat.DefenselessTitle", { target: target.name ?? "", attacker: attacker?.name ?? "?" }),
    label: t("FURTIVE.Chat.GMOnly"),
    defensesLabel: t("FURTIVE.Chat.BlockedDefenses"),
    defenses: DEFENSES.map((id) => t(`FURTIVE.Defense.${id}`)).join(", "),
    alliesLabel: t("FURTIVE.Chat.BlockedDefenders"),
    noneLabel: t("FURTIVE.Chat.None"),
    lines: lines(entries),
  });
  await ChatMessage.create({
    speaker: speaker(),
    whisper: gmUserIds(),
    content,
    flags: { [MODULE_ID]: { kind: "defenseless", entries, target: target.id, attacker: attacker?.id ?? null } },
  });
}

/**
 * Asks the GM to roll a Perception check (automatic checks are off).
 * @param {{sceneId: string, hider: TokenDocument, observer: TokenDocument, clause: string}} data
 */
export async function postPerceptionRequest({ sceneId, hider, observer, clause }) {
  const content = await renderModuleTemplate("perception-card.hbs", {
    title: t("FURTIVE.Chat.PerceptionTitle", { observer: observer.name ?? "", hider: hider.name ?? "" }),
    label: t("FURTIVE.Chat.GMOnly"),
    clause,
    button: t("FURTIVE.Chat.RollPerception"),
  });
  await ChatMessage.create({
    speaker: speaker(),
    whisper: gmUserIds(),
    content,
    flags: { [MODULE_ID]: { kind: "perception", sceneId, hider: hider.id, observer: observer.id } },
  });
}

/**
 * Posts one line (refusals, results) without numbers: to the GMs
 * (`whisperGM`), to the users who may see the named tokens (`named`, B1), or
 * to everyone.
 * @param {string} text already localized
 * @param {{whisperGM?: boolean, named?: (TokenDocument | null | undefined)[]}} [options]
 */
export async function postLine(text, { whisperGM = false, named = [] } = {}) {
  const audience = whisperGM ? gmUserIds() : audienceOf(named);
  await ChatMessage.create({
    speaker: speaker(),
    content: `<div class="furtive-card furtive-line"><p>${escapeHtml(text)}</p></div>`,
    ...(audience ? { whisper: audience } : {}),
  });
}

/**
 * On render: shows the entries in this client's language and binds the
 * card's buttons (`[data-furtive-action]`).
 * @param {ChatMessage} message
 * @param {HTMLElement} root
 * @param {(action: string, message: ChatMessage, button: HTMLElement) => void} onAction
 */
export function decorateChatMessage(message, root, onAction) {
  const flags = /** @type {any} */ (message.getFlag(MODULE_ID, "kind") ? message.flags?.[MODULE_ID] : null);
  if (!flags) return;
  // The stored state record (store.mjs) is data, not a card.
  if (flags.kind === "state") {
    root.style.display = "none";
    return;
  }
  const entries = Array.isArray(flags.entries) ? flags.entries : [];
  const items = root.querySelectorAll(".furtive-entries li");
  items.forEach((item, index) => {
    const entry = entries[index];
    const text = item.querySelector(".furtive-text");
    if (entry && text) text.textContent = engineText(entry);
  });
  if (flags.titleKey) {
    const title = root.querySelector(".furtive-title");
    if (title) title.textContent = t(flags.titleKey, flags.titleData);
  }
  root.querySelectorAll("[data-furtive-action]").forEach((button) => {
    button.addEventListener("click", (event) => {
      event.preventDefault();
      onAction(/** @type {HTMLElement} */ (button).dataset.furtiveAction ?? "", message, /** @type {HTMLElement} */ (button));
    });
  });
}
