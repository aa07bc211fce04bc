import { formatFloat } from './format-float.js';
import type {
  BinaryOperator, BoolOperator, Comprehension, Constant, DictEntry, Expression, Keyword, Parameter, Statement,
} from './syntax-tree.js';

/**
 * The normalized source: the syntax tree printed back as upstream's normalizer prints it (C/normalize.rs).
 * Comments and layout are lost; the chain stores and hashes this text, and every IR span points into it.
 */
export function normalizeModule(body: Statement[]): string {
  return formatStatements(body, 0, true);
}

const INDENT = '    ';

function formatStatements(statements: Statement[], indent: number, topLevel: boolean): string {
  let output = '';
  statements.forEach((statement, index) => {
    if (index > 0) output += topLevel && statement.kind === 'FunctionDef' ? '\n\n' : '\n';
    output += formatStatement(statement, indent);
  });
  return output;
}

function formatBlock(statements: Statement[], indent: number): string {
  return statements.length === 0 ? `${INDENT.repeat(indent)}pass` : formatStatements(statements, indent, false);
}

function formatStatement(s: Statement, indent: number): string {
  const prefix = INDENT.repeat(indent);
  switch (s.kind) {
    case 'FunctionDef': {
      const lines = s.decorators.map((decorator) => `${prefix}@${formatExpression(decorator)}`);
      let header = `${prefix}def ${s.name}(${formatParameters(s.parameters)})`;
      if (s.returns) header += ` -> ${formatExpression(s.returns)}`;
      lines.push(`${header}:`, formatBlock(s.body, indent + 1));
      return lines.join('\n');
    }
    case 'Return':
      return s.value ? `${prefix}return ${formatExpression(s.value)}` : `${prefix}return`;
    case 'Assign':
      return `${prefix}${s.targets.map(formatTarget).join(' = ')} = ${formatExpression(s.value)}`;
    case 'AugAssign':
      return `${prefix}${formatExpression(s.target)} ${BINARY_SYMBOLS[s.operator as BinaryOperator]}= ${formatExpression(s.value)}`;
    case 'For': {
      let output = `${prefix}for ${formatTarget(s.target)} in ${formatExpression(s.iter)}:\n${formatBlock(s.body, indent + 1)}`;
      if (s.orelse.length > 0) output += `\n${prefix}else:\n${formatBlock(s.orelse, indent + 1)}`;
      return output;
    }
    case 'While': {
      let output = `${prefix}while ${formatExpression(s.test)}:\n${formatBlock(s.body, indent + 1)}`;
      if (s.orelse.length > 0) output += `\n${prefix}else:\n${formatBlock(s.orelse, indent + 1)}`;
      return output;
    }
    case 'If':
      return formatConditionalChain('if', s, indent);
    case 'Assert':
      return s.message
        ? `${prefix}assert ${formatExpression(s.test)}, ${formatExpression(s.message)}`
        : `${prefix}assert ${formatExpression(s.test)}`;
    case 'Raise':
      if (!s.exception) return `${prefix}raise`;
      return s.cause
        ? `${prefix}raise ${formatExpression(s.exception)} from ${formatExpression(s.cause)}`
        : `${prefix}raise ${formatExpression(s.exception)}`;
    case 'Import':
      return `${prefix}import ${s.names.map((alias) => (alias.alias ? `${alias.name} as ${alias.alias}` : alias.name)).join(', ')}`;
    case 'Expr':
      if (s.value.kind === 'Constant' && s.value.value.type === 'str' && s.value.value.value.includes('\n')) {
        return `${prefix}"""${s.value.value.value.replaceAll('"""', '\\"""')}"""`;
      }
      return `${prefix}${formatExpression(s.value)}`;
    case 'Pass': return `${prefix}pass`;
    case 'Break': return `${prefix}break`;
    case 'Continue': return `${prefix}continue`;
    case 'Unsupported': return `${prefix}pass`;
  }
}

