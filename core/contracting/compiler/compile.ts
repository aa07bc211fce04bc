import { buildArtifact, sha256Hex, type ContractArtifact } from './artifact.js';
import { errorDiagnostic, type CompilerDiagnostic } from './diagnostics.js';
import { refineFStringSpans } from './fstring-spans.js';
import { canonicalIrJson } from './ir-json.js';
import { MAX_SOURCE_BYTES, SOURCE_TOO_LARGE_CODE, SOURCE_TOO_LARGE_MESSAGE } from './limits.js';
import { lintModule } from './lint.js';
import { Locator } from './locator.js';
import { LoweringError, lowerModule } from './lower.js';
import { normalizeModule } from './normalize.js';
import { parseModule } from './parse.js';
import { SourceParseError } from './parse-error.js';
import { checkSubset } from './subset.js';
import type { SyntaxModule } from './syntax-tree.js';

export type CompileResult =
  | { ok: true; artifact: ContractArtifact }
  | { ok: false; diagnostics: CompilerDiagnostic[] };

/**
 * Compiles contract source as the chain does (parse → syntax subset → lint → normalize → re-parse the
 * normalized text → lower to `xian_ir_v1`), returning upstream's artifact or every diagnostic that
 * refused it. Pure: text in, artifact or diagnostics out.
 */
export function compileContract(moduleName: string, source: string): CompileResult {
  const invalid = validateInput(moduleName, source);
  if (invalid) return { ok: false, diagnostics: [invalid] };

  const initial = buildSyntax(moduleName, source);
  if (!initial.ok) return initial;
  const lintDiagnostics = lintModule(initial.module.body);
  if (lintDiagnostics.length > 0) return { ok: false, diagnostics: lintDiagnostics };

  const normalized = normalizeModule(initial.module.body);
  if (normalized === '') {
    return { ok: false, diagnostics: [errorDiagnostic('xian.source.invalid', 'source: must not be empty')] };
  }
  // Spans of the IR point into the normalized text, so it is parsed again (as upstream does).
  const reparsed = buildSyntax(moduleName, normalized);
  if (!reparsed.ok) return reparsed;

  let vmIrJson: string;
  try {
    vmIrJson = canonicalIrJson(lowerModule(moduleName, reparsed.module.sourceSha256, reparsed.module.body));
  } catch (error) {
    if (!(error instanceof LoweringError)) throw error;
    return { ok: false, diagnostics: [errorDiagnostic('xian.ir.lowering_error', error.message, error.span ?? undefined)] };
  }
  return { ok: true, artifact: buildArtifact(moduleName, source, normalized, vmIrJson) };
}

function validateInput(moduleName: string, source: string): CompilerDiagnostic | undefined {
  if (typeof moduleName !== 'string' || moduleName === '') {
    return errorDiagnostic('xian.source.invalid', 'module_name: must not be empty');
  }
  if (typeof source !== 'string' || source === '') return errorDiagnostic('xian.source.invalid', 'source: must not be empty');
  const bytes = Buffer.byteLength(source, 'utf8');
  if (bytes > MAX_SOURCE_BYTES) {
    return errorDiagnostic(SOURCE_TOO_LARGE_CODE, `${SOURCE_TOO_LARGE_MESSAGE} (source: ${bytes} bytes exceeds the limit of ${MAX_SOURCE_BYTES} bytes)`);
  }
  return undefined;
}

type SyntaxResult = { ok: true; module: SyntaxModule } | { ok: false; diagnostics: CompilerDiagnostic[] };

/** Parse and syntax-subset check of one text. */
export function buildSyntax(moduleName: string, source: string): SyntaxResult {
  const locator = new Locator(source);
  let parsed;
  try {
    parsed = parseModule(source, locator);
  } catch (error) {
    if (!(error instanceof SourceParseError)) throw error;
    const at = locator.position(error.offset);
    const range = { startLine: at.line, startColumn: at.column, endLine: at.line, endColumn: at.column + error.length };
    return { ok: false, diagnostics: [errorDiagnostic(error.code, error.message, range)] };
  }
  const { body, diagnostics } = checkSubset(parsed);
  if (diagnostics.length > 0) return { ok: false, diagnostics };
  refineFStringSpans(body, source);
  return { ok: true, module: { moduleName, sourceSha256: sha256Hex(source), body } };
}
