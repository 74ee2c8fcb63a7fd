/**
 * Tests that need an optional tool — a shell the README does not require (zsh, fish), a real agent
 * CLI, … — declare it through {@link testWithTools}. On a machine without the tool the test is
 * skipped and the reason printed, so the README's `deno task test` passes where the README says it
 * should (Deno, tmux, bash, grep). CI sets the strict mode ({@link STRICT_SKIPS_ENV}=1 in
 * `.ci/run`): there a missing tool fails the test instead of skipping it, so every shell is proven.
 *
 * The strict-mode variable is read here and nowhere else (product code never sees it).
 */

/** Set to 1 to turn every "tool missing, skipped" into a failure (`.ci/run` does). */
export const STRICT_SKIPS_ENV = "DROVER_STRICT_SKIPS";

export function strictSkips(
  env: (k: string) => string | undefined = (k) => Deno.env.get(k),
): boolean {
  const v = env(STRICT_SKIPS_ENV);
  return v !== undefined && v !== "" && v !== "0";
}

function isExecutableFile(path: string): boolean {
  try {
    const st = Deno.statSync(path);
    return st.isFile && st.mode !== null && (st.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

/**
 * Where `name` runs from: a path containing "/" is taken as given, a bare name is looked up on
 * PATH (as a shell would). undefined when it is not there.
 */
export function findTool(
  name: string,
  path: string | undefined = Deno.env.get("PATH"),
): string | undefined {
  if (name.includes("/")) return isExecutableFile(name) ? name : undefined;
  for (const dir of (path ?? "").split(":")) {
    if (dir === "") continue;
    const candidate = `${dir.replace(/\/+$/, "")}/${name}`;
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/** Tool name → resolved executable path, for the tools a test declared. */
export type ToolPaths = Record<string, string>;

export interface ToolCheck {
  paths: ToolPaths;
  missing: string[];
}

export function checkTools(tools: readonly string[], path?: string): ToolCheck {
  const paths: ToolPaths = {};
  const missing: string[] = [];
  for (const t of tools) {
    const at = findTool(t, path);
    if (at === undefined) missing.push(t);
    else paths[t] = at;
  }
  return { paths, missing };
}

export interface ToolTestOptions {
  /** Where each tool comes from, for the skip message ("apt install zsh"). */
  hint?: string;
  /** Files the test needs besides tools on PATH (e.g. a linter .ci/run installs), by path. */
  files?: string[];
  sanitizeOps?: boolean;
  sanitizeResources?: boolean;
}

/** The reason printed for a skip (and thrown in strict mode). */
export function missingReason(missing: readonly string[], hint?: string): string {
  const what = missing.length === 1 ? missing[0] : missing.join(", ");
  const where = missing.every((m) => m.includes("/")) ? "not found" : "not found on PATH";
  return `needs ${what}, ${where}${hint ? ` (${hint})` : ""}`;
}

/**
 * Inside a test, for one part that needs `tool`: its path, or — when it is missing — undefined
 * after printing that `part` is skipped and why. In strict mode a missing tool throws instead.
 */
export function optionalTool(tool: string, part: string, hint?: string): string | undefined {
  const at = findTool(tool);
  if (at !== undefined) return at;
  const reason = missingReason([tool], hint);
  if (strictSkips()) {
    throw new Error(`${part}: ${reason}; ${STRICT_SKIPS_ENV}=1 forbids skipping it`);
  }
  console.error(`skipped: ${part}: ${reason}`);
  return undefined;
}

/**
 * Register a test that needs `tools`. Missing tools: skipped with a printed reason, or — in strict
 * mode — a failing test that names them. The test body gets the resolved paths.
 */
export function testWithTools(
  name: string,
  tools: readonly string[],
  fn: (paths: ToolPaths, t: Deno.TestContext) => Promise<void> | void,
  opts: ToolTestOptions = {},
): void {
  const { paths, missing } = checkTools(tools);
  for (const f of opts.files ?? []) {
    try {
      Deno.statSync(f);
    } catch {
      missing.push(f);
    }
  }
  const base = {
    ...(opts.sanitizeOps === undefined ? {} : { sanitizeOps: opts.sanitizeOps }),
    ...(opts.sanitizeResources === undefined ? {} : { sanitizeResources: opts.sanitizeResources }),
  };
  if (missing.length === 0) {
    Deno.test({ name, ...base, fn: (t) => fn(paths, t) });
    return;
  }
  const reason = missingReason(missing, opts.hint);
  if (strictSkips()) {
    Deno.test({
      name,
      ...base,
      fn: () => {
        throw new Error(`${reason}; ${STRICT_SKIPS_ENV}=1 forbids skipping it`);
      },
    });
    return;
  }
  // Printed when the module loads, so the run's log says which tests were skipped and why.
  console.error(`skipped: "${name}": ${reason}`);
  Deno.test({ name: `${name} [skipped: ${reason}]`, ignore: true, fn: () => {} });
}
