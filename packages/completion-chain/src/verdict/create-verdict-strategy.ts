import {
  type AgentDefinition,
  ClimptError,
  canonicalVerdictType,
  issueParameterName,
  type JsonValue,
  ownEntry,
  runIssueArgument,
  VERDICT_TYPES,
  type VerdictSpec,
  type VerdictType,
} from "@climpt/model";
import { issueText } from "../boundary/plan-github-actions.ts";
import { COMPLETION_CODES } from "../codes.ts";
import { createExecaCommandRunner } from "../command-runner.ts";
import { CheckBudgetVerdict } from "./check-budget.ts";
import { COMPOSITE_OPERATORS, type CompositeOperator, CompositeVerdict } from "./composite.ts";
import { loadCustomVerdict } from "./custom.ts";
import { ExternalStateVerdict } from "./external-state.ts";
import { IterationBudgetVerdict } from "./iteration-budget.ts";
import { KeywordSignalVerdict } from "./keyword-signal.ts";
import { StepMachineVerdict } from "./step-machine.ts";
import { type RequiredFields, StructuredSignalVerdict } from "./structured-signal.ts";
import type { VerdictDeps, VerdictStrategy } from "./types.ts";
import { VerdictConfigReader } from "./verdict-config.ts";

/**
 * Builds the strategy a verdict spec names. Either spelling of the type is accepted
 * (`externalState` = `poll:state`, …; docs/design.md#two-dialects-one-model). A wrong config throws
 * a `ClimptError` (`AC-VERDICT-003`; a composite's operator or conditions `AC-VERDICT-002`; unknown
 * type `AC-VERDICT-001`; custom module problems `AC-VERDICT-004`), so a run fails before its first
 * model call rather than at its end.
 */
export async function createVerdictStrategy(
  spec: VerdictSpec,
  deps: VerdictDeps,
): Promise<VerdictStrategy> {
  const type = canonicalVerdictType(spec.type) ?? canonicalVerdictType(spec.declaredType);
  if (type === undefined) {
    throw new ClimptError({
      code: COMPLETION_CODES.verdictUnknownType,
      message: `Unknown verdict type "${spec.declaredType}".`,
      path: "$.runner.verdict.type",
      hint: `Use one of: ${VERDICT_TYPES.join(", ")} (or their camelCase names, e.g. externalState).`,
    });
  }
  const normalized: VerdictSpec = { ...spec, type };
  const config = new VerdictConfigReader(normalized);
  switch (type) {
    case "detect:graph":
      return new StepMachineVerdict();
    case "count:iteration":
      return new IterationBudgetVerdict(config.positiveInteger("maxIterations"));
    case "count:check":
      return new CheckBudgetVerdict(config.positiveInteger("maxChecks"));
    case "detect:keyword":
      return new KeywordSignalVerdict(config.nonEmptyString("completionKeyword"));
    case "detect:structured":
      return new StructuredSignalVerdict(
        config.nonEmptyString("signalType"),
        requiredFields(normalized),
      );
    case "poll:state":
      return externalState(normalized, config, deps);
    case "meta:composite":
      return composite(normalized, config, deps);
    case "meta:custom":
      return loadCustomVerdict(normalized, deps);
  }
}

function requiredFields(spec: VerdictSpec): RequiredFields {
  const value = spec.config.requiredFields;
  if (value === undefined || value === null) return [];
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) {
    return value as string[];
  }
  if (typeof value === "object" && !Array.isArray(value)) return value;
  throw new ClimptError({
    code: COMPLETION_CODES.verdictConfig,
    message: `Verdict "${spec.declaredType}" config.requiredFields must be a list of field names or an object of field → value, but it is ${JSON.stringify(value)}.`,
    path: "$.runner.verdict.config.requiredFields",
    hint: 'Write e.g. "requiredFields": ["result"] or "requiredFields": { "result": "complete" }.',
  });
}

