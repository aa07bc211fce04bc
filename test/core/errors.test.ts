import assert from 'node:assert/strict';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ApiError, BootError, toApiError } from '../../core/errors.js';
import { REPO_ROOT } from '../support/test-host.js';

/**
 * Errors are recognised by brand or by a duck-typed HTTP status, never by prototype: a plugin
 * that installs its own copy of the public API (or a library throwing http-errors) still gets
 * its status and code through every transport instead of a 500.
 */
describe('error recognition (toApiError)', () => {
  let dir: string;
  let copy: typeof import('../../core/errors.js');
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'chainhost-errors-'));
    await copyFile(path.join(REPO_ROOT, 'core/errors.ts'), path.join(dir, 'errors-copy.ts'));
    // Its one import: the single-kernel check, which a copy in another tree passes.
    await copyFile(path.join(REPO_ROOT, 'core/single-kernel.ts'), path.join(dir, 'single-kernel.ts'));
    copy = await import(pathToFileURL(path.join(dir, 'errors-copy.ts')).href);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('an ApiError from another copy of the module keeps its status, code, message and details', () => {
    const foreign = copy.ApiError.notFound('no widget 7', { field: 'id' });
    assert.notEqual(copy.ApiError, ApiError, 'really a second copy');
    assert.ok(foreign instanceof ApiError);
    const answered = toApiError(foreign);
    assert.equal(answered.status, 404);
    assert.deepEqual(answered.toBody(), { error: { code: 'not_found', message: 'no widget 7', details: { field: 'id' } } });
  });

  it('a BootError from another copy is a BootError', () => {
    assert.ok(new copy.BootError('plugin_failed', 'x') instanceof BootError);
    assert.ok(!(new Error('x') instanceof BootError));
  });

  it('an error carrying `status` and a snake_case `code` (any library) maps to them', () => {
    const answered = toApiError(Object.assign(new Error('widget 7 is sold out'), { status: 409, code: 'sold_out', details: { id: 7 } }));
    assert.deepEqual([answered.status, answered.code, answered.message, answered.details], [409, 'sold_out', 'widget 7 is sold out', { id: 7 }]);
  });

  it('`statusCode` without a code gets the status\'s code', () => {
    const answered = toApiError(Object.assign(new Error('gone'), { statusCode: 404 }));
    assert.deepEqual([answered.status, answered.code], [404, 'not_found']);
  });

  it('a 5xx of unknown origin keeps its status but not its text', () => {
    const answered = toApiError(Object.assign(new Error('SELECT secret FROM keys failed'), { status: 503 }));
    assert.equal(answered.status, 503);
    assert.ok(!answered.message.includes('SELECT'));
  });

  it('anything else is a 500 internal_error without its text (a Node error code is not an HTTP status)', () => {
    for (const thrown of [new Error('boom'), Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }), { status: 200 }, 'text', null]) {
      const answered = toApiError(thrown);
      assert.deepEqual([answered.status, answered.code, answered.message], [500, 'internal_error', 'internal error; see the server log']);
    }
  });
});
