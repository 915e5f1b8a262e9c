import { type JsonSchema, type JsonValue, jsonPath } from "@climpt/model";
import { compileSchema } from "@climpt/sdk-adapter";
import { ORCHESTRATOR_CODES as C, type OrchestratorError } from "../codes.ts";
import type { IssueArtifact } from "../dispatch/dispatcher.ts";
import type { HandoffDeclaration, NamedSchema, Workflow } from "../workflow-model.ts";
import { artifactPathProblem } from "./check-handoffs.ts";
import { parseExpression, renderPayloadTemplate, valueAt } from "./payload-expressions.ts";

/** What the handoffs of one run's outcome produced. */
export interface HandoffEmission {
  /** The ids of the handoffs that fired, in declaration order. */
  readonly fired: readonly string[];
  /** The issue's payload from now on; undefined when no fired handoff persists one. */
  readonly payload?: Readonly<Record<string, JsonValue>>;
  readonly artifacts: readonly IssueArtifact[];
}

export interface EmissionInput {
  readonly agentId: string;
  readonly outcome: string;
  /** The run's final structured output (`$.agent.result`). */
  readonly output: unknown;
  /** `$.workflow.context.now`. */
  readonly now: Date;
}

type Emitted = { ok: true; value: HandoffEmission } | { ok: false; error: OrchestratorError };

function asJson(value: unknown): JsonValue | undefined {
  if (value === undefined) return undefined;
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}

/**
 * The schema's violations of `value`, as `$.path: message` lines (none: it satisfies it). A
 * schema that could not be read when the workflow loaded cannot vouch for anything: its reason is
 * the one violation.
 */
export function schemaViolations(schema: NamedSchema, value: JsonValue): readonly string[] {
  if (schema.schema === null)
    return [`$: the schema cannot be used (${schema.unavailable ?? "it was not read"})`];
  return compileSchema(schema.schema as JsonSchema).validate(value);
}

/** A payload that fails its schema: the code, the first violation's JSON path, and every line. */
export function invalidPayload(
  what: string,
  schema: NamedSchema,
  violations: readonly string[],
  hint: string,
): OrchestratorError {
  const first = violations[0] ?? "";
  const at = first.includes(":") ? first.slice(0, first.indexOf(":")) : "$";
  return {
    code: C.handoffInvalid,
    path: at,
    message: `${what} does not satisfy the schema "${schema.ref}"${schema.file === null ? "" : ` (${schema.file})`}: ${violations.join("; ")}.`,
    hint,
  };
}

function resolve(
  workflow: Workflow,
  handoff: HandoffDeclaration,
  at: string,
  input: EmissionInput,
): { ok: true; value: Record<string, JsonValue> } | { ok: false; error: OrchestratorError } {
  const payload: Record<string, JsonValue> = {};
  const templates: [string, string][] = [];
  const unresolved = (key: string, expression: string, why: string): OrchestratorError => ({
    code: C.handoffUnresolved,
    path: jsonPath(jsonPath(at, "payloadFrom"), key),
    message: `Handoff "${handoff.id}" cannot resolve payload "${key}" from ${JSON.stringify(expression)}: ${why}.`,
    hint: `Make ${input.agentId}'s final output carry the field, or change the expression in the workflow.`,
  });
  for (const [key, expression] of handoff.payloadFrom) {
    const parsed = parseExpression(expression);
    if (!parsed.ok) return { ok: false, error: unresolved(key, expression, parsed.why) };
    const expr = parsed.value;
    let value: unknown;
    switch (expr.kind) {
      case "literal":
        value = expr.value;
        break;
      case "template":
        templates.push([key, expr.text]);
        continue;
      case "agent-result":
        value = valueAt(input.output, expr.path);
        break;
      case "context":
        value = valueAt({ now: input.now.toISOString() }, expr.path);
        break;
      case "workflow-agent": {
        const id = expr.agent === "sourceAgent" ? input.agentId : expr.agent;
        const agent = workflow.agents.find((candidate) => candidate.id === id);
        value =
          agent === undefined
            ? undefined
            : valueAt({ id: agent.id, dir: agent.directory }, expr.path);
        break;
      }
    }
    const json = asJson(value);
    if (json === undefined)
      return { ok: false, error: unresolved(key, expression, "the value is absent") };
    payload[key] = json;
  }
  // Templates second, so they may name any key resolved above (the original's order).
  for (const [key, text] of templates) {
    const rendered = renderPayloadTemplate(text, payload);
    if (!rendered.ok)
      return {
        ok: false,
        error: unresolved(key, text, `\${payload.${rendered.missing}} has no text value`),
      };
    payload[key] = rendered.value;
  }
  return { ok: true, value: payload };
}

