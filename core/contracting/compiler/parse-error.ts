/**
 * Thrown while reading the parser's tree when the text is not valid Python (or breaks a work limit);
 * `compile.ts` turns it into the single diagnostic upstream reports for a parse failure.
 */
export class SourceParseError extends Error {
  constructor(
    /** Offset (UTF-16 units) of the offending character. */
    readonly offset: number,
    message: string,
    readonly code = 'xian.syntax.parse_error',
    /** Length of the reported range in characters (a parse error marks one). */
    readonly length = 1,
  ) {
    super(message);
  }
}
