import { describe, expect, it } from 'vitest';
import { parseHostStatus } from './browser-print';

const status = (errors: string, warnings = '0 00000000 00000000') =>
  `PRINTER STATUS\r\n   ERRORS:         ${errors}\r\n   WARNINGS:       ${warnings}\r\n`;

describe('parseHostStatus (~HQES)', () => {
  it('reads a ready printer', () => {
    expect(parseHostStatus(status('0 00000000 00000000'))).toEqual({ ready: true, reasons: [] });
  });

  it('ignores warnings', () => {
    expect(parseHostStatus(status('0 00000000 00000000', '1 00000000 00000002'))?.ready).toBe(true);
  });

  it('names each error flag', () => {
    expect(parseHostStatus(status('1 00000000 00000001'))).toEqual({
      ready: false,
      reasons: ['paper_out'],
    });
    expect(parseHostStatus(status('1 00000000 00010005'))?.reasons).toEqual([
      'paper_out',
      'head_open',
      'paused',
    ]);
    expect(parseHostStatus(status('1 00000000 00000002'))?.reasons).toEqual(['ribbon_out']);
  });

  it('is not ready on an error flag it cannot name', () => {
    expect(parseHostStatus(status('1 00000000 00000000'))).toEqual({
      ready: false,
      reasons: ['other'],
    });
    expect(parseHostStatus(status('1 00000000 00400000'))?.reasons).toEqual(['other']);
  });

  it('answers null to something that is not a status', () => {
    expect(parseHostStatus('')).toBeNull();
    expect(parseHostStatus('<html>Not found</html>')).toBeNull();
  });
});
