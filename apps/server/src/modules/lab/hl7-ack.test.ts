import { describe, expect, it } from 'vitest';
import HL7 from 'hl7-standard';
import { Hl7Message } from '@medplum/core';
import { buildAck, hl7Timestamp, UNKNOWN_HEADER } from './hl7-ack.js';
import type { AckHeader } from './hl7-ack.js';
import { escapeHl7, unescapeHl7, STANDARD_SEPARATORS, encodeIn, decodeStrict } from './hl7-er7.js';
import { parseOru } from './hl7-parse.js';

/** An independent reader (hl7-standard), as a laboratory's interface engine would read it. */
function read(er7: string) {
  const message = new HL7(er7);
  message.transform();
  return message;
}

const header = (overrides: Partial<AckHeader> = {}): AckHeader => ({
  ...UNKNOWN_HEADER,
  sendingApplication: 'MOLIS',
  sendingFacility: 'SYNEVO-PL',
  receivingApplication: 'PORTAL',
  receivingFacility: 'KARDIO',
  controlId: 'CTRL-1',
  trigger: 'R01',
  processingId: 'P',
  version: '2.5',
  ...overrides,
});

describe('buildAck', () => {
  it('lays out an AA by v2.5: swapped applications, MSH-7 with ms and offset, ACK^R01^ACK', () => {
    const now = new Date('2026-07-01T08:09:10.007Z');
    const ack = buildAck(header(), 'AA', null, { now, controlId: 'ACK1' });
    const parsed = read(ack);
    expect(parsed.get('MSH.3')).toBe('PORTAL');
    expect(parsed.get('MSH.4')).toBe('KARDIO');
    expect(parsed.get('MSH.5')).toBe('MOLIS');
    expect(parsed.get('MSH.6')).toBe('SYNEVO-PL');
    // Summer time in Warsaw: +0200; milliseconds zero-padded.
    expect(parsed.get('MSH.7')).toBe('20260701100910.007+0200');
    expect(parsed.get('MSH.9')).toEqual({ 'MSH.9.1': 'ACK', 'MSH.9.2': 'R01', 'MSH.9.3': 'ACK' });
    expect(parsed.get('MSH.10')).toBe('ACK1');
    expect(parsed.get('MSH.11')).toBe('P');
    expect(parsed.get('MSH.12')).toBe('2.5');
    expect(parsed.get('MSA.1')).toBe('AA');
    expect(parsed.get('MSA.2')).toBe('CTRL-1');
    expect(ack).not.toContain('ERR');
    expect(hl7Timestamp(new Date('2026-01-15T23:00:00.000Z'))).toBe('20260116000000.000+0100');
  });

  it('adds ERR with a table 0357 code, the location and the text to AE and AR', () => {
    const ack = buildAck(header(), 'AE', {
      code: 102,
      text: 'OBX 2: OBX-5 not a number',
      location: { segment: 'OBX', sequence: 2, field: 5 },
    });
    const parsed = read(ack);
    expect(parsed.get('MSA.1')).toBe('AE');
    expect(parsed.get('ERR.2')).toEqual({ 'ERR.2.1': 'OBX', 'ERR.2.2': '2', 'ERR.2.3': '5' });
    expect(parsed.get('ERR.3')).toEqual({
      'ERR.3.1': '102',
      'ERR.3.2': 'Data type error',
      'ERR.3.3': 'HL70357',
    });
    expect(parsed.get('ERR.4')).toBe('E');
    expect(parsed.get('ERR.8')).toBe('OBX 2: OBX-5 not a number');
    const ar = read(buildAck(header(), 'AR', { code: 203, text: 'MSH-12: unsupported version' }));
    expect(ar.get('MSA.1')).toBe('AR');
    expect(ar.get('ERR.3.1')).toBe('203');
  });

  it("is written with the message's own separators and echoes MSH-10 exactly as sent", () => {
    // A laboratory using # for components and $ for subcomponents.
    const er7 =
      'MSH|#~\\$|LAB|FAC|PORTAL|KARDIO|20261125||ORU#R01|  id\\F\\1#x |P|2.5\rPID|1||X\rOBR|1||S-1\rOBX|1|NM|ALT||1|U/L\r';
    const outcome = parseOru(er7, [], { now: new Date('2026-11-26T00:00:00Z') });
    expect(outcome.ok).toBe(true);
    const ack = buildAck(outcome.header, 'AA', null);
    expect(ack.startsWith('MSH|#~\\$|PORTAL|KARDIO|LAB|FAC|')).toBe(true);
    expect(ack).toContain('|ACK#R01#ACK|');
    expect(ack.split('\r')[1]).toBe('MSA|AA|  id\\F\\1#x |OK');
    const medplum = Hl7Message.parse(ack);
    expect(medplum.getSegment('MSA')?.getField(2).toString()).toBe('  id\\F\\1#x ');
  });

  it('escapes the text it writes so no separator or CR makes a field or segment', () => {
    const ack = buildAck(header(), 'AE', { code: 207, text: 'a|b^c&d~e\\f\rMSH|x' });
    const segments = ack.split('\r').filter(Boolean);
    expect(segments.map((segment) => segment.slice(0, 3))).toEqual(['MSH', 'MSA', 'ERR']);
    const parsed = read(ack);
    expect(unescapeHl7(parsed.get('ERR.8') as string, STANDARD_SEPARATORS)).toBe(
      'a|b^c&d~e\\f\rMSH|x',
    );
  });
});

