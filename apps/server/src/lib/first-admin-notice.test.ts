import { describe, expect, it } from 'vitest';
import { firstAdminNotice } from './first-admin-notice.js';

describe('firstAdminNotice', () => {
  it('frames the login and the password, every line of one width', () => {
    const text = firstAdminNotice('admin', 'Xy7-secret-Q', 'http://localhost:3000');
    const lines = text.split('\n').filter((line) => line !== '');
    expect(lines[0]).toMatch(/^\+-+\+$/);
    expect(lines.at(-1)).toBe(lines[0]);
    expect(new Set(lines.map((line) => line.length)).size).toBe(1);
    expect(text).toContain('|   login:    admin ');
    expect(text).toContain('|   password: Xy7-secret-Q ');
    expect(text).toContain('http://localhost:3000');
    expect(text.endsWith('\n')).toBe(true);
  });
});