function externalState(
  spec: VerdictSpec,
  config: VerdictConfigReader,
  deps: VerdictDeps,
): ExternalStateVerdict {
  // The run's issue parameter (`role: "issue"`, else the one named `issue`), else config.issue.
  const agent: Pick<AgentDefinition, "parameters"> = deps.agent ?? { parameters: {} };
  const given = runIssueArgument(agent, deps.params);
  const issue = issueText(given) ?? issueText(spec.config.issue);
  if (issue === undefined) {
    const name = issueParameterName(agent);
    const flag = ownEntry(agent.parameters, name)?.cli ?? `--${name}`;
    throw new ClimptError({
      code: COMPLETION_CODES.verdictConfig,
      message: `Verdict "${spec.declaredType}" needs an issue number: pass ${flag} <number> or set config.issue (got ${JSON.stringify(given ?? spec.config.issue ?? null)}).`,
      path: "$.runner.verdict.config.issue",
      hint: `Run with ${flag} 123, or set "config": { "issue": 123 }.`,
    });
  }
  return new ExternalStateVerdict({
    issue,
    repo: config.optionalString("repo"),
    targetState: (config.optionalString("targetState") ?? "CLOSED").toUpperCase(),
    commandRunner: deps.commandRunner ?? createExecaCommandRunner(),
    cwd: deps.cwd ?? process.cwd(),
    params: deps.params,
    agent: deps.agent,
  });
}

async function composite(
  spec: VerdictSpec,
  config: VerdictConfigReader,
  deps: VerdictDeps,
): Promise<CompositeVerdict> {
  const operator = config.value("operator") ?? "and";
  if (!COMPOSITE_OPERATORS.includes(operator as CompositeOperator)) {
    throw new ClimptError({
      code: COMPLETION_CODES.verdictComposite,
      message: `Verdict "${spec.declaredType}" config.operator must be "and", "or" or "first", but it is ${JSON.stringify(operator)}.`,
      path: "$.runner.verdict.config.operator",
      hint: 'Set "operator": "and" (all conditions), "or" (any) or "first" (the first done, in order).',
    });
  }
  const childSpecs = spec.conditions ?? rawConditions(spec);
  if (childSpecs.length === 0) {
    throw new ClimptError({
      code: COMPLETION_CODES.verdictComposite,
      message: `Verdict "${spec.declaredType}" has no conditions to combine.`,
      path: "$.runner.verdict.config.conditions",
      hint: 'Add "conditions": [{ "type": "count:iteration", "config": { "maxIterations": 10 } }, …].',
    });
  }
  const children: VerdictStrategy[] = [];
  for (const child of childSpecs) children.push(await createVerdictStrategy(child, deps));
  return new CompositeVerdict(operator as CompositeOperator, children);
}

/**
 * Children written in `config.conditions` when the spec was not normalized by the loader:
 * `[{ "type": "keywordSignal", "config": { … } }]`, either spelling.
 */
function rawConditions(spec: VerdictSpec): VerdictSpec[] {
  const raw = spec.config.conditions;
  if (!Array.isArray(raw)) return [];
  return raw.map((item, index) => {
    const record =
      typeof item === "object" && item !== null && !Array.isArray(item) ? item : undefined;
    const declared = typeof record?.type === "string" ? record.type : "";
    const type: VerdictType | undefined = canonicalVerdictType(declared);
    if (record === undefined || type === undefined) {
      throw new ClimptError({
        code: COMPLETION_CODES.verdictUnknownType,
        message: `Composite verdict condition ${index} has an unknown type ${JSON.stringify(record?.type ?? item)}.`,
        path: `$.runner.verdict.config.conditions[${index}].type`,
        hint: `Use one of: ${VERDICT_TYPES.join(", ")}.`,
      });
    }
    const childConfig = record.config;
    const nested =
      typeof childConfig === "object" && childConfig !== null && !Array.isArray(childConfig)
        ? (childConfig as Record<string, JsonValue>)
        : {};
    return { type, declaredType: declared, config: nested };
  });
}
