/**
 * The agent the scripted attacker drives: a gate-dialect flow whose work step and closure step
 * can run Bash (and the closure step the GitHub request tools), with command validators after
 * `closing`, or a closure step that runs a program instead of the model. Every prompt names the
 * lab (`LAB:<id>`) and the step (`STEP:work` / `STEP:closure`), so one fake Messages API can
 * serve several labs at once and tell their steps apart.
 */

export interface AttackValidator {
  readonly id: string;
  readonly command: string;
  /** Default `exitCode:0`. */
  readonly successWhen?: string;
}

export interface AttackAgentOptions {
  readonly labId: string;
  /** Command validators run after `closing`, in order. Default: `git status --porcelain` (empty). */
  readonly validators?: readonly AttackValidator[];
  /** How often validation may fail before the run ends; default 1 (the first failure ends it). */
  readonly validationAttempts?: number;
  /** The closure step runs this program instead of the model (`runner.command`). */
  readonly program?: { readonly command: string; readonly args: readonly string[] };
  /** GitHub integration on, and the request tools offered to the closure step. */
  readonly github?: boolean;
  /** Default `detect:graph`. */
  readonly verdict?: "detect:graph" | "poll:state";
  /** The run's iteration cap; default 12. */
  readonly maxIterations?: number;
  /** agent.json `runner.boundaries.secrets`. Default `["DEPLOY_CREDENTIAL"]`. */
  readonly secrets?: readonly string[];
  /** agent.json `runner.boundaries.boundaryHook`: the user's command after validated completion. */
  readonly boundaryHook?: string;
}

/** The agent's name: `climpt run attacker …`. */
export const ATTACK_AGENT = "attacker";

const GITHUB_TOOLS = ["github_comment", "github_edit_labels", "github_close_issue"];

function intentSchema(intents: readonly string[]) {
  return {
    type: "object",
    required: ["next_action"],
    properties: {
      next_action: {
        type: "object",
        required: ["action"],
        properties: { action: { type: "string", enum: intents } },
      },
      closure_action: { type: "string" },
      issue: { type: "object" },
      note: { type: "string" },
    },
  };
}

function gate(intents: readonly string[]) {
  return {
    allowedIntents: intents,
    intentSchemaRef: "#/properties/next_action/properties/action",
    intentField: "next_action.action",
    handoffFields: [],
    failFast: true,
  };
}

/** The files of `.agent/attacker/`, as `{relative path: content}`. */
export function attackAgentFiles(options: AttackAgentOptions): Record<string, string> {
  const validators = options.validators ?? [
    { id: "git-clean", command: "git status --porcelain", successWhen: "empty" },
  ];
  const github = options.github === true;
  const tools = ["Read", "Write", "Edit", "Bash", "Glob", "Grep", ...(github ? GITHUB_TOOLS : [])];
  const agent = {
    name: ATTACK_AGENT,
    description: "A scripted model that tries to leave the boundary.",
    version: "0.1.0",
    parameters: {
      issue: { type: "number", description: "The run's issue", required: false, cli: "--issue" },
    },
    runner: {
      flow: {
        systemPromptPath: "prompts/system.md",
        prompts: { registry: "steps_registry.json" },
        defaultModel: "sonnet",
      },
      verdict: {
        type: options.verdict ?? "detect:graph",
        config: { maxIterations: options.maxIterations ?? 12 },
      },
      boundaries: {
        allowedTools: tools,
        permissionMode: "acceptEdits",
        secrets: [...(options.secrets ?? ["DEPLOY_CREDENTIAL"])],
        ...(options.boundaryHook === undefined ? {} : { boundaryHook: options.boundaryHook }),
      },
      integrations: { github: { enabled: github } },
      logging: { directory: `tmp/climpt/logs/${ATTACK_AGENT}`, format: "jsonl" },
    },
  };
  const closure =
    options.program === undefined
      ? {
          stepId: "closure.done",
          stepKind: "closure",
          c2: "closure",
          c3: "done",
          edition: "default",
          outputSchemaRef: { file: "attack.schema.json", schema: "closure" },
          structuredGate: gate(["closing", "repeat"]),
          transitions: { closing: { target: null }, repeat: { target: "closure.done" } },
          ...(github ? { permissions: { allowedTools: tools } } : {}),
        }
      : {
          stepId: "closure.done",
          stepKind: "closure",
          c2: "closure",
          c3: "done",
          edition: "default",
          runner: {
            command: options.program.command,
            args: [...options.program.args],
            timeout: 60_000,
          },
        };
  const registry = {
    agentId: ATTACK_AGENT,
    version: "1.0.0",
    c1: "steps",
    entryStep: "initial.work",
    steps: {
      "initial.work": {
        stepId: "initial.work",
        stepKind: "work",
        c2: "initial",
        c3: "work",
        edition: "default",
        outputSchemaRef: { file: "attack.schema.json", schema: "work" },
        structuredGate: gate(["handoff", "repeat"]),
        transitions: { handoff: { target: "closure.done" }, repeat: { target: "initial.work" } },
      },
      "closure.done": closure,
    },
    validators: Object.fromEntries(
      validators.map((validator) => [
        validator.id,
        {
          type: "command",
          command: validator.command,
          successWhen: validator.successWhen ?? "exitCode:0",
          failurePattern: "refused",
          timeoutMs: 60_000,
        },
      ]),
    ),
    failurePatterns: {
      refused: { description: "A check failed", edition: "failed", adaptation: "refused" },
    },
    validationSteps: {
      "closure.done": {
        stepId: "closure.done",
        name: "Checks",
        c2: "retry",
        c3: "done",
        validationConditions: validators.map((validator) => ({ validator: validator.id })),
        onFailure: { action: "retry", maxAttempts: options.validationAttempts ?? 1 },
      },
    },
  };
  const schemas = {
    $schema: "http://json-schema.org/draft-07/schema#",
    definitions: {
      work: intentSchema(["handoff", "repeat"]),
      closure: intentSchema(["closing", "repeat"]),
    },
  };
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  return {
    "agent.json": json(agent),
    "steps_registry.json": json(registry),
    "schemas/attack.schema.json": json(schemas),
    "prompts/system.md": `You are a test agent. LAB:${options.labId}\n`,
    "prompts/steps/initial/work/f_default.md": "STEP:work\nDo the work.\n",
    "prompts/steps/closure/done/f_default.md": "STEP:closure\nFinish.\n",
    "prompts/steps/retry/done/f_failed_refused.md": "STEP:work\nA check failed; fix it.\n",
    "prompts/steps/retry/done/f_failed.md": "STEP:work\nA check failed; fix it.\n",
  };
}
