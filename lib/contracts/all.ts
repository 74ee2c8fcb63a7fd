/**
 * Every `drover.*.v1` output contract. Adding an output: a module here with its zod schema, one
 * line below, then `deno task schemas` writes docs/schemas/<id>.json (a test fails until then).
 */
import type { Contract } from "./envelope.ts";
import { APPROVE } from "./approve.ts";
import { CAPTURE } from "./capture.ts";
import { CLAIM_PATHS } from "./claim_paths.ts";
import { CLASSIFY } from "./classify.ts";
import { CLIS } from "./clis.ts";
import { CONFIG_CHECK } from "./config_check.ts";
import { DETECT } from "./detect.ts";
import { DRIVE } from "./drive.ts";
import { EVENT } from "./event.ts";
import { LAUNCH } from "./launch.ts";
import { PANES } from "./panes.ts";
import { PROFILE, PROFILE_LIST, PROFILE_TEST } from "./profile.ts";
import { PROMPT_PROFILE } from "./prompt_profile.ts";
import { READ } from "./read.ts";
import { SEND } from "./send.ts";
import { SKILL } from "./skill.ts";
import { SWEEP_SCRIPT } from "./sweep_script.ts";
import { USAGE } from "./usage.ts";
import { VERIFY } from "./verify.ts";
import { WAIT } from "./wait.ts";

export type { Contract };

export const CONTRACTS: readonly Contract[] = [
  APPROVE,
  CAPTURE,
  CLAIM_PATHS,
  CLASSIFY,
  CLIS,
  CONFIG_CHECK,
  DETECT,
  DRIVE,
  EVENT,
  LAUNCH,
  PANES,
  PROFILE,
  PROFILE_LIST,
  PROFILE_TEST,
  PROMPT_PROFILE,
  READ,
  SEND,
  SKILL,
  SWEEP_SCRIPT,
  USAGE,
  VERIFY,
  WAIT,
];
