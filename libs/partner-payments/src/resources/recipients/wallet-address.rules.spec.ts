import { base58Decode, isTronAddress, walletAddressProblem } from './wallet-address.rules';

describe('wallet addresses (evidence §4: TRON addresses pass base58check at the partner)', () => {
  // Well-known public addresses: the USDT contract on TRON, the USDC mint on Solana, USDC on Polygon.
  const tron = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
  const solana = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
  const polygon = '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174';

  it('base58 decodes leading ones as zero bytes and refuses characters outside the alphabet', () => {
    expect(base58Decode('11')).toEqual(Buffer.from([0, 0]));
    expect(base58Decode('0OIl')).toBeNull();
    expect(base58Decode('')).toBeNull();
  });

  it('a real TRON address passes; one changed character or a look-alike fails the checksum', () => {
    expect(isTronAddress(tron)).toBe(true);
    expect(isTronAddress(`${tron.slice(0, -1)}u`)).toBe(false);
    expect(isTronAddress(`T${'1'.repeat(33)}`)).toBe(false);
    expect(isTronAddress(solana)).toBe(false);
  });

  it('names the problem per network; real addresses pass', () => {
    expect(walletAddressProblem('tron', tron)).toBeUndefined();
    expect(walletAddressProblem('solana', solana)).toBeUndefined();
    expect(walletAddressProblem('polygon', polygon)).toBeUndefined();
    expect(walletAddressProblem('tron', 'TXYZ')).toMatch(/base58check/);
    expect(walletAddressProblem('solana', polygon)).toMatch(/Solana/);
    expect(walletAddressProblem('polygon', '0xabc')).toMatch(/Polygon/);
  });
});
