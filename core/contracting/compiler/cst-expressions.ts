import type { SyntaxNode } from '@lezer/common';
import { childrenOf, splitAtCommas, type CstContext } from './cst-context.js';
import { decodeNumber } from './literals.js';
import { readStrings } from './cst-strings.js';
import type {
  CompareOperator, Comprehension, DictEntry, Expression, Keyword, ParsedBinaryOperator,
} from './syntax-tree.js';

const BINARY_OPERATORS: Record<string, ParsedBinaryOperator> = {
  '+': 'add', '-': 'sub', '*': 'mul', '/': 'div', '//': 'floordiv', '%': 'mod', '**': 'pow',
  '&': 'bitand', '|': 'bitor', '^': 'bitxor', '<<': 'lshift', '>>': 'rshift', '@': 'matmult',
};
const COMPARE_OPERATORS: Record<string, CompareOperator> = {
  '==': 'eq', '!=': 'not_eq', '>': 'gt', '>=': 'gt_e', '<': 'lt', '<=': 'lt_e',
  in: 'in', 'not in': 'not_in', is: 'is', 'is not': 'is_not',
};

/** Reads expressions out of @lezer/python's tree into the contract syntax tree, with Python's ranges. */
export class ExpressionReader {
  constructor(private readonly ctx: CstContext) {}

  /** One expression node. */
  expr(node: SyntaxNode, depth: number): Expression {
    const ctx = this.ctx;
    ctx.guardDepth(depth, node.from);
    const d = depth + 1;
    const span = ctx.range(node.from, node.to);
    switch (node.name) {
      case 'VariableName':
        return { kind: 'Name', span, id: ctx.text(node) };
      case 'Boolean':
        return { kind: 'Constant', span, value: { type: 'bool', value: ctx.text(node) === 'True' } };
      case 'None':
        return { kind: 'Constant', span, value: { type: 'none' } };
      case 'Ellipsis':
        return ctx.unsupported('constant', 'ellipsis', 'ellipsis constants are not supported', node.from, node.to);
      case 'Number': {
        const number = decodeNumber(ctx.text(node), node.from);
        if (number.type === 'complex') {
          return ctx.unsupported('constant', 'complex', 'complex constants are not supported', node.from, node.to);
        }
        return { kind: 'Constant', span, value: number };
      }
      case 'String':
      case 'FormatString':
      case 'ContinuedString':
        return readStrings(ctx, this, node, d);
      case 'ParenthesizedExpression': {
        const inner = inside(node);
        if (inner.length !== 1) ctx.fail((inner[1] ?? node).from, 'invalid syntax');
        return this.expr(inner[0]!, d);
      }
      case 'TupleExpression': {
        const inner = inside(node);
        if (inner.length === 0) return { kind: 'Tuple', span, elements: [] };
        const { groups } = splitAtCommas(inner);
        return { kind: 'Tuple', span, elements: groups.map((group) => this.item(group, d, node.from)) };
      }
      case 'ArrayExpression': {
        const inner = inside(node);
        if (inner.length === 0) return { kind: 'List', span, elements: [] };
        const { groups } = splitAtCommas(inner);
        return { kind: 'List', span, elements: groups.map((group) => this.item(group, d, node.from)) };
      }
      case 'ArrayComprehensionExpression': {
        const inner = inside(node);
        const forAt = inner.findIndex((child) => child.name === 'for' || child.name === 'async');
        const element = this.item(inner.slice(0, forAt), d, node.from);
        return { kind: 'ListComp', span, element, generators: this.comprehensions(inner.slice(forAt), d, node) };
      }
      case 'DictionaryExpression':
        return { kind: 'Dict', span, entries: this.dictEntries(inside(node), d, node.from) };
      case 'DictionaryComprehensionExpression': {
        const inner = inside(node);
        const forAt = inner.findIndex((child) => child.name === 'for' || child.name === 'async');
        if (forAt !== 3 || inner[1]!.name !== ':') ctx.fail(inner[1]?.from ?? node.from, 'invalid syntax');
        return {
          kind: 'DictComp', span, key: this.expr(inner[0]!, d), value: this.expr(inner[2]!, d),
          generators: this.comprehensions(inner.slice(forAt), d, node),
        };
      }
      case 'SetExpression':
        return ctx.unsupported('expression', 'set', 'set literals are not supported', node.from, node.to);
      case 'SetComprehensionExpression':
        return ctx.unsupported('expression', 'set_comp', 'set comprehensions are not supported', node.from, node.to);
      case 'ComprehensionExpression':
        return ctx.unsupported('expression', 'generator_exp', 'generator expressions are not supported', node.from, node.to);
      case 'LambdaExpression':
        return ctx.unsupported('expression', 'lambda', 'lambda expressions are not supported', node.from, node.to);
      case 'NamedExpression':
        return ctx.unsupported('expression', 'named_expr', 'assignment expressions are not supported', node.from, node.to);
      case 'AwaitExpression':
        return ctx.unsupported('expression', 'await', 'await expressions are not supported', node.from, node.to);
      case 'YieldExpression':
        return ctx.unsupported('expression', 'yield', 'yield expressions are not supported', node.from, node.to);
      case 'CallExpression':
        return this.call(node, d);
      case 'MemberExpression':
        return this.member(node, d);
      case 'BinaryExpression':
        if (isBooleanOperator(binaryOperatorText(ctx, node))) return this.booleanLevel(node, d);
        return this.binary(node, d);
      case 'UnaryExpression': {
        const [op, operand] = childrenOf(node);
        const symbol = ctx.text(op!);
        if (symbol === 'not') return this.booleanLevel(node, d);
        const operator = symbol === 'not' ? 'not' : symbol === '-' ? 'neg' : symbol === '+' ? 'pos' : 'invert';
        return { kind: 'UnaryOp', span, operator, operand: this.expr(operand!, d) };
      }
      case 'ConditionalExpression': {
        const [body, , test, , orelse] = childrenOf(node);
        return { kind: 'IfExp', span, test: this.expr(test!, d), body: this.expr(body!, d), orelse: this.expr(orelse!, d) };
      }
      default:
        return ctx.fail(node.from, 'invalid syntax');
    }
  }

