import type { SyntaxNode } from '@lezer/common';
import { childrenOf, splitAtCommas, type CstContext } from './cst-context.js';
import { checkTarget, ExpressionReader } from './cst-expressions.js';
import type {
  Expression, ImportAlias, Parameter, ParameterKind, ParsedBinaryOperator, Statement,
} from './syntax-tree.js';

const AUGMENTED_OPERATORS: Record<string, ParsedBinaryOperator> = {
  '+=': 'add', '-=': 'sub', '*=': 'mul', '/=': 'div', '//=': 'floordiv', '%=': 'mod', '**=': 'pow',
  '&=': 'bitand', '|=': 'bitor', '^=': 'bitxor', '<<=': 'lshift', '>>=': 'rshift', '@=': 'matmult',
};

const COMPOUND = new Set([
  'FunctionDefinition', 'ClassDefinition', 'DecoratedStatement', 'IfStatement', 'WhileStatement',
  'ForStatement', 'TryStatement', 'WithStatement', 'MatchStatement', 'MatchClause',
]);

/** Reads statements out of @lezer/python's tree, with Python's (rustpython's) statement ranges. */
export class StatementReader {
  private readonly expressions: ExpressionReader;

  constructor(private readonly ctx: CstContext) {
    this.expressions = new ExpressionReader(ctx);
  }

  /** The statements of a Script or a Body node. */
  block(node: SyntaxNode, depth: number): Statement[] {
    const out: Statement[] = [];
    for (const child of childrenOf(node)) {
      if (child.name === ':') continue;
      if (child.name === 'StatementGroup') {
        for (const inner of childrenOf(child)) if (inner.name !== ';') out.push(this.statement(inner, depth));
      } else out.push(this.statement(child, depth));
    }
    return out;
  }

  /** Offset where a statement ends: its last token, or the end of its last nested statement. */
  private end(node: SyntaxNode): number {
    let current = node;
    for (;;) {
      if (!COMPOUND.has(current.name)) return current.to;
      const children = childrenOf(current);
      const last = children[children.length - 1]!;
      if (current.name === 'DecoratedStatement') {
        current = last;
        continue;
      }
      const body = last.name === 'Body' || last.name === 'MatchBody' ? last : undefined;
      if (!body) return current.to;
      const statements = childrenOf(body).filter((child) => child.name !== ':');
      const lastStatement = statements[statements.length - 1];
      if (!lastStatement) return body.to;
      if (lastStatement.name === 'StatementGroup') {
        const inner = childrenOf(lastStatement).filter((child) => child.name !== ';');
        return inner[inner.length - 1]!.to;
      }
      current = lastStatement;
    }
  }

