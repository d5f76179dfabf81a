/**
 * Chat output (B3): one GM-only card per action with the full explanation
 * (every comparison, the defenseless targets, the buttons: Perception check
 * to roll, new stealth roll, undo) and a public line without hidden
 * numbers, plus the attack card with Defend buttons.
 *
 * Messages carry their explanation entries in `flags.furtive.entries`
 * (`{clause, en, fr}`) and the language they were rendered in
 * (`flags.furtive.lang`), so a client of another language shows them in its
 * own when the message renders (`renderChatMessageHTML`).
 * A card's own texts (`flags.furtive.texts: [{selector, en, fr}]`) are
 * rewritten the same way: the players' cards' and the GM-only cards' (badge,
 * defenseless notices, buttons), so two GMs of different languages each read
 * theirs. Public messages carry public entries only; GM-only texts ride only
 * in GM-whispered messages, created once and never updated (docs/foundry.md,
 * "Threat model").
 *
 * Foundry API: `ChatMessage.create(data)`, `ChatMessage#whisper`,
 * `ChatMessage#getFlag`, `game.users` (`User#isGM`), `ChatMessage.getSpeaker`.
 */

import { DEFENSES, MODULE_ID } from "../constants.mjs";
import { bilingual, engineText, escapeHtml, listOf, t } from "../i18n.mjs";
import { renderModuleTemplate } from "./templates.mjs";
import { audienceOf } from "./secrecy.mjs";

/** @typedef {import("../types.mjs").LogEntry} LogEntry */

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
 * Posts one action's chat output (one GM card per action): ONE
 * GM-only card with every comparison of the action and its numbers (the
 * engine's `gm` entries, then for each target made defenseless (P6) the
 * blocked defenses and every creature that may not defend it), the buttons
 * the action calls for (roll a Perception check when automatic checks are
 * off, O4; make a new stealth roll, P4; undo the action), and at most one
 * public line with the `public` entries, to `audience` only when given (B1:
 * the users who may see every token it names, ui/secrecy.mjs `audienceOf`).
 * Either is skipped when it would be empty.
 * @param {{sceneId: string, actionId: string | null, log: LogEntry[], titleKey: string, titleData?: Record<string, string>, audience?: string[] | null,
 *   defenseless?: {targetId: string, target: string, attacker: string, self: {clause: string, en: string, fr: string}, blocked: {name: string, decision: {clause: string, en: string, fr: string}}[]}[],
 *   checks?: {hider: string, observer: string, clause: string, hiderName: string, observerName: string}[],
 *   rerolls?: {hider: string, name: string}[], cardFlags?: Record<string, unknown>}} action
 *   `cardFlags`: more `flags.furtive` of the GM card (GM-only data a later active GM reads back)
 */
