import { z } from 'zod';
import { coerceToSignature, type ChainSimulator, type JsonObject, type Signature, type TransactionSubmission, type TransactionSubmitter } from 'chainhost/chain';
import { compileContract, MAX_SOURCE_BYTES, type CompilerDiagnostic } from 'chainhost/contracting';
import {
  ApiError, addressSchema, contractNameSchema, defineTool, intOut, intValue, kwargsSchema, type SignerArguments, submissionAnswer,
  type ToolDefinition, transactionSubmissionOut, verboseSchema, withExtras,
} from 'chainhost/plugin';

/**
 * Tools for agents that write contracts: `check_contract` compiles a source as the chain does and
 * dry-runs its deployment on the node; `deploy_contract` sends `submission.submit_contract` through
 * the one send pipeline (dry run, spending policy, confirmation, nonce, chi margin) — refusing a
 * source that does not compile before anything is signed.
 */
export interface ContractToolDeps {
  submitter(): TransactionSubmitter;
  simulator(): ChainSimulator;
  signers: SignerArguments;
  includeRaw: boolean;
  waitTimeoutMs: number;
}

/** Anyone may dry-run a deployment: the default sender of `check_contract` (an address nobody holds). */
const CHECK_SENDER = '0'.repeat(64);

const codeSchema = z
  .string()
  .min(1, 'code must be a non-empty contract source')
  .max(MAX_SOURCE_BYTES, `code is longer than ${MAX_SOURCE_BYTES} characters`)
  .refine((code) => Buffer.byteLength(code) <= MAX_SOURCE_BYTES, `code is larger than ${MAX_SOURCE_BYTES} bytes (the chain's limit)`)
  .describe('the contract source (Python subset), as it will be submitted');

const diagnosticOut = z.object({
  severity: z.string(),
  code: z.string().describe('the chain compiler\'s code, e.g. xian.lint.E002'),
  message: z.string(),
  range: z.object({ start_line: z.number().int(), start_column: z.number().int(), end_line: z.number().int(), end_column: z.number().int() })
    .optional().describe('1-based lines, 0-based columns in the submitted source'),
});
const methodOut = z.object({
  name: z.string(),
  arguments: z.array(z.object({ name: z.string(), type: z.string().optional().describe('the annotation, e.g. str, float, dict') })),
});

interface ContractShape {
  methods: Array<{ name: string; arguments: Array<{ name: string; type?: string }> }>;
  variables: string[];
  hashes: string[];
}

/** The @construct function's parameters (empty when there is none): what constructor_args are coerced by. */
function constructorSignature(irText: string): Signature {
  const ir = JSON.parse(irText) as { functions: Array<{ visibility: string; parameters: Array<{ name: string; annotation: string | null }> }> };
  const construct = ir.functions.find((f) => f.visibility === 'construct');
  return new Map((construct?.parameters ?? []).map((p) => [p.name, p.annotation]));
}

/** constructor_args as the constructor declares them (decimal text for float, whole numbers for int), as sends coerce kwargs. */
function constructorArgs(irText: string, args: JsonObject | undefined): JsonObject | undefined {
  return args === undefined ? undefined : coerceToSignature(args, constructorSignature(irText), 'constructor_args');
}

/** Exported functions (with annotation types) and storage of a compiled module's IR. */
function shapeOf(irText: string): ContractShape {
  const ir = JSON.parse(irText) as {
    functions: Array<{ name: string; visibility: string; parameters: Array<{ name: string; annotation: string | null }> }>;
    global_declarations: Array<{ node: string; name?: string; storage_type?: string }>;
  };
  const storage = ir.global_declarations.filter((d) => d.node === 'storage_decl');
  return {
    methods: ir.functions.filter((f) => f.visibility === 'export').map((f) => ({
      name: f.name,
      arguments: f.parameters.map((p) => (p.annotation === null ? { name: p.name } : { name: p.name, type: p.annotation })),
    })),
    variables: storage.filter((d) => d.storage_type === 'Variable').map((d) => d.name!),
    hashes: storage.filter((d) => d.storage_type === 'Hash').map((d) => d.name!),
  };
}

function compileOrDiagnostics(name: string, code: string): { ir: string } | { diagnostics: CompilerDiagnostic[] } {
  const compiled = compileContract(name, code);
  return compiled.ok ? { ir: compiled.artifact.vm_ir_json } : { diagnostics: compiled.diagnostics };
}

function submitKwargs(name: string, code: string, owner?: string, constructorArgs?: JsonObject): JsonObject {
  const kwargs = Object.create(null) as JsonObject;
  kwargs['name'] = name;
  kwargs['code'] = code;
  if (owner !== undefined) kwargs['owner'] = owner;
  if (constructorArgs !== undefined && Object.keys(constructorArgs).length > 0) kwargs['constructor_args'] = constructorArgs;
  return kwargs;
}