function formatConditionalChain(keyword: string, s: Extract<Statement, { kind: 'If' }>, indent: number): string {
  const prefix = INDENT.repeat(indent);
  // Iterative over the elif chain, so a long chain costs no stack.
  let output = '';
  let current = s;
  let word = keyword;
  for (;;) {
    output += `${prefix}${word} ${formatExpression(current.test)}:\n${formatBlock(current.body, indent + 1)}`;
    const orelse = current.orelse;
    if (orelse.length === 1 && orelse[0]!.kind === 'If') {
      output += '\n';
      current = orelse[0]!;
      word = 'elif';
      continue;
    }
    if (orelse.length > 0) output += `\n${prefix}else:\n${formatBlock(orelse, indent + 1)}`;
    return output;
  }
}

function formatParameters(parameters: Parameter[]): string {
  const parts: string[] = [];
  let sawVararg = false;
  const hasPositionalOnly = parameters.some((p) => p.kind === 'positional_only');
  let insertedPositionalOnly = false;
  let insertedKeywordOnly = false;
  parameters.forEach((parameter, index) => {
    if (hasPositionalOnly && !insertedPositionalOnly && parameter.kind !== 'positional_only') {
      parts.push('/');
      insertedPositionalOnly = true;
    }
    if (parameter.kind === 'keyword_only' && !sawVararg && !insertedKeywordOnly) {
      parts.push('*');
      insertedKeywordOnly = true;
    }
    parts.push(formatParameter(parameter));
    if (parameter.kind === 'vararg') sawVararg = true;
    if (hasPositionalOnly && index + 1 === parameters.length && !insertedPositionalOnly) parts.push('/');
  });
  return parts.join(', ');
}

function formatParameter(p: Parameter): string {
  let output = p.kind === 'vararg' ? `*${p.name}` : p.kind === 'kwarg' ? `**${p.name}` : p.name;
  if (p.annotation) output += `: ${formatExpression(p.annotation)}`;
  if (p.default) output += `=${formatExpression(p.default)}`;
  return output;
}

function formatTarget(e: Expression): string {
  return e.kind === 'Tuple' ? formatBareTuple(e.elements) : formatExpression(e);
}

const PRECEDENCE_IF_EXPR = 10;
const PRECEDENCE_OR = 20;
const PRECEDENCE_AND = 30;
const PRECEDENCE_NOT = 35;
const PRECEDENCE_COMPARE = 40;
const PRECEDENCE_UNARY = 80;
const PRECEDENCE_POWER = 90;
const PRECEDENCE_POSTFIX = 100;
const PRECEDENCE_ATOM = 110;

const BINARY_PRECEDENCE: Record<BinaryOperator, number> = {
  pow: PRECEDENCE_POWER, mul: 70, div: 70, floordiv: 70, mod: 70, add: 60, sub: 60,
  lshift: 55, rshift: 55, bitand: 50, bitxor: 49, bitor: 48,
};

const BINARY_SYMBOLS: Record<BinaryOperator, string> = {
  add: '+', sub: '-', mul: '*', div: '/', floordiv: '//', mod: '%', pow: '**',
  bitand: '&', bitor: '|', bitxor: '^', lshift: '<<', rshift: '>>',
};

const COMPARE_SYMBOLS: Record<string, string> = {
  eq: '==', not_eq: '!=', gt: '>', gt_e: '>=', lt: '<', lt_e: '<=', in: 'in', not_in: 'not in', is: 'is', is_not: 'is not',
};

function precedence(e: Expression): number {
  switch (e.kind) {
    case 'IfExp': return PRECEDENCE_IF_EXPR;
    case 'BoolOp': return e.operator === 'or' ? PRECEDENCE_OR : PRECEDENCE_AND;
    case 'UnaryOp': return e.operator === 'not' ? PRECEDENCE_NOT : PRECEDENCE_UNARY;
    case 'Compare': return PRECEDENCE_COMPARE;
    case 'BinOp': return BINARY_PRECEDENCE[e.operator as BinaryOperator];
    case 'Attribute': case 'Subscript': case 'Call': return PRECEDENCE_POSTFIX;
    default: return PRECEDENCE_ATOM;
  }
}

