import { useCallback, useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { ValidationCode } from '@portal/shared';
import type { z } from 'zod';
import { validateWith } from './form-validation';

type Errors<V> = Partial<Record<Extract<keyof V, string>, string>>;

/** Text inputs hand over an event, selects a value. */
function valueOf(input: unknown): unknown {
  if (input && typeof input === 'object' && 'currentTarget' in input) {
    const target = (input as { currentTarget: { value?: unknown } }).currentTarget;
    return target.value;
  }
  return input;
}

/**
 * Message codes in the user's language (`validation.<code>` of the shared catalogue); `message`
 * may word a field's code its own way (a waybill's malformed number). The one translation of
 * form codes: the hook uses it, and so does the patient wizard (ADR 013).
 */
export function translateCodes(
  t: TFunction,
  codes: Record<string, string>,
  message?: (field: string, code: string) => string | undefined,
): Record<string, string> {
  const translated: Record<string, string> = {};
  for (const [field, code] of Object.entries(codes)) {
    translated[field] = message?.(field, code) ?? t(`validation.${code}` as 'validation.invalid');
  }
  return translated;
}

/**
 * Messages under the inputs that hold them. Every message keeps its own key (a schedule's row
 * reads `schedule.1.day`); a list input's item message (`medicine_ids.0`, from the schema or a
 * 422) is also put under the list's input, which shows one message for the whole list.
 */
export function errorsByInput(errors: Record<string, string>, inputs: object) {
  const result: Record<string, string> = { ...errors };
  const values = inputs as Record<string, unknown>;
  for (const [key, message] of Object.entries(errors)) {
    const input = key.split('.')[0] ?? key;
    const list = values[input];
    const isListInput =
      input !== key &&
      Array.isArray(list) &&
      list.every((item) => item === null || typeof item !== 'object');
    if (isListInput) result[input] ??= message;
  }
  return result;
}

interface ZodFormOptions<V> {
  /** The request built from what the inputs hold, when the two differ. */
  toBody?: (values: V) => unknown;
  /** Rules the schema cannot judge (a day in the future in Warsaw): codes by field. */
  check?: (values: V) => Partial<Record<string, ValidationCode>>;
  /** A field's own wording of a code; the shared catalogue otherwise. */
  message?: (field: string, code: string) => string | undefined;
}

/**
 * A small form state for Mantine inputs, validated with a shared zod schema: the one form style of
 * the web app (ADR 013). Messages come from the shared catalogue (client side) or from the
 * server's 422 answer (already translated). `toBody` builds the request from what the inputs hold
 * when the two differ (an emptied number input holds ''; ids the form does not show), so that the
 * schema the server parses with judges exactly what will be sent.
 */
export function useZodForm<V extends object, S extends z.ZodType>(
  schema: S,
  initialValues: V | (() => V),
  { toBody, check, message }: ZodFormOptions<V> = {},
) {
  const { t } = useTranslation();
  const [values, setValues] = useState<V>(initialValues);
  const [errors, setErrors] = useState<Errors<V>>({});

  const setFieldValue = useCallback(<K extends Extract<keyof V, string>>(name: K, value: V[K]) => {
    setValues((previous) => ({ ...previous, [name]: value }));
    // A list's messages sit under `name.index.field` too: changing the list clears them.
    setErrors((previous) => {
      const stale = Object.keys(previous).filter(
        (key) => key === name || key.startsWith(`${name}.`),
      );
      if (stale.length === 0) return previous;
      const next: Record<string, string | undefined> = { ...previous };
      for (const key of stale) delete next[key];
      return next as Errors<V>;
    });
  }, []);

  function getInputProps<K extends Extract<keyof V, string>>(name: K) {
    return {
      value: values[name],
      onChange: (input: unknown) => setFieldValue(name, valueOf(input) as V[K]),
      error: errors[name],
    };
  }

  /** Field errors from the server (already translated), each under its input. */
  function setServerErrors(fieldErrors: Record<string, string>) {
    setErrors(errorsByInput(fieldErrors, values));
  }

  /** A message of the screen's own under one input (a refusal the schema cannot know). */
  function setFieldError(name: Extract<keyof V, string>, text: string | undefined) {
    setErrors((previous) => ({ ...previous, [name]: text }));
  }

  /** `onInvalid` runs when the client-side check refuses (a toast, for example). */
  function onSubmit(handler: (data: z.output<S>) => unknown, onInvalid?: () => void) {
    return (event?: FormEvent) => {
      event?.preventDefault();
      const result = validateWith(schema, toBody ? toBody(values) : values);
      const codes: Record<string, string> = result.ok ? {} : { ...result.codes };
      for (const [field, code] of Object.entries(check?.(values) ?? {})) {
        if (code) codes[field] ??= code;
      }
      if (!result.ok || Object.keys(codes).length > 0) {
        setErrors(errorsByInput(translateCodes(t, codes, message), values));
        onInvalid?.();
        return;
      }
      setErrors({});
      void handler(result.data);
    };
  }

  function reset(next: V) {
    setValues(next);
    setErrors({});
  }

  return {
    values,
    errors,
    setFieldValue,
    getInputProps,
    setServerErrors,
    setFieldError,
    onSubmit,
    reset,
  };
}
