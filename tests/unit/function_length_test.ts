/**
 * Functions a reader can hold (issue 26): no function in lib/ runs over 80 lines. Functions are
 * found by the TypeScript parser itself (declarations, methods, accessors, constructors, function
 * expressions and arrows), so a brace inside a string, a regular expression or a template cannot
 * fool the count. A function's lines are its own, from its first to its last line; one that holds
 * a long nested function is long too.
 */
import assert from "node:assert/strict";
import { LIB, libFiles } from "../helpers/lib_files.ts";
import ts from "typescript";

/** Most lines one function may span. */
export const MAX_FUNCTION_LINES = 80;

export interface LongFunction {
  name: string;
  line: number;
  lines: number;
}

function nameOf(node: ts.Node, source: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name) return named.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText(source);
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(source);
  if (parent && ts.isPropertyDeclaration(parent)) return parent.name.getText(source);
  return "(anonymous)";
}

/** Every function of a module's text longer than `max` lines. */
export function longFunctions(text: string, max = MAX_FUNCTION_LINES): LongFunction[] {
  const source = ts.createSourceFile("m.ts", text, ts.ScriptTarget.Latest, true);
  const out: LongFunction[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) out.push({ name: nameOf(node, source), line: first + 1, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

Deno.test("function length: the counter sees functions the way a reader does", () => {
  const body = (n: number) =>
    Array.from({ length: n }, (_, i) => `  const x${i} = "}";`).join("\n");
  const text = [
    `export function long(): void {\n${body(80)}\n}`,
    `function short() {\n${body(3)}\n}`,
    `class C {\n  method() {\n${body(79)}\n  }\n}`,
    `const arrow = () => {\n${body(79)}\n};`,
    `const re = /[{]/; const s = \`\${"{"}\`;`,
  ].join("\n");
  assert.deepEqual(
    longFunctions(text).map((f) => `${f.name}:${f.lines}`),
    ["long:82", "method:81", "arrow:81"],
  );
});

Deno.test(`function length: no function in lib/ is over ${MAX_FUNCTION_LINES} lines`, () => {
  const long: string[] = [];
  for (const f of libFiles()) {
    for (const fn of longFunctions(Deno.readTextFileSync(f))) {
      long.push(`${f.slice(LIB.length + 1)}:${fn.line} ${fn.name} (${fn.lines} lines)`);
    }
  }
  assert.deepEqual(long, []);
});
