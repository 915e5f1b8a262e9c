/**
 * A model reply's blocks and its token usage in climpt's own types. @climpt/sdk-adapter produces
 * them from the Messages API and re-exports them by name; they live here because the journal
 * (@climpt/protocol's `model_response` event and recorded replies) and every executor carry them,
 * and protocol may depend on this package alone.
 */
import type { JsonObject, JsonValue } from "./json.ts";

/**
 * One block of a model reply. `thinking` and `redacted_thinking` are kept so a tool loop can send
 * them back unchanged (the API requires it); any block type climpt does not know is kept as
 * `opaque` and sent back as it came.
 */
export type ModelContentBlock =
  | { readonly type: "text"; readonly text: string }
  | {
      readonly type: "tool_use";
      readonly id: string;
      readonly name: string;
      readonly input: JsonValue;
    }
  | { readonly type: "thinking"; readonly thinking: string; readonly signature: string }
  | { readonly type: "redacted_thinking"; readonly data: string }
  | { readonly type: "opaque"; readonly raw: JsonObject };

/** The tokens one model call (or a sum of calls) used, as the API bills them. */
export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheCreationInputTokens: number;
  readonly cacheReadInputTokens: number;
}
