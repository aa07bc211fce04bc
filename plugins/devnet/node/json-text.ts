/** JSON text that keeps bigint values as bare integer literals. */
export function jsonText(value: unknown, indent?: number): string {
  const marker = '\u0000bigint:';
  const text = JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? marker + v.toString() : v), indent);
  return text.includes('\\u0000bigint:') ? text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1') : text;
}
