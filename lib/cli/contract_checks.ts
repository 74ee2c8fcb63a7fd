/**
 * The program's own types held equal to the output contracts (lib/contracts), at compile time.
 * Each command's `action` already returns its contract's data type, so what it prints must fit
 * the contract; this file checks the other direction where it matters: every closed word set a
 * contract spells (an enum) is exactly the union the program prints it from — a word the program
 * gains fails here before it fails a reader's schema validation, and so does one it drops — and
 * where a lower folder has its own type of a printed shape, the two are the same shape.
 *
 * Nothing imports this file and nothing in it runs: `deno check` reads it with the rest of lib/.
 */
import type { Assert, Equal } from "../base/type_equal.ts";
import type { Printed } from "../contracts/envelope.ts";
import type { ApproveData } from "../contracts/approve.ts";
import type { ClassifyData } from "../contracts/classify.ts";
import type { ClisData } from "../contracts/clis.ts";
import type { ConfigCheckData } from "../contracts/config_check.ts";
import type { DetectData } from "../contracts/detect.ts";
import type { DriveData } from "../contracts/drive.ts";
import type { EventLine } from "../contracts/event.ts";
import type { LaunchData } from "../contracts/launch.ts";
import type { PanesData } from "../contracts/panes.ts";
import type { ProfileData, ProfileTestData } from "../contracts/profile.ts";
import type { PromptProfileData } from "../contracts/prompt_profile.ts";
import type { SendData } from "../contracts/send.ts";
import type { VerifyData } from "../contracts/verify.ts";
import type { WaitData } from "../contracts/wait.ts";
import type { GateResult, RefusalReason } from "../approve/gate.ts";
import type { Outcome, ScreenSummary } from "../approve/approve.ts";
import type { ConfigSource } from "../config/types.ts";
import type { Mode, PaneState, Readiness } from "../detect/mod.ts";
import type { Classification } from "../drive/classify.ts";
import type { EscalationReason, EventType, PromptVerdict } from "../drive/events.ts";
import type { DriveOutcome } from "../drive/outcome.ts";
import type { CliSource } from "../identify/pane_cli.ts";
import type { VersionSource } from "../identify/version.ts";
import type { Role } from "../identify/roles.ts";
import type { Availability } from "../launch/availability.ts";
import type { LaunchData as LaunchResult } from "../launch/launch.ts";
import type { Recipe } from "../launch/recipes.ts";
import type { Condition } from "../launch/wait.ts";
import type { FieldKind } from "../profile/fields.ts";
import type { DangerRule } from "../shell/danger.ts";
import type { ExportRow } from "../sweep/export.ts";
import type { SCREEN_STATES } from "./profile_test_cmd.ts";

// verify's own types, named the way lib/cli reaches verify (only through import(), so its stand-ins
// and tables stay out of every other command's start; here nothing loads at all).
type ScreenState = import("../scenarios/types.ts").ScreenState;
type CliStatus = import("../verify/report_types.ts").CliStatus;
type Status = import("../verify/result.ts").Status;
type FoundCli = import("../verify/find.ts").FoundCli;

type Row = PanesData["panes"][number];
type Screen = ProfileTestData["screens"][number];
type Scenario = VerifyData["clis"][number]["scenarios"][number];

export type ContractChecks = [
  // The §5 verdicts.
  Assert<Equal<DetectData["state"], PaneState>>,
  Assert<Equal<DetectData["readiness"], Readiness>>,
  Assert<Equal<DetectData["mode"], Mode>>,
  Assert<Equal<Row["state"], PaneState | "gone">>,
  Assert<Equal<Row["mode"], Mode>>,
  Assert<Equal<WaitData["state"], PaneState | "gone">>,
  Assert<Equal<WaitData["readiness"], Readiness>>,
  Assert<Equal<WaitData["until"], Condition>>,
  Assert<Equal<SendData["state_before"] | SendData["state_after"], PaneState | "gone">>,
  Assert<Equal<Screen["expected"], typeof SCREEN_STATES[number]>>,
  Assert<Equal<Screen["actual"], PaneState>>,
  // Identification.
  Assert<Equal<ApproveData["cli_source"], CliSource>>,
  Assert<Equal<Row["cli_source"], CliSource>>,
  Assert<Equal<NonNullable<Row["cli_version_source"]>, VersionSource>>,
  Assert<Equal<ApproveData["role"], Role>>,
  Assert<Equal<Row["role"], Role>>,
  Assert<Equal<NonNullable<EventLine["role"]>, Role>>,
  // The approve gate: one summary of a screen (lib/approve ScreenSummary), its words.
  Assert<Equal<Printed<ScreenSummary>, NonNullable<ApproveData["before"]>>>,
  Assert<Equal<ApproveData["before"], ApproveData["after"]>>,
  Assert<Equal<ApproveData["outcome"], Outcome>>,
  Assert<Equal<ApproveData["reason"], RefusalReason | null>>,
  Assert<Equal<ApproveData["key"], Extract<GateResult, { ok: true }>["key"] | null>>,
  Assert<Equal<ApproveData["form"], Extract<GateResult, { ok: true }>["form"] | null>>,
  Assert<Equal<NonNullable<Scenario["approve"]>["outcome"], Outcome>>,
  Assert<Equal<NonNullable<Scenario["approve"]>["reason"], RefusalReason | null>>,
  // drive: its judgement, its events, how a run ends.
  Assert<Equal<ClassifyData["reason"], Classification["reason"]>>,
  Assert<Equal<NonNullable<ClassifyData["rule"]>, DangerRule>>,
  Assert<Equal<ClassifyData["verb"], Classification["verb"]>>,
  Assert<Equal<EventLine["event"], EventType>>,
  Assert<Equal<keyof DriveData["events"], EventType>>,
  Assert<Equal<NonNullable<EventLine["reason"]>, EscalationReason>>,
  Assert<Equal<NonNullable<EventLine["verdict"]>, PromptVerdict>>,
  Assert<Equal<DriveData["outcome"], DriveOutcome["reason"]>>,
  // Profiles and configuration.
  Assert<Equal<ProfileData["fields"][number]["kind"], FieldKind>>,
  Assert<Equal<NonNullable<PromptProfileData["rows"]>[number]["kind"], ExportRow["kind"]>>,
  Assert<Equal<ConfigCheckData["source"], ConfigSource>>,
  // launch (lib/launch has its own type of the whole shape) and the CLIs it knows.
  Assert<Equal<Printed<LaunchResult>, LaunchData>>,
  Assert<Equal<ClisData["clis"][number]["source"], Recipe["source"]>>,
  Assert<Equal<ClisData["clis"][number]["availability"]["status"], Availability>>,
  // verify.
  Assert<Equal<VerifyData["clis"][number]["status"], CliStatus>>,
  Assert<Equal<VerifyData["clis"][number]["found_by"], FoundCli["how"]>>,
  Assert<Equal<Scenario["status"], Status>>,
  Assert<Equal<NonNullable<Scenario["expect"]["state"]>, ScreenState>>,
];
