// Checks the published types (npm/index.d.ts) against what the engine
// returns at run time: every result recorded in tests/vectors/golden/ (which
// the vectors test proves napi, wasm in Node and wasm in Chromium return,
// deep-equal) must be a value of the declared return type of its call:
// every required property present, no undeclared property, every value of
// its declared type. The same holds for what SceneSight and the scene
// functions return on the shared Foundry scenes (floors, holes, tokens with
// darkvision and a carried light). The TypeScript compiler reads the
// declarations, so there is no second copy of the types to drift.
//
//   node --test tests/js/shapes.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";
import { REPO, loadNodeImpl } from "./impl.mjs";

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
  if (checker.isTupleType(type)) {
    const elements = checker.getTypeArguments(type);
    if (!Array.isArray(value) || value.length !== elements.length) return `${path}: not a ${name}`;
    for (let i = 0; i < value.length; i++) {
      const problem = mismatch(value[i], elements[i], `${path}[${i}]`);
      if (problem) return problem;
    }
    return null;
  }
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
  concealedByDarkness: returnType("concealedByDarkness"),
  alliedSides: returnType("alliedSides"),
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

/** The return type of method `name` of the declared class `className`. */
function methodReturnType(className, name) {
  const instance = declaredType(className);
  const method = checker.getPropertyOfType(instance, name);
  assert.ok(method, `index.d.ts declares no ${className}.prototype.${name}`);
  const type = checker.getTypeOfSymbolAtLocation(method, source);
  return checker.getSignaturesOfType(type, ts.SignatureKind.Call)[0].getReturnType();
}

// The scene side: what SceneSight and the scene functions return on the real
// Foundry scenes of shared/fixtures (Levels floors, lights, tokens) must be
// values of their declared (generated) types: no undeclared field, none missing.
const fixtures = process.env.FURTIVE_FIXTURES ? pathToFileURL(`${process.env.FURTIVE_FIXTURES.replace(/\/?$/, "/")}`) : new URL("../shared/fixtures/", REPO);
const napi = await loadNodeImpl("napi");
for (const file of ["scene-ocd-nort-gate.json", "scene-zahi-oota-warning-sign.json"]) {
  test(`SceneSight and the scene functions return what index.d.ts declares: ${file}`, () => {
    const raw = JSON.parse(readFileSync(new URL(file, fixtures), "utf8"));
    const sight = napi.SceneSight.parse(raw);
    // Two tokens of our own, one with darkvision and a carried light.
    const [first, second] = ["shapes-a", "shapes-b"];
    sight.update([
      { type: "token", token: { _id: first, x: 1000, y: 1000, darkvision: 60, light: { dim: 20, bright: 10 } } },
      { type: "token", token: { _id: second, x: 1400, y: 1000 } },
    ]);
    const scene = sight.scene();
    const carried = scene.tokens.find((token) => token.id === first);
    assert.ok(carried.darkvision === 60 && carried.light?.dim === 20, "the normalized token keeps its darkvision and light");
    const calls = [
      ["parseScene", RETURNS.parseScene, napi.parseScene(raw)],
      ["scene", methodReturnType("SceneSight", "scene"), scene],
      ["clearViewMatrix", methodReturnType("SceneSight", "clearViewMatrix"), sight.clearViewMatrix()],
      ["clearViewFrom", methodReturnType("SceneSight", "clearViewFrom"), sight.clearViewFrom(first)],
      ["view", methodReturnType("SceneSight", "view"), sight.view(first, second)],
      ["clearView", methodReturnType("SceneSight", "clearView"), sight.clearView({ from: { tokenId: first }, to: { tokenId: second } })],
      ["lightingOf", methodReturnType("SceneSight", "lightingOf"), sight.lightingOf(second)],
      ["clearView (free)", RETURNS.clearView, napi.clearView(scene, { from: { tokenId: first }, to: { tokenId: second } })],
    ];
    sight.free();
    for (const [call, type, value] of calls) {
      const problem = mismatch(value, type, "$");
      assert.equal(problem, null, `${call} returned a value index.d.ts does not describe: ${problem}`);
    }
  });
}
