import type Koa from 'koa';

/**
 * Sends a JSON body. Node answers carry integers beyond 2^53 as bigint (abci-value.ts), which
 * JSON.stringify refuses; they are written as plain integer literals instead.
 */
export function sendJson(ctx: Koa.Context, value: unknown, status = 200): void {
  ctx.status = status;
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = toJsonText(value);
}

/**
 * JSON.stringify semantics (undefined members skipped, `toJSON` honoured, non-finite numbers
 * as null) plus bigint as an exact integer literal. Floats are kept — unlike the canonical
 * writer, this renders node answers such as profiling averages as they are.
 */
export function toJsonText(value: unknown): string {
  const out: string[] = [];
  write(value, out);
  return out.join('');
}

function write(value: unknown, out: string[]): void {
  switch (typeof value) {
    case 'bigint':
      out.push(value.toString());
      return;
    case 'string':
      out.push(JSON.stringify(value));
      return;
    case 'number':
      out.push(Number.isFinite(value) ? String(value) : 'null');
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'object': {
      if (value === null) return void out.push('null');
      const withJson = value as { toJSON?: () => unknown };
      if (typeof withJson.toJSON === 'function') return write(withJson.toJSON(), out);
      if (Array.isArray(value)) {
        out.push('[');
        value.forEach((item, i) => {
          if (i > 0) out.push(',');
          if (item === undefined || typeof item === 'function' || typeof item === 'symbol') out.push('null');
          else write(item, out);
        });
        out.push(']');
        return;
      }
      out.push('{');
      let first = true;
      for (const [k, v] of Object.entries(value)) {
        if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
        if (!first) out.push(',');
        first = false;
        out.push(JSON.stringify(k), ':');
        write(v, out);
      }
      out.push('}');
      return;
    }
    default:
      out.push('null');
  }
}
