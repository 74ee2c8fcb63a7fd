/** The source files of lib/, for the tests that read the code itself (layering, sizes). */

/** lib/, without its trailing slash. */
export const LIB = new URL("../../lib/", import.meta.url).pathname.replace(/\/$/, "");

/** Every .ts file under `dir` (default lib/), sorted. */
export function libFiles(dir = LIB): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory) out.push(...libFiles(p));
    else if (e.name.endsWith(".ts")) out.push(p);
  }
  return out.sort();
}