  /** One list/tuple/argument item: an expression or a `*starred` one. */
  item(nodes: SyntaxNode[], depth: number, fallbackOffset: number): Expression {
    const first = nodes[0];
    if (!first) return this.ctx.fail(fallbackOffset, 'invalid syntax');
    if (first.name === '*') {
      if (nodes.length !== 2) this.ctx.fail((nodes[2] ?? first).from, 'invalid syntax');
      return this.ctx.unsupported('expression', 'starred', 'starred expressions are not supported', first.from, nodes[1]!.to);
    }
    if (nodes.length !== 1) this.ctx.fail(nodes[1]!.from, 'invalid syntax');
    return this.expr(first, depth);
  }

  /** A bare comma list (`a, b` in a statement): one expression, or a tuple without parentheses. */
  exprList(nodes: SyntaxNode[], depth: number, fallbackOffset: number): Expression {
    const { groups, commas } = splitAtCommas(nodes);
    if (commas === 0) return this.item(groups[0]!, depth, fallbackOffset);
    const span = this.ctx.range(nodes[0]!.from, nodes[nodes.length - 1]!.to);
    return { kind: 'Tuple', span, elements: groups.map((group) => this.item(group, depth + 1, fallbackOffset)) };
  }

  comprehensions(nodes: SyntaxNode[], depth: number, whole: SyntaxNode): Comprehension[] {
    const ctx = this.ctx;
    const span = ctx.range(whole.from, whole.to);
    const generators: Comprehension[] = [];
    let i = 0;
    const until = (stop: (name: string) => boolean): SyntaxNode[] => {
      const start = i;
      while (i < nodes.length && !stop(nodes[i]!.name)) i++;
      return nodes.slice(start, i);
    };
    const clauseEnd = (name: string) => name === 'for' || name === 'if' || name === 'async' || name === ')' || name === ']' || name === '}';
    while (i < nodes.length && nodes[i]!.name !== ')' && nodes[i]!.name !== ']' && nodes[i]!.name !== '}') {
      let isAsync = false;
      if (nodes[i]!.name === 'async') {
        isAsync = true;
        i++;
      }
      if (nodes[i]?.name !== 'for') ctx.fail(nodes[i]?.from ?? whole.to, 'invalid syntax');
      i++;
      const targetNodes = until((name) => name === 'in');
      const target = this.exprList(targetNodes, depth, whole.from);
      checkTarget(ctx, target, targetNodes[0]?.from ?? whole.from);
      i++;
      const iterNodes = until(clauseEnd);
      if (iterNodes.length !== 1) ctx.fail((iterNodes[1] ?? whole).from, 'invalid syntax');
      const iter = this.expr(iterNodes[0]!, depth);
      const ifs: Expression[] = [];
      while (nodes[i]?.name === 'if') {
        i++;
        const conditionNodes = until(clauseEnd);
        if (conditionNodes.length !== 1) ctx.fail((conditionNodes[1] ?? whole).from, 'invalid syntax');
        ifs.push(this.expr(conditionNodes[0]!, depth));
      }
      generators.push({ span, target, iter, ifs, isAsync });
    }
    return generators;
  }

