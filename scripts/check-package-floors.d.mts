export interface PinnedDependencies {
  readonly dependencies: readonly string[];
  readonly why: string;
}
export const PINNED_DEPENDENCIES: ReadonlyMap<string, PinnedDependencies>;
export function pinnedDependencyViolations(
  root: string,
  pinned?: ReadonlyMap<string, PinnedDependencies>,
): string[];
export function floorViolations(root: string): {
  packages: { name: string; dir: string; dependencies: string[]; devDependencies: string[] }[];
  floors: Map<string, number>;
  violations: string[];
};