export async function postActionCard({ sceneId, actionId, log, titleKey, titleData, audience = null, defenseless = [], checks = [], rerolls = [], cardFlags = {} }) {
  const strip = (/** @type {{clause: string, en: string, fr: string}} */ e) => ({ clause: e.clause, en: e.en, fr: e.fr });
  const gm = log.filter((e) => e.audience === "gm").map(strip);
  for (const item of defenseless) gm.push(strip(item.self), ...item.blocked.map((b) => strip(b.decision)));
  const pub = log.filter((e) => e.audience === "public").map(strip);
  const title = t(titleKey, titleData);
  /** Two texts joined in each language. @param {string} separator @param {...{en: string, fr: string}} parts */
  const joined = (separator, ...parts) => ({ en: parts.map((p) => p.en).join(separator), fr: parts.map((p) => p.fr).join(separator) });
  /** @type {{action: string, hider?: string, observer?: string, text: {en: string, fr: string}}[]} */
  const buttons = [
    ...checks.map((c) => ({
      action: "perception",
      hider: c.hider,
      observer: c.observer,
      text: joined(" ", joined(": ", bilingual("FURTIVE.Chat.PerceptionTitle", { observer: c.observerName, hider: c.hiderName }), bilingual("FURTIVE.Chat.RollPerception")), { en: `(${c.clause})`, fr: `(${c.clause})` }),
    })),
    ...rerolls.map((r) => ({ action: "reroll", hider: r.hider, text: joined(" ", bilingual("FURTIVE.Chat.RerollNeeded", { name: r.name }), bilingual("FURTIVE.Chat.Reroll"), { en: "(P4)", fr: "(P4)" }) })),
  ];
  // A saved action (actionId) always gets its card: it is where the GM undoes it, even with no GM line.
  if (gm.length || buttons.length || actionId) {
    if (actionId) buttons.push({ action: "undo", text: bilingual("FURTIVE.Chat.Undo") });
    const blocked = joined(" ", bilingual("FURTIVE.Chat.BlockedDefenses"), joined(", ", ...DEFENSES.map((id) => bilingual(`FURTIVE.Defense.${id}`))));
    const notices = defenseless.map((d, index) => ({ index, title: bilingual("FURTIVE.Chat.DefenselessTitle", { target: d.target, attacker: d.attacker }), blocked }));
    // The card's own texts in both languages (each GM reads theirs, decorateChatMessage). They ride in
    // this GM-whispered message only, created once and never updated, so they reach the GMs only
    // (docs/foundry.md, "Threat model").
    const texts = [
      { selector: ".furtive-badge", ...bilingual("FURTIVE.Chat.GMOnly") },
      ...notices.flatMap((n) => [
        { selector: `.furtive-defenseless[data-index="${n.index}"] .furtive-defenseless-title`, ...n.title },
        { selector: `.furtive-defenseless[data-index="${n.index}"] .furtive-defenseless-defenses`, ...n.blocked },
      ]),
      ...buttons.map((b, index) => ({ selector: `.furtive-buttons > button:nth-child(${index + 1})`, ...b.text })),
    ];
    await ChatMessage.create({
      speaker: speaker(),
      whisper: gmUserIds(),
      content: await renderModuleTemplate("log-card.hbs", {
        title,
        gm: true,
        label: t("FURTIVE.Chat.GMOnly"),
        lines: lines(gm),
        defenseless: notices.map((n) => ({ index: n.index, title: engineText(n.title), defenses: engineText(n.blocked) })),
        buttons: buttons.map((b) => ({ action: b.action, hider: b.hider, observer: b.observer, label: engineText(b.text) })),
      }),
      flags: {
        [MODULE_ID]: {
          kind: "log",
          titleKey,
          titleData: titleData ?? {},
          entries: gm,
          texts,
          gm: true,
          lang: game.i18n.lang,
          sceneId,
          actionId,
          defenseless: defenseless.map((d) => d.targetId),
          checks: checks.map((c) => ({ hider: c.hider, observer: c.observer })),
          rerolls: rerolls.map((r) => r.hider),
          ...cardFlags,
        },
      },
    });
  }
  if (pub.length) {
    await ChatMessage.create({
      speaker: speaker(),
      ...(audience ? { whisper: audience } : {}),
      content: await renderModuleTemplate("log-card.hbs", { title, gm: false, lines: lines(pub), defenseless: [], buttons: [] }),
      flags: { [MODULE_ID]: { kind: "log", titleKey, titleData: titleData ?? {}, entries: pub, gm: false, lang: game.i18n.lang } },
    });
  }
}

/**
 * Posts a card for an attack on its targets (one attack instance, O8), with
 * one Defend button per defense and target (the Defend action asks the
 * engine first, P6), to the users who may see every token it names (B1;
 * public when everyone may). `flags.furtive.targets` lists the target ids,
 * `flags.furtive.target` the first (cards of one target before lists). Its
 * title, prompt and buttons are kept in both languages
 * (`flags.furtive.texts`), so each reader reads their own.
 * @param {{sceneId: string, attacker: TokenDocument, targets: TokenDocument[], lines?: {clause: string, en: string, fr: string}[]}} data
 */
