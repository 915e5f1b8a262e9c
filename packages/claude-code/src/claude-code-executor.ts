import { query, type SDKResultMessage } from "@anthropic-ai/claude-agent-sdk";
import { ClimptError } from "@climpt/model";
import type { StepResult } from "@climpt/sdk-adapter";
import type {
  ClaudeCodeSettings,
  ClaudeCodeStepInput,
  SettingSource,
} from "./claude-code-settings.ts";
import { CLAUDE_CODE_CODES } from "./codes.ts";
import { type ClaimedSession, planSession } from "./session-plan.ts";
import { stepOutcome, thrownOutcome } from "./step-outcome.ts";
import { StepTranscript } from "./step-transcript.ts";

// The settings and input types live in claude-code-settings.ts (session-plan.ts needs them too).
export type {
  ClaudeCodeSettings,
  ClaudeCodeStepInput,
  SettingSource,
  ToolRefusalEvent,
} from "./claude-code-settings.ts";

export interface ClaudeCodeExecutor {
  readonly name: "claude-code";
  readonly settings: ClaudeCodeSettings;
  /** Runs one step phase as one fresh Claude Code session. */
  runStep(input: ClaudeCodeStepInput): Promise<StepResult>;
}

const SETTING_SOURCES: readonly SettingSource[] = ["user", "project", "local"];

function checkSettings(settings: ClaudeCodeSettings): void {
  const bad = (settings.settingSources ?? []).filter((source) => !SETTING_SOURCES.includes(source));
  if (bad.length > 0) {
    throw new ClimptError({
      code: CLAUDE_CODE_CODES.badSettings,
      message: `Unknown Claude Code settings source(s): ${bad.join(", ")}.`,
      hint: `Use any of ${SETTING_SOURCES.join(", ")}, or [] to read no settings files.`,
    });
  }
  if (
    settings.sandbox !== undefined &&
    settings.sandbox !== "required" &&
    settings.sandbox !== "off"
  ) {
    throw new ClimptError({
      code: CLAUDE_CODE_CODES.badSettings,
      message: `The executor's sandbox setting is "${String(settings.sandbox)}".`,
      hint: 'Use "required" (the default) or "off".',
    });
  }
}

/**
 * The Claude Code executor: each step phase runs as one fresh Claude Code session through the
 * Claude Agent SDK's `query()`, under climpt's tool policy, and returns the same `StepResult`
 * (and `StepEvent`s) as the default executor's `runStep`.
 */
export function createClaudeCodeExecutor(settings: ClaudeCodeSettings = {}): ClaudeCodeExecutor {
  checkSettings(settings);
  return {
    name: "claude-code",
    settings,
    runStep: (input) => runClaudeCodeStep(settings, input),
  };
}

/**
 * Runs one step phase: in the pre-started session `claimed` when there is one (its plan was
 * built from the same fingerprint as this step's: same policy, same options), else in a fresh
 * one.
 */
export async function runClaudeCodeStep(
  settings: ClaudeCodeSettings,
  input: ClaudeCodeStepInput,
  claimed?: ClaimedSession,
): Promise<StepResult> {
  const plan = claimed?.plan ?? (await planSession(settings, input));
  plan.bind({ onToolRefused: input.onToolRefused });
  const { abortController, model, schema, maxTurns } = plan;
  const transcript = new StepTranscript({
    prompt: input.prompt,
    model,
    ...(input.onEvent === undefined ? {} : { onEvent: input.onEvent }),
    ...(input.onTextDelta === undefined ? {} : { onTextDelta: input.onTextDelta }),
    ...(input.onReply === undefined ? {} : { onReply: input.onReply }),
  });
  const onAbort = (): void => abortController.abort();
  if (input.signal?.aborted === true) abortController.abort();
  input.signal?.addEventListener("abort", onAbort, { once: true });

  const context = { model, schema, maxTurns, transcript, stderrTail: plan.stderrTail };
  let result: SDKResultMessage | undefined;
  try {
    const session =
      claimed === undefined
        ? query({ prompt: input.prompt, options: plan.options })
        : claimed.warm.query(input.prompt);
    for await (const message of session) {
      if (message.type === "result") {
        result ??= message;
        continue;
      }
      transcript.accept(message);
    }
  } catch (error) {
    // query() throws after an error result too ("Claude Code returned an error result"): the
    // result message says more than the exception, so it decides when there is one.
    if (result === undefined || abortController.signal.aborted) {
      transcript.finish();
      throw thrownOutcome(error, { ...context, aborted: abortController.signal.aborted });
    }
  } finally {
    input.signal?.removeEventListener("abort", onAbort);
    await plan.release();
  }
  transcript.finish();
  if (result === undefined) {
    throw thrownOutcome(new Error("the session ended without a result message"), {
      ...context,
      aborted: abortController.signal.aborted,
    });
  }
  return stepOutcome(result, context);
}
