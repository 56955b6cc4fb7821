// The TypeScript LanguageService's `findReferences` for a list of symbols of a checkout, offline.
//
//     node bench/ts_references.js TYPESCRIPT_DIR CHECKOUT QUESTIONS.json > ANSWERS.json
//
// TYPESCRIPT_DIR holds an npm install of `typescript` (`npm install --prefix DIR typescript@5.9`).
// QUESTIONS.json: [{"file": "source/x.ts", "line": 12, "name": "Ky.get"}, ...] (line 1-based, the
// symbol's declaration; for `Class.member` the member's name is looked up on that line or after).
// Answer: {"source/x.ts::Ky.get": ["test/a.ts", ...]}: the files, other than the defining one, where
// a reference that is not a definition appears (node_modules and files outside the checkout left out,
// and groups of stray aliases: see below).
//
// The program is every TS/JS file of the checkout (tests included: they are callers too), compiled
// with the root tsconfig's options (a solution config's first referenced project). An `extends` of a package is dropped (node_modules is not
// installed); `allowJs` is on so JavaScript files take part; module resolution defaults to
// `nodenext` when the config does not say.
"use strict";

const fs = require("fs");
const path = require("path");

const [, , tsDir, checkout, questionsFile] = process.argv;
const ts = require(path.join(path.resolve(tsDir), "node_modules", "typescript"));
const root = path.resolve(checkout);
const SKIP = new Set(["node_modules", ".git", "dist", "distribution", "build", "coverage", "out"]);
const EXT = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

function listFiles(dir, found) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".") || SKIP.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) listFiles(full, found);
    else if (entry.isFile() && EXT.test(entry.name)) found.push(full);
  }
  return found;
}

function compilerOptions() {
  let configPath = path.join(root, "tsconfig.json");
  let raw = {};
  if (fs.existsSync(configPath)) {
    raw = ts.readConfigFile(configPath, ts.sys.readFile).config || {};
  }
  // A "solution" config (`files: []` and project references) has no settings of its own: the
  // first referenced project that exists holds them (hono: tsconfig.build.json).
  if (!raw.compilerOptions && Array.isArray(raw.references)) {
    for (const reference of raw.references) {
      let candidate = path.join(root, reference.path || "");
      if (fs.existsSync(candidate) && fs.statSync(candidate).isDirectory()) candidate = path.join(candidate, "tsconfig.json");
      if (fs.existsSync(candidate)) {
        configPath = candidate;
        raw = ts.readConfigFile(candidate, ts.sys.readFile).config || {};
        break;
      }
    }
  }
  const here = path.dirname(configPath);
  const parents = [].concat(raw.extends || []).filter((p) => p.startsWith(".") &&
    (fs.existsSync(path.join(here, p)) || fs.existsSync(path.join(here, p + ".json"))));
  if (parents.length) raw.extends = parents; else delete raw.extends;
  const parsed = ts.parseJsonConfigFileContent(raw, ts.sys, here, undefined, configPath);
  const options = parsed.options;
  options.allowJs = true;
  options.checkJs = false;
  options.noEmit = true;
  options.skipLibCheck = true;
  if (options.module === undefined) options.module = ts.ModuleKind.NodeNext;
  if (options.moduleResolution === undefined) {
    options.moduleResolution = options.module === ts.ModuleKind.NodeNext || options.module === ts.ModuleKind.Node16
      ? ts.ModuleResolutionKind.NodeNext : ts.ModuleResolutionKind.Bundler;
  }
  delete options.rootDir;
  delete options.rootDirs;
  return options;
}

const files = listFiles(root, []);
const options = compilerOptions();
const versions = new Map(files.map((f) => [f, "1"]));
const host = {
  getScriptFileNames: () => files,
  getScriptVersion: (f) => versions.get(f) || "1",
  getScriptSnapshot: (f) => (fs.existsSync(f) ? ts.ScriptSnapshot.fromString(fs.readFileSync(f, "utf8")) : undefined),
  getCurrentDirectory: () => root,
  getCompilationSettings: () => options,
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: ts.sys.fileExists,
  readFile: ts.sys.readFile,
  readDirectory: ts.sys.readDirectory,
  directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories,
};
const service = ts.createLanguageService(host, ts.createDocumentRegistry());

function position(file, line, name) {
  const text = fs.readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const starts = source.getLineStarts();
  const short = name.split(".").pop();
  const word = new RegExp(`(?<![\\w$])${short.replace(/\$/g, "\\$")}(?![\\w$])`, "g");
  for (let at = line - 1; at < Math.min(starts.length, line + 20); at++) {
    const end = at + 1 < starts.length ? starts[at + 1] : text.length;
    word.lastIndex = 0;
    const match = word.exec(text.slice(starts[at], end));
    if (match) return starts[at] + match.index;
  }
  return -1;
}

const answers = {};
for (const question of JSON.parse(fs.readFileSync(questionsFile, "utf8"))) {
  const file = path.join(root, question.file);
  const key = `${question.file}::${question.name}`;
  const at = position(file, question.line, question.name);
  if (at < 0) { answers[key] = null; continue; }
  const found = new Set();
  const program = service.getProgram();
  const checker = program.getTypeChecker();
  const resolved = (fileName, start) => {
    const source = program.getSourceFile(fileName);
    const node = source && ts.getTokenAtPosition(source, start);
    const symbol = node && checker.getSymbolAtLocation(node);
    const alias = Boolean(symbol && symbol.flags & ts.SymbolFlags.Alias);
    return {symbol: alias ? checker.getAliasedSymbol(symbol) : symbol, alias};
  };
  const target = resolved(file, at).symbol;
  for (const group of service.findReferences(file, at) || []) {
    for (const ref of group.references) {
      if (ref.isDefinition) continue;
      // TypeScript follows `export {default as X}` to every import of *a* default export of the
      // re-exporting module (`import got from './index.js'` while asked about `Options`): an alias
      // that resolves to another symbol is such a stray, not a reference.
      const {symbol, alias} = resolved(ref.fileName, ref.textSpan.start);
      if (alias && symbol && target && symbol !== target) continue;
      const relative = path.relative(root, ref.fileName);
      if (relative.startsWith("..") || relative.includes("node_modules") || relative === question.file) continue;
      found.add(relative.split(path.sep).join("/"));
      if (process.env.TSREF_DEBUG) {
        const text = fs.readFileSync(ref.fileName, "utf8");
        const line = text.slice(0, ref.textSpan.start).split("\n").length;
        process.stderr.write(`${key} ${relative}:${line}: ${text.split("\n")[line - 1].trim().slice(0, 120)}\n`);
      }
    }
  }
  answers[key] = [...found].sort();
}
process.stdout.write(JSON.stringify(answers, null, 1));
