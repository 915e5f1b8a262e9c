import {
  FAILURE_EXTRACTOR_NAMES,
  jsonPath,
  type Problem,
  type Registry,
  recordValues,
} from "@climpt/model";

/**
 * `SR-VALID-013`: a validator with `baseline: "compare"` whose `extractParams` names no extractor
 * that names failures can never be compared with the base (every failure of it blocks, and its
 * result says the comparison was unavailable). A warning: the run works, only not as written.
 */
export function checkValidatorBaselines(
  registry: Registry,
  files: { readonly registryFile?: string } = {},
): Problem[] {
  const problems: Problem[] = [];
  for (const validator of recordValues(registry.validators)) {
    if (validator.baseline !== "compare") continue;
    const extractors = Object.values(validator.extractParams);
    if (extractors.some((name) => (FAILURE_EXTRACTOR_NAMES as readonly string[]).includes(name))) {
      continue;
    }
    problems.push({
      code: "SR-VALID-013",
      severity: "warning",
      message: `Validator "${validator.id}" compares failures with the base (baseline "compare"), but its extractParams names no extractor that names failures, so nothing can be compared and every failure blocks.`,
      ...(files.registryFile === undefined ? {} : { file: files.registryFile }),
      path: `${jsonPath("$.validators", validator.id)}.baseline`,
      hint: `Extract the failures, e.g. "extractParams": { "failures": "${FAILURE_EXTRACTOR_NAMES[0]}" } (one of ${FAILURE_EXTRACTOR_NAMES.join(", ")}), or remove "baseline".`,
    });
  }
  return problems;
}
