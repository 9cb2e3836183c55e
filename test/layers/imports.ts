import ts from 'typescript';

/** How a module names another: `import … from`, `export … from`, `import('…')`, `import('…').T` in a type, `require`. */
export type ImportKind = 'import' | 'export-from' | 'dynamic' | 'import-type' | 'require';

export interface ImportRef {
  kind: ImportKind;
  /** The string literal; null for a computed specifier (`import(expr)`), which no rule can check. */
  specifier: string | null;
  /** 1-based line of the import, for the failure message. */
  line: number;
}

const JS_FILE = /\.(mjs|cjs|js)$/;

/**
 * Every import in one source file, read from the TypeScript syntax tree (so `import` inside a
 * string or a comment is not one): static imports (`import type` too: a type is a dependency as
 * well), re-exports, dynamic `import()` with its literal or as computed, `import('…')` in type
 * positions, `import x = require('…')` and `require('…')` calls.
 */
export function importsOf(fileName: string, source: string): ImportRef[] {
  const kind = JS_FILE.test(fileName) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, kind);
  const out: ImportRef[] = [];
  const add = (k: ImportKind, node: ts.Node, spec: ts.Node | undefined) => {
    const specifier = spec && (ts.isStringLiteral(spec) || ts.isNoSubstitutionTemplateLiteral(spec)) ? spec.text : null;
    out.push({ kind: k, specifier, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1 });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add('import', node, node.moduleSpecifier);
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier) add('export-from', node, node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      add('require', node, node.moduleReference.expression);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add('import-type', node, node.argument.literal);
    else if (ts.isCallExpression(node)) {
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword) add('dynamic', node, node.arguments[0]);
      else if (ts.isIdentifier(node.expression) && node.expression.text === 'require') add('require', node, node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}
