import assert from 'node:assert/strict';
import { bytesToHex } from '../../../core/chain/hashes.js';
import {
  deriveCanonicalKey,
  deriveFromMnemonic,
  deriveSlip10Key,
  generateMnemonic,
  legacyJsSdkPath,
  MnemonicError,
  mnemonicProblem,
  mnemonicToSeed,
  normalizeMnemonic,
  parseSlip10Path,
  UPSTREAM_MCP_PATH,
  validateMnemonic,
} from '../../../core/chain/hd-wallet.js';

const MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const SEED = '5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6f6da5fc19a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4';

describe('BIP39 mnemonics', () => {
  it('derives the standard seed with an empty passphrase', () => {
    assert.equal(bytesToHex(mnemonicToSeed(MNEMONIC)), SEED);
  });

  it('normalises case and whitespace before use', () => {
    const messy = `  ${MNEMONIC.toUpperCase().replace(/ /g, ' \t\n ')}  `;
    assert.equal(normalizeMnemonic(messy), MNEMONIC);
    assert.equal(bytesToHex(mnemonicToSeed(messy)), SEED);
  });

  it('generates 12 words by default and 24 on request, all valid', () => {
    const twelve = generateMnemonic();
    const twentyFour = generateMnemonic(24);
    assert.equal(twelve.split(' ').length, 12);
    assert.equal(twentyFour.split(' ').length, 24);
    assert.ok(validateMnemonic(twelve) && validateMnemonic(twentyFour));
    assert.notEqual(generateMnemonic(), twelve);
  });

  it('explains invalid mnemonics without echoing any word', () => {
    assert.match(mnemonicProblem('abandon abandon')!, /got 2/);
    const unknownWord = MNEMONIC.replace(/about$/, 'zebraxyz');
    assert.equal(mnemonicProblem(unknownWord), 'word 12 is not in the BIP39 English word list');
    const badChecksum = MNEMONIC.replace(/about$/, 'abandon');
    assert.match(mnemonicProblem(badChecksum)!, /checksum/);
    assert.throws(() => mnemonicToSeed(badChecksum), (err: unknown) => err instanceof MnemonicError && !err.message.includes('abandon'));
    assert.equal(validateMnemonic(unknownWord), false);
  });
});

describe('key derivation schemes (crypto.md §2.4 vectors)', () => {
  const vectors: Array<[string, Parameters<typeof deriveFromMnemonic>[1], string, string]> = [
    ['canonical v2, index 0 (default)', {}, 'b3aee0ed179a18a754136d3d134c03e9c1ad97eb2e9912401dc2d9ffc96882e0', '7e15e2e068cb41b5c4b51dafef23d944aa7d120d362097d1f7c02100da5c2be5'],
    ['canonical v2, index 1', { index: 1 }, 'f1f4674448f4d17a78af6b150a7fa45a752d0014fb0235604a339a898695ce69', '6cb37dd4f3acf8152c4d083bba33ce7dc2cf410fa3bab94694ef17aa5616f1ad'],
    ['v1, index 0', { scheme: 'v1' }, '457c57823c3ba5c795eb91a34b3a666d2bdf7a40bf8154e715dcf687a3ded6ec', 'f26849e0e53a590d132f4e18a1c38c5040db3e96f6d0f0e6e18cc34a9b8beaf0'],
    ['v1, index 1', { scheme: 'v1', index: 1 }, 'a40393033de03256f7d4b2c42860464879c6d763febbc89a25989598af246fa7', 'c2ccbe3636698f0877a00b854ecb846eddba441d4503b2231336d760c8a6cb3e'],
    ["SLIP-10 m/44'/789'/0'/0'/0'", { scheme: 'slip10' }, '4cad836d805bed381fd5c95dcd70f4745e2cf85a92a79ac8aba96d77d12b9e36', '12466ef6a78fae4525d5fa1320300ae3adf841b7a01a4e2026989cbfdbdb5c1b'],
    ["SLIP-10 m/44'/789'/1'/0'/0'", { scheme: 'slip10', index: 1 }, 'fac5c03f7f244370e9b70cd1bf4eded856102a1704e41f2cbc9fa1e8c572b2c6', '542802f065d2aef60c05f1c6c1b297edb28c8c8bdfe98426ace61d494211b979'],
    ["SLIP-10 m/44'/0'/0'/0'/0' (upstream MCP)", { scheme: 'slip10', path: UPSTREAM_MCP_PATH }, '348de60391d98089828e3ceb3828991313a3a3e3220147e803fd3d4785640f45', '7c2e79f3a1701fb2a86a2c24a3fdf8634b7aad80886c0c0a526d44d23fe8e19a'],
  ];
  for (const [name, options, privateKey, publicKey] of vectors) {
    it(name, () => {
      const key = deriveFromMnemonic(MNEMONIC, options);
      assert.equal(key.privateKey, privateKey);
      assert.equal(key.publicKey, publicKey);
    });
  }

  it('exposes the building blocks over a seed', () => {
    const seed = mnemonicToSeed(MNEMONIC);
    assert.equal(deriveCanonicalKey(seed, 0), 'b3aee0ed179a18a754136d3d134c03e9c1ad97eb2e9912401dc2d9ffc96882e0');
    assert.equal(deriveSlip10Key(seed, legacyJsSdkPath(0)), '4cad836d805bed381fd5c95dcd70f4745e2cf85a92a79ac8aba96d77d12b9e36');
    assert.equal(deriveSlip10Key(seed, "m/44h/789H/0'/0'/0'"), '4cad836d805bed381fd5c95dcd70f4745e2cf85a92a79ac8aba96d77d12b9e36');
  });

  it('refuses non-hardened SLIP-10 steps, bad paths, indexes and schemes', () => {
    assert.deepEqual(parseSlip10Path("m/44'/0'"), [44, 0]);
    assert.throws(() => parseSlip10Path("m/44'/0/0'"), /hardened steps only/);
    assert.throws(() => parseSlip10Path("44'/0'"), /must start with "m\/"/);
    assert.throws(() => deriveFromMnemonic(MNEMONIC, { index: -1 }), /account index/);
    assert.throws(() => deriveFromMnemonic(MNEMONIC, { scheme: 'v3' as 'v2' }), /unknown HD scheme/);
  });
});
