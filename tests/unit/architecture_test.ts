/**
 * The layering of lib/ (issue 26), as docs/architecture.md writes it: every import between two
 * folders is one the document allows, the allowed graph is itself a hierarchy, and no files
 * import each other in a cycle (static or dynamic imports, type-only ones too: a cycle of types
 * is still two modules a reader must hold at once).
 */
import assert from "node:assert/strict";
import { LIB, libFiles } from "../helpers/lib_files.ts";

const DOC = new URL("../../docs/architecture.md", import.meta.url).pathname;
const TOP = "(top)";

/** Relative imports of one file, resolved: `import … from`, `export … from`, `import("…")`. */
function importsOf(file: string): string[] {
  // Comment lines are left out: a doc comment may show an import's shape (`import("./<name>.ts")`).
  const text = Deno.readTextFileSync(file).split("\n")
    .filter((l) => !/^\s*(\*|\/\*|\/\/)/.test(l)).join("\n");
  const specs = [
    ...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"(\.{1,2}\/[^"]+)"/gm),
    ...text.matchAll(/^\s*import\s+"(\.{1,2}\/[^"]+)"/gm),
    ...text.matchAll(/\bimport\(\s*"(\.{1,2}\/[^"]+)"\s*\)/g),
  ].map((m) => m[1]);
  return specs.map((s) => new URL(s, `file://${file}`).pathname).filter((p) =>
    p.startsWith(LIB + "/")
  );
}

const folderOf = (file: string) => {
  const rel = file.slice(LIB.length + 1);
  return rel.includes("/") ? rel.split("/")[0] : TOP;
};
const rel = (file: string) => file.slice(LIB.length + 1);

/** `### \`lib/x/\`` (or `### \`(top)\``) sections and their `May import:` lines. */
function documentedRules(): Map<string, Set<string>> {
  const rules = new Map<string, Set<string>>();
  let current: string | null = null;
  for (const line of Deno.readTextFileSync(DOC).split("\n")) {
    const h = /^### `(?:lib\/([a-z_]+)\/|\(top\))`\s*$/.exec(line);
    if (h) {
      current = h[1] ?? TOP;
      continue;
    }
    if (current !== null && line.startsWith("May import:")) {
      let body = line.slice("May import:".length);
      rules.set(current, new Set());
      // The list may wrap onto the next lines of the paragraph: read up to the final ".".
      const lines = Deno.readTextFileSync(DOC).split("\n");
      for (let k = lines.indexOf(line) + 1; !body.trimEnd().endsWith("."); k++) {
        body += " " + lines[k];
      }
      if (body.trim() !== "nothing.") {
        for (const m of body.matchAll(/`([^`]+)`/g)) rules.get(current)!.add(m[1]);
      }
      current = null;
    }
  }
  return rules;
}

/** Strongly connected components of more than one node (Tarjan). */
function cycles(nodes: readonly string[], next: (n: string) => Iterable<string>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of next(v)) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1 || [...next(v)].includes(v)) out.push(c.sort());
    }
  };
  for (const n of nodes) if (!idx.has(n)) visit(n);
  return out;
}

const FILES = libFiles();
const IMPORTS = new Map(FILES.map((f) => [f, importsOf(f)]));

Deno.test("architecture: the import scanner sees lib/'s imports (a scanner that finds none proves nothing)", () => {
  const all = [...IMPORTS.values()].flat();
  assert.ok(all.length > 500, `only ${all.length} imports found`);
  // A dynamic import (the lazy commands) is an edge too.
  assert.ok(
    IMPORTS.get(`${LIB}/cli/commands.ts`)!.some((p) => p.endsWith("/cli/panes.ts")),
    "cli/commands.ts loads cli/panes.ts lazily",
  );
  for (const [f, to] of IMPORTS) {
    for (const p of to) assert.ok(FILES.includes(p), `${rel(f)} imports a missing ${p}`);
  }
});

Deno.test("architecture: no two files of lib/ import each other, directly or through others", () => {
  const found = cycles(FILES, (f) => IMPORTS.get(f) ?? []);
  assert.deepEqual(found.map((c) => c.map(rel).join(" → ")), []);
});

Deno.test("architecture: every folder of lib/ has its section in docs/architecture.md, and the rules form a hierarchy", () => {
  const rules = documentedRules();
  const folders = [...new Set(FILES.map(folderOf))].sort();
  assert.deepEqual(folders.filter((f) => !rules.has(f)), [], "folders with no section");
  assert.deepEqual(
    [...rules.keys()].filter((f) => !folders.includes(f)),
    [],
    "sections of no folder",
  );
  for (const [f, may] of rules) {
    for (const m of may) assert.ok(rules.has(m), `${f} may import ${m}, which is not a folder`);
  }
  assert.deepEqual(cycles([...rules.keys()], (f) => rules.get(f) ?? []), [], "the rules loop");
});

Deno.test("architecture: every import between folders is one docs/architecture.md allows", () => {
  const rules = documentedRules();
  const bad: string[] = [];
  for (const [f, to] of IMPORTS) {
    const from = folderOf(f);
    for (const p of to) {
      const into = folderOf(p);
      if (into !== from && !rules.get(from)?.has(into)) {
        bad.push(`${rel(f)} → ${rel(p)} (${from} may not import ${into})`);
      }
    }
  }
  assert.deepEqual(bad, []);
});

/** Most lines a lib/ file may have (issue 26): a reader can hold it. */
const MAX_LINES = 450;

Deno.test("architecture: no lib/ file over 450 lines", () => {
  const over: string[] = [];
  for (const f of FILES) {
    const n = Deno.readTextFileSync(f).split("\n").length - 1;
    if (n > MAX_LINES) over.push(`${rel(f)}: ${n} lines (at most ${MAX_LINES})`);
  }
  assert.deepEqual(over, []);
});

/** What is left of a file once its comments and its `export … from "…";` re-exports are taken out. */
function besidesReExports(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "")
    .replace(
      /^\s*export\s+(?:type\s+)?(?:\{[^}]*\}|\*(?:\s+as\s+\w+)?)\s*from\s+"[^"]+"\s*;/gm,
      "",
    )
    .trim();
}

Deno.test("architecture: the checker of mod.ts tells a barrel from implementation", () => {
  assert.equal(
    besidesReExports(
      '/** doc */\nexport { a, type B } from "./a.ts";\nexport type {\n  C,\n} from "./c.ts";\nexport * from "./d.ts";\n',
    ),
    "",
  );
  assert.notEqual(besidesReExports('export { a } from "./a.ts";\nexport const b = 1;\n'), "");
  assert.notEqual(besidesReExports('import { a } from "./a.ts";\nexport { a };\n'), "");
});

Deno.test("architecture: every lib/**/mod.ts is a barrel: re-exports of its folder's public API and comments, nothing else", () => {
  const mods = FILES.filter((f) => f.endsWith("/mod.ts")).map(rel);
  assert.ok(mods.length >= 2, `only ${mods.length} mod.ts found`);
  const bad = mods.filter((m) => besidesReExports(Deno.readTextFileSync(`${LIB}/${m}`)) !== "");
  assert.deepEqual(
    bad,
    [],
    "mod.ts files holding more than re-exports: move the code to a named file",
  );
});