export function contractTools(deps: ContractToolDeps): ToolDefinition[] {
  return [
    defineTool({
      name: 'check_contract',
      title: 'Check contract',
      description:
        'Compiles a contract source exactly as the chain does (syntax subset, lint, normalization, IR) and, when it compiles, dry-runs its deployment (submission.submit_contract) on the node: returns the diagnostics with their ranges, or the exported methods with argument types, the variables and hashes, and the chi the deployment would cost. Nothing is signed or sent.',
      capability: 'read',
      input: z.object({
        name: contractNameSchema.describe('the contract name to deploy under (con_…)'),
        code: codeSchema,
        address: addressSchema.optional().describe('the deployer to dry-run as (default: an unfunded address; the fee preview is then clamped at 0)'),
        constructor_args: kwargsSchema.describe('the constructor\'s keyword arguments for the dry run, coerced by its signature as deploy_contract does'),
      }),
      output: z.object({
        compiles: z.boolean(),
        diagnostics: z.array(diagnosticOut).describe('why the compiler refuses the source (empty when it compiles)'),
        methods: z.array(methodOut),
        variables: z.array(z.string()),
        hashes: z.array(z.string()),
        deployable: z.boolean().describe('the deployment dry run succeeded'),
        chi_estimate: intOut.nullable().describe('chi the deployment used in the dry run (null when it did not compile)'),
        deploy_error: z.string().nullable().describe('why the deployment dry run failed (name taken, constructor error, …)'),
      }),
      run: async ({ name, code, address, constructor_args }, ctx) => {
        const compiled = compileOrDiagnostics(name, code);
        if ('diagnostics' in compiled) {
          return { compiles: false, diagnostics: compiled.diagnostics, methods: [], variables: [], hashes: [], deployable: false, chi_estimate: null, deploy_error: null };
        }
        const shape = shapeOf(compiled.ir);
        const run = await deps.simulator().simulate(
          { sender: address ?? CHECK_SENDER, contract: 'submission', function: 'submit_contract', kwargs: submitKwargs(name, code, undefined, constructorArgs(compiled.ir, constructor_args)) },
          { signal: ctx.signal },
        );
        return {
          compiles: true, diagnostics: [], ...shape, deployable: run.success,
          chi_estimate: intValue(run.chi_used), deploy_error: run.success ? null : run.result,
        };
      },
    }),
    defineTool({
      name: 'deploy_contract',
      title: 'Deploy contract',
      description:
        'Deploys a contract from its source: signs and sends submission.submit_contract(name, code, owner, constructor_args) from a keystore account or a private key through the send pipeline (dry run, spending policy, confirmation, nonce, chi margin). A source the chain\'s compiler refuses is refused here with its diagnostics before anything is signed. Returns the receipt and the contract\'s methods.',
      capability: 'unsafe',
      timeoutMs: deps.waitTimeoutMs + 30_000,
      input: z.object({
        ...deps.signers.fields('private_key', 'the deploying account (the contract\'s developer)'),
        name: contractNameSchema.describe('the new contract\'s name: con_ + lowercase letters, digits, underscores (≤ 64 characters)'),
        code: codeSchema,
        constructor_args: kwargsSchema.describe('keyword arguments of the @construct function; text is coerced by its annotations as send_transaction coerces kwargs ("2.5" for float, "7" for int), a mismatch is refused naming the argument'),
        owner: addressSchema.optional().describe('the only caller allowed to call the contract (default: none, anyone may)'),
        verbose: verboseSchema,
      }),
      output: transactionSubmissionOut.extend({
        deployed: z.object({ name: z.string(), methods: z.array(methodOut), variables: z.array(z.string()), hashes: z.array(z.string()) })
          .describe('the new contract: its exported methods with argument types, its variables and hashes'),
      }),
      refusedArguments: deps.signers.refused('private_key'),
      // Destructive as every send: it spends the signer's funds on the fee and cannot be undone.
      hints: { idempotentHint: false, openWorldHint: true },
      run: async (args, ctx) => {
        const compiled = compileOrDiagnostics(args.name, args.code);
        if ('diagnostics' in compiled) {
          const codes = [...new Set(compiled.diagnostics.map((d) => d.code))].join(', ');
          throw new ApiError(422, 'contract_refused', `the chain's compiler refuses the source of ${args.name} (${codes}); nothing was signed or sent`, {
            diagnostics: compiled.diagnostics,
          });
        }
        const submission: TransactionSubmission = await deps.submitter().submit({
          key: (await deps.signers.resolve(args, 'private_key')).wallet,
          contract: 'submission',
          function: 'submit_contract',
          kwargs: submitKwargs(args.name, args.code, args.owner, constructorArgs(compiled.ir, args.constructor_args)),
          coerceBySignature: false,
          signal: ctx.signal,
          confirm: (request) => ctx.confirm(request),
        });
        const answer = submissionAnswer(submission, args.verbose || deps.includeRaw);
        return withExtras({ ...answer, deployed: { name: args.name, ...shapeOf(compiled.ir) } }, {
          includeRaw: deps.includeRaw, raw: { broadcast_tx_sync: submission.response },
        });
      },
    }),
  ];
}
