import { describe, expect, it } from 'vitest';
import { attachmentProblem, extensionOf } from './card-format';

describe('attachmentProblem', () => {
  it('accepts the allowed extensions in any case', () => {
    for (const name of ['a.xls', 'a.xlsx', 'a.pdf', 'a.doc', 'a.DOCX', 'a.txt', 'wyniki.Rtf']) {
      expect(attachmentProblem({ name, size: 10 })).toBeNull();
    }
  });

  it('refuses other types, names without an extension and files over 20 MB', () => {
    expect(attachmentProblem({ name: 'a.exe', size: 10 })).toBe('invalid_type');
    expect(attachmentProblem({ name: 'pdf', size: 10 })).toBe('invalid_type');
    expect(attachmentProblem({ name: 'a.pdf.exe', size: 10 })).toBe('invalid_type');
    expect(attachmentProblem({ name: 'a.pdf', size: 20 * 1024 * 1024 })).toBeNull();
    expect(attachmentProblem({ name: 'a.pdf', size: 20 * 1024 * 1024 + 1 })).toBe('too_large');
  });

  it('extensionOf ignores a leading dot', () => {
    expect(extensionOf('.pdf')).toBe('');
    expect(extensionOf('raport.final.PDF')).toBe('pdf');
  });
});
