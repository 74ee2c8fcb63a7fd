import { z } from "../deps/zod.ts";
import { type DataOf, envelope, PANE_ID, SESSION_ID, WINDOW_ID } from "./envelope.ts";

const SESSION = z.strictObject({ id: SESSION_ID, name: z.string() });
const WINDOW = z.strictObject({ id: WINDOW_ID, index: z.number().int() });
const PANE = z.strictObject({ id: PANE_ID, index: z.number().int(), target: z.string() });

export const LAUNCH = envelope(
  "drover.launch.v1",
  "drover launch",
  z.strictObject({
    cli: z.string(),
    command: z.array(z.string()).min(1),
    placement: z.enum(["window", "split", "session"]),
    direction: z.enum(["right", "left", "up", "down"]).nullable(),
    background: z.boolean(),
    session: SESSION,
    window: WINDOW,
    pane: PANE,
    // The same ids grouped as one object (the path an orchestrating agent reads: .data.target.pane.id);
    // session, window and pane above stay for compatibility.
    target: z.strictObject({ session: SESSION, window: WINDOW, pane: PANE }),
    anchor: z.strictObject({
      pane_id: PANE_ID,
      window_id: WINDOW_ID,
      session_id: SESSION_ID,
      target: z.string(),
    }).nullable(),
    cwd: z.string().nullable(),
    title: z.string().nullable(),
    prompt: z.strictObject({
      bytes: z.number().int().min(1).max(122880),
      carrier: z.literal("file"),
    }).nullable(),
    prompt_form: z.string(),
    selection_preserved: z.boolean().nullable(),
    availability: z.enum(["available", "unavailable", "unknown"]),
  }),
);

export type LaunchData = DataOf<typeof LAUNCH>;
