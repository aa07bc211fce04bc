/** The linter's fixed lists (upstream C/lint.rs), as the chain enforces them. */

export const EXPORT_DECORATOR = 'export';
export const CONSTRUCT_DECORATOR = 'construct';

export const ORM_CLASS_NAMES: ReadonlySet<string> = new Set(['Variable', 'Hash', 'ForeignVariable', 'ForeignHash', 'LogEvent']);
/** ORM classes whose `contract`/`name` are filled in by the chain. */
export const AUTO_NAMED_ORM_CLASS_NAMES: ReadonlySet<string> = new Set(['Variable', 'Hash', 'LogEvent']);

export const ALLOWED_ANNOTATION_TYPES: readonly string[] = [
  'Any', 'bool', 'bytearray', 'bytes', 'datetime.datetime', 'datetime.timedelta', 'dict', 'float',
  'frozenset', 'int', 'list', 'set', 'str',
];

const BUILTIN_EXCEPTIONS = [
  'ArithmeticError', 'AssertionError', 'AttributeError', 'BaseException', 'BaseExceptionGroup',
  'BlockingIOError', 'BrokenPipeError', 'BufferError', 'BytesWarning', 'ChildProcessError',
  'ConnectionAbortedError', 'ConnectionError', 'ConnectionRefusedError', 'ConnectionResetError',
  'DeprecationWarning', 'EOFError', 'EncodingWarning', 'EnvironmentError', 'FileExistsError',
  'FileNotFoundError', 'FloatingPointError', 'FutureWarning', 'GeneratorExit', 'IOError', 'ImportError',
  'ImportWarning', 'IndentationError', 'IndexError', 'InterruptedError', 'IsADirectoryError', 'KeyError',
  'KeyboardInterrupt', 'LookupError', 'MemoryError', 'ModuleNotFoundError', 'NameError',
  'NotADirectoryError', 'NotImplementedError', 'OSError', 'OverflowError', 'PendingDeprecationWarning',
  'PermissionError', 'ProcessLookupError', 'RecursionError', 'ReferenceError', 'ResourceWarning',
  'RuntimeError', 'RuntimeWarning', 'StopAsyncIteration', 'StopIteration', 'SyntaxError', 'SyntaxWarning',
  'SystemError', 'SystemExit', 'TabError', 'TimeoutError', 'TypeError', 'UnboundLocalError',
  'UnicodeDecodeError', 'UnicodeEncodeError', 'UnicodeError', 'UnicodeTranslateError', 'UnicodeWarning',
  'UserWarning', 'ValueError', 'Warning', 'ZeroDivisionError',
];

/** Builtins a contract may not call by name: every exception class but `Exception`, and these. */
export const DISALLOWED_BUILTIN_CALLS: ReadonlySet<string> = new Set([
  ...BUILTIN_EXCEPTIONS,
  '__build_class__', '__import__', 'aiter', 'anext', 'breakpoint', 'callable', 'classmethod', 'compile',
  'delattr', 'dir', 'enumerate', 'eval', 'exec', 'getattr', 'globals', 'hasattr', 'hash', 'id', 'input',
  'iter', 'locals', 'memoryview', 'next', 'object', 'open', 'print', 'property', 'repr', 'setattr', 'slice',
  'staticmethod', 'super', 'type',
]);

export const DISALLOWED_STDLIB_IMPORTS: ReadonlySet<string> = new Set([
  'abc', 'argparse', 'asyncio', 'base64', 'collections', 'contextlib', 'copy', 'csv', 'datetime', 'decimal',
  'functools', 'hashlib', 'heapq', 'importlib', 'inspect', 'io', 'itertools', 'json', 'math', 'os', 'pathlib',
  'random', 're', 'statistics', 'string', 'sys', 'time', 'typing', 'uuid',
]);
