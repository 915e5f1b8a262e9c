// Test helper (not exported from the package): a ValidatorDefinition as the loader would build it.
import { parseSuccessCondition, type ValidatorDefinition } from "@climpt/model";

export function validator(
  command: string,
  successWhen: string,
  extra: Partial<ValidatorDefinition> = {},
): ValidatorDefinition {
  const parsed = parseSuccessCondition(successWhen);
  if (!parsed.ok) throw new Error(`bad successWhen in test: ${successWhen}`);
  return {
    id: extra.id ?? "check",
    type: "command",
    command,
    successWhen,
    success: parsed.value,
    failurePattern: "check-failed",
    extractParams: {},
    ...extra,
  };
}
