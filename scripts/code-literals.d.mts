export function codeLiterals(text: string): string[];
export function isSourceFile(name: string): boolean;
export function packageSourceRoots(root: string): { name: string; dir: string }[];
