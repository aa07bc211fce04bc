import type { Expression, Statement, StatementOf } from './syntax-tree.js';

export function nameId(e: Expression): string | null {
  return e.kind === 'Name' ? e.id : null;
}

/** `a.b.c` for a chain of names and attributes, else null. */
export function dottedPath(e: Expression): string | null {
  const parts: string[] = [];
  let current = e;
  while (current.kind === 'Attribute') {
    parts.push(current.attr);
    current = current.value;
  }
  if (current.kind !== 'Name') return null;
  parts.push(current.id);
  return parts.reverse().join('.');
}

/** A leading string-expression statement (docstring) and the statements after it. */
export function splitDocstring(body: Statement[]): [string | null, Statement[]] {
  const first = body[0];
  if (first?.kind === 'Expr' && first.value.kind === 'Constant' && first.value.value.type === 'str') {
    return [first.value.value.value, body.slice(1)];
  }
  return [null, body];
}

/** Values of every `return <value>` in a body, loops and branches included, nested functions not. */
export function returnValues(body: Statement[], out: Expression[] = []): Expression[] {
  for (const s of body) {
    if (s.kind === 'Return' && s.value) out.push(s.value);
    else if (s.kind === 'For' || s.kind === 'While' || s.kind === 'If') {
      returnValues(s.body, out);
      returnValues(s.orelse, out);
    }
  }
  return out;
}

/** `name = value` assignments (single target) in a body, loops and branches included. */
export function namedAssignments(body: Statement[], out: [string, Expression][] = []): [string, Expression][] {
  for (const s of body) {
    if (s.kind === 'Assign' && s.targets.length === 1 && s.targets[0]!.kind === 'Name') out.push([s.targets[0]!.id, s.value]);
    else if (s.kind === 'For' || s.kind === 'While' || s.kind === 'If') {
      namedAssignments(s.body, out);
      namedAssignments(s.orelse, out);
    }
  }
  return out;
}

export type CallExpression = Extract<Expression, { kind: 'Call' }>;

/** Every call expression in a body, outer calls before the calls inside them, in upstream's order. */
export function callExpressions(body: Statement[], out: CallExpression[] = []): CallExpression[] {
  const expression = (e: Expression | null): void => {
    if (!e) return;
    if (e.kind === 'Call') out.push(e);
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
  const comprehensions = (list: { target: Expression; iter: Expression; ifs: Expression[] }[]) => {
    for (const c of list) { expression(c.target); expression(c.iter); c.ifs.forEach(expression); }
  };
  const statements = (list: Statement[]): void => {
    for (const s of list) {
      switch (s.kind) {
        case 'Return': case 'Expr': expression(s.value); break;
        case 'Assign': s.targets.forEach(expression); expression(s.value); break;
        case 'AugAssign': expression(s.target); expression(s.value); break;
        case 'For': expression(s.target); expression(s.iter); statements(s.body); statements(s.orelse); break;
        case 'While': case 'If': expression(s.test); statements(s.body); statements(s.orelse); break;
        case 'Assert': expression(s.test); expression(s.message); break;
        case 'Raise': expression(s.exception); expression(s.cause); break;
        default: break;
      }
    }
  };
  statements(body);
  return out;
}

export type FunctionDef = StatementOf<'FunctionDef'>;