export async function postAttackCard({ sceneId, attacker, targets, lines: extra = [] }) {
  const targetNames = targets.map((target) => target.name ?? "");
  const title = {
    en: bilingual("FURTIVE.Chat.AttackTitle", { attacker: attacker.name ?? "", target: listOf(targetNames, "en") }).en,
    fr: bilingual("FURTIVE.Chat.AttackTitle", { attacker: attacker.name ?? "", target: listOf(targetNames, "fr") }).fr,
  };
  const texts = [
    { selector: ".furtive-title", ...title },
    { selector: ".furtive-prompt", ...bilingual("FURTIVE.Chat.DefendPrompt") },
    ...DEFENSES.map((id) => ({ selector: `[data-defense="${id}"] .furtive-label`, ...bilingual(`FURTIVE.Defense.${id}`) })),
  ];
  const content = await renderModuleTemplate("attack-card.hbs", {
    title: engineText(title),
    lines: lines(extra),
    defendLabel: t("FURTIVE.Chat.DefendPrompt"),
    several: targets.length > 1,
    targets: targets.map((target) => ({ id: target.id, name: target.name ?? "" })),
    defenses: DEFENSES.map((id) => ({ id, label: t(`FURTIVE.Defense.${id}`) })),
  });
  const audience = audienceOf([attacker, ...targets]);
  await ChatMessage.create({
    speaker: speaker(),
    ...(audience ? { whisper: audience } : {}),
    content,
    flags: { [MODULE_ID]: { kind: "attack", sceneId, attacker: attacker.id, target: targets[0]?.id, targets: targets.map((target) => target.id), entries: extra, texts, lang: game.i18n.lang } },
  });
}

/**
 * Posts one line (refusals, results) without numbers: to the GMs
 * (`whisperGM`: a GM-only card, such as the Undone card), to the users who
 * may see the named tokens (`named`, B1), or to everyone. The line is kept
 * in both languages (`flags.furtive.texts`), so each reader reads their own
 * (written in the poster's); a GM-only line's texts ride in the
 * GM-whispered message only, created once and never updated (docs/foundry.md,
 * "Threat model").
 * @param {{en: string, fr: string}} text e.g. from `bilingual(key, data)`
 * @param {{whisperGM?: boolean, named?: (TokenDocument | null | undefined)[], flags?: Record<string, unknown>}} [options]
 *   `flags`: more `flags.furtive` of the message (e.g. `{kind: "undone", sceneId, actionId}`; `kind` defaults to `"line"`)
 */
export async function postLine(text, { whisperGM = false, named = [], flags = {} } = {}) {
  const audience = whisperGM ? gmUserIds() : audienceOf(named);
  await ChatMessage.create({
    speaker: speaker(),
    content: `<div class="furtive-card furtive-line${whisperGM ? " furtive-gm" : ""}"><p>${escapeHtml(engineText(text))}</p></div>`,
    ...(audience ? { whisper: audience } : {}),
    flags: { [MODULE_ID]: { kind: "line", ...flags, texts: [{ selector: ".furtive-line p", en: text.en, fr: text.fr }], lang: game.i18n.lang } },
  });
}

/**
 * Shows a message's flavor (ChatMessage `flavor`, "An optional flavor text
 * message which summarizes this message",
 * https://foundryvtt.com/api/interfaces/foundry.documents.types.ChatMessageData.html)
 * and each of its rolls' own flavor (`Roll#options.flavor`, which `Roll#render`
 * includes: https://foundryvtt.com/api/classes/foundry.dice.Roll.html#render)
 * in this client's language, from the flags' `{en, fr}` pairs.
 * Foundry renders them into the message's HTML in the poster's language (the
 * module stores the message's flavor HTML-escaped, systems/formula-rolls.mjs); the render hook
 * hands that pending HTML over
 * (https://foundryvtt.com/api/functions/hookEvents.renderChatMessage.html,
 * https://foundryvtt.com/api/functions/hookEvents.renderChatMessageHTML.html).
 * Where in it core puts them is not documented, so no class name is
 * assumed: each element without child elements whose whole text is the
 * poster's text of a pair (compared as text, so a name with `&` or `<` matches)
 * is rewritten. None found (another layout), the text stays in the poster's language.
 * @param {HTMLElement} root the pending HTML
 * @param {unknown[]} pairs `{en, fr}` texts: `flags.furtive.flavor`, `flags.furtive.rollFlavors`
 * @param {unknown} postedLang the poster's language (`flags.furtive.lang`)
 */
