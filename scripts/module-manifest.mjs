#!/usr/bin/env node
// The Foundry module's manifest as it is published: module.json with its
// `manifest` (where Foundry reads the newest version) and `download` (this
// version's zip).
//
//   node scripts/module-manifest.mjs write --tag vX.Y.Z --out dist/module.json
//       a release: manifest = <url>/releases/latest/download/module.json,
//       download = <url>/releases/download/vX.Y.Z/furtive.zip (<url> is
//       module.json's `url`, the GitHub repository)
//   node scripts/module-manifest.mjs write --manifest URL --download URL --out FILE
//       any other place (scripts/serve-module.sh)
//   node scripts/module-manifest.mjs check MODULE_JSON ZIP [--tag vX.Y.Z]
//       fails naming each fault: a missing field, a URL that is not
//       absolute http(s), a file module.json names that the zip lacks, a zip
//       whose module.json is not this one; with --tag, the release's URLs
//       and version
//
// `--in FILE` reads another module.json (default foundry-module/module.json).
//
// Foundry's manifest fields, ModuleManifestData:
// https://foundryvtt.com/api/v14/interfaces/foundry.packages.types.ModuleManifestData.html
// ("manifest": a public URL of the latest manifest, needed for updates;
// "download": a public URL of this version's files, needed to install).

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The release's URLs for `tag`, from the repository URL in module.json's `url`. */
export function releaseUrls(repository, tag) {
  const base = repository.replace(/\/+$/, "");
  return {
    manifest: `${base}/releases/latest/download/module.json`,
    download: `${base}/releases/download/${tag}/furtive.zip`,
  };
}

/** module.json's text with `manifest` and `download` set; every other field kept as written. */
export function withUrls(text, { manifest, download }) {
  const data = JSON.parse(text);
  for (const [key, value] of Object.entries({ manifest, download })) {
    if (!(key in data)) throw new Error(`module.json: no "${key}" field to set`);
    data[key] = value;
  }
  return `${JSON.stringify(data, null, 2)}\n`;
}

/** Every path module.json names in the module's folder. */
export function namedPaths(data) {
  return [
    ...(data.esmodules ?? []),
    ...(data.scripts ?? []),
    ...(data.styles ?? []),
    ...(data.languages ?? []).map((language) => language.path),
    ...(data.packs ?? []).map((pack) => pack.path),
  ];
}

const isUrl = (value) => {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/** The faults of `data` as published with the zip `entries` (its file names) and the zip's own module.json text. */
export function faults(data, entries, zipped, tag = null) {
  const found = [];
  for (const field of ["id", "title", "version", "compatibility", "esmodules", "manifest", "download", "url"]) {
    if (data[field] === undefined || data[field] === "") found.push(`"${field}" is missing`);
  }
  if (data.id !== "furtive") found.push(`"id" is ${JSON.stringify(data.id)}, not "furtive"`);
  for (const field of ["manifest", "download", "url"]) {
    if (data[field] && !isUrl(data[field])) found.push(`"${field}" is not an absolute http(s) URL: ${data[field]}`);
  }
  const { minimum, verified, maximum } = data.compatibility ?? {};
  if (!minimum || !verified) found.push(`"compatibility" needs "minimum" and "verified"`);
  const generation = (value) => Number.parseFloat(String(value));
  if (minimum && verified && generation(minimum) > generation(verified)) found.push(`"compatibility": minimum ${minimum} is above verified ${verified}`);
  if (maximum && verified && generation(verified) > generation(maximum)) found.push(`"compatibility": verified ${verified} is above maximum ${maximum}`);
  for (const file of namedPaths(data)) {
    if (!entries.includes(file)) found.push(`the zip lacks ${file}, named in module.json`);
  }
  if (!entries.includes("module.json")) found.push("the zip has no module.json at its root");
  else if (zipped !== null && JSON.stringify(JSON.parse(zipped)) !== JSON.stringify(data)) found.push("the zip's module.json is not this module.json");
  if (tag !== null) {
    const expected = releaseUrls(data.url ?? "", tag);
    if (data.version !== tag.replace(/^v/, "")) found.push(`"version" is ${data.version}, the tag ${tag}`);
    if (data.manifest !== expected.manifest) found.push(`"manifest" is ${data.manifest}, not ${expected.manifest}`);
    if (data.download !== expected.download) found.push(`"download" is ${data.download}, not ${expected.download}`);
  }
  return found;
}

function zipEntries(zip) {
  return execFileSync("unzip", ["-Z1", zip], { encoding: "utf8" }).split("\n").filter(Boolean);
}

function zipFile(zip, name) {
  return execFileSync("unzip", ["-p", zip, name], { encoding: "utf8" });
}

function main(argv) {
  const options = { in: path.join(root, "foundry-module/module.json"), tag: null };
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i].match(/^--(in|out|tag|manifest|download)$/)?.[1];
    if (flag) options[flag] = argv[++i];
    else rest.push(argv[i]);
  }
  const [command, ...files] = rest;
  if (command === "write") {
    let urls;
    if (options.tag) {
      if (!/^v\d+\.\d+\.\d+/.test(options.tag)) throw new Error(`tag: "${options.tag}" is not a version tag (vX.Y.Z)`);
      const source = JSON.parse(readFileSync(options.in, "utf8"));
      if (options.tag !== `v${source.version}`) throw new Error(`the tag says ${options.tag}, module.json's version is ${source.version}`);
      urls = releaseUrls(source.url ?? "", options.tag);
    } else if (options.manifest && options.download) {
      urls = { manifest: options.manifest, download: options.download };
      for (const key of ["manifest", "download"]) {
        if (!isUrl(urls[key])) throw new Error(`--${key} is not an absolute http(s) URL: ${urls[key]}`);
      }
    } else {
      throw new Error("write: give --tag vX.Y.Z, or --manifest URL and --download URL");
    }
    if (!options.out) throw new Error("write: give --out FILE");
    writeFileSync(options.out, withUrls(readFileSync(options.in, "utf8"), urls));
    console.log(`module-manifest: ${options.out}: manifest ${urls.manifest}, download ${urls.download}`);
  } else if (command === "check" && files.length === 2) {
    const [manifestFile, zip] = files;
    for (const file of files) if (!existsSync(file)) throw new Error(`${file} is missing`);
    const data = JSON.parse(readFileSync(manifestFile, "utf8"));
    const entries = zipEntries(zip);
    const found = faults(data, entries, entries.includes("module.json") ? zipFile(zip, "module.json") : null, options.tag);
    if (found.length) {
      for (const fault of found) console.error(`module-manifest: ${manifestFile}: ${fault}`);
      process.exit(1);
    }
    console.log(`module-manifest: ${manifestFile} and ${zip} agree; the ${namedPaths(data).length} files it names are in the zip`);
  } else {
    console.error("usage: node scripts/module-manifest.mjs write (--tag vX.Y.Z | --manifest URL --download URL) --out FILE [--in FILE]\n       node scripts/module-manifest.mjs check MODULE_JSON ZIP [--tag vX.Y.Z]");
    process.exit(2);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    console.error(`module-manifest: ${error.message}`);
    process.exit(1);
  }
}
