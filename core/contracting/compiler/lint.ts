import { errorDiagnostic, sortDiagnostics, type CompilerDiagnostic } from './diagnostics.js';
import { rustDisplayFloat } from './format-float.js';
import {
  ALLOWED_ANNOTATION_TYPES, AUTO_NAMED_ORM_CLASS_NAMES, CONSTRUCT_DECORATOR, DISALLOWED_BUILTIN_CALLS,
  DISALLOWED_STDLIB_IMPORTS, EXPORT_DECORATOR, ORM_CLASS_NAMES,
} from './lint-rules.js';
import type { Comprehension, Constant, Expression, Parameter, SourceRange, Statement } from './syntax-tree.js';

const ALLOWED_MESSAGE = [...ALLOWED_ANNOTATION_TYPES].sort().join(', ');

/**
 * The contract linter (codes `xian.lint.E0xx`, upstream's messages). Always on: the chain refuses
 * any source with a finding. Findings are sorted by (line, column, code).
 */
export function lintModule(body: Statement[]): CompilerDiagnostic[] {
  const diagnostics: CompilerDiagnostic[] = [];
  const ormNames = new Set<string>();
  const exportArgs: [string, SourceRange][] = [];
  const argAnnotations: [string | null, SourceRange][] = [];
  const returnAnnotations: [string | null, SourceRange][] = [];
  let hasExport = false;
  let hasConstruct = false;
  let firstFunctionSpan: SourceRange | undefined;

  const push = (code: string, message: string, span: SourceRange) =>
    diagnostics.push(errorDiagnostic(`xian.lint.${code}`, message, span));

  const checkName = (name: string, span: SourceRange) => {
    if (name === 'rt') push('E014', "'rt' is not allowed in smart contracts", span);
    else if (name.startsWith('_') || name.endsWith('_')) push('E002', `Name '${name}' must not start or end with underscore`, span);
  };

  const checkSingleLineBody = (parent: SourceRange, body: Statement[]) => {
    const first = body[0];
    if (first && first.span.startLine === parent.startLine) {
      push('E001', 'Illegal syntax: Single-line compound statements are not allowed', first.span);
    }
  };

  const checkDecoratorArgs = (decorator: Expression, name: string) => {
    if (decorator.kind !== 'Call') return;
    if (name === CONSTRUCT_DECORATOR) {
      if (decorator.args.length > 0 || decorator.keywords.length > 0) {
        push('E021', "Invalid decorator arguments for 'construct': @construct does not accept arguments", decorator.span);
      }
      return;
    }
    if (decorator.args.length > 0) {
      push('E021', "Invalid decorator arguments for 'export': @export accepts keyword arguments only", decorator.span);
    }
    for (const keyword of decorator.keywords) {
      if (keyword.arg !== 'typecheck') {
        push('E021', "Invalid decorator arguments for 'export': only 'typecheck' is supported", keyword.span);
        continue;
      }
      if (!(keyword.value.kind === 'Constant' && keyword.value.value.type === 'bool')) {
        push('E021', "Invalid decorator arguments for 'export': 'typecheck' must be True or False", keyword.value.span);
      }
    }
  };

  const checkFunctionDecorators = (span: SourceRange, decorators: Expression[], parameters: Parameter[], returns: Expression | null) => {
    if (decorators.length > 1) push('E010', 'Functions may have at most one decorator', span);
    let selected: string | null = null;
    const decorator = decorators[0];
    if (decorator) {
      selected = decoratorName(decorator);
      if (selected === EXPORT_DECORATOR || selected === CONSTRUCT_DECORATOR) checkDecoratorArgs(decorator, selected);
      else push('E008', `Invalid decorator '${selected ?? '<complex>'}'; must be 'export' or 'construct'`, decorator.span);
    }
    if (selected === CONSTRUCT_DECORATOR) {
      if (hasConstruct) push('E009', 'Multiple @construct decorators found; only one allowed', span);
      hasConstruct = true;
    }
    if (selected === EXPORT_DECORATOR) {
      hasExport = true;
      for (const parameter of parameters) {
        exportArgs.push([parameter.name, parameter.span]);
        argAnnotations.push([parameter.annotation ? annotationName(parameter.annotation) : null, parameter.span]);
      }
      if (returns) returnAnnotations.push([annotationName(returns), span]);
    }
  };

  const checkOrmAssignment = (span: SourceRange, targets: Expression[], value: Expression) => {
    const ormName = value.kind === 'Call' && value.func.kind === 'Name' ? value.func.id : null;
    if (ormName !== null) {
      if (!ORM_CLASS_NAMES.has(ormName)) return;
      if (targets.some((target) => target.kind === 'Tuple')) {
        push('E012', 'Tuple unpacking on ORM assignment is not allowed', span);
        return;
      }
      if (AUTO_NAMED_ORM_CLASS_NAMES.has(ormName) && value.kind === 'Call') {
        for (const keyword of value.keywords) {
          if (keyword.arg === 'contract' || keyword.arg === 'name') {
            push('E011', `Cannot pass '${keyword.arg}' to ${ormName}; it is set automatically`, keyword.span);
          }
        }
      }
      const first = targets[0];
      if (first?.kind === 'Name') ormNames.add(first.id);
      return;
    }
    if (value.kind === 'Name' && ORM_CLASS_NAMES.has(value.id)) {
      push('E014', `'${value.id}' is not allowed in smart contracts`, span);
    }
  };

  const expression = (e: Expression | null): void => {
    if (!e) return;
    switch (e.kind) {
      case 'Name': checkName(e.id, e.span); return;
      case 'Constant': case 'Unsupported': return;
      case 'List': case 'Tuple': e.elements.forEach(expression); return;
      case 'ListComp': expression(e.element); comprehensions(e.generators); return;
      case 'DictComp': expression(e.key); expression(e.value); comprehensions(e.generators); return;
      case 'Dict': for (const entry of e.entries) { expression(entry.key); expression(entry.value); } return;
      case 'Attribute': checkName(e.attr, e.span); expression(e.value); return;
      case 'Subscript': expression(e.value); expression(e.slice); return;
      case 'Slice': expression(e.lower); expression(e.upper); expression(e.step); return;
      case 'Call':
        if (e.func.kind === 'Name' && DISALLOWED_BUILTIN_CALLS.has(e.func.id)) {
          push('E014', `'${e.func.id}' is not allowed in smart contracts`, e.span);
        }
        expression(e.func);
        e.args.forEach(expression);
        for (const keyword of e.keywords) expression(keyword.value);
        return;
      case 'Compare': expression(e.left); e.comparators.forEach(expression); return;
      case 'BoolOp': case 'JoinedStr': e.values.forEach(expression); return;
      case 'BinOp': expression(e.left); expression(e.right); return;
      case 'UnaryOp': expression(e.operand); return;
      case 'IfExp': expression(e.test); expression(e.body); expression(e.orelse); return;
      case 'FormattedValue': expression(e.value); expression(e.formatSpec); return;
    }
  };
  const comprehensions = (list: Comprehension[]) => {
    for (const c of list) { expression(c.target); expression(c.iter); c.ifs.forEach(expression); }
  };

  const statement = (s: Statement, functionDepth: number): void => {
    switch (s.kind) {
      case 'FunctionDef':
        firstFunctionSpan ??= s.span;
        if (functionDepth > 0) {
          push('E019', 'Nested function definitions are not allowed', s.span);
          return;
        }
        checkFunctionDecorators(s.span, s.decorators, s.parameters, s.returns);
        checkSingleLineBody(s.span, s.body);
        s.decorators.forEach(expression);
        expression(s.returns);
        for (const parameter of s.parameters) { expression(parameter.annotation); expression(parameter.default); }
        for (const inner of s.body) statement(inner, functionDepth + 1);
        return;
      case 'Return': expression(s.value); return;
      case 'Assign':
        checkOrmAssignment(s.span, s.targets, s.value);
        s.targets.forEach(expression);
        expression(s.value);
        return;
      case 'AugAssign':
        if (s.operator === 'mul') push('E001', 'Illegal syntax: Augmented multiplication is not allowed; use x = x * y', s.span);
        expression(s.target);
        expression(s.value);
        return;
      case 'For':
        checkSingleLineBody(s.span, s.body);
        checkSingleLineBody(s.span, s.orelse);
        expression(s.target);
        expression(s.iter);
        for (const inner of s.body) statement(inner, functionDepth);
        for (const inner of s.orelse) statement(inner, functionDepth);
        return;
      case 'While': case 'If':
        checkSingleLineBody(s.span, s.body);
        checkSingleLineBody(s.span, s.orelse);
        expression(s.test);
        for (const inner of s.body) statement(inner, functionDepth);
        for (const inner of s.orelse) statement(inner, functionDepth);
        return;
      case 'Assert': expression(s.test); expression(s.message); return;
      case 'Raise': expression(s.exception); expression(s.cause); return;
      case 'Import':
        if (functionDepth > 0) {
          push('E003', 'Imports are not allowed inside functions', s.span);
          return;
        }
        for (const alias of s.names) {
          const root = alias.name.split('.')[0]!;
          if (DISALLOWED_STDLIB_IMPORTS.has(root)) push('E005', `Cannot import stdlib module '${alias.name}'`, s.span);
        }
        return;
      case 'Expr': expression(s.value); return;
      default: return;
    }
  };

  for (const s of body) statement(s, 0);

  if (!hasExport) {
    push('E013', 'Contract must have at least one @export function', firstFunctionSpan ?? { startLine: 1, startColumn: 0, endLine: 1, endColumn: 0 });
  }
  for (const [name, span] of exportArgs) {
    if (ormNames.has(name)) push('E015', `Argument '${name}' shadows ORM variable defined at module level`, span);
  }
  for (const [annotation, span] of argAnnotations) {
    if (annotation === null) push('E017', 'All @export function arguments must have type annotations', span);
    else if (!annotationAllowed(annotation)) {
      push('E016', `Type annotation '${annotation}' is not allowed; use one of: ${ALLOWED_MESSAGE}`, span);
    }
  }
  for (const [annotation, span] of returnAnnotations) {
    if (annotation !== null && !annotationAllowed(annotation)) {
      push('E018', `Return type annotation '${annotation}' is not allowed; use one of: ${ALLOWED_MESSAGE}`, span);
    }
  }
  return sortDiagnostics(diagnostics);
}

