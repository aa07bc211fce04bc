import type { Expression, Statement } from './syntax-tree.js';

/** Calls `visit` for every expression under the statements, parents before children. */
export function forEachExpression(body: Statement[], visit: (expression: Expression) => void): void {
  const expression = (e: Expression | null): void => {
    if (!e) return;
    visit(e);
    switch (e.kind) {
      case 'List': case 'Tuple': e.elements.forEach(expression); return;
      case 'ListComp': expression(e.element); comprehensions(e.generators); return;
      case 'DictComp': expression(e.key); expression(e.value); comprehensions(e.generators); return;
      case 'Dict': for (const entry of e.entries) { expression(entry.key); expression(entry.value); } return;
      case 'Attribute': expression(e.value); return;
      case 'Subscript': expression(e.value); expression(e.slice); return;
      case 'Slice': expression(e.lower); expression(e.upper); expression(e.step); return;
      case 'Call': expression(e.func); e.args.forEach(expression); for (const k of e.keywords) expression(k.value); return;
      case 'Compare': expression(e.left); e.comparators.forEach(expression); return;
      case 'BoolOp': case 'JoinedStr': e.values.forEach(expression); return;
      case 'BinOp': expression(e.left); expression(e.right); return;
      case 'UnaryOp': expression(e.operand); return;
      case 'IfExp': expression(e.test); expression(e.body); expression(e.orelse); return;
      case 'FormattedValue': expression(e.value); expression(e.formatSpec); return;
      default: return;
    }
  };
  const comprehensions = (list: { target: Expression; iter: Expression; ifs: Expression[] }[]): void => {
    for (const c of list) { expression(c.target); expression(c.iter); c.ifs.forEach(expression); }
  };
  const statement = (s: Statement): void => {
    switch (s.kind) {
      case 'FunctionDef':
        s.decorators.forEach(expression);
        for (const p of s.parameters) { expression(p.annotation); expression(p.default); }
        expression(s.returns);
        s.body.forEach(statement);
        return;
      case 'Return': expression(s.value); return;
      case 'Assign': s.targets.forEach(expression); expression(s.value); return;
      case 'AugAssign': expression(s.target); expression(s.value); return;
      case 'For': expression(s.target); expression(s.iter); s.body.forEach(statement); s.orelse.forEach(statement); return;
      case 'While': case 'If': expression(s.test); s.body.forEach(statement); s.orelse.forEach(statement); return;
      case 'Assert': expression(s.test); expression(s.message); return;
      case 'Raise': expression(s.exception); expression(s.cause); return;
      case 'Expr': expression(s.value); return;
      default: return;
    }
  };
  body.forEach(statement);
}