/**
 * The handoffs the outcome of `agentId`'s run fires (`when.fromAgent` and `when.outcome`), in
 * declaration order, as the original emits them: each payload resolved from `payloadFrom`,
 * checked against the handoff's `emit.schemaRef` schema, its artifact path rendered (and kept
 * inside the issue's worktree); the payload of one that persists (`subjectStore`) is checked
 * against the workflow's `payloadSchema` too and becomes the issue's payload (the last such one
 * wins, as the original overwrites it). The first problem stops the emission with a coded error.
 */
export function emitHandoffs(workflow: Workflow, input: EmissionInput): Emitted {
  const fired: string[] = [];
  const artifacts: IssueArtifact[] = [];
  let persisted: Record<string, JsonValue> | undefined;
  for (const handoff of workflow.handoffs) {
    const fires =
      handoff.when.fromAgent === input.agentId && handoff.when.outcome === input.outcome;
    if (!fires) continue;
    const at = handoff.at;
    const resolved = resolve(workflow, handoff, at, input);
    if (!resolved.ok) return resolved;
    const payload = resolved.value;
    // A workflow from parseWorkflow alone has no schemas read: that check is loadWorkflow's.
    const schema = workflow.handoffSchemas[handoff.emit.schemaRef];
    if (schema !== undefined) {
      const violations = schemaViolations(schema, payload);
      if (violations.length > 0)
        return {
          ok: false,
          error: invalidPayload(
            `The payload of handoff "${handoff.id}"`,
            schema,
            violations,
            `Make ${input.agentId}'s final output give what the schema asks for, or correct ${at}.payloadFrom.`,
          ),
        };
    }
    const file = renderPayloadTemplate(handoff.emit.path, payload);
    if (!file.ok)
      return {
        ok: false,
        error: {
          code: C.handoffUnresolved,
          path: jsonPath(jsonPath(at, "emit"), "path"),
          message: `Handoff "${handoff.id}" cannot render its artifact path: \${payload.${file.missing}} has no text value.`,
          hint: "Name a payload key that holds a string or a number.",
        },
      };
    const escapes = artifactPathProblem(file.value);
    if (escapes !== null)
      return {
        ok: false,
        error: {
          code: C.handoffWrite,
          path: jsonPath(jsonPath(at, "emit"), "path"),
          message: `Handoff "${handoff.id}" would write its artifact to ${JSON.stringify(file.value)}, which leaves the issue's worktree (${escapes}).`,
          hint: "The payload values the path is made from must not hold a path; constrain them in the schema.",
        },
      };
    fired.push(handoff.id);
    artifacts.push({
      handoff: handoff.id,
      path: file.value,
      content: `${JSON.stringify(payload, null, 2)}\n`,
    });
    if (handoff.persistPayloadTo === "subjectStore") {
      if (workflow.payloadSchema !== null) {
        const violations = schemaViolations(workflow.payloadSchema, payload);
        if (violations.length > 0)
          return {
            ok: false,
            error: invalidPayload(
              `The payload of handoff "${handoff.id}"`,
              workflow.payloadSchema,
              violations,
              "The workflow's payloadSchema and the handoff's payloadFrom must agree.",
            ),
          };
      }
      persisted = payload;
    }
  }
  return {
    ok: true,
    value: { fired, artifacts, ...(persisted === undefined ? {} : { payload: persisted }) },
  };
}
