// The fake Messages API's answers for `scripts/check-original.mjs`: one list of replies per
// `<agent>#<issue>` (the agent read from its system prompt's heading, the issue from the first
// message), taken in order. A `json` reply is a valid instance of the schema the request asks for
// with the reply's fields laid over it, so the same replies fit the original's real schemas.
import { reply } from "@climpt/testing";
import { deepMerge, instanceOf } from "./schema-instance.mjs";

const text = (value) => (typeof value === "string" ? value : JSON.stringify(value ?? ""));

/** `<agent>#<issue>`: `# Considerer Agent` → considerer; `#12` / `issue 12` → 12, else `-`. */
export function keyOf(body) {
  const system = text(body?.system);
  const agent = /#\s*(?:Project\s+|PR\s+)?(\w+)\s+Agent/i.exec(system)?.[1]?.toLowerCase() ?? "?";
  const first = text(body?.messages?.[0]?.content);
  const issue = /#(\d+)/.exec(first)?.[1] ?? /issue[^0-9]{0,12}(\d+)/i.exec(first)?.[1] ?? "-";
  return `${agent}#${issue}`;
}

let ids = 0;

/**
 * Replies: `{ bash: "cmd" }` (a Bash tool call), `{ json: {…} }` (the step's JSON answer),
 * `{ text: "…" }`, `{ error: 400, message }` (an HTTP error from the API).
 */
export function scriptedModel(plans) {
  const queues = new Map(Object.entries(plans).map(([key, list]) => [key, [...list]]));
  const served = [];
  const handler = (request) => {
    const body = request.body;
    const key = keyOf(body);
    // A prompt that names no issue, or a number no script has: the agent's next script in order
    // (runs of one agent follow each other in this check).
    const agent = key.split("#")[0];
    const queue = queues.has(key)
      ? queues.get(key)
      : [...queues.entries()].find(
          ([name, list]) => name.startsWith(`${agent}#`) && list.length > 0,
        )?.[1];
    const next = queue?.shift();
    served.push(key);
    if (next === undefined)
      return reply.error(400, { message: `check-original: no reply left for ${key}` });
    if (next.error !== undefined)
      return reply.error(next.error, { message: next.message ?? "refused" });
    if (next.bash !== undefined)
      return {
        kind: "message",
        content: [
          {
            type: "tool_use",
            id: `toolu_check_${++ids}`,
            name: "Bash",
            input: { command: next.bash },
          },
        ],
      };
    if (next.text !== undefined) return reply.text(next.text);
    const schema = body?.output_config?.format?.schema;
    const value =
      schema === undefined ? next.json : deepMerge(instanceOf(schema, schema), next.json);
    return schema === undefined ? reply.text(JSON.stringify(value)) : reply.json(value);
  };
  return { handler, served };
}
