import { TextInput } from '@mantine/core';
import type { TextInputProps } from '@mantine/core';
import { PHONE_DIGITS, PHONE_PREFIX } from '@portal/shared';

/** A Polish phone number, typed as its 9 digits after a fixed +48 (the API stores the digits). */
export function PhoneInput(props: TextInputProps) {
  return (
    <TextInput
      type="tel"
      inputMode="numeric"
      maxLength={PHONE_DIGITS}
      leftSection={PHONE_PREFIX}
      leftSectionWidth={48}
      autoComplete="off"
      {...props}
    />
  );
}
