import assert from 'node:assert/strict';
import { listBytes } from '../../bench/tools-list-bytes.js';
import { readDoc } from '../support/doc-blocks.js';

/**
 * The README's figures for the MCP tool listing (how many tools, how many KB a client puts in its
 * model's context) are what chain-mcp lists today, measured as the benchmark measures them.
 */
describe('README: the tool listing figures', function () {
  this.timeout(120_000);

  it('the default listing (unsafe on) and the read-only one have the counts and sizes the README gives', async () => {
    const readme = await readDoc('README.md');
    const all = /The default `tools\/list` of `chain-mcp` \((\d+) tools, unsafe on\) is (\d+) KB/.exec(readme);
    const read = /`tools\.include: \["read"\]` lists (\d+) tools in (\d+) KB/.exec(readme);
    assert.ok(all && read, 'the README states both figures');
    const [listedAll, listedRead] = [await listBytes({}), await listBytes({ include: ['read'] })];
    assert.deepEqual([listedAll.count, Math.round(listedAll.bytes / 1000)], [Number(all[1]), Number(all[2])], `the default listing: ${listedAll.count} tools, ${listedAll.bytes} bytes`);
    assert.deepEqual([listedRead.count, Math.round(listedRead.bytes / 1000)], [Number(read[1]), Number(read[2])], `the read listing: ${listedRead.count} tools, ${listedRead.bytes} bytes`);
  });
});