  private dictEntries(nodes: SyntaxNode[], depth: number, fallbackOffset: number): DictEntry[] {
    if (nodes.length === 0) return [];
    const { groups } = splitAtCommas(nodes);
    return groups.map((group) => {
      if (group[0]?.name === '**' && group.length === 2) return { key: null, value: this.expr(group[1]!, depth) };
      if (group.length === 3 && group[1]!.name === ':') {
        return { key: this.expr(group[0]!, depth), value: this.expr(group[2]!, depth) };
      }
      return this.ctx.fail((group[1] ?? group[0])?.from ?? fallbackOffset, 'invalid syntax');
    });
  }

  private call(node: SyntaxNode, depth: number): Expression {
    const [funcNode, argList] = childrenOf(node);
    return this.callWith(this.expr(funcNode!, depth), argList!, node.from, depth);
  }

  /** A call of `func` with the arguments of `argList`, spanning from `from` to the closing parenthesis. */
  callWith(func: Expression, argList: SyntaxNode, from: number, depth: number): Expression {
    const ctx = this.ctx;
    const inner = inside(argList);
    const args: Expression[] = [];
    const keywords: Keyword[] = [];
    if (inner.some((child) => child.name === 'for')) {
      // `f(x for x, y in z)`: a generator as the only argument (its target list may hold commas).
      if (!soleGenerator(inner)) ctx.fail(generatorStart(inner), 'Generator expression must be parenthesized');
      args.push(ctx.unsupported('expression', 'generator_exp', 'generator expressions are not supported', inner[0]!.from, inner[inner.length - 1]!.to));
    } else if (inner.length > 0) {
      const { groups } = splitAtCommas(inner);
      let sawKeyword = false;
      let sawMappingUnpack = false;
      for (const group of groups) {
        const first = group[0];
        if (!first) ctx.fail(argList.from, 'invalid syntax');
        const last = group[group.length - 1]!;
        if (first.name === '**') {
          if (group.length !== 2) ctx.fail(first.from, 'invalid syntax');
          keywords.push({ span: ctx.range(first.from, last.to), arg: null, value: this.expr(group[1]!, depth) });
          sawMappingUnpack = true;
        } else if (group.length === 3 && group[1]!.name === 'AssignOp' && ctx.text(group[1]!) === '=') {
          if (first.name !== 'VariableName') ctx.fail(first.from, 'expression cannot contain assignment');
          keywords.push({ span: ctx.range(first.from, last.to), arg: ctx.text(first), value: this.expr(group[2]!, depth) });
          sawKeyword = true;
        } else if (first.name === '*') {
          if (sawMappingUnpack) ctx.fail(first.from, 'iterable argument unpacking follows keyword argument unpacking');
          args.push(this.item(group, depth, first.from));
        } else {
          if (sawMappingUnpack) ctx.fail(first.from, 'positional argument follows keyword argument unpacking');
          if (sawKeyword) ctx.fail(first.from, 'positional argument follows keyword argument');
          args.push(this.item(group, depth, first.from));
        }
      }
    }
    return { kind: 'Call', span: ctx.range(from, argList.to), func, args, keywords };
  }