// Boolean operands are parenthesized with a CPython-like table (upstream's `format_bool_op`).
const CPYTHON_OR = 5;
const CPYTHON_AND = 6;
const CPYTHON_ATOM = 18;

function cpythonPrecedence(e: Expression): number {
  switch (e.kind) {
    case 'IfExp': return 4;
    case 'BoolOp': return e.operator === 'or' ? CPYTHON_OR : CPYTHON_AND;
    case 'UnaryOp': return e.operator === 'not' ? 7 : 15;
    case 'Compare': return 8;
    case 'BinOp':
      switch (e.operator) {
        case 'bitor': return 9;
        case 'bitxor': return 10;
        case 'bitand': return 11;
        case 'lshift': case 'rshift': return 12;
        case 'add': case 'sub': return 13;
        case 'pow': return 16;
        default: return 14;
      }
    default: return CPYTHON_ATOM;
  }
}

export function formatExpression(e: Expression): string {
  return formatWithPrecedence(e, 0);
}

function formatWithPrecedence(e: Expression, parent: number): string {
  const own = precedence(e);
  const raw = formatRaw(e, own);
  return own < parent ? `(${raw})` : raw;
}

function formatRaw(e: Expression, own: number): string {
  switch (e.kind) {
    case 'Name': return e.id;
    case 'Constant': return formatConstant(e.value);
    case 'List': return `[${formatList(e.elements)}]`;
    case 'ListComp': return `[${formatExpression(e.element)} ${formatComprehensions(e.generators)}]`;
    case 'DictComp': return `{${formatExpression(e.key)}: ${formatExpression(e.value)} ${formatComprehensions(e.generators)}}`;
    case 'Tuple':
      if (e.elements.length === 0) return '()';
      if (e.elements.length === 1) return `(${formatExpression(e.elements[0]!)},)`;
      return `(${formatList(e.elements)})`;
    case 'Dict': return formatDict(e.entries);
    case 'Attribute': return `${formatWithPrecedence(e.value, PRECEDENCE_POSTFIX)}.${e.attr}`;
    case 'Subscript': return `${formatWithPrecedence(e.value, PRECEDENCE_POSTFIX)}[${formatSubscriptSlice(e.slice)}]`;
    case 'Slice': return formatSlice(e.lower, e.upper, e.step);
    case 'Call': return `${formatWithPrecedence(e.func, PRECEDENCE_POSTFIX)}(${formatCallArgs(e.args, e.keywords)})`;
    case 'Compare': {
      let output = formatWithPrecedence(e.left, PRECEDENCE_COMPARE + 1);
      e.operators.forEach((operator, index) => {
        const comparator = e.comparators[index];
        if (comparator) output += ` ${COMPARE_SYMBOLS[operator]} ${formatWithPrecedence(comparator, PRECEDENCE_COMPARE + 1)}`;
      });
      return output;
    }
    case 'BoolOp': return formatBoolOp(e.operator, e.values);
    case 'BinOp': {
      const pow = e.operator === 'pow';
      return `${formatWithPrecedence(e.left, pow ? own + 1 : own)} ${BINARY_SYMBOLS[e.operator as BinaryOperator]} ${formatWithPrecedence(e.right, pow ? own : own + 1)}`;
    }
    case 'UnaryOp': {
      const symbol = e.operator === 'not' ? 'not ' : e.operator === 'neg' ? '-' : e.operator === 'pos' ? '+' : '~';
      return `${symbol}${formatWithPrecedence(e.operand, own)}`;
    }
    case 'IfExp':
      return `${formatWithPrecedence(e.body, own + 1)} if ${formatWithPrecedence(e.test, own + 1)} else ${formatWithPrecedence(e.orelse, own + 1)}`;
    case 'JoinedStr': {
      const content = e.values.map(formatFStringPart).join('');
      return `f'${content.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
    }
    case 'FormattedValue': return `{${formatFStringPart(e)}}`;
    case 'Unsupported': return '';
  }
}

function formatList(elements: Expression[]): string {
  return elements.map(formatExpression).join(', ');
}

function formatBareTuple(elements: Expression[]): string {
  if (elements.length === 0) return '()';
  if (elements.length === 1) return `${formatExpression(elements[0]!)},`;
  return formatList(elements);
}

function formatBoolOp(operator: BoolOperator, values: Expression[]): string {
  let context = operator === 'or' ? CPYTHON_OR : CPYTHON_AND;
  return values
    .map((value) => {
      context = Math.min(context + 1, CPYTHON_ATOM);
      const rendered = formatExpression(value);
      return context > cpythonPrecedence(value) ? `(${rendered})` : rendered;
    })
    .join(` ${operator} `);
}

function formatDict(entries: DictEntry[]): string {
  return `{${entries.map((entry) => (entry.key ? `${formatExpression(entry.key)}: ${formatExpression(entry.value)}` : `**${formatExpression(entry.value)}`)).join(', ')}}`;
}

function formatSlice(lower: Expression | null, upper: Expression | null, step: Expression | null): string {
  const l = lower ? formatExpression(lower) : '';
  const u = upper ? formatExpression(upper) : '';
  return step ? `${l}:${u}:${formatExpression(step)}` : `${l}:${u}`;
}

function formatSubscriptSlice(slice: Expression): string {
  if (slice.kind === 'Slice') return formatSlice(slice.lower, slice.upper, slice.step);
  if (slice.kind === 'Tuple') return formatBareTuple(slice.elements);
  return formatExpression(slice);
}

function formatCallArgs(args: Expression[], keywords: Keyword[]): string {
  return [
    ...args.map(formatExpression),
    ...keywords.map((keyword) => (keyword.arg !== null ? `${keyword.arg}=${formatExpression(keyword.value)}` : `**${formatExpression(keyword.value)}`)),
  ].join(', ');
}

function formatComprehensions(generators: Comprehension[]): string {
  return generators
    .map((c) => {
      let output = `${c.isAsync ? 'async ' : ''}for ${formatExpression(c.target)} in ${formatExpression(c.iter)}`;
      for (const condition of c.ifs) output += ` if ${formatExpression(condition)}`;
      return output;
    })
    .join(' ');
}

function formatFStringPart(e: Expression): string {
  if (e.kind === 'Constant' && e.value.type === 'str') return e.value.value.replaceAll('{', '{{').replaceAll('}', '}}');
  if (e.kind === 'FormattedValue') {
    let output = formatExpression(e.value);
    if (e.conversion) output += `!${e.conversion}`;
    if (e.formatSpec) {
      output += `:${e.formatSpec.kind === 'JoinedStr' ? e.formatSpec.values.map(formatFStringPart).join('') : formatExpression(e.formatSpec)}`;
    }
    return `{${output}}`;
  }
  return formatExpression(e);
}

function formatConstant(c: Constant): string {
  switch (c.type) {
    case 'none': return 'None';
    case 'bool': return c.value ? 'True' : 'False';
    case 'int': return c.value;
    case 'float': return formatFloat(c.value);
    case 'str': return quoteString(c.value);
    case 'bytes': return `b'${(c.value.match(/../g) ?? []).map((pair) => `\\x${pair}`).join('')}'`;
  }
}

function quoteString(value: string): string {
  const delimiter = value.includes("'") && !value.includes('"') ? '"' : "'";
  let output = delimiter;
  for (const ch of value) {
    const cp = ch.codePointAt(0)!;
    if (ch === '\\') output += '\\\\';
    else if (ch === delimiter) output += `\\${ch}`;
    else if (ch === '\n') output += '\\n';
    else if (ch === '\r') output += '\\r';
    else if (ch === '\t') output += '\\t';
    else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) output += `\\u${cp.toString(16).padStart(4, '0')}`;
    else output += ch;
  }
  return output + delimiter;
}
