import { describe, expect, it } from 'vitest';
import { fileNameFrom } from './file-name';

describe('fileNameFrom (Content-Disposition)', () => {
  it('reads the quoted and the bare name', () => {
    expect(fileNameFrom('attachment; filename="pacjent-7-kopia-danych.pdf"')).toBe(
      'pacjent-7-kopia-danych.pdf',
    );
    expect(fileNameFrom('inline; filename=odm.xml')).toBe('odm.xml');
    expect(fileNameFrom('attachment; filename="say \\"hi\\".txt"')).toBe('say "hi".txt');
  });

  it('prefers the UTF-8 name, which keeps Polish letters, to the ASCII fallback', () => {
    expect(
      fileNameFrom(
        `attachment; filename="EKG spoczynkowe _ Zolc.pdf"; filename*=UTF-8''${encodeURIComponent('EKG spoczynkowe – Żółć.pdf')}`,
      ),
    ).toBe('EKG spoczynkowe – Żółć.pdf');
  });

  it('falls back to the plain name when the UTF-8 one is malformed', () => {
    expect(fileNameFrom(`attachment; filename="plik.pdf"; filename*=UTF-8''%E0%A4%A.pdf`)).toBe(
      'plik.pdf',
    );
  });

  it('answers null without a name', () => {
    expect(fileNameFrom(null)).toBeNull();
    expect(fileNameFrom('attachment')).toBeNull();
    expect(fileNameFrom('attachment; filename=""')).toBeNull();
  });
});