function localizeFlavors(root, pairs, postedLang) {
  const french = String(postedLang ?? "").toLowerCase().startsWith("fr");
  /** poster's text -> this client's */
  const wanted = new Map();
  for (const pair of pairs) {
    const texts = /** @type {any} */ (pair);
    if (typeof texts?.en !== "string" || typeof texts?.fr !== "string") continue;
    const posted = (french ? texts.fr : texts.en).trim();
    if (posted) wanted.set(posted, engineText(texts));
  }
  if (!wanted.size) return;
  for (const element of root.querySelectorAll("*")) {
    if (element.childElementCount !== 0) continue;
    const text = wanted.get(element.textContent?.trim() ?? "");
    if (text !== undefined) element.textContent = text;
  }
}

/**
 * On render: shows the entries and the flavor in this client's language and
 * binds the card's buttons (`[data-furtive-action]`).
 * @param {ChatMessage} message
 * @param {HTMLElement} root
 * @param {(action: string, message: ChatMessage, button: HTMLElement, event: Event) => void} onAction the click
 *   too, whose keys a system's roll reads (dnd5e's fast-forward)
 */
export function decorateChatMessage(message, root, onAction) {
  const own = /** @type {any} */ (message.flags?.[MODULE_ID]);
  // A roll the module posted (its own, or an offered Perception check from the sheet, which has no `kind`),
  // and the rolls of the Perception-checks card, each with its own flavor.
  if ((own?.flavor || Array.isArray(own?.rollFlavors)) && own.lang !== game.i18n.lang) {
    localizeFlavors(root, [own.flavor, ...(Array.isArray(own.rollFlavors) ? own.rollFlavors : [])], own.lang);
  }
  const flags = /** @type {any} */ (message.getFlag(MODULE_ID, "kind") ? own : null);
  if (!flags) return;
  // The stored state record (storage/store.mjs: a base or a delta) is data, not a card.
  if (flags.kind === "state" || flags.kind === "stateDelta") {
    root.style.display = "none";
    return;
  }
  // A card rendered in this client's language already reads right (no rewrite: a card may hold hundreds of entries).
  const entries = Array.isArray(flags.entries) && flags.lang !== game.i18n.lang ? flags.entries : [];
  if (entries.length) {
    root.querySelectorAll(".furtive-entries li").forEach((item, index) => {
      const entry = entries[index];
      const text = item.querySelector(".furtive-text");
      if (entry && text) text.textContent = engineText(entry);
    });
  }
  if (flags.titleKey && flags.lang !== game.i18n.lang) {
    const title = root.querySelector(".furtive-title");
    if (title) title.textContent = t(flags.titleKey, flags.titleData);
  }
  // The card's own texts, kept in both languages (`[{selector, en, fr}]`).
  if (Array.isArray(flags.texts) && flags.lang !== game.i18n.lang) {
    for (const text of flags.texts) {
      const elements = typeof text?.selector === "string" ? root.querySelectorAll(text.selector) : [];
      if (typeof text.en === "string" && typeof text.fr === "string") for (const element of elements) element.textContent = engineText(text);
    }
  }
  root.querySelectorAll("[data-furtive-action]").forEach((button) => {
    button.addEventListener("click", (event) => {
      event.preventDefault();
      onAction(/** @type {HTMLElement} */ (button).dataset.furtiveAction ?? "", message, /** @type {HTMLElement} */ (button), event);
    });
  });
}
