import type { JsonValue } from "@climpt/model";
import type { RecordedReply } from "@climpt/protocol";
import type {
  ModelClient,
  ModelContentBlock,
  ModelRequest,
  ModelResponse,
  ToolCall,
  ToolExecutor,
  ToolResult,
} from "@climpt/sdk-adapter";
import { RUNNER_CODES } from "../codes.ts";

export type { RecordedReply } from "@climpt/protocol";

function toolCallsOf(content: readonly ModelContentBlock[]): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const block of content) {
    if (block.type === "tool_use")
      calls.push({ id: block.id, name: block.name, input: block.input });
  }
  return calls;
}

function textOf(content: readonly ModelContentBlock[]): string {
  return content
    .filter((block): block is { type: "text"; text: string } => block.type === "text")
    .map((block) => block.text)
    .join("");
}

/**
 * Serves the first calls of a resumed step from the journal, in order, then hands over to the
 * live client. A completed model call is never repeated on resume: the reply it got is in the
 * journal (`model_response.content`), and the tool loop continues from it exactly as it would
 * have (its tool results come from `JournalToolReplay`).
 */
export class JournalModelReplay implements ModelClient {
  private next = 0;

  constructor(
    private readonly inner: ModelClient,
    private readonly replies: readonly RecordedReply[],
  ) {}

  /** Replies still to be served from the journal. */
  get remaining(): number {
    return this.replies.length - this.next;
  }

  async call(request: ModelRequest): Promise<ModelResponse> {
    const reply = this.replies[this.next];
    if (reply === undefined) return this.inner.call(request);
    this.next += 1;
    const text = textOf(reply.content);
    let structuredOutput: JsonValue | undefined;
    if (request.outputSchema !== undefined) {
      try {
        structuredOutput = JSON.parse(text) as JsonValue;
      } catch {
        // Near misses are salvaged by runStep from the text, exactly as on the first attempt.
      }
    }
    request.onTextDelta?.(text);
    return {
      content: reply.content,
      text,
      toolCalls: toolCallsOf(reply.content),
      ...(structuredOutput === undefined ? {} : { structuredOutput }),
      usage: reply.usage,
      costUsd: reply.costUsd,
      priced: reply.costUsd > 0,
      stopReason: reply.stopReason,
      model: reply.model,
      ...(reply.requestId === null ? {} : { requestId: reply.requestId }),
    };
  }
}

/** Tools without side effects: a call of one that was in flight at the stop simply runs again. */
const READ_ONLY_TOOLS: ReadonlySet<string> = new Set(["Read", "Glob", "Grep"]);

/**
 * What the model is told about a call that was running when the run stopped. Its effect is
 * unknown — a commit may have happened, a push may not — so running it again blindly could do
 * it twice; the model decides with what the journal knows.
 */
export function inFlightResult(call: ToolCall): ToolResult {
  return {
    isError: true,
    content: `${RUNNER_CODES.resumeEffectUnknown}: The run stopped (a crash, a kill or an interruption) while this ${call.name} call was running, so its effect is unknown: it may have done all, part or none of its work. It was not run again when the run resumed. The journal has the call's input (above) and no result. Check the current state (the files it touches, git status and git log) before deciding whether to repeat it.`,
  };
}

/**
 * Serves tool results the journal recorded for the interrupted step (by tool_use id) instead of
 * running the tool again: its effect on the working tree already happened before the crash.
 * Each recorded result is served once, in order, so an id that comes back later in the step (a
 * live reply after the replayed ones, a scripted model reusing ids) runs live. A call a recorded
 * reply asked for that has no recorded result was in flight at the stop: it is answered with
 * `inFlightResult`, not run again, unless its tool is read-only (Read, Glob, Grep) or an MCP tool
 * its server marks read-only or idempotent.
 */
export class JournalToolReplay implements ToolExecutor {
  private readonly results = new Map<string, ToolResult[]>();
  private readonly served = new WeakSet<ToolCall>();

  /** tool_use id → how many calls with it the recorded replies made that have no result. */
  private readonly inFlight = new Map<string, number>();

  constructor(
    private readonly inner: ToolExecutor,
    recorded: ReadonlyMap<string, readonly ToolResult[]>,
    replies: readonly RecordedReply[] = [],
  ) {
    for (const [id, results] of recorded) this.results.set(id, [...results]);
    for (const reply of replies) {
      for (const call of toolCallsOf(reply.content)) {
        this.inFlight.set(call.id, (this.inFlight.get(call.id) ?? 0) + 1);
      }
    }
    for (const [id, results] of recorded) {
      this.inFlight.set(id, Math.max(0, (this.inFlight.get(id) ?? 0) - results.length));
    }
  }

  get definitions(): ToolExecutor["definitions"] {
    return this.inner.definitions;
  }

  /**
   * Whether the tool's provider says running it again is harmless: an MCP tool its server marks
   * `readOnlyHint` or `idempotentHint` (the definitions carry the annotations).
   */
  private rerunsSafely(name: string): boolean {
    const annotations = this.inner.definitions.find((d) => d.name === name)?.annotations;
    return annotations?.readOnlyHint === true || annotations?.idempotentHint === true;
  }

  /** Whether this call's result came from the journal. */
  servedFromJournal(call: ToolCall): boolean {
    return this.served.has(call);
  }

  async execute(call: ToolCall, signal?: AbortSignal): Promise<ToolResult> {
    const recorded = this.results.get(call.id)?.shift();
    if (recorded !== undefined) {
      this.served.add(call);
      return recorded;
    }
    const pending = this.inFlight.get(call.id) ?? 0;
    if (pending > 0) {
      this.inFlight.set(call.id, pending - 1);
      if (!READ_ONLY_TOOLS.has(call.name) && !this.rerunsSafely(call.name)) {
        this.served.add(call);
        return inFlightResult(call);
      }
    }
    return this.inner.execute(call, signal);
  }
}
