import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../support/test-host.js';
import { buildPublicApi, linkHost, tsc } from '../support/third-party-package.js';

const GUIDE = path.join(REPO_ROOT, 'docs/plugin-authoring.md');

/** The fenced blocks of one language, in order. */
function blocks(markdown: string, lang: string): string[] {
  return [...markdown.matchAll(new RegExp('^```' + lang + '\\n([\\s\\S]*?)^```$', 'gm'))].map((m) => m[1]!);
}

/**
 * docs/plugin-authoring.md is written against the published API only: every TypeScript snippet
 * is a complete module that imports chainhost through `chainhost/plugin` and `chainhost/chain`
 * (and Node built-ins), and compiles, strict, against the emitted declarations — as a package
 * depending on chainhost by a `file:` link would.
 */
describe('docs/plugin-authoring.md (and the README\'s plugin example)', function () {
  this.timeout(600_000);
  let markdown: string;
  before(async () => {
    markdown = await readFile(GUIDE, 'utf8');
  });

  it('imports chainhost only through its published entry points', () => {
    const snippets = blocks(markdown, 'ts');
    assert.ok(snippets.length >= 8, `found ${snippets.length} TypeScript snippets`);
    for (const [i, snippet] of snippets.entries()) {
      const specifiers = [...snippet.matchAll(/^import\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
      assert.ok(specifiers.length > 0, `snippet ${i + 1} is a module`);
      for (const s of specifiers) assert.match(s, /^(chainhost\/(plugin|chain)|node:[a-z/]+)$/, `snippet ${i + 1} imports ${s}`);
    }
  });

  it('states the status the tool API answers for bad arguments (422), never 400', () => {
    assert.match(markdown, /HTTP\s+422 on the tool API/);
    assert.match(markdown, /bad arguments give 422 on `POST \/tools\/\{name\}`/);
    assert.ok(!/bad arguments give 400|unknown arguments are a 400|become\s+400 `invalid_arguments`/.test(markdown), 'no 400 for the tool API');
  });

  it('the example package compiles without skipLibCheck, as the guide says', async () => {
    assert.match(markdown, /No `skipLibCheck` is needed/);
    const example = JSON.parse(await readFile(path.join(REPO_ROOT, 'examples/third-party-plugin/tsconfig.json'), 'utf8'));
    assert.equal(example.compilerOptions.skipLibCheck, false);
  });

  it('every JSON snippet parses', () => {
    for (const [i, snippet] of blocks(markdown, 'json').entries()) assert.doesNotThrow(() => JSON.parse(snippet), `JSON snippet ${i + 1}`);
  });

  it('every TypeScript snippet compiles against the emitted declarations', async () => {
    await buildPublicApi();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'chainhost-doc-snippets-'));
    try {
      await linkHost(dir);
      // The README's plugin example too: it imports the same entry points.
      const readme = blocks(await readFile(path.join(REPO_ROOT, 'README.md'), 'utf8'), 'ts').filter((b) => b.includes("from 'chainhost/plugin'"));
      assert.equal(readme.length, 1, 'README.md has one plugin example');
      const snippets = [...blocks(markdown, 'ts'), ...readme];
      const files = snippets.map((_, i) => (i < snippets.length - 1 ? `snippet-${i + 1}.ts` : 'readme-plugin.ts'));
      for (const [i, snippet] of snippets.entries()) await writeFile(path.join(dir, files[i]!), snippet);
      await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'doc-snippets', type: 'module', private: true }));
      await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify({
        compilerOptions: {
          target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023'], strict: true, skipLibCheck: false, noEmit: true,
          types: ['node'], typeRoots: [path.join(REPO_ROOT, 'node_modules/@types')],
        },
        files,
      }));
      await tsc(['-p', path.join(dir, 'tsconfig.json')]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
