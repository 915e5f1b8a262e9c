/**
 * The few checks the real Messages API makes that a client most often gets wrong. The fake answers
 * them with the same 400 `invalid_request_error`, so an adapter bug fails a test instead of passing
 * against a server that accepts anything.
 */
import { isRecord } from "@climpt/model";

function blocksOf(message: Record<string, unknown>): Record<string, unknown>[] {
  return Array.isArray(message.content) ? message.content.filter(isRecord) : [];
}

/** The first problem with a `POST /v1/messages` body, or undefined when it looks valid. */
export function messagesRequestProblem(body: unknown, countOnly = false): string | undefined {
  if (!isRecord(body)) return "The request body is not a JSON object.";
  if (typeof body.model !== "string" || body.model === "") return "model: Field required";
  if (!countOnly) {
    if (typeof body.max_tokens !== "number" || !Number.isInteger(body.max_tokens)) {
      return "max_tokens: Field required";
    }
    if (body.max_tokens < 1) return "max_tokens: must be greater than or equal to 1";
  }
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return "messages: at least one message is required";
  }
  const messages = body.messages;
  for (const [index, message] of messages.entries()) {
    if (
      !isRecord(message) ||
      (message.role !== "user" && message.role !== "assistant" && message.role !== "system")
    ) {
      return `messages.${index}.role: Input should be 'user', 'assistant' or 'system'`;
    }
    if (typeof message.content !== "string" && !Array.isArray(message.content)) {
      return `messages.${index}.content: Field required`;
    }
    // A mid-conversation system message (Claude Code sends one after the first user turn)
    // carries instructions only: text blocks, nothing the model produced or a tool returned.
    if (message.role === "system" && blocksOf(message).some((block) => block.type !== "text")) {
      return `messages.${index}.content: a system message holds only text blocks`;
    }
  }
  if (isRecord(messages[0]) && messages[0].role !== "user") {
    return "messages: the first message must use the user role";
  }
  // Every tool_use must be answered by a tool_result in the very next (user) message.
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message) || message.role !== "assistant") continue;
    const ids = blocksOf(message)
      .filter((block) => block.type === "tool_use")
      .map((block) => String(block.id));
    if (ids.length === 0) continue;
    const next = messages[index + 1];
    const answered = new Set(
      isRecord(next) && next.role === "user"
        ? blocksOf(next)
            .filter((block) => block.type === "tool_result")
            .map((block) => String(block.tool_use_id))
        : [],
    );
    const missing = ids.filter((id) => !answered.has(id));
    if (missing.length > 0) {
      return `messages.${index + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    }
  }
  if (body.tools !== undefined) {
    if (!Array.isArray(body.tools)) return "tools: Input should be a valid list";
    for (const [index, tool] of body.tools.entries()) {
      if (!isRecord(tool) || typeof tool.name !== "string" || !isRecord(tool.input_schema)) {
        return `tools.${index}: a custom tool needs a name and an input_schema object`;
      }
    }
  }
  if (body.output_config !== undefined) {
    const format = isRecord(body.output_config) ? body.output_config.format : undefined;
    if (format !== undefined && format !== null) {
      if (!isRecord(format) || format.type !== "json_schema" || !isRecord(format.schema)) {
        return "output_config.format: expected {type: 'json_schema', schema: {...}}";
      }
    }
  }
  const breakpoints = countCacheControl(body);
  if (breakpoints > 4) {
    return `A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.`;
  }
  return undefined;
}

function countCacheControl(body: Record<string, unknown>): number {
  let count = 0;
  const visit = (value: unknown): void => {
    if (isRecord(value) && isRecord(value.cache_control)) count++;
  };
  if (Array.isArray(body.tools)) body.tools.forEach(visit);
  if (Array.isArray(body.system)) body.system.forEach(visit);
  if (Array.isArray(body.messages)) {
    for (const message of body.messages) {
      if (isRecord(message)) blocksOf(message).forEach(visit);
    }
  }
  return count;
}
