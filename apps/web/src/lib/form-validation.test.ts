import { describe, expect, it } from 'vitest';
import { changePasswordBody, doctorBody, unitBody } from '@portal/shared';
import { validateWith } from './form-validation';

describe('validateWith', () => {
  it('reports required and too-long fields of a unit', () => {
    const result = validateWith(unitBody, {
      name: '',
      street: 'x'.repeat(256),
      building_nr: '1',
      postcode: '00-001',
      city: 'Warszawa',
    });
    expect(result).toEqual({ ok: false, codes: { name: 'required', street: 'too_long' } });
  });

  it('returns the parsed data when valid', () => {
    const result = validateWith(doctorBody, {
      firstname: ' Jan ',
      surname: 'Kowalski',
      email: 'JAN@example.com',
      phone_number: '123456789',
      unit_id: 3,
    });
    expect(result).toEqual({
      ok: true,
      data: {
        firstname: 'Jan',
        surname: 'Kowalski',
        email: 'jan@example.com',
        phone_number: '123456789',
        unit_id: 3,
      },
    });
  });

  it("reports an id held as text, as the API would (a form converts a select's value)", () => {
    const result = validateWith(doctorBody, {
      firstname: 'Jan',
      surname: 'Kowalski',
      email: 'jan@example.com',
      phone_number: '123456789',
      unit_id: '3',
    });
    expect(result).toEqual({ ok: false, codes: { unit_id: 'invalid_number' } });
  });

  it('checks a doctor phone and e-mail', () => {
    const result = validateWith(doctorBody, {
      firstname: 'Jan',
      surname: 'Kowalski',
      email: 'nope',
      phone_number: '12345',
      unit_id: '',
    });
    expect(result).toEqual({
      ok: false,
      codes: { email: 'invalid_email', phone_number: 'invalid_phone', unit_id: 'required' },
    });
  });

  it('applies the change-password rules', () => {
    expect(
      validateWith(changePasswordBody, {
        oldPassword: 'Secret123',
        newPassword: 'Secret123',
        passwordConfirm: 'Other1234',
      }),
    ).toEqual({
      ok: false,
      codes: { newPassword: 'password_same_as_old', passwordConfirm: 'password_confirm_mismatch' },
    });
    expect(
      validateWith(changePasswordBody, {
        oldPassword: '',
        newPassword: 'short',
        passwordConfirm: '',
      }),
    ).toEqual({
      ok: false,
      codes: {
        oldPassword: 'required',
        newPassword: 'password_too_short',
        passwordConfirm: 'required',
      },
    });
  });
});
