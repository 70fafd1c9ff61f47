import { describe, expect, it } from 'vitest';
import { adminBody } from './schemas/admins.js';
import { loginBody } from './schemas/auth.js';
import { doctorBody } from './schemas/doctors.js';
import { isAcceptableLogin, loginSkeleton, normalizeLogin } from './login.js';

describe('normalizeLogin', () => {
  it('folds full-width letters, ligatures and decomposed letters (NFKC) and trims', () => {
    expect(normalizeLogin('  ｓｅｃａｄｍｉｎ ')).toBe('secadmin');
    expect(normalizeLogin('ﬁlip')).toBe('filip');
    expect(normalizeLogin('zaz\u0307o\u0301ł')).toBe('zażół');
    expect(normalizeLogin('Admin')).toBe('Admin');
  });
});

describe('isAcceptableLogin', () => {
  it('accepts Latin logins with Polish letters, digits and e-mail signs', () => {
    for (const login of [
      'secadmin',
      'Łukasz.Żółć',
      'jan.kowalski@szpital.pl',
      'admin_2',
      'сергей',
    ]) {
      expect(isAcceptableLogin(login), login).toBe(true);
    }
  });

  it('refuses invisible and format characters, spaces and mixed scripts', () => {
    const refused = [
      'sec\u200badmin', // zero-width space
      'sec\u00adadmin', // soft hyphen
      'sec\u202eadmin', // right-to-left override
      'sec\u2060admin', // word joiner
      'sec admin',
      'sec\u00a0admin',
      'ѕecadmin', // Cyrillic s among Latin letters
      'secаdmin', // Cyrillic a
      'secαdmin', // Greek alpha
      's\u0336ecadmin', // a combining mark NFKC cannot compose
      'admin\u0661', // an Arabic-Indic digit
      'sec\u0000admin',
    ];
    for (const login of refused)
      expect(isAcceptableLogin(login), JSON.stringify(login)).toBe(false);
  });
});

describe('loginSkeleton', () => {
  it('gives look-alike logins one skeleton', () => {
    const base = loginSkeleton('secadmin');
    for (const login of ['SECADMIN', 'ｓｅｃａｄｍｉｎ', 'secadrnin', 'secadm1n', 'secadmln']) {
      expect(loginSkeleton(login), login).toBe(base);
    }
    expect(loginSkeleton('сеса')).toBe(loginSkeleton('ceca'));
    expect(loginSkeleton('vvojtek0')).toBe(loginSkeleton('wojteko'));
  });

  it('keeps different logins apart', () => {
    expect(loginSkeleton('lukasz')).not.toBe(loginSkeleton('łukasz'));
    expect(loginSkeleton('admin1')).not.toBe(loginSkeleton('admin2'));
  });
});

describe('login fields of the shared schemas', () => {
  it('normalise the administrator login and refuse a confusing one with invalid_login', () => {
    expect(adminBody.parse({ login: ' ｓｅｃａｄｍｉｎ ' })).toEqual({
      login: 'secadmin',
      role: 'admin',
    });
    const result = adminBody.safeParse({ login: 'ѕecadmin' });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['invalid_login']);
  });

  it('normalise the doctor e-mail and refuse invisible characters in it', () => {
    const body = { firstname: 'Jan', surname: 'Nowak', phone_number: '600100200', unit_id: 1 };
    expect(doctorBody.parse({ ...body, email: 'ＪＡＮ@szpital.pl' }).email).toBe('jan@szpital.pl');
    const result = doctorBody.safeParse({ ...body, email: 'ja\u200bn@szpital.pl' });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['invalid_login']);
  });

  it('normalise the login of a sign-in without refusing it', () => {
    expect(loginBody.parse({ login: 'ｓｅｃａｄｍｉｎ', password: 'x' }).login).toBe('secadmin');
    expect(loginBody.safeParse({ login: 'sec\u200badmin', password: 'x' }).success).toBe(true);
  });
});