  private statement(node: SyntaxNode, depth: number): Statement {
    const ctx = this.ctx;
    const x = this.expressions;
    ctx.guardDepth(depth, node.from);
    const d = depth + 1;
    const children = childrenOf(node);
    const span = ctx.range(node.from, this.end(node));
    const unsupported = (code: string, message: string) =>
      ctx.unsupported('statement', code, message, node.from, this.end(node));
    switch (node.name) {
      case 'ExpressionStatement':
        return { kind: 'Expr', span, value: x.exprList(children, d, node.from) };
      case 'YieldStatement':
        return {
          kind: 'Expr', span,
          value: ctx.unsupported('expression', 'yield', 'yield expressions are not supported', node.from, node.to),
        };
      case 'AssignStatement':
        return this.assign(node, children, d);
      case 'UpdateStatement': {
        const opAt = children.findIndex((child) => child.name === 'UpdateOp');
        const operator = AUGMENTED_OPERATORS[ctx.text(children[opAt]!)];
        if (!operator) return ctx.fail(children[opAt]!.from, 'invalid syntax');
        const targetNodes = children.slice(0, opAt);
        const target = x.exprList(targetNodes, d, node.from);
        if (target.kind !== 'Name' && target.kind !== 'Attribute' && target.kind !== 'Subscript') {
          ctx.fail(node.from, "'expression' is an illegal expression for augmented assignment");
        }
        return { kind: 'AugAssign', span, target, operator, value: x.exprList(children.slice(opAt + 1), d, node.from) };
      }
      case 'ReturnStatement':
        return { kind: 'Return', span, value: children.length > 1 ? x.exprList(children.slice(1), d, node.from) : null };
      case 'PassStatement':
        return { kind: 'Pass', span };
      case 'BreakStatement':
        return { kind: 'Break', span };
      case 'ContinueStatement':
        return { kind: 'Continue', span };
      case 'AssertStatement': {
        const { groups, trailingComma } = splitAtCommas(children.slice(1));
        // `assert x,` (lezer tolerates the missing message; Python does not).
        if (groups.length > 2 || trailingComma) ctx.fail(node.from, 'invalid syntax');
        return {
          kind: 'Assert', span, test: x.item(groups[0]!, d, node.from),
          message: groups[1] ? x.item(groups[1], d, node.from) : null,
        };
      }
      case 'RaiseStatement': {
        const fromAt = children.findIndex((child) => child.name === 'from');
        const exceptionNodes = children.slice(1, fromAt < 0 ? undefined : fromAt);
        // `raise E, "text"` is Python 2; Python 3 raises one expression (and `from` one cause).
        const comma = children.find((child) => child.name === ',');
        if (comma) ctx.fail(comma.from, 'invalid syntax');
        return {
          kind: 'Raise', span,
          exception: exceptionNodes.length > 0 ? x.exprList(exceptionNodes, d, node.from) : null,
          cause: fromAt >= 0 ? x.exprList(children.slice(fromAt + 1), d, node.from) : null,
        };
      }
      case 'ImportStatement':
        if (children[0]!.name === 'from') {
          return unsupported('import_from', 'from-import statements are not supported');
        }
        return { kind: 'Import', span, names: this.importAliases(children.slice(1)) };
      case 'IfStatement':
        return this.ifChain(node, children, d);
      case 'WhileStatement': {
        const bodies = children.filter((child) => child.name === 'Body');
        const testNodes = children.slice(1, children.indexOf(bodies[0]!));
        return {
          kind: 'While', span, test: x.item(testNodes, d, node.from),
          body: this.block(bodies[0]!, d), orelse: bodies[1] ? this.block(bodies[1], d) : [],
        };
      }
      case 'ForStatement': {
        if (children[0]!.name === 'async') return unsupported('async_for', 'async for loops are not supported');
        const inAt = children.findIndex((child) => child.name === 'in');
        const bodies = children.filter((child) => child.name === 'Body');
        const targetNodes = children.slice(1, inAt);
        const target = x.exprList(targetNodes, d, node.from);
        checkTarget(ctx, target, targetNodes[0]?.from ?? node.from);
        return {
          kind: 'For', span, target, iter: x.exprList(children.slice(inAt + 1, children.indexOf(bodies[0]!)), d, node.from),
          body: this.block(bodies[0]!, d), orelse: bodies[1] ? this.block(bodies[1], d) : [],
        };
      }
      case 'FunctionDefinition':
        return this.functionDef(node, [], d);
      case 'DecoratedStatement': {
        const decorated = children[children.length - 1]!;
        if (decorated.name === 'ClassDefinition') {
          return ctx.unsupported('statement', 'class_def', 'class definitions are not supported', decorated.from, this.end(decorated));
        }
        const decoratorNodes = children.filter((child) => child.name === 'Decorator');
        // Decorators and their def share one indentation in Python; lezer also reads an `@x` line
        // indented deeper or shallower than the `def` below it.
        const column = (offset: number) => ctx.locator.position(offset).column;
        for (const decorator of decoratorNodes) {
          if (column(decorator.from) !== column(decorated.from)) ctx.fail(decorated.from, 'invalid syntax');
        }
        const decorators = decoratorNodes.map((decorator) => this.decorator(decorator, d));
        return this.functionDef(decorated, decorators, d);
      }
      case 'ClassDefinition':
        return unsupported('class_def', 'class definitions are not supported');
      case 'DeleteStatement':
        return unsupported('delete', 'delete statements are not supported');
      case 'TypeDefinition':
        return unsupported('type_alias', 'type aliases are not supported');
      case 'WithStatement':
        return unsupported('with', 'with statements are not supported');
      case 'MatchStatement':
        return unsupported('match', 'match statements are not supported');
      case 'TryStatement':
        return unsupported('try', 'try statements are not supported');
      case 'ScopeStatement':
        return children[0]!.name === 'global'
          ? unsupported('global', 'global statements are not supported')
          : unsupported('nonlocal', 'nonlocal statements are not supported');
      case 'PrintStatement':
        return ctx.fail(children[1]?.from ?? node.to, 'Missing parentheses in call to \'print\'');
      default:
        return ctx.fail(node.from, 'invalid syntax');
    }
  }

