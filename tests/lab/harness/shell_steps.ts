/**
 * Each CLI's own shell tool call, as a step of its stand-in's script: what the lab's suites have
 * the scripted model ask for to raise a CLI's command prompt.
 */
import type { Step } from "../../../lib/scenarios/standins/step_script.ts";

/** Codex's shell tool call asking to run `cmd` outside the sandbox (raises its approval prompt). */
export function execCommand(cmd: string, justification = "Run the requested command"): Step {
  return {
    kind: "tool",
    name: "exec_command",
    args: { cmd, sandbox_permissions: "require_escalated", justification },
  };
}

/** Gemini CLI's shell tool call. */
export function geminiShell(command: string, description = "Run the requested command"): Step {
  return { kind: "tool", name: "run_shell_command", args: { command, description } };
}

/** Qwen Code's shell tool call. */
export function qwenShell(command: string, description = "Run the requested command"): Step {
  return { kind: "tool", name: "run_shell_command", args: { command, description } };
}

/** OpenCode's shell tool call. */
export function opencodeBash(command: string, description = "Run the requested command"): Step {
  return { kind: "tool", name: "bash", args: { command, description } };
}
