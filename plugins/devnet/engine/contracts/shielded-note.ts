import { sha3_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, chainRecord, type ChainValue, utf8Bytes } from 'chainhost/chain';
import { COST } from '../chi-model.js';
import { Hash, Variable, arg, defineContract, logEvent, method, optArg, type ContractContext, type DeployRequest } from '../contract.js';
import { check } from '../errors.js';
import { add, eq, gte, sub } from '../num.js';
import { SHIELDED_NOTE_SOURCE, ZERO_ROOT } from './shielded-note.source.js';
import { adjust } from './storage-ops.js';

export { ZERO_ROOT };

/**
 * A minimal shielded-note token (contracts.md §10.3): public balances plus deposit / transfer /
 * withdraw entry points that accept output commitments with `output_payloads`, assign sequential
 * note indices, hash the payloads like the real contract and emit `ShieldedOutputsCommitted`, so
 * BDS produces the same shielded-output rows and tags as on the chain. Proofs are not verified
 * (any `0x` hex is accepted) and the tree root is a devnet stand-in, not the MiMC Merkle root.
 */

export const FIELD_MODULUS = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;
export const FIELD_ZERO_HEX = '0x' + '00'.repeat(32);
const MAX_INPUT_NULLIFIERS = 4;
const MAX_OUTPUT_COMMITMENTS = 4;
const MAX_OUTPUT_PAYLOAD_BYTES = 4096;
const MAX_ROOT_HISTORY_WINDOW = 64n;
const MAX_NOTE_AMOUNT = 2n ** 64n - 1n;


// ---------------------------------------------------------------------------------------------

const operator = new Variable('operator');
const totalSupply = new Variable('total_supply', 0n);
const publicSupply = new Variable('public_supply', 0n);
const shieldedSupply = new Variable('shielded_supply', 0n);
const rootHistoryWindow = new Variable('root_history_window', 32n);
const currentRoot = new Variable('current_root', ZERO_ROOT);
const recentRoots = new Variable('recent_roots');
const noteCount = new Variable('note_count', 0n);
const balances = new Hash('balances', 0n);
const approvals = new Hash('approvals', 0n);
const spentNullifiers = new Hash('spent_nullifiers', false);
const noteExists = new Hash('note_exists', false);
const metadata = new Hash('metadata');

const PublicMint = logEvent('PublicMint', { to: { type: 'str', idx: true }, amount: { type: 'int' } });
const PublicTransfer = logEvent('PublicTransfer', { sender: { type: 'str', idx: true }, to: { type: 'str', idx: true }, amount: { type: 'int' } });
const ShieldedDeposit = logEvent('ShieldedDeposit', {
  account: { type: 'str', idx: true }, amount: { type: 'int' }, old_root: { type: 'str', idx: true },
  new_root: { type: 'str', idx: true }, output_count: { type: 'int' },
});
const ShieldedTransfer = logEvent('ShieldedTransfer', {
  account: { type: 'str', idx: true }, old_root: { type: 'str', idx: true }, new_root: { type: 'str', idx: true },
  nullifier_count: { type: 'int' }, output_count: { type: 'int' },
});
const ShieldedWithdraw = logEvent('ShieldedWithdraw', {
  account: { type: 'str', idx: true }, to: { type: 'str', idx: true }, amount: { type: 'int' }, old_root: { type: 'str' },
  new_root: { type: 'str', idx: true }, nullifier_count: { type: 'int' }, output_count: { type: 'int' },
});
const ShieldedOutputsCommitted = logEvent('ShieldedOutputsCommitted', {
  new_root: { type: 'str', idx: true }, action: { type: 'str' }, note_index_start: { type: 'int' },
  output_count: { type: 'int' }, commitments_blob: { type: 'str' }, payload_hashes_blob: { type: 'str' },
});

const HEX_BODY = /^[0-9a-fA-F]+$/;

function fieldHex(n: bigint): string {
  return '0x' + n.toString(16).padStart(64, '0');
}

/**
 * The per-output payload hash (contracts.md §10.1): SHA3-256 of the hex-decoded payload (of its
 * UTF-8 text when it does not decode), reduced modulo the BN254 scalar field; "" → 0x00…00.
 */
export function outputPayloadHash(payload: string): string {
  if (payload === '') return FIELD_ZERO_HEX;
  const body = payload.startsWith('0x') ? payload.slice(2) : payload;
  const bytes = body.length % 2 === 0 && HEX_BODY.test(body) ? new Uint8Array(Buffer.from(body, 'hex')) : utf8Bytes(payload);
  return fieldHex(BigInt('0x' + bytesToHex(sha3_256(bytes))) % FIELD_MODULUS);
}

