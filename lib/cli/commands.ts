/**
 * The command table. Each subcommand module exports `register(program)`; adding a command is one
 * import and one line here.
 */
import type { Command } from "../deps/cli.ts";
import { register as launch } from "./launch.ts";
import { register as read } from "./read.ts";
import { register as clis } from "./clis.ts";
import { register as wait } from "./wait.ts";
import { register as send } from "./send.ts";
import { register as promptProfile } from "./prompt_profile.ts";
import { register as classify } from "./classify.ts";
import { register as profile } from "./profile.ts";
import { register as configCheck } from "./config_check.ts";
import { register as detect } from "./detect.ts";
import { register as panes } from "./panes.ts";
import { register as capture } from "./capture.ts";
import { register as approve } from "./approve.ts";
import { register as sweepScript } from "./sweep_script.ts";
import { register as drive } from "./drive.ts";

type Register = (program: Command) => void;

export const COMMANDS: Register[] = [
  launch,
  read,
  clis,
  wait,
  send,
  promptProfile,
  classify,
  profile,
  configCheck,
  detect,
  panes,
  capture,
  approve,
  sweepScript,
  drive,
];
