/**
 * How `verify` reads to a person: one progress line per scenario as it finishes, then per CLI a
 * table (scenario → expected verdicts → seen verdicts → ✓/✗) and its one-line summary. Pure.
 */
import type { Expect } from "../scenarios/types.ts";
import type { CliReport, ProgressEvent } from "./report_types.ts";
import type { ScenarioResult } from "./result.ts";

function val(v: unknown): string {
  const s = typeof v === "string" ? JSON.stringify(v) : JSON.stringify(v ?? null);
  return s.length > 34 ? `${s.slice(0, 33)}…` : s;
}

/** "prompt, command=\"touch x\", permission_prompt" */
export function expectText(e: Expect): string {
  const parts: string[] = [];
  if (e.state) parts.push(e.state);
  for (const [k, v] of Object.entries(e.verdicts ?? {})) {
    if (v === true) parts.push(k);
    else if (v === false) parts.push(`!${k}`);
    else if (v === "*") parts.push(`${k}=*`);
    else parts.push(`${k}=${val(v)}`);
  }
  if (e.approve) parts.push(`${e.approve.outcome} (key ${e.approve.key})`);
  return parts.join(", ");
}

/** The seen verdicts, in the same shape as the expectation. */
export function seenText(r: ScenarioResult): string {
  if (r.status === "skipped") return `skipped: ${r.reason}`;
  if (r.status === "not-run") return r.reason ?? "not run";
  if (!r.seen) return r.reason ?? "-";
  const parts: string[] = [];
  const s = r.seen;
  if (s.state !== undefined) parts.push(String(s.state));
  for (const k of Object.keys(r.expect.verdicts ?? {})) {
    const v = s[k];
    const want = r.expect.verdicts![k];
    if (want === "*") parts.push(v === null || v === false || v === "" ? `${k}=null` : `${k}=*`);
    else if (v === true) parts.push(k);
    else if (v === false) parts.push(`!${k}`);
    else parts.push(`${k}=${val(v)}`);
  }
  if (s.approve !== undefined) parts.push(String(s.approve ?? "no approval"));
  return parts.join(", ");
}

const MARK: Record<ScenarioResult["status"], string> = {
  hold: "✓",
  drift: "✗",
  skipped: "-",
  "not-run": "✗",
};

function fieldLines(r: ScenarioResult): string[] {
  const out: string[] = [];
  for (const f of r.fields.slice(0, 4)) {
    const what = f.role === "expected-missing"
      ? "no line matches"
      : f.matches.map((m) => `line ${m.line} ${JSON.stringify(m.text.slice(0, 50))}`).join("; ");
    out.push(`      field ${f.field} = ${val(f.value)}: ${what}`);
  }
  return out;
}

/** Elapsed time for a summary line: whole seconds. */
function seconds(ms: number): string {
  return `${Math.round(ms / 1000)}s`;
}

/** The table and summary of one CLI. */
export function cliTable(r: CliReport): string[] {
  if (r.status === "not-installed") return [r.summary];
  const out: string[] = [];
  out.push(`${r.cli} ${r.version ?? "(version unknown)"} — ${r.path}`);
  const rows = r.scenarios.map((s) => ({
    s,
    exp: s.status === "skipped" ? "" : expectText(s.expect),
    seen: seenText(s),
  }));
  const fit = (t: string, w: number) => (t.length > w ? `${t.slice(0, w - 1)}…` : t.padEnd(w));
  const wn = Math.max(8, ...rows.map((x) => x.s.scenario.length));
  const we = Math.min(44, Math.max(8, ...rows.map((x) => x.exp.length)));
  const ws = Math.min(
    44,
    Math.max(4, ...rows.map((x) => x.s.status === "skipped" ? 0 : x.seen.length)),
  );
  out.push(`  ${"scenario".padEnd(wn)}  ${"expected".padEnd(we)}  ${"seen".padEnd(ws)}`);
  for (const x of rows) {
    const head = `  ${x.s.scenario.padEnd(wn)}  `;
    if (x.s.status === "skipped") {
      out.push(`${head}${"".padEnd(we)}  ${"".padEnd(ws)}  -  skipped: ${x.s.reason}`);
      continue;
    }
    out.push(`${head}${fit(x.exp, we)}  ${fit(x.seen, ws)}  ${MARK[x.s.status]}`);
    if (x.s.status === "hold") continue;
    const pad = " ".repeat(6);
    if (x.s.status === "not-run") {
      out.push(`${pad}not run: ${x.s.reason}`);
      continue;
    }
    for (const p of x.s.problems) out.push(`${pad}${p}`);
    out.push(...fieldLines(x.s));
    if (x.s.wording_missing.length) {
      out.push(
        `${pad}not on the screen any more: ${
          x.s.wording_missing.map((w) => JSON.stringify(w)).join(", ")
        }`,
      );
    }
  }
  if (r.saved) out.push(`  captures: ${r.saved} (drover profile test --cli ${r.cli} ${r.saved})`);
  // The time it took (the version check, start-up and every session) goes on the summary line.
  out.push(`${r.summary} (${seconds(r.ms)})`);
  return out;
}

/** Every CLI's table, separated by a blank line. */
export function humanReport(reports: CliReport[]): string[] {
  const out: string[] = [];
  for (const [i, r] of reports.entries()) {
    if (i > 0) out.push("");
    out.push(...cliTable(r));
  }
  return out;
}

/** One progress line (stderr) per event, or null for events that print nothing. */
export function progressLine(e: ProgressEvent): string | null {
  switch (e.kind) {
    case "start":
      return `verify: ${e.cli} ${
        e.version ?? "(version unknown)"
      } at ${e.path} (${e.sessions} session(s) side by side)`;
    case "not-installed":
      return `verify: ${e.cli}: not installed (no "${e.command}" found)`;
    case "scenario": {
      const r = e.result;
      const t = r.ms ? ` (${(r.ms / 1000).toFixed(1)}s)` : "";
      if (r.status === "hold") return `  ✓ ${e.cli} ${r.scenario}${t}`;
      if (r.status === "skipped") return `  - ${e.cli} ${r.scenario} skipped: ${r.reason}`;
      if (r.status === "not-run") return `  ✗ ${e.cli} ${r.scenario} not run: ${r.reason}`;
      return `  ✗ ${e.cli} ${r.scenario}${t}: ${r.problems[0] ?? r.reason ?? "drift"}`;
    }
    case "done":
      return e.report.status === "not-installed"
        ? null
        : `verify: ${e.report.summary} (${seconds(e.report.ms)})`;
  }
}