  private assign(node: SyntaxNode, children: SyntaxNode[], depth: number): Statement {
    const ctx = this.ctx;
    const span = ctx.range(node.from, node.to);
    if (children.some((child) => child.name === 'TypeDef')) {
      return ctx.unsupported('statement', 'ann_assign', 'annotated assignments are not supported', node.from, node.to);
    }
    const sides: SyntaxNode[][] = [[]];
    for (const child of children) {
      if (child.name === 'AssignOp') sides.push([]);
      else sides[sides.length - 1]!.push(child);
    }
    const valueNodes = sides.pop()!;
    const targets = sides.map((side) => {
      const target = this.expressions.exprList(side, depth, node.from);
      checkTarget(ctx, target, side[0]?.from ?? node.from);
      return target;
    });
    return { kind: 'Assign', span, targets, value: this.expressions.exprList(valueNodes, depth, node.from) };
  }

  private ifChain(node: SyntaxNode, children: SyntaxNode[], depth: number): Statement {
    const ctx = this.ctx;
    const x = this.expressions;
    const end = this.end(node);
    // Clauses: [keyword, test nodes..., Body]; `elif` clauses nest as the else-branch, each spanning
    // from its keyword to the end of the whole chain (rustpython's ranges).
    const clauses: { keyword: SyntaxNode; test: SyntaxNode[]; body: SyntaxNode }[] = [];
    let elseBody: SyntaxNode | undefined;
    let i = 0;
    while (i < children.length) {
      const keyword = children[i]!;
      let j = i + 1;
      while (children[j] && children[j]!.name !== 'Body') j++;
      if (keyword.name === 'else') elseBody = children[j];
      else clauses.push({ keyword, test: children.slice(i + 1, j), body: children[j]! });
      i = j + 1;
    }
    ctx.guardDepth(depth + clauses.length, node.from);
    let orelse: Statement[] = elseBody ? this.block(elseBody, depth + clauses.length) : [];
    for (let k = clauses.length - 1; k >= 0; k--) {
      const clause = clauses[k]!;
      const statement: Statement = {
        kind: 'If',
        span: ctx.range(clause.keyword.from, end),
        test: x.item(clause.test, depth + k, clause.keyword.to),
        body: this.block(clause.body, depth + k),
        orelse,
      };
      orelse = [statement];
    }
    return orelse[0]!;
  }