describe('ER7 text', () => {
  it('decodes every escape once and keeps what is no escape', () => {
    const s = STANDARD_SEPARATORS;
    expect(unescapeHl7('a\\F\\b\\S\\c\\T\\d\\R\\e\\E\\f', s)).toBe('a|b^c&d~e\\f');
    expect(unescapeHl7('linia 1\\.br\\linia 2', s)).toBe('linia 1\nlinia 2');
    expect(unescapeHl7('\\X0D0A\\', s)).toBe('\r\n');
    // \E\F\E\ is an escaped backslash, F, an escaped backslash: never decoded twice into |.
    expect(unescapeHl7('\\E\\F\\E\\', s)).toBe('\\F\\');
    expect(unescapeHl7('50\\% \\Q\\', s)).toBe('50\\% \\Q\\');
    expect(unescapeHl7('\\H\\ważne\\N\\', s)).toBe('ważne');
    const utf8 = (bytes: Buffer) => decodeStrict(bytes, 'utf-8');
    expect(unescapeHl7('\\XC582\\', s, utf8)).toBe('ł');
    for (const text of ['A|B^C&D~E\\F', 'x\ry', 'żółw']) {
      expect(unescapeHl7(escapeHl7(text), s)).toBe(text);
    }
  });

  it('encodes and decodes the charsets of MSH-18, refusing bytes a charset lacks', () => {
    const text = 'Łódź, żółć';
    for (const charset of ['utf-8', 'iso-8859-2', 'windows-1250'] as const) {
      expect(decodeStrict(encodeIn(text, charset), charset)).toBe(text);
    }
    expect(encodeIn('Ł', 'iso-8859-2')).toEqual(Buffer.from([0xa3]));
    expect(encodeIn('Ł', 'windows-1250')).toEqual(Buffer.from([0xa3]));
    expect(encodeIn('ś', 'iso-8859-2')).toEqual(Buffer.from([0xb6]));
    expect(encodeIn('ś', 'windows-1250')).toEqual(Buffer.from([0x9c]));
    expect(() => decodeStrict(Buffer.from([0xc5, 0x28]), 'utf-8')).toThrow();
    expect(() => decodeStrict(Buffer.from([0x81]), 'windows-1250')).toThrow();
    expect(() => decodeStrict(Buffer.from([0xe9]), 'us-ascii')).toThrow();
  });
});
