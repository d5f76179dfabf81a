// Checks the published types (npm/index.d.ts) against what the engine
// returns at run time: every result recorded in tests/vectors/golden/ (which
// the vectors test proves napi, wasm in Node and wasm in Chromium return,
// deep-equal) must be a value of the declared return type of its call:
// every required property present, no undeclared property, every value of
// its declared type. The TypeScript compiler reads the declarations, so
// there is no second copy of the types to drift.
//
//   node --test tests/js/shapes.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { REPO } from "./impl.mjs";

const declarations = fileURLToPath(new URL("npm/index.d.ts", REPO));
const program = ts.createProgram([declarations], { strict: true, noEmit: true, lib: ["lib.es2022.d.ts", "lib.dom.d.ts"] });
const checker = program.getTypeChecker();
const source = program.getSourceFile(declarations);
const moduleSymbol = checker.getSymbolAtLocation(source);
const exported = new Map(checker.getExportsOfModule(moduleSymbol).map((s) => [s.getName(), s]));

function declaredType(name) {
  const symbol = exported.get(name);
  assert.ok(symbol, `index.d.ts exports no ${name}`);
  return checker.getDeclaredTypeOfSymbol(symbol);
}

function returnType(functionName) {
  const symbol = exported.get(functionName);
  assert.ok(symbol, `index.d.ts exports no function ${functionName}`);
  const type = checker.getTypeOfSymbolAtLocation(symbol, source);
  return checker.getSignaturesOfType(type, ts.SignatureKind.Call)[0].getReturnType();
}

/** The first way `value` is not a `type`, or null. */
function mismatch(value, type, path) {
  const name = checker.typeToString(type);
  if (type.isUnion()) {
    const problems = type.types.map((member) => mismatch(value, member, path));
    if (problems.includes(null)) return null;
    // Report the member selected by a `type` / `kind` tag when there is one.
    const tagged = problems.find((p) => !/\.(type|kind):/.test(p ?? ""));
    return tagged ?? `${path}: ${JSON.stringify(value)?.slice(0, 120)} is not ${name}`;
  }
  if (type.isStringLiteral() || type.isNumberLiteral()) {
    return value === type.value ? null : `${path}: ${JSON.stringify(value)} is not ${name}`;
  }
  const flags = type.flags;
  if (flags & ts.TypeFlags.String) return typeof value === "string" ? null : `${path}: not a string`;
  if (flags & ts.TypeFlags.Number) return typeof value === "number" ? null : `${path}: not a number`;
  if (flags & ts.TypeFlags.Boolean) return typeof value === "boolean" ? null : `${path}: not a boolean`;
  if (flags & ts.TypeFlags.BooleanLiteral) {
    return value === (name === "true") ? null : `${path}: ${value} is not ${name}`;
  }
  if (flags & ts.TypeFlags.Null) return value === null ? null : `${path}: not null`;
  if (flags & ts.TypeFlags.Undefined) return value === undefined ? null : `${path}: not undefined`;
  if (checker.isArrayType(type)) {
    if (!Array.isArray(value)) return `${path}: not an array (${name})`;
    const element = checker.getTypeArguments(type)[0];
    for (let i = 0; i < value.length; i++) {
      const problem = mismatch(value[i], element, `${path}[${i}]`);
      if (problem) return problem;
    }
    return null;
  }
  if (flags & ts.TypeFlags.Object) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return `${path}: not an object (${name})`;
    const index = checker.getIndexInfoOfType(type, ts.IndexKind.String);
    if (index) {
      for (const [key, item] of Object.entries(value)) {
        const problem = mismatch(item, index.type, `${path}.${key}`);
        if (problem) return problem;
      }
      return null;
    }
    const properties = checker.getPropertiesOfType(type);
    const declared = new Set(properties.map((p) => p.getName()));
    for (const key of Object.keys(value)) {
      if (!declared.has(key)) return `${path}.${key}: not declared in ${name}`;
    }
    for (const property of properties) {
      const key = property.getName();
      const optional = (property.flags & ts.SymbolFlags.Optional) !== 0;
      if (!Object.hasOwn(value, key)) {
        if (optional) continue;
        return `${path}.${key}: missing (required by ${name})`;
      }
      const propertyType = checker.getTypeOfSymbolAtLocation(property, source);
      const problem = mismatch(value[key], propertyType, `${path}.${key}`);
      if (problem) return problem;
    }
    return null;
  }
  return `${path}: cannot check values of type ${name}`;
}

const RETURNS = {
  createState: returnType("createState"),
  apply: returnType("apply"),
  settle: returnType("settle"),
  rollRequests: returnType("rollRequests"),
  perceives: returnType("perceives"),
  canLocate: returnType("canLocate"),
  canDefend: returnType("canDefend"),
  knockout: returnType("knockout"),
  canPickpocket: returnType("canPickpocket"),
  attackHidden: returnType("attackHidden"),
  parseScene: returnType("parseScene"),
  clearView: returnType("clearView"),
  clearViewMatrix: returnType("clearViewMatrix"),
};
const errorCode = declaredType("ErrorCode");

const vectorsDir = new URL("tests/vectors/", REPO);
const names = readdirSync(vectorsDir).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -5)).sort();

test("the checker itself refuses wrong shapes", () => {
  const state = { version: 2, revision: 0, ruleset: "percentile", settings: { showNumbersToPlayers: false, allowZeroLengthMovement: true, checkDie: 20 }, creatures: {}, hiders: {}, surprises: [], combat: { active: false, round: 0, turn: null, rolledThisTurn: [] } };
  assert.equal(mismatch(state, RETURNS.createState, "$"), null);
  assert.match(mismatch({ ...state, extra: 1 }, RETURNS.createState, "$"), /\$\.extra: not declared/);
  assert.match(mismatch({ ...state, ruleset: "d20" }, RETURNS.createState, "$"), /\$\.ruleset/);
  const { combat, ...noCombat } = state;
  assert.match(mismatch(noCombat, RETURNS.createState, "$"), /\$\.combat: missing/);
  assert.match(mismatch({ ...state, combat: { ...combat, turn: 3 } }, RETURNS.createState, "$"), /\$\.combat\.turn/);
  assert.match(mismatch({ allowed: "yes", clause: "P3", en: "", fr: "" }, RETURNS.perceives, "$"), /\$\.allowed/);
});

for (const name of names) {
  test(`returned shapes match index.d.ts: ${name}`, () => {
    const vector = JSON.parse(readFileSync(new URL(`${name}.json`, vectorsDir), "utf8"));
    const recorded = JSON.parse(readFileSync(new URL(`golden/${name}.json`, vectorsDir), "utf8"));
    assert.equal(recorded.length, vector.steps.length);
    recorded.forEach((record, index) => {
      const call = vector.steps[index].call;
      if (record.error) {
        assert.equal(mismatch(record.error.code, errorCode, "code"), null, `step ${index}: unknown error code ${record.error.code}`);
        assert.equal(typeof record.error.message, "string");
        return;
      }
      const type = RETURNS[call];
      assert.ok(type, `step ${index}: no declared return type for ${call}`);
      const problem = mismatch(record.ok, type, "$");
      assert.equal(problem, null, `step ${index} (${call}) returned a value index.d.ts does not describe: ${problem}`);
    });
  });
}
