import assert from 'node:assert/strict';
import { compileContract } from '../../../../core/contracting/index.js';
import { compiled, sha256, span } from './support.js';

/**
 * The artifact and its IR text, byte for byte, for a contract small enough to derive by hand from
 * the reference (contracting-vm.md c.1–c.5): keys sorted, `", "` and `": "` separators, spans into
 * the normalized text, hashes over the submitted text, the normalized text and the IR text.
 */
describe('compileContract: the artifact', () => {
  const input = "# ping\n@export\ndef ping():\n    return 'pong'  # reply\n";
  const normalized = "@export\ndef ping():\n    return 'pong'";

  it('is xian_contract_artifact_v1 with the normalized source, the IR text and three hashes', () => {
    const artifact = compiled(input, 'con_ping');
    const irJson =
      '{"docstring": null, "functions": [{"body": [{"node": "return", "span": {"col": 4, "end_col": 17, "end_line": 3, "line": 3}, ' +
      '"value": {"node": "constant", "span": {"col": 11, "end_col": 17, "end_line": 3, "line": 3}, "value": "pong", "value_type": "str"}}], ' +
      '"decorator": {"args": [], "keywords": [], "name": "export", "node": "decorator", "span": {"col": 1, "end_col": 7, "end_line": 1, "line": 1}}, ' +
      '"docstring": null, "name": "ping", "node": "function", "parameters": [], "returns": null, ' +
      '"span": {"col": 0, "end_col": 17, "end_line": 3, "line": 2}, "visibility": "export"}], "global_declarations": [], ' +
      '"host_catalog_version": "xian_vm_v1_host_v1", "host_dependencies": [], "imports": [], "ir_version": "xian_ir_v1", ' +
      `"module_body": [], "module_name": "con_ping", "source_hash": "${sha256(normalized)}", "vm_profile": "xian_vm_v1"}`;
    assert.deepEqual(artifact, {
      format: 'xian_contract_artifact_v1',
      module_name: 'con_ping',
      vm_profile: 'xian_vm_v1',
      source: normalized,
      vm_ir_json: irJson,
      hashes: { input_source_sha256: sha256(input), source_sha256: sha256(normalized), vm_ir_sha256: sha256(irJson) },
    });
  });

  it('hashes do not cover the module name; the IR names it', () => {
    const a = compiled(input, 'con_a');
    const b = compiled(input, 'con_b');
    assert.equal(a.hashes.input_source_sha256, b.hashes.input_source_sha256);
    assert.equal(a.hashes.source_sha256, b.hashes.source_sha256);
    assert.notEqual(a.hashes.vm_ir_sha256, b.hashes.vm_ir_sha256);
    assert.equal(JSON.parse(b.vm_ir_json).module_name, 'con_b');
  });

  it('writes non-ASCII text raw (UTF-8) in the IR and escapes control characters like serde_json', () => {
    const artifact = compiled("@export\ndef hi():\n    return 'héllo ✓\\x01'\n");
    assert.ok(artifact.vm_ir_json.includes('"value": "héllo ✓\\u0001"'), artifact.vm_ir_json);
    assert.equal(artifact.source, "@export\ndef hi():\n    return 'héllo ✓\\u0001'");
    assert.equal(artifact.hashes.source_sha256, sha256(artifact.source));
  });

  it('spans count code points and point into the normalized text, not the input', () => {
    const artifact = compiled("x = 'é✓😀'\n\n\n# gap\n@export\ndef f():\n    return x\n");
    const ir = JSON.parse(artifact.vm_ir_json);
    // `x = 'é✓😀'`: the string constant is 5 code points from column 4 (😀 is two UTF-16 units).
    assert.deepEqual(ir.global_declarations[0].value.span, span('1:4-1:9'));
    // The function is on input line 6 and normalized line 4.
    assert.deepEqual(ir.functions[0].span, span('4:0-5:12'));
  });

  it('refuses an empty module name or source as xian.source.invalid', () => {
    assert.deepEqual(compileContract('', 'x = 1'), {
      ok: false,
      diagnostics: [{ severity: 'error', code: 'xian.source.invalid', message: 'module_name: must not be empty' }],
    });
    assert.deepEqual(compileContract('con_x', ''), {
      ok: false,
      diagnostics: [{ severity: 'error', code: 'xian.source.invalid', message: 'source: must not be empty' }],
    });
  });
});
