import assert from "node:assert/strict";
import {
  cachedAvailability,
  parseProbe,
  probeAvailability,
  probeScript,
} from "../../lib/launch/availability.ts";
import { testWithTools } from "../helpers/tools.ts";

Deno.test("availability: the probe is all-or-nothing and ignores startup noise", () => {
  const cmds = ["sh", "nope"];
  const out = "motd: welcome\nT:0\n/usr/bin/sh\nT:1\nT:end\n";
  const m = parseProbe(out, cmds, "T")!;
  assert.equal(m.get("sh")!.status, "available");
  assert.equal(m.get("sh")!.path, "/usr/bin/sh");
  assert.equal(m.get("nope")!.status, "unavailable");
  assert.equal(parseProbe("T:0\n/usr/bin/sh\nT:1\n", cmds, "T"), undefined);
  assert.equal(probeScript(["a"], "T"), "echo T:0; command -v a; echo T:end");
});

// sh and bash are required by the README; zsh and fish are optional (.ci/run installs them).
for (const name of ["sh", "bash", "zsh", "fish"]) {
  testWithTools(`availability: a real login-shell probe with ${name}, cached afterwards`, [
    name,
  ], async (tools) => {
    const shell = tools[name];
    const dir = await Deno.makeTempDir();
    try {
      const cache = `${dir}/drover/availability.json`;
      const cmds = ["sh", "definitely-not-a-cli-xyz", "bad name;rm"];
      const m = await probeAvailability(cmds, { shell, cache, timeoutMs: 30_000 });
      assert.equal(m.get("sh")!.status, "available");
      assert.equal(m.get("definitely-not-a-cli-xyz")!.status, "unavailable");
      assert.equal(m.get("bad name;rm")!.status, "unknown");
      const cached = await cachedAvailability(cmds, cache);
      assert.equal(cached.get("sh")!.status, "available");
      assert.equal(cached.get("definitely-not-a-cli-xyz")!.status, "unavailable");
      // Negative answers expire after 5 minutes, positive ones after a day.
      const later = await cachedAvailability(cmds, cache, Date.now() + 6 * 60 * 1000);
      assert.equal(later.get("sh")!.status, "available");
      assert.equal(later.get("definitely-not-a-cli-xyz")!.status, "unknown");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }, { hint: ".ci/run installs zsh and fish" });
}

Deno.test("availability: a shell that fails leaves everything unknown, never unavailable", async () => {
  const m = await probeAvailability(["sh"], { shell: "/bin/false", cache: undefined });
  assert.equal(m.get("sh")!.status, "unknown");
});
