import { readFileSync } from 'node:fs';
import ts from 'typescript';

/**
 * The doc comments written above the keys of a zod object schema in its source file, by dotted
 * key path (`tools.http.host`). Zod keeps no comments at run time and the schemas carry few
 * `.describe()` texts, so the configuration reference reads them from the source: the comment
 * stays next to the key it explains and the reference cannot drift from it.
 *
 * Nested objects are followed through method chains (`x.nullable().default(…)`), through
 * constants of the same file (`http: toolsHttpSchema.nullable()`) and through small factory
 * functions (`api: bucket(30, 60)`).
 */
export function schemaKeyComments(file: string, topLevelKeys: readonly string[]): Map<string, string> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const constants = new Map<string, ts.Expression>();
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const d of statement.declarationList.declarations) {
      if (ts.isIdentifier(d.name) && d.initializer) constants.set(d.name.text, d.initializer);
    }
  }
  const wanted = [...topLevelKeys].sort().join(',');
  for (const initializer of constants.values()) {
    const literal = objectSchemaLiteral(initializer, constants, new Set());
    if (literal && keysOf(literal).sort().join(',') === wanted) {
      const comments = new Map<string, string>();
      collect(literal, '', constants, comments);
      return comments;
    }
  }
  throw new Error(`${file}: no zod object schema with exactly the keys ${wanted}`);
}

const OBJECT_FACTORIES = new Set(['object', 'strictObject', 'looseObject']);

/** The `{ … }` of the `z.object({ … })` an expression builds, if it builds one. */
function objectSchemaLiteral(expr: ts.Expression, constants: Map<string, ts.Expression>, seen: Set<string>): ts.ObjectLiteralExpression | undefined {
  if (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr) || ts.isSatisfiesExpression(expr)) {
    return objectSchemaLiteral(expr.expression, constants, seen);
  }
  if (ts.isArrowFunction(expr) || ts.isFunctionExpression(expr)) {
    return ts.isBlock(expr.body) ? undefined : objectSchemaLiteral(expr.body, constants, seen);
  }
  if (ts.isIdentifier(expr)) {
    const target = constants.get(expr.text);
    if (!target || seen.has(expr.text)) return undefined;
    return objectSchemaLiteral(target, constants, new Set([...seen, expr.text]));
  }
  if (!ts.isCallExpression(expr)) return undefined;
  const callee = expr.expression;
  if (ts.isPropertyAccessExpression(callee)) {
    const first = expr.arguments[0];
    if (OBJECT_FACTORIES.has(callee.name.text) && ts.isIdentifier(callee.expression) && callee.expression.text === 'z' && first && ts.isObjectLiteralExpression(first)) {
      return first;
    }
    // A modifier such as `.nullable()`, `.default(…)`, `.prefault({})`: the object is what it modifies.
    return objectSchemaLiteral(callee.expression, constants, seen);
  }
  if (ts.isIdentifier(callee)) return objectSchemaLiteral(callee, constants, seen);
  return undefined;
}

function keysOf(literal: ts.ObjectLiteralExpression): string[] {
  return literal.properties.flatMap((p) => (p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? [p.name.text] : []));
}

function collect(literal: ts.ObjectLiteralExpression, prefix: string, constants: Map<string, ts.Expression>, out: Map<string, string>): void {
  for (const property of literal.properties) {
    if (!ts.isPropertyAssignment(property) || !(ts.isIdentifier(property.name) || ts.isStringLiteral(property.name))) continue;
    const key = prefix + property.name.text;
    const text = docComment(property);
    if (text) out.set(key, text);
    const inner = objectSchemaLiteral(property.initializer, constants, new Set());
    if (inner) collect(inner, `${key}.`, constants, out);
  }
}

/**
 * The last `/** … *\/` in the trivia before the key. Read from the text rather than the parser's
 * JSDoc, which skips a comment sharing the line of the `{` before it.
 */
function docComment(node: ts.Node): string | undefined {
  const trivia = node.getSourceFile().text.slice(node.pos, node.getStart());
  const blocks = [...trivia.matchAll(/\/\*\*([\s\S]*?)\*\//g)];
  const last = blocks[blocks.length - 1]?.[1];
  if (!last) return undefined;
  const text = last.split('\n').map((line) => line.replace(/^\s*\*?\s?/, '')).join(' ').replace(/\s+/g, ' ').trim();
  return text || undefined;
}
