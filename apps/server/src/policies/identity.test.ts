import { describe, expect, it } from 'vitest';
import type { Actor } from '../plugins/policy.js';
import { maskIdentities, mustMask } from './identity.js';

const actor = (role: Actor['role']): Actor => ({
  userId: 1,
  sessionId: 1,
  login: 'x',
  role,
  doctorId: null,
  unitId: null,
  changedPasswordAt: new Date(),
});

describe('identity masking (ADR 053)', () => {
  it('masks every pesel however deep, and leaves the answer it was given as it was', () => {
    const answer = {
      data: [{ id: 1, pesel: '44051401359', patient: { firstname: 'Jan', pesel: '85010112345' } }],
      total: 1,
      at: new Date(0),
    };
    const masked = maskIdentities(answer);
    expect(masked).toEqual({
      data: [{ id: 1, pesel: '440514*****', patient: { firstname: 'Jan', pesel: '850101*****' } }],
      total: 1,
      at: new Date(0),
    });
    expect(answer.data[0]!.pesel).toBe('44051401359');
  });

  it('masks for staff without patients.identity.read only', () => {
    expect(mustMask(actor('admin'))).toBe(false);
    expect(mustMask(actor('doctor'))).toBe(false);
    expect(mustMask(actor('iod'))).toBe(false);
    // A patient reads the own record only.
    expect(mustMask(actor('patient'))).toBe(false);
  });
});
