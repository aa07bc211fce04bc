/**
 * The contract syntax tree: the Python subset the chain accepts, as upstream's compiler models it
 * (xian-compiler-core `SyntaxModule`). The parser also produces `Unsupported` nodes for Python
 * constructs outside the subset; the subset check (`subset.ts`) reports and removes them, so a tree
 * that passed it holds none.
 */

/** 1-based lines, 0-based columns counted in Unicode code points. */
export interface SourceRange {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

export type BinaryOperator =
  | 'add' | 'sub' | 'mul' | 'div' | 'floordiv' | 'mod' | 'pow'
  | 'bitand' | 'bitor' | 'bitxor' | 'lshift' | 'rshift';
/** `matmult` exists in Python only; the subset refuses it. */
export type ParsedBinaryOperator = BinaryOperator | 'matmult';
export type CompareOperator = 'eq' | 'not_eq' | 'gt' | 'gt_e' | 'lt' | 'lt_e' | 'in' | 'not_in' | 'is' | 'is_not';
export type UnaryOperator = 'not' | 'neg' | 'pos' | 'invert';
export type BoolOperator = 'and' | 'or';
export type ParameterKind = 'positional_only' | 'positional_or_keyword' | 'vararg' | 'keyword_only' | 'kwarg';

export type Constant =
  | { type: 'none' }
  | { type: 'bool'; value: boolean }
  /** Decimal digits of any size. */
  | { type: 'int'; value: string }
  | { type: 'float'; value: number }
  | { type: 'str'; value: string }
  /** Lower-case hex of the bytes. */
  | { type: 'bytes'; value: string };

/** A Python construct outside the subset, with upstream's category and code. */
export interface Unsupported {
  kind: 'Unsupported';
  span: SourceRange;
  category: 'statement' | 'expression' | 'constant' | 'operator';
  code: string;
  message: string;
}

export interface Comprehension {
  span: SourceRange;
  target: Expression;
  iter: Expression;
  ifs: Expression[];
  isAsync: boolean;
}

export interface DictEntry {
  /** null for a `**mapping` entry. */
  key: Expression | null;
  value: Expression;
}

export interface Keyword {
  span: SourceRange;
  /** null for `**mapping`. */
  arg: string | null;
  value: Expression;
}

export interface Parameter {
  span: SourceRange;
  name: string;
  kind: ParameterKind;
  annotation: Expression | null;
  default: Expression | null;
}

export interface ImportAlias {
  span: SourceRange;
  name: string;
  alias: string | null;
}

export type Expression =
  | { kind: 'Name'; span: SourceRange; id: string }
  | { kind: 'Constant'; span: SourceRange; value: Constant }
  | { kind: 'List'; span: SourceRange; elements: Expression[] }
  | { kind: 'ListComp'; span: SourceRange; element: Expression; generators: Comprehension[] }
  | { kind: 'DictComp'; span: SourceRange; key: Expression; value: Expression; generators: Comprehension[] }
  | { kind: 'Tuple'; span: SourceRange; elements: Expression[] }
  | { kind: 'Dict'; span: SourceRange; entries: DictEntry[] }
  | { kind: 'Attribute'; span: SourceRange; value: Expression; attr: string }
  | { kind: 'Subscript'; span: SourceRange; value: Expression; slice: Expression }
  | { kind: 'Slice'; span: SourceRange; lower: Expression | null; upper: Expression | null; step: Expression | null }
  | { kind: 'Call'; span: SourceRange; func: Expression; args: Expression[]; keywords: Keyword[] }
  | { kind: 'Compare'; span: SourceRange; left: Expression; operators: CompareOperator[]; comparators: Expression[] }
  | { kind: 'BoolOp'; span: SourceRange; operator: BoolOperator; values: Expression[] }
  | { kind: 'BinOp'; span: SourceRange; operator: ParsedBinaryOperator; left: Expression; right: Expression }
  | { kind: 'UnaryOp'; span: SourceRange; operator: UnaryOperator; operand: Expression }
  | { kind: 'IfExp'; span: SourceRange; test: Expression; body: Expression; orelse: Expression }
  | { kind: 'JoinedStr'; span: SourceRange; values: Expression[] }
  | { kind: 'FormattedValue'; span: SourceRange; value: Expression; conversion: string | null; formatSpec: Expression | null }
  | Unsupported;

export type Statement =
  | {
      kind: 'FunctionDef'; span: SourceRange; name: string; decorators: Expression[];
      parameters: Parameter[]; returns: Expression | null; body: Statement[];
    }
  | { kind: 'Return'; span: SourceRange; value: Expression | null }
  | { kind: 'Assign'; span: SourceRange; targets: Expression[]; value: Expression }
  | { kind: 'AugAssign'; span: SourceRange; target: Expression; operator: ParsedBinaryOperator; value: Expression }
  | { kind: 'For'; span: SourceRange; target: Expression; iter: Expression; body: Statement[]; orelse: Statement[] }
  | { kind: 'While'; span: SourceRange; test: Expression; body: Statement[]; orelse: Statement[] }
  | { kind: 'If'; span: SourceRange; test: Expression; body: Statement[]; orelse: Statement[] }
  | { kind: 'Assert'; span: SourceRange; test: Expression; message: Expression | null }
  | { kind: 'Raise'; span: SourceRange; exception: Expression | null; cause: Expression | null }
  | { kind: 'Import'; span: SourceRange; names: ImportAlias[] }
  | { kind: 'Expr'; span: SourceRange; value: Expression }
  | { kind: 'Pass'; span: SourceRange }
  | { kind: 'Break'; span: SourceRange }
  | { kind: 'Continue'; span: SourceRange }
  | Unsupported;

export interface SyntaxModule {
  moduleName: string;
  /** sha256 of the text this tree was parsed from. */
  sourceSha256: string;
  body: Statement[];
}

export type StatementOf<K extends Statement['kind']> = Extract<Statement, { kind: K }>;