  private member(node: SyntaxNode, depth: number): Expression {
    const ctx = this.ctx;
    const children = childrenOf(node);
    const literal = floatWithTrailingDot(ctx, children);
    if (literal) return literal;
    const value = this.expr(children[0]!, depth);
    const span = ctx.range(node.from, node.to);
    if (children[1]?.name === '.') {
      const attr = ctx.text(children[2]!);
      // lezer takes any word after a dot; Python's names exclude its keywords (`ctx.try`, `a.None`).
      if (PYTHON_KEYWORDS.has(attr)) ctx.fail(children[2]!.from, 'invalid syntax');
      return { kind: 'Attribute', span, value, attr };
    }
    const inner = children.slice(2, -1);
    if (inner.length === 0) ctx.fail(children[1]!.to, 'invalid syntax');
    const { groups, commas } = splitAtCommas(inner);
    const elements = groups.map((group) => this.subscriptElement(group, depth + 1, children[1]!.to));
    const slice: Expression = commas === 0
      ? elements[0]!
      : { kind: 'Tuple', span: ctx.range(inner[0]!.from, inner[inner.length - 1]!.to), elements };
    return { kind: 'Subscript', span, value, slice };
  }

  private subscriptElement(group: SyntaxNode[], depth: number, fallbackOffset: number): Expression {
    if (!group.some((child) => child.name === ':')) return this.item(group, depth, fallbackOffset);
    const parts: SyntaxNode[][] = [[]];
    for (const child of group) {
      if (child.name === ':') parts.push([]);
      else parts[parts.length - 1]!.push(child);
    }
    if (parts.length > 3) this.ctx.fail(group[0]!.from, 'invalid syntax');
    const bound = (nodes: SyntaxNode[] | undefined): Expression | null => {
      if (!nodes || nodes.length === 0) return null;
      if (nodes.length !== 1) this.ctx.fail(nodes[1]!.from, 'invalid syntax');
      return this.expr(nodes[0]!, depth);
    };
    return {
      kind: 'Slice',
      span: this.ctx.range(group[0]!.from, group[group.length - 1]!.to),
      lower: bound(parts[0]),
      upper: bound(parts[1]),
      step: bound(parts[2]),
    };
  }

