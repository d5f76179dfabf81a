/**
 * `Roll` (`foundry.dice.Roll`, also a global) for the formulas the module
 * uses: dice terms `NdM`, numbers, `@path` data references, `+ - * /` and
 * parentheses. Documented behavior reproduced:
 * - `new Roll(formula, data)`: `@path` is replaced from `data` when the roll is
 *   built (a missing path is a 0 with a warning, as `Roll.replaceFormulaData` with `missing: "0"`;
 *   `ReplaceFormulaDataOptions#missing` is documented, but which `missing` the Roll constructor
 *   passes is not: no public page, the fake's reading).
 * - `evaluate()` is async and returns the Roll; `evaluateSync()` exists; a roll is
 *   evaluated once (`_evaluated`; evaluating twice throws).
 * - each die face comes from `CONFIG.Dice.randomUniform()` (the documented
 *   seam, default `Math.random`): result = ceil(u * faces), u in (0, 1].
 * - `total`, `result`, `formula`, `dice`, `terms`, `options`, `toJSON()`, `Roll.fromData()`
 *   (the data keeps `options`, and `fromData` gives them back, as a chat
 *   message's rolls carry a system's roll options such as dnd5e's
 *   `advantageMode`: https://foundryvtt.com/api/classes/foundry.dice.Roll.html#options,
 *   https://foundryvtt.com/api/classes/foundry.dice.Roll.html#fromData).
 * - `toMessage(messageData, {rollMode, create})`: `ChatMessage.applyRollMode`
 *   then `ChatMessage.create`, the roll in `rolls`, the dice sound in `sound`
 *   (`CONFIG.sounds.dice`, as systems set it on their roll messages) unless
 *   the data names another.
 */
import { getProperty } from "./utils.mjs";

function tokenize(formula) {
  const tokens = [];
  const re = /\s*(?:(\d*)d(\d+)|(\d+(?:\.\d+)?)|([-+*/()]))/gy;
  let match;
  let index = 0;
  const text = formula.trim();
  re.lastIndex = 0;
  while (index < text.length) {
    re.lastIndex = index;
    match = re.exec(text);
    if (!match) throw new Error(`Unable to parse roll formula "${formula}" at "${text.slice(index)}"`);
    if (match[2] !== undefined) tokens.push({ kind: "die", number: match[1] === "" ? 1 : Number(match[1]), faces: Number(match[2]) });
    else if (match[3] !== undefined) tokens.push({ kind: "number", value: Number(match[3]) });
    else tokens.push({ kind: "op", value: match[4] });
    index = re.lastIndex;
    while (text[index] === " ") index += 1;
  }
  return tokens;
}

