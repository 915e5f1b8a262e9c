/**
 * The expression language of a handoff's `payloadFrom`, as the original runtime reads it:
 * `'text'` (a literal, always a string), `$.agent.result` / `$.agent.result.<a.b.c>` (the run's
 * final structured output), `$.workflow.context.now` (the time of the emission),
 * `$.workflow.agents[<id>|sourceAgent].<field>` (`id`, `dir` of a workflow agent), and text
 * holding `${payload.<key>}` templates, filled from the other keys once they are resolved.
 */

const TEMPLATE = /\$\{payload\.([A-Za-z0-9_-]+)\}/g;

export type ParsedExpression =
  | { readonly kind: "literal"; readonly value: string }
  | { readonly kind: "template"; readonly text: string; readonly keys: readonly string[] }
  | { readonly kind: "agent-result"; readonly path: readonly string[] }
  | { readonly kind: "context"; readonly path: readonly string[] }
  | { readonly kind: "workflow-agent"; readonly agent: string; readonly path: readonly string[] };

function segments(rest: string): readonly string[] | null {
  if (rest === "") return [];
  if (!rest.startsWith(".")) return null;
  const parts = rest.slice(1).split(".");
  return parts.every((part) => part !== "") ? parts : null;
}

/** The expression understood, or why it is not (for WF-HANDOFF-002). */
export function parseExpression(
  expression: string,
): { ok: true; value: ParsedExpression } | { ok: false; why: string } {
  if (expression.length >= 2 && expression.startsWith("'") && expression.endsWith("'"))
    return { ok: true, value: { kind: "literal", value: expression.slice(1, -1) } };
  if (expression.includes("${payload.")) {
    const keys = [...expression.matchAll(TEMPLATE)].map((match) => match[1] as string);
    return { ok: true, value: { kind: "template", text: expression, keys } };
  }
  if (!expression.startsWith("$.")) {
    return {
      ok: false,
      why: `it is neither a 'quoted literal', a \${payload.<key>} template, nor a path starting with $.`,
    };
  }
  if (expression === "$.agent.result" || expression.startsWith("$.agent.result.")) {
    const path = segments(expression.slice("$.agent.result".length));
    if (path !== null) return { ok: true, value: { kind: "agent-result", path } };
    return { ok: false, why: "a path segment is empty" };
  }
  if (expression === "$.workflow.context" || expression.startsWith("$.workflow.context.")) {
    const path = segments(expression.slice("$.workflow.context".length));
    if (path !== null) return { ok: true, value: { kind: "context", path } };
    return { ok: false, why: "a path segment is empty" };
  }
  const agents = /^\$\.workflow\.agents\[([^\]]+)\](.*)$/.exec(expression);
  if (agents !== null) {
    const path = segments(agents[2] as string);
    if (path !== null)
      return { ok: true, value: { kind: "workflow-agent", agent: agents[1] as string, path } };
    return { ok: false, why: "a path segment is empty" };
  }
  return {
    ok: false,
    why: "only $.agent.result.*, $.workflow.context.* and $.workflow.agents[<id>].* can be read",
  };
}

/** `${payload.<key>}` templates filled from `payload`; the keys that had no value when some do not. */
export function renderPayloadTemplate(
  text: string,
  payload: Readonly<Record<string, unknown>>,
): { ok: true; value: string } | { ok: false; missing: string } {
  let missing: string | null = null;
  const value = text.replace(TEMPLATE, (whole, key: string) => {
    const found = Object.hasOwn(payload, key) ? payload[key] : undefined;
    if (found === undefined || found === null || typeof found === "object") {
      missing ??= key;
      return whole;
    }
    return String(found);
  });
  return missing === null ? { ok: true, value } : { ok: false, missing };
}

/** The value at `path` under `root`, walking own keys of objects only; undefined when absent. */
export function valueAt(root: unknown, path: readonly string[]): unknown {
  let cursor = root;
  for (const part of path) {
    if (typeof cursor !== "object" || cursor === null || Array.isArray(cursor)) return undefined;
    if (!Object.hasOwn(cursor, part)) return undefined;
    cursor = (cursor as Record<string, unknown>)[part];
  }
  return cursor;
}
