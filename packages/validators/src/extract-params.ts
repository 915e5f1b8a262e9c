import { isExtractorName, type JsonValue, setEntry } from "@climpt/model";
import { VALIDATOR_CODES } from "./codes.ts";
import { EXTRACTORS } from "./extractors/registry.ts";
import type { ExtractorInput } from "./extractors/types.ts";

export interface ExtractionProblem {
  readonly param: string;
  readonly extractor: string;
  readonly code: typeof VALIDATOR_CODES.unknownExtractor | typeof VALIDATOR_CODES.extractorFailed;
  readonly message: string;
}

export interface Extraction {
  readonly values: Record<string, JsonValue>;
  readonly problems: readonly ExtractionProblem[];
}

/**
 * Applies a validator's `extractParams` (param name → extractor name) to its command's output.
 * Extractors run one after another (only generateDiff starts a process). An unknown name or a
 * throwing extractor gives the param `null` and a coded problem, never a silent gap.
 */
export async function extractParams(
  spec: Readonly<Record<string, string>>,
  input: ExtractorInput,
): Promise<Extraction> {
  const values: Record<string, JsonValue> = {};
  const problems: ExtractionProblem[] = [];
  for (const [param, name] of Object.entries(spec)) {
    if (!isExtractorName(name)) {
      setEntry(values, param, null);
      problems.push({
        param,
        extractor: name,
        code: VALIDATOR_CODES.unknownExtractor,
        message: `Param "${param}" names unknown extractor "${name}".`,
      });
      continue;
    }
    try {
      setEntry(values, param, await EXTRACTORS[name](input));
    } catch (error) {
      setEntry(values, param, null);
      problems.push({
        param,
        extractor: name,
        code: VALIDATOR_CODES.extractorFailed,
        message: `Extractor "${name}" failed for param "${param}": ${(error as Error).message}`,
      });
    }
  }
  return { values, problems };
}
