/**
 * A database failure as a query answer or a log line may show it: the SQLSTATE (e.g. 22021,
 * 57P01) or the connection error code, never the driver's message, which knex prefixes with the
 * SQL text. The operator finds the rest by the SQLSTATE in the database's own log.
 */
export function databaseReason(err: unknown): string {
  const code = (err as { code?: unknown })?.code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return `database error (SQLSTATE ${code})`;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return `database unreachable (${code})`;
  return 'database error';
}