  /**
   * `not`, `and` and `or` with Python's precedence. @lezer/python gives `not` a lower precedence
   * than `and`/`or` (it reads `not a and b` as `not (a and b)`), so the operators and operands of
   * an unparenthesized boolean expression are read flat, in source order, and regrouped:
   * or_test := and_test ('or' and_test)*, and_test := not_test ('and' not_test)*,
   * not_test := 'not' not_test | operand. Chains of one operator become one BoolOp, as in Python.
   */
  private booleanLevel(node: SyntaxNode, depth: number): Expression {
    const ctx = this.ctx;
    type Token = { op: 'and' | 'or' | 'not'; node: SyntaxNode } | { op: null; node: SyntaxNode };
    const tokens: Token[] = [];
    const pending: SyntaxNode[] = [node];
    // Iterative flattening (a stack of nodes still to visit, leftmost first).
    while (pending.length > 0) {
      const current = pending.pop()!;
      if (current.name === 'BinaryExpression' && isBooleanOperator(binaryOperatorText(ctx, current))) {
        const children = childrenOf(current);
        pending.push(children[children.length - 1]!, children[1]!, children[0]!);
      } else if (current.name === 'UnaryExpression' && ctx.text(childrenOf(current)[0]!) === 'not') {
        const [op, operand] = childrenOf(current);
        pending.push(operand!, op!);
      } else if (current.name === 'and' || current.name === 'or' || current.name === 'not') {
        tokens.push({ op: current.name, node: current });
      } else tokens.push({ op: null, node: current });
    }
    let i = 0;
    type Read = { expression: Expression; from: number; to: number };
    const chain = (operator: 'and' | 'or', next: (level: number) => Read, level: number): Read => {
      const first = next(level + 1);
      const values = [first];
      while (tokens[i]?.op === operator) {
        i++;
        values.push(next(level + 1));
      }
      if (values.length === 1) return first;
      const from = first.from;
      const to = values[values.length - 1]!.to;
      return { expression: { kind: 'BoolOp', span: ctx.range(from, to), operator, values: values.map((v) => v.expression) }, from, to };
    };
    const notTest = (level: number): Read => {
      ctx.guardDepth(depth + level, node.from);
      const token = tokens[i++];
      if (!token) return ctx.fail(node.to, 'invalid syntax');
      if (token.op === 'not') {
        const operand = notTest(level + 1);
        return {
          expression: { kind: 'UnaryOp', span: ctx.range(token.node.from, operand.to), operator: 'not', operand: operand.expression },
          from: token.node.from,
          to: operand.to,
        };
      }
      if (token.op !== null) return ctx.fail(token.node.from, 'invalid syntax');
      return { expression: this.expr(token.node, depth + level), from: token.node.from, to: token.node.to };
    };
    const andTest = (level: number): Read => chain('and', notTest, level);
    const result = chain('or', andTest, 0);
    if (i !== tokens.length) ctx.fail(tokens[i]!.node.from, 'invalid syntax');
    return result.expression;
  }

  private binary(node: SyntaxNode, depth: number): Expression {
    const ctx = this.ctx;
    const operator = binaryOperatorText(ctx, node);
    const span = ctx.range(node.from, node.to);
    const children = childrenOf(node);
    const leftNode = children[0]!;
    const rightNode = children[children.length - 1]!;
    const compare = COMPARE_OPERATORS[operator];
    if (compare) {
      const operators: CompareOperator[] = [compare];
      const comparators: SyntaxNode[] = [rightNode];
      let left = leftNode;
      while (left.name === 'BinaryExpression' && COMPARE_OPERATORS[binaryOperatorText(ctx, left)]) {
        const inner = childrenOf(left);
        operators.push(COMPARE_OPERATORS[binaryOperatorText(ctx, left)]!);
        comparators.push(inner[inner.length - 1]!);
        left = inner[0]!;
      }
      operators.reverse();
      comparators.reverse();
      return {
        kind: 'Compare', span, left: this.expr(left, depth), operators,
        comparators: comparators.map((comparator) => this.expr(comparator, depth)),
      };
    }
    const binary = BINARY_OPERATORS[operator];
    if (!binary) return ctx.fail(children[1]!.from, 'invalid syntax');
    return { kind: 'BinOp', span, operator: binary, left: this.expr(leftNode, depth), right: this.expr(rightNode, depth) };
  }
}

/**
 * Whether the argument list is one generator expression: an element, then `for … in …` clauses
 * (optionally `async`, with `if` conditions), with commas only in the target lists between a `for`
 * and its `in`. Anything else beside a generator is Python's "must be parenthesized".
 */
