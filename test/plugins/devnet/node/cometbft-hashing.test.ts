import assert from 'node:assert/strict';
import {
  consensusParamsHash, dataHash, headerHash, merkleRoot, rfc3339Nano,
} from '../../../../plugins/devnet/node/cometbft-hashing.js';

const b = (h: string) => Buffer.from(h, 'hex');
const EMPTY = 'E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855';

describe('CometBFT hashing (devnet blocks hash like a real node)', () => {
  it('the header hash of a real Tendermint/CometBFT block', () => {
    // Header of block 10818 of a public Tendermint chain (rigochain devnet0), as its RPC rendered it.
    const hash = headerHash({
      versionBlock: 11, versionApp: 72057594275268382n, chainId: 'devnet0', height: 10818,
      timeNanos: BigInt(Date.parse('2023-06-14T10:17:42Z') / 1000) * 1_000_000_000n + 164478437n,
      lastBlockId: { hash: b('B7F270DE82C5EB38828784923720A7C104F7224294BB52A6E120C065F3572E02'), partsTotal: 1, partsHash: b('D45611FF960D47A62351181E3D7A1CFECAC773681884BA04614C637C9C2C8166') },
      lastCommitHash: b('A5253ABF9ED8F0217F5B5FACFC3B6DB6E14D0FB8CFF8366D0D818914DD712F0A'),
      dataHash: b(EMPTY),
      validatorsHash: b('5B2FCAEBDFD9E6CB6CBE441B1F0060923986C25B910445AEDEC907C12DFC1B5E'),
      nextValidatorsHash: b('5B2FCAEBDFD9E6CB6CBE441B1F0060923986C25B910445AEDEC907C12DFC1B5E'),
      consensusHash: b('048091BC7DDC283F77BFBF91D73C44DA58C3DF8A9CBC867405D8B7F3DAADA22F'),
      appHash: b('5421B4C31EAE7BC682E6D1D4C3575AA03D1EB152189D59C8034627377665D014'),
      lastResultsHash: b(EMPTY),
      evidenceHash: b(EMPTY),
      proposerAddress: b('735DC3FC8BCCFD7810BCC14DB49234C1BCE7758B'),
    });
    assert.equal(hash.toString('hex').toUpperCase(), '97EA623844694395542AA9FEC7155D9601C2C3914E32CF9B83595DCCFB4AA153');
  });

  it('default consensus params and empty lists hash to the well-known values', () => {
    assert.equal(consensusParamsHash(22_020_096, -1).toString('hex').toUpperCase(), '048091BC7DDC283F77BFBF91D73C44DA58C3DF8A9CBC867405D8B7F3DAADA22F');
    assert.equal(merkleRoot([]).toString('hex').toUpperCase(), EMPTY);
    assert.equal(dataHash([]).toString('hex').toUpperCase(), EMPTY);
  });

  it('times render as Go RFC3339Nano (trailing zeros trimmed)', () => {
    const base = BigInt(Date.parse('2026-01-01T00:00:04Z')) * 1_000_000n;
    assert.equal(rfc3339Nano(base + 123_456_789n), '2026-01-01T00:00:04.123456789Z');
    assert.equal(rfc3339Nano(base + 120_000_000n), '2026-01-01T00:00:04.12Z');
    assert.equal(rfc3339Nano(base), '2026-01-01T00:00:04Z');
  });
});
