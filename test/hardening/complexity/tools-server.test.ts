import { assertBoundedGrowth, fullStack, post, report, type FullStack } from './support/complexity-harness.js';

/**
 * The HTTP tool server: POST /tools/{name} and POST /mcp with bodies of growing size up to the
 * 1 MiB body cap — deeply nested arrays (parser and validator recursion) and wide objects
 * (many keys to validate and name in an error). Answers are 4xx with the error shape within
 * budget, growth is linear, node /status keeps answering.
 */
const BODY_CAP = 1024 * 1024;
const SIZES = [1_000, 10_000, 100_000, 500_000, BODY_CAP - 1_000];

function nested(bytes: number): string {
  const depth = Math.floor((bytes - 20) / 2);
  return `{"height":${'['.repeat(depth)}${']'.repeat(depth)}}`;
}

function wide(bytes: number): string {
  const keys: string[] = [];
  let size = 2;
  for (let i = 0; size < bytes - 20; i++) {
    const entry = `"k${i}":${i}`;
    keys.push(entry);
    size += entry.length + 1;
  }
  return `{${keys.join(',')}}`;
}

describe('complexity fuzzer: tool server', function () {
  this.timeout(600_000);
  let stack: FullStack;
  before(async function () {
    this.timeout(240_000);
    stack = await fullStack();
  });

  it('POST /tools/get_block with nested arrays up to the body cap', async () => {
    report('tools nested', await assertBoundedGrowth(stack, { sizes: SIZES, input: nested, send: (b) => post(`${stack.toolsUrl}/tools/get_block`, b) }));
  });

  it('POST /tools/get_block with wide objects up to the body cap', async () => {
    report('tools wide', await assertBoundedGrowth(stack, { sizes: SIZES, input: wide, send: (b) => post(`${stack.toolsUrl}/tools/get_block`, b) }));
  });

  it('POST /mcp with nested params up to the body cap', async () => {
    const mcp = (bytes: number) => {
      const depth = Math.floor((bytes - 200) / 2);
      // Not an initialize: no session is opened per request (the store would fill), the body is still read and parsed.
      return `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
    };
    report('tools mcp nested', await assertBoundedGrowth(stack, {
      sizes: SIZES, input: mcp, send: (b) => post(`${stack.toolsUrl}/mcp`, b, { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }),
    }));
  });
});