export function createDice(ctx) {
  class Die {
    constructor({ number, faces }) {
      this.number = number;
      this.faces = faces;
      this.results = [];
    }
    roll() {
      const uniform = ctx.CONFIG.Dice.randomUniform;
      const u = uniform();
      const result = Math.min(this.faces, Math.max(1, Math.ceil(u * this.faces)));
      this.results.push({ result, active: true });
      return result;
    }
    get total() {
      return this.results.reduce((sum, r) => sum + (r.active ? r.result : 0), 0);
    }
    get formula() {
      return `${this.number}d${this.faces}`;
    }
    get expression() {
      return this.formula;
    }
    toJSON() {
      return { class: "Die", number: this.number, faces: this.faces, results: this.results };
    }
  }

  class Roll {
    constructor(formula = "", data = {}, options = {}) {
      this.data = data;
      this.options = options;
      this._formula = Roll.replaceFormulaData(String(formula), data, { missing: "0", warn: true });
      this.terms = tokenize(this._formula).map((t) => (t.kind === "die" ? new Die(t) : t));
      this._evaluated = false;
      this._total = undefined;
    }

    /** `Roll.replaceFormulaData(formula, data, {missing, warn})`. */
    static replaceFormulaData(formula, data, { missing, warn = false } = {}) {
      return formula.replace(/@([a-zA-Z.0-9_-]+)/g, (match, path) => {
        const value = getProperty(data, path);
        if (value === undefined || value === null || typeof value === "object") {
          if (warn) ctx.warnings.push(`The attribute ${path} was not present in the provided roll data.`);
          return missing !== undefined ? String(missing) : match;
        }
        return String(value).trim();
      });
    }

    static validate(formula) {
      try {
        tokenize(Roll.replaceFormulaData(formula, {}, { missing: "0" }));
        return true;
      } catch {
        return false;
      }
    }

    get formula() {
      return this._formula.replace(/\s+/g, " ").trim();
    }
    get dice() {
      return this.terms.filter((t) => t instanceof Die);
    }
    get total() {
      return this._total;
    }
    get result() {
      return this.terms.map((t) => (t instanceof Die ? String(t.total) : String(t.value))).join(" ");
    }
    get isDeterministic() {
      return this.dice.length === 0;
    }

    evaluateSync({ strict = true } = {}) {
      if (this._evaluated) throw new Error(`The ${this.constructor.name} has already been evaluated and is now immutable`);
      for (const die of this.dice) for (let i = 0; i < die.number; i += 1) die.roll();
      // Shunting-yard over the evaluated terms.
      const values = [];
      const ops = [];
      const prec = { "+": 1, "-": 1, "*": 2, "/": 2 };
      const applyOp = () => {
        const op = ops.pop();
        const b = values.pop();
        const a = values.pop() ?? 0;
        values.push(op === "+" ? a + b : op === "-" ? a - b : op === "*" ? a * b : a / b);
      };
      let expectOperand = true;
      for (const term of this.terms) {
        if (term instanceof Die) {
          values.push(term.total);
          expectOperand = false;
        } else if (term.kind === "number") {
          values.push(term.value);
          expectOperand = false;
        } else if (term.value === "(") {
          ops.push("(");
          expectOperand = true;
        } else if (term.value === ")") {
          while (ops.length && ops.at(-1) !== "(") applyOp();
          ops.pop();
          expectOperand = false;
        } else {
          if (expectOperand && (term.value === "-" || term.value === "+")) values.push(0);
          while (ops.length && ops.at(-1) !== "(" && prec[ops.at(-1)] >= prec[term.value]) applyOp();
          ops.push(term.value);
          expectOperand = true;
        }
      }
      while (ops.length) applyOp();
      const total = values.pop();
      if (strict && !Number.isFinite(total)) throw new Error(`Roll "${this.formula}" did not produce a number`);
      this._total = total;
      this._evaluated = true;
      return this;
    }

    async evaluate(options = {}) {
      await Promise.resolve();
      return this.evaluateSync(options);
    }

    /** Deprecated alias kept by v12. */
    async roll(options = {}) {
      return this.evaluate(options);
    }

    toJSON() {
      return { class: "Roll", options: this.options, formula: this.formula, terms: this.terms.map((t) => (t instanceof Die ? t.toJSON() : t)), total: this._total, evaluated: this._evaluated };
    }

    static fromData(data) {
      const roll = new Roll(data.formula, {}, data.options ?? {});
      roll._total = data.total;
      roll._evaluated = data.evaluated;
      roll.terms = data.terms.map((t) => {
        if (t.class !== "Die") return t;
        const die = new Die(t);
        die.results = t.results;
        return die;
      });
      return roll;
    }

    async render() {
      return `<div class="dice-roll"><div class="dice-formula">${this.formula}</div><h4 class="dice-total">${this.total}</h4></div>`;
    }

    async toMessage(messageData = {}, { rollMode, create = true } = {}) {
      if (!this._evaluated) await this.evaluate();
      const data = { content: String(this.total), sound: ctx.CONFIG.sounds?.dice, ...messageData, rolls: [this] };
      // v14: message modes (`core.messageMode`, `ChatMessage.applyMode`); the option keeps its name
      // (dnd5e 6.0, c83a613dd module/dice/basic-roll.mjs L258, passes `{rollMode}` on v14).
      const mode = rollMode ?? ctx.game.settings.get("core", ctx.version >= 14 ? "messageMode" : "rollMode");
      if (ctx.version >= 14) ctx.ChatMessage.applyMode(data, mode);
      else ctx.ChatMessage.applyRollMode(data, mode);
      if (!create) return data;
      return ctx.ChatMessage.create(data, { rollMode: mode });
    }
  }

  return { Roll, Die };
}