  private decorator(node: SyntaxNode, depth: number): Expression {
    const ctx = this.ctx;
    const children = childrenOf(node).slice(1);
    if (children.length === 1) return this.expressions.expr(children[0]!, depth);
    let expression: Expression | undefined;
    let from = children[0]!.from;
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      if (child.name === 'VariableName' && !expression) {
        expression = { kind: 'Name', span: ctx.range(child.from, child.to), id: ctx.text(child) };
        from = child.from;
      } else if (child.name === '.' && expression && children[i + 1]?.name === 'VariableName') {
        const name = children[++i]!;
        expression = { kind: 'Attribute', span: ctx.range(from, name.to), value: expression, attr: ctx.text(name) };
      } else if (child.name === 'ArgList' && expression && i === children.length - 1) {
        expression = this.expressions.callWith(expression, child, from, depth);
      } else {
        return ctx.fail(child.from, 'invalid syntax');
      }
    }
    return expression!;
  }

  private functionDef(node: SyntaxNode, decorators: Expression[], depth: number): Statement {
    const ctx = this.ctx;
    const children = childrenOf(node);
    if (children[0]!.name === 'async') {
      return ctx.unsupported('statement', 'async_function_def', 'async functions are not supported', node.from, this.end(node));
    }
    const name = ctx.text(children[1]!);
    const paramList = children.find((child) => child.name === 'ParamList')!;
    const returnsNode = children.find((child) => child.name === 'TypeDef');
    const body = children.find((child) => child.name === 'Body')!;
    let returns: Expression | null = null;
    if (returnsNode) {
      const inner = childrenOf(returnsNode).filter((child) => child.name !== '->' && child.name !== ':');
      returns = this.expressions.item(inner, depth, returnsNode.from);
    }
    return {
      kind: 'FunctionDef',
      span: ctx.range(node.from, this.end(node)),
      name,
      decorators,
      parameters: this.parameters(paramList, depth),
      returns,
      body: this.block(body, depth),
    };
  }

  private parameters(node: SyntaxNode, depth: number): Parameter[] {
    const ctx = this.ctx;
    const children = childrenOf(node);
    const closing = children[children.length - 1]?.name === ')' ? children[children.length - 1] : undefined;
    const inner = children.slice(1, closing ? -1 : undefined);
    // lezer leaves the positional-only marker `/` out of the tree: find it in the gaps between children.
    const tokens: SyntaxNode[] = [];
    let previousEnd = children[0]!.to;
    const gap = (until: number) => {
      const slash = ctx.source.slice(previousEnd, until).replace(/#.*$/gm, '').indexOf('/');
      if (slash >= 0) tokens.push({ name: '/', from: previousEnd + slash, to: previousEnd + slash + 1 } as SyntaxNode);
    };
    for (const child of inner) {
      gap(child.from);
      tokens.push(child);
      previousEnd = child.to;
    }
    gap(closing ? closing.from : node.to);
    if (tokens.length === 0) return [];
    const { groups } = splitAtCommas(tokens);
    const parameters: Parameter[] = [];
    let kind: ParameterKind = 'positional_or_keyword';
    let sawDefault = false;
    let sawSlash = false;
    const names = new Set<string>();
    let sawKwarg = false;
    /** A bare `*` still waiting for the keyword-only parameter Python requires after it. */
    let bareStar: SyntaxNode | undefined;
    for (const group of groups) {
      if (group.length === 0) ctx.fail(node.from, 'invalid syntax');
      if (sawKwarg) ctx.fail(group[0]!.from, 'arguments cannot follow var-keyword argument');
      if (group[0]!.name === '/') {
        if (group.length !== 1 || sawSlash || kind !== 'positional_or_keyword' || parameters.length === 0) ctx.fail(group[0]!.from, 'invalid syntax');
        sawSlash = true;
        for (const parameter of parameters) parameter.kind = 'positional_only';
        continue;
      }
      let i = 0;
      let thisKind: ParameterKind = kind;
      if (group[0]!.name === '*') {
        i = 1;
        if (kind === 'keyword_only') ctx.fail(group[0]!.from, '* argument may appear only once');
        kind = 'keyword_only';
        if (group.length === 1) {
          bareStar = group[0]!;
          continue;
        }
        thisKind = 'vararg';
      } else if (group[0]!.name === '**') {
        i = 1;
        thisKind = 'kwarg';
        sawKwarg = true;
      }
      if (thisKind === 'keyword_only') bareStar = undefined;
      const nameNode = group[i]!;
      if (nameNode.name !== 'VariableName') ctx.fail(nameNode.from, 'invalid syntax');
      const parameterName = ctx.text(nameNode);
      if (names.has(parameterName)) ctx.fail(nameNode.from, `duplicate argument '${parameterName}' in function definition`);
      names.add(parameterName);
      let end = nameNode.to;
      let annotation: Expression | null = null;
      let fallback: Expression | null = null;
      i++;
      if (group[i]?.name === 'TypeDef') {
        const typeDef = group[i]!;
        annotation = this.expressions.item(childrenOf(typeDef).filter((child) => child.name !== ':'), depth, typeDef.from);
        end = typeDef.to;
        i++;
      }
      if (group[i]?.name === 'AssignOp') {
        if (thisKind === 'vararg' || thisKind === 'kwarg') ctx.fail(group[i]!.from, 'invalid syntax');
        fallback = this.expressions.item(group.slice(i + 1), depth, group[i]!.to);
        i = group.length;
      } else if (thisKind === 'positional_or_keyword' && sawDefault) {
        ctx.fail(nameNode.from, 'non-default argument follows default argument');
      }
      if (i < group.length) ctx.fail(group[i]!.from, 'invalid syntax');
      if (fallback && thisKind === 'positional_or_keyword') sawDefault = true;
      parameters.push({ span: ctx.range(nameNode.from, end), name: parameterName, kind: thisKind, annotation, default: fallback });
    }
    if (bareStar) ctx.fail(bareStar.from, 'named arguments must follow bare *');
    return parameters;
  }

  private importAliases(nodes: SyntaxNode[]): ImportAlias[] {
    const ctx = this.ctx;
    const { groups } = splitAtCommas(nodes);
    return groups.map((group) => {
      const asAt = group.findIndex((child) => child.name === 'as');
      const nameNodes = asAt < 0 ? group : group.slice(0, asAt);
      const name = nameNodes.map((child) => ctx.text(child)).join('');
      if (!/^[^.]+(\.[^.]+)*$/.test(name)) ctx.fail(group[0]?.from ?? 0, 'invalid syntax');
      const aliasNode = asAt < 0 ? undefined : group[asAt + 1];
      const last = group[group.length - 1]!;
      return { span: ctx.range(group[0]!.from, last.to), name, alias: aliasNode ? ctx.text(aliasNode) : null };
    });
  }
}
