import { describe, expect, it } from 'vitest';
import { valueFieldErrors } from './setting-errors';

describe("a setting's field errors", () => {
  it("name the value's own fields, list items included, and keep any other key", () => {
    expect(
      valueFieldErrors({
        'value.courier': 'Nieprawidłowy numer',
        'value.schedule.1.day': 'Za duża liczba',
        version: 'Wymagane',
      }),
    ).toEqual({
      courier: 'Nieprawidłowy numer',
      'schedule.1.day': 'Za duża liczba',
      version: 'Wymagane',
    });
  });

  it('strip only a leading "value."', () => {
    expect(valueFieldErrors({ 'values.x': 'a', 'x.value.y': 'b' })).toEqual({
      'values.x': 'a',
      'x.value.y': 'b',
    });
  });
});
