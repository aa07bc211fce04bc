import { errorDiagnostic, type CompilerDiagnostic } from './diagnostics.js';
import type { Comprehension, Expression, Parameter, Statement, Unsupported } from './syntax-tree.js';

/**
 * The syntax subset: reports every Python construct outside it as
 * `xian.syntax.unsupported_<category>.<code>` and drops the statement holding it. Within one
 * statement the first offending construct (in the order upstream visits fields) is reported; a
 * compound statement with an unsupported header is dropped with its body unvisited, as upstream does.
 */
export function checkSubset(body: Statement[]): { body: Statement[]; diagnostics: CompilerDiagnostic[] } {
  const diagnostics: CompilerDiagnostic[] = [];
  const report = (node: Unsupported): false => {
    diagnostics.push(errorDiagnostic(`xian.syntax.unsupported_${node.category}.${node.code}`, node.message, node.span));
    return false;
  };

  const expr = (e: Expression | null): boolean => {
    if (e === null) return true;
    switch (e.kind) {
      case 'Unsupported': return report(e);
      case 'Name': case 'Constant': return true;
      case 'List': case 'Tuple': return exprs(e.elements);
      case 'ListComp': return expr(e.element) && comprehensions(e.generators);
      case 'DictComp': return expr(e.key) && expr(e.value) && comprehensions(e.generators);
      case 'Dict': return e.entries.every((entry) => expr(entry.key) && expr(entry.value));
      case 'Attribute': return expr(e.value);
      case 'Subscript': return expr(e.value) && expr(e.slice);
      case 'Slice': return expr(e.lower) && expr(e.upper) && expr(e.step);
      case 'Call': return expr(e.func) && exprs(e.args) && e.keywords.every((keyword) => expr(keyword.value));
      case 'Compare': return expr(e.left) && exprs(e.comparators);
      case 'BoolOp': case 'JoinedStr': return exprs(e.values);
      case 'BinOp':
        if (e.operator === 'matmult') {
          return report({ kind: 'Unsupported', span: e.span, category: 'operator', code: 'mat_mult', message: 'matrix multiplication is not supported' });
        }
        return expr(e.left) && expr(e.right);
      case 'UnaryOp': return expr(e.operand);
      case 'IfExp': return expr(e.test) && expr(e.body) && expr(e.orelse);
      case 'FormattedValue': return expr(e.value) && expr(e.formatSpec);
    }
  };
  const exprs = (list: Expression[]): boolean => list.every(expr);
  const comprehensions = (list: Comprehension[]): boolean =>
    list.every((c) => expr(c.target) && expr(c.iter) && exprs(c.ifs));
  const parameters = (list: Parameter[]): boolean => list.every((p) => expr(p.annotation) && expr(p.default));

  const statements = (list: Statement[]): Statement[] => {
    const out: Statement[] = [];
    for (const s of list) {
      const kept = statement(s);
      if (kept) out.push(kept);
    }
    return out;
  };
  const statement = (s: Statement): Statement | null => {
    switch (s.kind) {
      case 'Unsupported': report(s); return null;
      case 'FunctionDef':
        if (!exprs(s.decorators) || !parameters(s.parameters) || !expr(s.returns)) return null;
        return { ...s, body: statements(s.body) };
      case 'Return': return expr(s.value) ? s : null;
      case 'Assign': return exprs(s.targets) && expr(s.value) ? s : null;
      case 'AugAssign':
        if (!expr(s.target)) return null;
        if (s.operator === 'matmult') {
          report({ kind: 'Unsupported', span: s.span, category: 'operator', code: 'mat_mult', message: 'matrix multiplication is not supported' });
          return null;
        }
        return expr(s.value) ? s : null;
      case 'For':
        if (!expr(s.target) || !expr(s.iter)) return null;
        return { ...s, body: statements(s.body), orelse: statements(s.orelse) };
      case 'While': case 'If':
        if (!expr(s.test)) return null;
        return { ...s, body: statements(s.body), orelse: statements(s.orelse) };
      case 'Assert': return expr(s.test) && expr(s.message) ? s : null;
      case 'Raise': return expr(s.exception) && expr(s.cause) ? s : null;
      case 'Expr': return expr(s.value) ? s : null;
      case 'Import': case 'Pass': case 'Break': case 'Continue': return s;
    }
  };

  return { body: statements(body), diagnostics };
}
