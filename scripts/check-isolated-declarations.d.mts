export function isolatedDeclarationProblems(root: string): string[];
