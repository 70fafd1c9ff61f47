import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '@portal/shared';
import { documentProblem } from './document-file';

describe('documentProblem', () => {
  it('takes one txt or pdf of at most 20 MB', () => {
    expect(documentProblem({ name: 'Regulamin.PDF', size: 10 })).toBeNull();
    expect(documentProblem({ name: 'instrukcja.txt', size: MAX_FILE_BYTES })).toBeNull();
    expect(documentProblem({ name: 'notatka.docx', size: 10 })).toBe('type');
    expect(documentProblem({ name: 'pdf', size: 10 })).toBe('type');
    expect(documentProblem({ name: 'duzy.pdf', size: MAX_FILE_BYTES + 1 })).toBe('size');
  });
});
