/**
 * The public surface of the workspace's packages: every entry a package's `exports` map names
 * (through its `climpt-source` condition) and the names that entry exports. Read from the source
 * syntax alone, which is exact here because entries never `export *` (lint forbids it): a name
 * is public only when an entry writes it down.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import ts from "typescript";
import { workspacePackages } from "./release/workspace-packages.ts";

/** One entry: `@climpt/model`, `@climpt/model/testing`, …, and its exported names, sorted. */
export interface PublicEntry {
  readonly entry: string;
  /** The package's folder (its README.md is there). */
  readonly packageDir: string;
  readonly file: string;
  readonly names: readonly string[];
}

function hasExportModifier(node: ts.Node): boolean {
  return (
    ts.canHaveModifiers(node) &&
    (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
  );
}

/** The names a module's text exports; throws on `export *` and default exports (not allowed). */
export function exportedNames(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const names: string[] = [];
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (clause === undefined || !ts.isNamedExports(clause)) {
        throw new Error(`${fileName}: "export *" hides what is public; name each export.`);
      }
      for (const element of clause.elements) names.push(element.name.text);
    } else if (ts.isExportAssignment(statement)) {
      throw new Error(`${fileName}: a default export has no name; export it by name.`);
    } else if (ts.isVariableStatement(statement) && hasExportModifier(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) names.push(declaration.name.text);
      }
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      hasExportModifier(statement) &&
      statement.name !== undefined
    ) {
      names.push(statement.name.text);
    }
  }
  return [...new Set(names)].sort();
}

interface Manifest {
  readonly exports?: Readonly<Record<string, unknown>>;
}

/** Every entry of every workspace package, in package folder order then entry order. */
export async function publicEntries(): Promise<PublicEntry[]> {
  const entries: PublicEntry[] = [];
  for (const pkg of await workspacePackages()) {
    const manifest = JSON.parse(
      await readFile(path.join(pkg.dir, "package.json"), "utf8"),
    ) as Manifest;
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const source =
        typeof target === "object" && target !== null
          ? (target as Record<string, unknown>)["climpt-source"]
          : undefined;
      if (typeof source !== "string") continue;
      const file = path.join(pkg.dir, source);
      entries.push({
        entry: subpath === "." ? pkg.name : `${pkg.name}/${subpath.replace(/^\.\//, "")}`,
        packageDir: pkg.dir,
        file,
        names: exportedNames(file, await readFile(file, "utf8")),
      });
    }
  }
  return entries;
}
