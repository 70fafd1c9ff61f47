import { describe, expect, it } from 'vitest';
import { addFiles, formatFileSize, importFileProblem, uploadPercent } from './import-files';

const file = (name: string, size = 10, lastModified = 1) => ({ name, size, lastModified });

describe('importFileProblem', () => {
  it('accepts the six types, in any letter case', () => {
    for (const name of ['a.xlsx', 'a.XLS', 'a.xlsm', 'a.zip', 'a.csv', 'b.Xml']) {
      expect(importFileProblem(file(name))).toBeNull();
    }
  });

  it('refuses other types, names without an extension and dot files', () => {
    for (const name of ['a.exe', 'a.pdf', 'a.txt', 'xlsx', '.csv', 'a.csv.exe']) {
      expect(importFileProblem(file(name))).toBe('type');
    }
  });

  it('refuses a file over 20 MB', () => {
    expect(importFileProblem(file('a.csv', 20 * 1024 * 1024))).toBeNull();
    expect(importFileProblem(file('a.csv', 20 * 1024 * 1024 + 1))).toBe('size');
  });
});

describe('addFiles', () => {
  it('appends new files and skips the ones already chosen', () => {
    const a = file('a.csv');
    const b = file('b.csv');
    expect(addFiles([a], [file('a.csv'), b])).toEqual([a, b]);
  });

  it('keeps two different files of the same name', () => {
    expect(addFiles([file('a.csv', 1)], [file('a.csv', 2)])).toHaveLength(2);
  });
});

describe('formatFileSize', () => {
  it('writes bytes, kilobytes and megabytes', () => {
    expect(formatFileSize(512, 'pl')).toBe('512 B');
    expect(formatFileSize(12_700, 'pl')).toBe('12,4 KB');
    expect(formatFileSize(3_355_443, 'pl')).toBe('3,2 MB');
    expect(formatFileSize(3_355_443, 'en')).toBe('3.2 MB');
  });
});

describe('uploadPercent', () => {
  it('rounds down and reaches 100 only at the end', () => {
    expect(uploadPercent(0, 0)).toBe(0);
    expect(uploadPercent(1, 3)).toBe(33);
    expect(uploadPercent(9_999, 10_000)).toBe(99);
    expect(uploadPercent(10_000, 10_000)).toBe(100);
  });
});
