// Generates npm/types.d.ts, the TypeScript types of everything that
// crosses the JavaScript boundary, from npm/furtive.schema.json (written by
// furtive_core::schema::boundary_schema from the Rust types' derives and
// checked against them by `cargo test -p furtive-core --test types`), with
// json-schema-to-typescript.
//
//   node tests/js/generate-types.mjs          # writes npm/types.d.ts
//   node tests/js/generate-types.mjs --check  # exits 1 when it differs
//
// `bash scripts/generate-types.sh` runs both steps (schema, then types).

import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { compile } from "json-schema-to-typescript";

const schemaPath = fileURLToPath(new URL("../../npm/furtive.schema.json", import.meta.url));
const typesPath = fileURLToPath(new URL("../../npm/types.d.ts", import.meta.url));

const BANNER = `// Generated from npm/furtive.schema.json (the Rust types' derives,
// crates/furtive-core/src/schema.rs) by tests/js/generate-types.mjs with
// json-schema-to-typescript. Do not edit: run \`bash scripts/generate-types.sh\`.
// CI fails when this file differs from the Rust types.
//
// A type the engine both reads and writes is named for what it writes
// (every field present, \`null\` for an absent optional value); what it reads,
// when that differs (fields with a default may be left out), is the same
// name with \`Input\` (\`Creature\`, \`CreatureInput\`).
`;

/** The TypeScript text of the schema's definitions. */
export async function generate() {
  const schema = JSON.parse(readFileSync(schemaPath, "utf8"));
  const text = await compile(schema, schema.title, {
    additionalProperties: false,
    unreachableDefinitions: true,
    bannerComment: "",
    format: true,
    strictIndexSignatures: false,
  });
  const cleaned = text
    // The root only gathers the definitions: no type of its own.
    .replace(new RegExp(`/\\*\\*(?:(?!\\*/)[\\s\\S])*?\\*/\\nexport interface ${schema.title} \\{[^}]*\\}\\n`), "")
    // Where each definition came from: the same line on every type.
    .replace(/\n \*\n \* This interface was referenced by `\w+`'s JSON-Schema\n \* via the `definition` "\w+"\./g, "")
    .replace(/\/\*\*\n \* This interface was referenced by `\w+`'s JSON-Schema\n \* via the `definition` "\w+"\.\n \*\/\n/g, "");
  return BANNER + "\n" + cleaned;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const expected = await generate();
  if (process.argv.includes("--check")) {
    const actual = readFileSync(typesPath, "utf8");
    if (actual !== expected) {
      console.error("npm/types.d.ts differs from npm/furtive.schema.json: run `bash scripts/generate-types.sh`");
      process.exit(1);
    }
    console.log("npm/types.d.ts matches npm/furtive.schema.json");
  } else {
    writeFileSync(typesPath, expected);
    console.log(`wrote ${typesPath}`);
  }
}