/** The devnet's stand-in tree root after appending `commitments` to `previous`. */
export function devnetNextRoot(previous: string, commitments: readonly string[]): string {
  const digest = sha3_256(utf8Bytes(`xian-devnet-note-root:${previous}:${commitments.join('|')}`));
  return fieldHex(BigInt('0x' + bytesToHex(digest)) % FIELD_MODULUS);
}

function requireAmount(ctx: ContractContext, amount: ChainValue): bigint {
  check(typeof amount === 'bigint', 'Amount must be an integer!');
  check(amount > 0n, 'Amount must be positive!');
  check(amount <= MAX_NOTE_AMOUNT, 'Amount exceeds shielded note limit!');
  return amount;
}

function requireHexBlob(ctx: ContractContext, name: string, value: ChainValue): string {
  check(typeof value === 'string', `${name} must be a string!`);
  check(value.startsWith('0x'), `${name} must be 0x-prefixed!`);
  check(value.length > 2 && value.length % 2 === 0, `${name} must contain whole bytes!`);
  if (!HEX_BODY.test(value.slice(2))) check(false, `invalid literal for int() with base 16: '${value.slice(2)}'`);
  return value;
}

function requireFieldHex32(ctx: ContractContext, name: string, value: ChainValue): string {
  const v = requireHexBlob(ctx, name, value);
  check(v.length === 66, `${name} must be 32 bytes!`);
  check(BigInt(v) < FIELD_MODULUS, `${name} must be a canonical BN254 field element!`);
  return v;
}

function requireCommitments(ctx: ContractContext, commitments: ChainValue, min: number): string[] {
  check(Array.isArray(commitments), 'output_commitments must be a list!');
  check(commitments.length >= min && commitments.length <= MAX_OUTPUT_COMMITMENTS, 'output_commitments has invalid length!');
  return commitments.map((c) => {
    const v = requireFieldHex32(ctx, 'output commitment', c);
    check(v !== FIELD_ZERO_HEX, 'Output commitment must be non-zero!');
    return v;
  });
}

function requireNullifiers(ctx: ContractContext, nullifiers: ChainValue): string[] {
  check(Array.isArray(nullifiers), 'input_nullifiers must be a list!');
  check(nullifiers.length >= 1 && nullifiers.length <= MAX_INPUT_NULLIFIERS, 'input_nullifiers has invalid length!');
  return nullifiers.map((n) => {
    const v = requireFieldHex32(ctx, 'input nullifier', n);
    check(v !== FIELD_ZERO_HEX, 'Input nullifier must be non-zero!');
    return v;
  });
}

function requireOutputPayloads(ctx: ContractContext, payloads: ChainValue, expected: number): string[] {
  if (payloads === null) return new Array<string>(expected).fill('');
  check(Array.isArray(payloads), 'output_payloads must be a list!');
  check(payloads.length === expected, 'output_payloads length must match output commitments!');
  return payloads.map((p) => {
    if (p === null || p === '') return '';
    const v = requireHexBlob(ctx, 'output payload', p);
    check(Math.floor((v.length - 2) / 2) <= MAX_OUTPUT_PAYLOAD_BYTES, 'output payload exceeds size limit!');
    return v;
  });
}

/** Payload hashes plus the proof check's cost (750,000 + 50 per payload byte). */
function hashPayloads(ctx: ContractContext, payloads: string[]): string[] {
  const bytes = payloads.reduce((n, p) => n + Math.max(0, (p.length - 2) >> 1), 0);
  ctx.charge(COST.proofVerify + COST.proofPayloadByte * bytes);
  return payloads.map(outputPayloadHash);
}

function requireAcceptedRoot(ctx: ContractContext, root: ChainValue): string {
  const r = requireFieldHex32(ctx, 'old_root', root);
  const recent = recentRoots.get(ctx);
  ctx.assert(Array.isArray(recent) ? recent.includes(r) : r === ZERO_ROOT, 'old_root is not accepted!');
  return r;
}

function appendOutputs(ctx: ContractContext, commitments: string[], payloadHashes: string[], action: string): string {
  ctx.charge(COST.shieldedAppendBase + COST.shieldedAppendPerCommitment * commitments.length);
  const start = noteCount.get(ctx);
  for (const c of commitments) {
    ctx.assert(noteExists.get(ctx, c) !== true, 'Commitment already exists!');
    noteExists.set(ctx, c, true);
  }
  const newRoot = devnetNextRoot(String(currentRoot.get(ctx)), commitments);
  noteCount.set(ctx, add(start, BigInt(commitments.length)));
  const previous = recentRoots.get(ctx);
  const roots = [...(Array.isArray(previous) ? previous : [ZERO_ROOT]), newRoot];
  const window = Number(rootHistoryWindow.get(ctx));
  recentRoots.set(ctx, roots.slice(-window));
  currentRoot.set(ctx, newRoot);
  ctx.emit(ShieldedOutputsCommitted, {
    new_root: newRoot,
    action,
    note_index_start: start,
    output_count: BigInt(commitments.length),
    commitments_blob: commitments.join('|'),
    payload_hashes_blob: payloadHashes.join('|'),
  });
  return newRoot;
}