function decoratorName(e: Expression): string | null {
  if (e.kind === 'Name') return e.id;
  if (e.kind === 'Call' && e.func.kind === 'Name') return e.func.id;
  return null;
}

function dottedName(e: Expression): string | null {
  if (e.kind === 'Name') return e.id;
  if (e.kind === 'Attribute') {
    const prefix = dottedName(e.value);
    return prefix === null ? null : `${prefix}.${e.attr}`;
  }
  return null;
}

/** The annotation as upstream renders it for the allow-list check (`list[str]`, `datetime.datetime`). */
function annotationName(e: Expression): string | null {
  switch (e.kind) {
    case 'Name': return e.id;
    case 'Attribute': {
      const prefix = dottedName(e.value);
      return prefix === null ? null : `${prefix}.${e.attr}`;
    }
    case 'Subscript': {
      const base = annotationName(e.value);
      return base === null ? null : `${base}[${compactExpression(e.slice)}]`;
    }
    case 'Constant': return e.value.type === 'str' ? e.value.value : null;
    default: return null;
  }
}

function compactExpression(e: Expression): string {
  switch (e.kind) {
    case 'Name': return e.id;
    case 'Attribute': return `${compactExpression(e.value)}.${e.attr}`;
    case 'Subscript': return `${compactExpression(e.value)}[${compactExpression(e.slice)}]`;
    case 'Tuple': return e.elements.map(compactExpression).join(',');
    case 'Constant': return compactConstant(e.value);
    default: return '<complex>';
  }
}

function compactConstant(c: Constant): string {
  switch (c.type) {
    case 'none': return 'None';
    case 'bool': return c.value ? 'True' : 'False';
    case 'int': case 'str': case 'bytes': return c.value;
    case 'float': return rustDisplayFloat(c.value);
  }
}

function annotationAllowed(annotation: string): boolean {
  const bracket = annotation.indexOf('[');
  const base = bracket < 0 ? annotation : annotation.slice(0, bracket);
  return ALLOWED_ANNOTATION_TYPES.includes(base);
}
