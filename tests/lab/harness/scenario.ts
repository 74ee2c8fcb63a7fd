/**
 * What a lab suite is, and what a scenario gets to work with. A suite is a module under
 * tests/lab/suites/ that exports `suite: LabSuite`; tests/lab/main.ts discovers and runs them.
 *
 * ```ts
 * // tests/lab/suites/approve_real.ts
 * import type { LabSuite } from "../harness/mod.ts";
 * import { startClaude } from "../harness/mod.ts";
 * export const suite: LabSuite = {
 *   name: "approve",
 *   sizes: [{ cols: 120, rows: 40 }],            // default: 120x40 and 80x24
 *   scenarios: [{
 *     name: "approve-bash",
 *     async run(ctx) {                            // throw (or ctx.fail) = scenario failed
 *       await using claude = await startClaude(ctx.lab, { ...ctx.size, script: [...] });
 *       ctx.step("type 'build it' + Enter");
 *       ...
 *       // Optional: a screen to record/compare as a fixture (only in suites that set `fixtures`).
 *       await ctx.screen(claude.pane, "bash-prompt", {
 *         state: "prompt", defining: ["Do you want to proceed?"],
 *       });
 *     },
 *   }],
 * };
 * ```
 *
 * Every scenario runs once per size, on its own private tmux server (`ctx.lab`, killed afterwards),
 * with a hard deadline (`timeoutMs`, default 4 min). `ctx.screen()` waits until every `defining`
 * substring (or `until`) is on the screen and it has settled, captures plain + styled, and hands the
 * screen to the runner, which records it (`--record`) or compares it with the fixture and runs
 * `detect()` on it.
 */
import type { LabState } from "./fixtures.ts";
import type { Condition, LabPane, LabServer, Screen } from "./tmux.ts";

export interface Size {
  cols: number;
  rows: number;
}

export const DEFAULT_SIZES: Size[] = [{ cols: 120, rows: 40 }, { cols: 80, rows: 24 }];

export interface LabSuite {
  name: string;
  /** Where this suite's screens are recorded: tests/fixtures/<cli>/<version>/. Omit for no fixtures. */
  fixtures?: {
    cli: string;
    /** Resolved at run time (e.g. from the installed package), so the pin lives in one place. */
    version: () => Promise<string>;
    /** Launch facts common to all screens, for PROVENANCE.md. */
    setup?: string[];
  };
  /**
   * Every CLI version the suite runs against (e.g. all pinned versions of one CLI): each scenario
   * runs once per version (and size), with `ctx.version` set; fixtures go to each version's folder.
   * Without it a suite runs once, at `fixtures.version` (when set).
   */
  versions?: () => Promise<string[]>;
  /** drover CLI/profile name detect() should judge these screens with (e.g. "claude"). */
  profile?: string;
  sizes?: Size[];
  scenarios: LabScenario[];
}

export interface LabScenario {
  name: string;
  sizes?: Size[];
  /** Long-running (e.g. a full retry cycle): scheduled first so it overlaps the short ones. */
  slow?: boolean;
  /** Hard deadline for one run at one size (default 240 000 ms). */
  timeoutMs?: number;
  /**
   * The scenario exists only from this CLI version on (a screen older versions do not have), or
   * only before this version (a screen a newer version dropped). Versions compare numerically.
   */
  since?: string;
  before?: string;
  /** Run on a server that logs every key it delivers (`ctx.lab.keyLog()`). */
  keyLog?: boolean;
  run(ctx: ScenarioContext): Promise<void>;
}

export interface ScreenSpec {
  /** The DESIGN §5 state this screen really shows. */
  state: LabState;
  /** Substrings whose lines define the state; all must be on screen. */
  defining: string[];
  /** Wait for this instead of "all of `defining`". */
  until?: Condition;
  /** Settle time after the condition holds (default 700 ms). */
  stableMs?: number;
  timeoutMs?: number;
  /** Extra detect() expectations by §7 field name (e.g. { command: "npm run build" }); "*" = any value. */
  expect?: Record<string, unknown>;
  notes?: string;
  /** Fail at once if this shows up while waiting. */
  failIf?: Condition;
}

export interface RecordedScreen {
  name: string;
  size: Size;
  spec: ScreenSpec;
  steps: string[];
  screen: Screen;
}

export interface ScenarioContext {
  lab: LabServer;
  size: Size;
  /** The CLI version this run is for (suites with `versions`, or `fixtures.version`); "" otherwise. */
  version: string;
  mode: "record" | "check";
  suite: LabSuite;
  scenario: LabScenario;
  /** Aborted when the scenario's deadline passes. */
  signal: AbortSignal;
  /** Note a driving step (goes into the manifest / PROVENANCE.md for the following screens). */
  step(description: string): void;
  log(message: string): void;
  /** Wait for, capture and hand over one screen; returns it. */
  screen(pane: LabPane, name: string, spec: ScreenSpec): Promise<Screen>;
  /** Hand over a screen someone else already reached and captured (the scenario tables' runner). */
  record(name: string, screen: Screen, spec: ScreenSpec): void;
  /** Fail the scenario with a message (throws). */
  fail(message: string): never;
}

export class ScenarioFailure extends Error {
  override name = "ScenarioFailure";
}

/** Build a context; `sink` receives each screen. Used by the runner (and by tests of the harness). */
export function makeContext(
  init: {
    lab: LabServer;
    size: Size;
    version: string;
    mode: "record" | "check";
    suite: LabSuite;
    scenario: LabScenario;
    signal: AbortSignal;
    log: (m: string) => void;
  },
  sink: (s: RecordedScreen) => void,
): ScenarioContext {
  const steps: string[] = [];
  return {
    ...init,
    step(d) {
      steps.push(d);
    },
    async screen(pane, name, spec) {
      const until = spec.until ?? spec.defining;
      const screen = await pane.waitFor(until, {
        timeoutMs: spec.timeoutMs ?? 30_000,
        stableMs: spec.stableMs ?? 700,
        what: `screen "${name}" (${
          Array.isArray(until)
            ? until.map((u) => JSON.stringify(String(u))).join(" + ")
            : String(until)
        })`,
        failIf: spec.failIf,
      });
      // The settle wait can move on (e.g. a prompt answered by itself): re-check what defines the state.
      const missing = spec.defining.filter((d) => !screen.plain.includes(d));
      if (missing.length) {
        throw new ScenarioFailure(
          `screen "${name}": ${
            missing.map((m) => JSON.stringify(m)).join(", ")
          } gone after settling`,
        );
      }
      sink({ name, size: init.size, spec, steps: [...steps], screen });
      return screen;
    },
    record(name, screen, spec) {
      sink({ name, size: init.size, spec, steps: [...steps], screen });
    },
    fail(message) {
      throw new ScenarioFailure(message);
    },
  };
}