function spend(ctx: ContractContext, nullifiers: string[]): void {
  for (const n of nullifiers) {
    ctx.assert(spentNullifiers.get(ctx, n) !== true, 'Nullifier already spent!');
    spentNullifiers.set(ctx, n, true);
  }
}

const SHIELDED_COST = 5_000;

export const shieldedNoteToken = defineContract({
  id: 'con_shielded_note_token',
  source: SHIELDED_NOTE_SOURCE,
  storage: [operator, totalSupply, publicSupply, shieldedSupply, rootHistoryWindow, currentRoot, recentRoots, noteCount,
    balances, approvals, spentNullifiers, noteExists, metadata],
  events: [PublicMint, PublicTransfer, ShieldedDeposit, ShieldedTransfer, ShieldedWithdraw, ShieldedOutputsCommitted],
  constructorMethod: method('seed', [
    optArg('token_name', 'str', 'Shielded Note Token'), optArg('token_symbol', 'str', 'SNOTE'),
    optArg('operator_address', 'str', null), optArg('root_window_size', 'int', 32n),
  ], (ctx, a) => {
    let op = a.operator_address;
    if (op === null || op === '') op = ctx.caller;
    ctx.assert(typeof a.root_window_size === 'bigint' && a.root_window_size >= 1n && a.root_window_size <= MAX_ROOT_HISTORY_WINDOW, 'root_window_size out of range!');
    operator.set(ctx, op!);
    totalSupply.set(ctx, 0n);
    publicSupply.set(ctx, 0n);
    shieldedSupply.set(ctx, 0n);
    rootHistoryWindow.set(ctx, a.root_window_size);
    currentRoot.set(ctx, ZERO_ROOT);
    recentRoots.set(ctx, [ZERO_ROOT]);
    noteCount.set(ctx, 0n);
    metadata.set(ctx, 'token_name', a.token_name!);
    metadata.set(ctx, 'token_symbol', a.token_symbol!);
    metadata.set(ctx, 'precision', 0n);
  }, 3_000),
  methods: [
    method('get_metadata', [], (ctx) => chainRecord([
      ['token_name', metadata.get(ctx, 'token_name')],
      ['token_symbol', metadata.get(ctx, 'token_symbol')],
      ['precision', metadata.get(ctx, 'precision')],
    ])),
    method('current_shielded_root', [], (ctx) => currentRoot.get(ctx)),
    method('get_note_count', [], (ctx) => noteCount.get(ctx)),
    method('balance_of', [arg('address', 'str')], (ctx, a) => balances.get(ctx, a.address!)),
    method('approve', [arg('amount', 'int'), arg('to', 'str')], (ctx, a) => {
      ctx.assert(typeof a.amount === 'bigint' && a.amount >= 0n, 'Approval amount must be a non-negative integer!');
      approvals.set(ctx, [ctx.caller, a.to!], a.amount);
      return a.amount;
    }),
    method('transfer', [arg('amount', 'int'), arg('to', 'str')], (ctx, a) => {
      const amount = requireAmount(ctx, a.amount!);
      ctx.assert(gte(balances.get(ctx, ctx.caller), amount), 'Not enough balance!');
      adjust(ctx, balances, [ctx.caller], amount, true);
      adjust(ctx, balances, [a.to!], amount);
      ctx.emit(PublicTransfer, { sender: ctx.caller, to: a.to!, amount });
      return amount;
    }),
    method('transfer_from', [arg('amount', 'int'), arg('to', 'str'), arg('main_account', 'str')], (ctx, a) => {
      const amount = requireAmount(ctx, a.amount!);
      const main = a.main_account!;
      ctx.assert(gte(approvals.get(ctx, main, ctx.caller), amount), 'Not enough approved balance!');
      ctx.assert(gte(balances.get(ctx, main), amount), 'Not enough balance!');
      adjust(ctx, approvals, [main, ctx.caller], amount, true);
      adjust(ctx, balances, [main], amount, true);
      adjust(ctx, balances, [a.to!], amount);
      ctx.emit(PublicTransfer, { sender: main, to: a.to!, amount });
      return amount;
    }),
    method('mint_public', [arg('amount', 'int'), arg('to', 'str')], (ctx, a) => {
      ctx.assert(eq(ctx.caller, operator.get(ctx)), 'Only operator!');
      const amount = requireAmount(ctx, a.amount!);
      adjust(ctx, balances, [a.to!], amount);
      totalSupply.set(ctx, add(totalSupply.get(ctx), amount));
      publicSupply.set(ctx, add(publicSupply.get(ctx), amount));
      ctx.emit(PublicMint, { to: a.to!, amount });
      return amount;
    }),
    method('deposit_shielded', [
      arg('amount', 'int'), arg('old_root', 'str'), arg('output_commitments', 'list'), arg('proof_hex', 'str'),
      optArg('output_payloads', 'list', null),
    ], (ctx, a) => {
      const amount = requireAmount(ctx, a.amount!);
      const oldRoot = requireAcceptedRoot(ctx, a.old_root!);
      const commitments = requireCommitments(ctx, a.output_commitments!, 1);
      const hashes = hashPayloads(ctx, requireOutputPayloads(ctx, a.output_payloads!, commitments.length));
      requireHexBlob(ctx, 'proof_hex', a.proof_hex!);
      ctx.assert(gte(balances.get(ctx, ctx.caller), amount), 'Not enough public balance!');
      adjust(ctx, balances, [ctx.caller], amount, true);
      publicSupply.set(ctx, sub(publicSupply.get(ctx), amount));
      shieldedSupply.set(ctx, add(shieldedSupply.get(ctx), amount));
      const newRoot = appendOutputs(ctx, commitments, hashes, 'deposit');
      ctx.emit(ShieldedDeposit, { account: ctx.caller, amount, old_root: oldRoot, new_root: newRoot, output_count: BigInt(commitments.length) });
      return newRoot;
    }, SHIELDED_COST),
    method('transfer_shielded', [
      arg('old_root', 'str'), arg('input_nullifiers', 'list'), arg('output_commitments', 'list'), arg('proof_hex', 'str'),
      optArg('output_payloads', 'list', null),
    ], (ctx, a) => {
      const oldRoot = requireAcceptedRoot(ctx, a.old_root!);
      const nullifiers = requireNullifiers(ctx, a.input_nullifiers!);
      const commitments = requireCommitments(ctx, a.output_commitments!, 1);
      const hashes = hashPayloads(ctx, requireOutputPayloads(ctx, a.output_payloads!, commitments.length));
      requireHexBlob(ctx, 'proof_hex', a.proof_hex!);
      spend(ctx, nullifiers);
      const newRoot = appendOutputs(ctx, commitments, hashes, 'transfer');
      ctx.emit(ShieldedTransfer, {
        account: ctx.caller, old_root: oldRoot, new_root: newRoot,
        nullifier_count: BigInt(nullifiers.length), output_count: BigInt(commitments.length),
      });
      return newRoot;
    }, SHIELDED_COST),
    method('withdraw_shielded', [
      arg('amount', 'int'), arg('to', 'str'), arg('old_root', 'str'), arg('input_nullifiers', 'list'),
      arg('output_commitments', 'list'), arg('proof_hex', 'str'), optArg('output_payloads', 'list', null),
    ], (ctx, a) => {
      const amount = requireAmount(ctx, a.amount!);
      const oldRoot = requireAcceptedRoot(ctx, a.old_root!);
      const nullifiers = requireNullifiers(ctx, a.input_nullifiers!);
      const commitments = requireCommitments(ctx, a.output_commitments!, 0);
      const hashes = hashPayloads(ctx, requireOutputPayloads(ctx, a.output_payloads!, commitments.length));
      requireHexBlob(ctx, 'proof_hex', a.proof_hex!);
      ctx.assert(gte(shieldedSupply.get(ctx), amount), 'Not enough shielded supply!');
      spend(ctx, nullifiers);
      let newRoot = String(currentRoot.get(ctx));
      if (commitments.length > 0) newRoot = appendOutputs(ctx, commitments, hashes, 'withdraw');
      shieldedSupply.set(ctx, sub(shieldedSupply.get(ctx), amount));
      publicSupply.set(ctx, add(publicSupply.get(ctx), amount));
      adjust(ctx, balances, [a.to!], amount);
      ctx.emit(ShieldedWithdraw, {
        account: ctx.caller, to: a.to!, amount, old_root: oldRoot, new_root: newRoot,
        nullifier_count: BigInt(nullifiers.length), output_count: BigInt(commitments.length),
      });
      return newRoot;
    }, SHIELDED_COST),
  ],
});

/** The deploy request for a shielded-note token instance. */
export function shieldedNoteDeployment(o: { name: string; tokenName?: string; tokenSymbol?: string; operator?: string }): DeployRequest {
  const args = chainRecord([
    ['token_name', o.tokenName ?? 'Shielded Note Token'],
    ['token_symbol', o.tokenSymbol ?? 'SNOTE'],
  ]);
  if (o.operator !== undefined) args['operator_address'] = o.operator;
  return { name: o.name, code: SHIELDED_NOTE_SOURCE, owner: null, constructorArgs: args };
}