function soleGenerator(inner: SyntaxNode[]): boolean {
  const forAt = inner.findIndex((child) => child.name === 'for' || child.name === 'async');
  if (forAt < 1) return false;
  let inTarget = false;
  for (let k = 0; k < inner.length; k++) {
    const name = inner[k]!.name;
    if (name === 'for') inTarget = true;
    else if (name === 'in' && inTarget) inTarget = false;
    else if (name === ',' && !inTarget) return false;
  }
  return true;
}

/** Offset of the element of the first generator in an argument list (where CPython points). */
function generatorStart(inner: SyntaxNode[]): number {
  let k = inner.findIndex((child) => child.name === 'for' || child.name === 'async');
  while (k > 0 && inner[k - 1]!.name !== ',') k--;
  return inner[Math.max(k, 0)]!.from;
}

function isBooleanOperator(operator: string): boolean {
  return operator === 'and' || operator === 'or';
}

/** The operator of a BinaryExpression as written, keywords joined by one space (`not in`). */
function binaryOperatorText(ctx: CstContext, node: SyntaxNode): string {
  const children = childrenOf(node);
  return children.slice(1, -1).map((child) => ctx.text(child)).join(' ');
}

/**
 * `1.`, `1.e5`, `1.j`: float (or complex) literals @lezer/python reads as an attribute of an int
 * (`1` `.` `e5`), or as `1` `.` and an error. Python reads them as one number when the dot touches
 * the digits.
 */
function floatWithTrailingDot(ctx: CstContext, children: SyntaxNode[]): Expression | null {
  const [number, dot, next] = children;
  if (number?.name !== 'Number' || dot?.name !== '.' || number.to !== dot.from || !/^[0-9][0-9_]*$/.test(ctx.text(number))) return null;
  const name = next && !next.type.isError ? next : undefined;
  if (name && name.name !== 'PropertyName') return null;
  // `1. real`: Python reads the float `1.` and then a separate name, which is no expression.
  if (name && name.from !== dot.to) ctx.fail(name.from, 'invalid syntax');
  // `1.real`, `1.e-5`: Python's tokenizer refuses an int touching `.` and a name that is no exponent.
  if (name && !/^([eE][0-9][0-9_]*)?[jJ]?$/.test(ctx.text(name))) ctx.fail(number.from, 'invalid decimal literal');
  const end = name ? name.to : dot.to;
  const text = ctx.source.slice(number.from, end);
  const value = decodeNumber(text.replace('.', '.0'), number.from);
  const span = ctx.range(number.from, end);
  if (value.type === 'complex') return ctx.unsupported('constant', 'complex', 'complex constants are not supported', number.from, end);
  return { kind: 'Constant', span, value: { type: 'float', value: value.type === 'float' ? value.value : Number(value.value) } };
}

/** Python's hard keywords (3.11, as rustpython-parser 0.4 lexes them); `match`, `case`, `type` are soft. */
const PYTHON_KEYWORDS = new Set([
  'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif',
  'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or',
  'pass', 'raise', 'return', 'try', 'while', 'with', 'yield',
]);

/** The children between a node's opening and closing bracket. */
export function inside(node: SyntaxNode): SyntaxNode[] {
  const children = childrenOf(node);
  return children.slice(1, children[children.length - 1]?.name === ')' || children[children.length - 1]?.name === ']' || children[children.length - 1]?.name === '}' ? -1 : undefined);
}

/** Python's assignment-target rule: names, attributes, subscripts, and tuples/lists of them. */
export function checkTarget(ctx: CstContext, target: Expression, offset: number): void {
  switch (target.kind) {
    case 'Name':
    case 'Attribute':
    case 'Subscript':
      return;
    case 'Tuple':
    case 'List':
      for (const element of target.elements) checkTarget(ctx, element, offset);
      return;
    case 'Unsupported':
      if (target.code === 'starred') return;
      break;
    default:
      break;
  }
  ctx.fail(offset, 'cannot assign to expression');
}

