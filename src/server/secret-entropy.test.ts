import { describe, expect, it } from 'vitest';
import { estimateSecretEntropy, MIN_SECRET_BITS } from './secret-entropy';

describe('estimateSecretEntropy', () => {
  it('credits keys made from 32 random bytes with at least 128 bits', () => {
    for (const secret of [
      // openssl rand -base64 32
      'lO12sOlVmw1YFpiAFNZfQIGr6x8hw6S2mdAu5fYI04E=',
      '0op1OwngXMtjfOPhs5uyNcc6tkVJMQ4uufSUynA2sMQ=',
      'GITAnA2CrHidb9oHo5DCJtvv/YHuDqVKDG+J7MFwVx0=',
      // openssl rand -hex 32
      '4b8dce2ef2d2a218ca4998fc439338b97e5c4eda58e3e8a1e3defca6058abd9d',
      // randomBytes(32).toString('base64url'), as Voxline makes its own outside production
      '8JYNJzX-ZpIGYIGxGDBA1-oYpcGWrehIp5b5pD-KrR8',
    ]) {
      expect(estimateSecretEntropy(secret), secret).toBeGreaterThanOrEqual(MIN_SECRET_BITS);
    }
  });

  it('never credits more than the alphabet allows: 24 random bytes are 192 bits at most, 32 hex digits 128', () => {
    expect(estimateSecretEntropy('yAwZDlCrQnwmyjcFCPVPrSziBCDaxu7L')).toBeLessThanOrEqual(32 * 6);
    expect(estimateSecretEntropy('c83c70b024e12b1f1805acd8552f2a5a')).toBeLessThanOrEqual(128);
  });

  it('finds long secrets made of repeats, sequences, words and keyboard walks weak', () => {
    for (const secret of [
      'a'.repeat(40),
      'password'.repeat(5),
      'voxline-voxline-voxline-voxline-voxline',
      'abcdefghijklmnopqrstuvwxyz0123456789',
      'qwertyuiopasdfghjklzxcvbnm1234567890',
      'thisismysecretpasswordforvoxline',
      'correct horse battery staple voxline',
      'Tr0ub4dor&3-c0rr3ct-h0rs3-b4tt3ry-st4pl3!',
    ]) {
      expect(estimateSecretEntropy(secret), secret).toBeLessThan(MIN_SECRET_BITS);
    }
    expect(estimateSecretEntropy('a'.repeat(40))).toBeLessThan(16);
    expect(estimateSecretEntropy('password'.repeat(5))).toBeLessThan(48);
  });
});
