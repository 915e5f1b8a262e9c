import {
  type ModelClient,
  runStep,
  StepError,
  type StepEvent,
  type ToolExecutor,
} from "@climpt/sdk-adapter";
import { RUNNER_CODES } from "./codes.ts";
import { JournalModelReplay, JournalToolReplay } from "./journal/journal-replay.ts";
import { errorOf, inFamily } from "./run/run-errors.ts";
import type { StepExecutionRequest, StepExecutionResult, StepExecutor } from "./step-executor.ts";

/**
 * The default `StepExecutor`: the Messages API through `runStep` of `@climpt/sdk-adapter` (the
 * tool loop, the output schema with its one repair turn, near-miss salvage). On resume the
 * recorded replies and tool results are served by wrapping the client and the tools, so
 * `runStep` continues the conversation exactly where the journal left it.
 */
export function createMessagesStepExecutor(client: ModelClient): StepExecutor {
  return {
    async execute(request: StepExecutionRequest): Promise<StepExecutionResult> {
      const { observer, replay } = request;
      const model =
        replay === undefined ? undefined : new JournalModelReplay(client, replay.replies);
      const tools =
        replay === undefined
          ? undefined
          : new JournalToolReplay(
              request.tools,
              replay.toolResults,
              // In a rebuilt folder nothing of this phase happened: no call is "in flight".
              replay.rerunTools === true ? [] : replay.replies,
            );
      const inner: ModelClient = model ?? client;
      let call = 0;
      // runStep's response event lacks the reply's content (resume needs it): report the
      // response from the client, in the order runStep makes its calls.
      const reporting: ModelClient = {
        call: async (modelRequest) => {
          const replayed = model !== undefined && model.remaining > 0;
          // The reply and tool results this call builds on are on disk before it goes out.
          if (!replayed) await observer.durable();
          const started = Date.now();
          // Which step asks goes with the request (a header a mock answers by).
          const response = await inner.call({ ...modelRequest, stepId: request.step.id });
          observer.modelResponse({
            call,
            replayed,
            durationMs: Date.now() - started,
            reply: {
              content: response.content,
              usage: response.usage,
              costUsd: response.costUsd,
              stopReason: response.stopReason,
              model: response.model,
              requestId: response.requestId ?? null,
            },
          });
          return response;
        },
      };
      const onEvent = (event: StepEvent): void => {
        if (event.type === "model-request") {
          call = event.turn;
          observer.modelRequest({ call, model: event.model, repair: event.repair });
        } else if (event.type === "tool-call") {
          observer.toolCall(event.call);
        } else if (event.type === "tool-result") {
          observer.toolResult({
            call: event.call,
            result: event.result,
            durationMs: event.durationMs,
            replayed: tools?.servedFromJournal(event.call) === true,
          });
        }
      };
      try {
        const result = await runStep({
          client: reporting,
          model: request.model,
          system: request.system,
          prompt: request.prompt,
          ...(request.outputSchema === undefined ? {} : { outputSchema: request.outputSchema }),
          ...(request.acceptedOutputSchema === undefined
            ? {}
            : { acceptedOutputSchema: request.acceptedOutputSchema }),
          tools: (tools ?? request.tools) satisfies ToolExecutor,
          ...(request.maxTurns === undefined ? {} : { maxTurns: request.maxTurns }),
          ...(request.callTimeoutMs === undefined ? {} : { timeoutMs: request.callTimeoutMs }),
          ...(request.connectTimeoutMs === undefined
            ? {}
            : { connectTimeoutMs: request.connectTimeoutMs }),
          ...(request.streamIdleTimeoutMs === undefined
            ? {}
            : { streamIdleTimeoutMs: request.streamIdleTimeoutMs }),
          signal: request.signal,
          onEvent,
          ...(observer.textDelta === undefined ? {} : { onTextDelta: observer.textDelta }),
        });
        return { ok: true, output: result.output, text: result.text };
      } catch (error) {
        const reason = StepError.isInstance(error) ? error.reason : undefined;
        if (reason === "schema-invalid" || reason === "output-missing") {
          const schemaError = inFamily(
            errorOf(error, RUNNER_CODES.schemaResolution),
            RUNNER_CODES.schemaResolution,
          );
          return { ok: false, reason: "schema", error: schemaError };
        }
        return { ok: false, reason: "failed", error: errorOf(error, RUNNER_CODES.stepFailed) };
      }
    },
  };
}
