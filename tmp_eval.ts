import { EMPTY_CONFIG } from "./lib/config/load.ts";
import { resolveProfile } from "./lib/profile/resolve.ts";
import { detect } from "./lib/detect/mod.ts";
const p = resolveProfile("claude", EMPTY_CONFIG);
const dir = "tests/fixtures/claude-code/2.1.197/";
const m = JSON.parse(Deno.readTextFileSync(dir + "manifest.json"));
for (const s of m.screens) {
  let plain: string;
  try { plain = Deno.readTextFileSync(dir + s.file); } catch { console.log("MISSING", s.file); continue; }
  const styled = s.styled ? Deno.readTextFileSync(dir + s.styled) : undefined;
  const v = detect({ plain, styled }, p);
  const bad: string[] = [];
  if (v.state !== s.state) bad.push(`state ${v.state}≠${s.state}`);
  for (const [k, val] of Object.entries(s.expect ?? {})) if (JSON.stringify((v as any)[k]) !== JSON.stringify(val)) bad.push(`${k} ${JSON.stringify((v as any)[k])}≠${JSON.stringify(val)}`);
  const brief = `live=${v.live_prompt} perm=${v.permission_prompt} mid=${v.mid_response} ready=${v.readiness} mode=${v.mode} input=${JSON.stringify(v.input_box)} cmd=${JSON.stringify(v.command)} fp=${v.file_path} opts=${v.options.map(o=>(o.selected?"*":"")+o.number).join(",")} bg=${v.broad_grant_option} paste=${v.paste_buffer} pct=${v.context_used_pct} unav=${v.cli_unavailable} se=${v.stream_error} dlg=${v.dialog}`;
  console.log((bad.length ? "FAIL " : "ok   ") + s.file.padEnd(34) + bad.join("; ") + "\n      " + brief);
}
