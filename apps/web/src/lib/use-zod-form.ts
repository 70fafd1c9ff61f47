import { useCallback, useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
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
 * A small form state for Mantine inputs, validated with a shared zod schema: the one form style of
 * the web app (ADR 013). Messages come from the shared catalogue (client side) or from the
 * server's 422 answer (already translated). `toBody` builds the request from what the inputs hold
 * when the two differ (an emptied number input holds ''; ids the form does not show), so that the
 * schema the server parses with judges exactly what will be sent.
 */
export function useZodForm<V extends Record<string, unknown>, S extends z.ZodType>(
  schema: S,
  initialValues: V,
  { toBody }: { toBody?: (values: V) => unknown } = {},
) {
  const { t } = useTranslation();
  const [values, setValues] = useState<V>(initialValues);
  const [errors, setErrors] = useState<Errors<V>>({});

  const setFieldValue = useCallback(<K extends Extract<keyof V, string>>(name: K, value: V[K]) => {
    setValues((previous) => ({ ...previous, [name]: value }));
    // A list's messages sit under `name.index.field`: changing the list clears them too.
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

  /** Field errors from the server; unknown fields are ignored by the inputs. */
  function setServerErrors(fieldErrors: Record<string, string>) {
    setErrors(fieldErrors);
  }

  /** `onInvalid` runs when the client-side check refuses (a toast, for example). */
  function onSubmit(handler: (data: z.output<S>) => unknown, onInvalid?: () => void) {
    return (event?: FormEvent) => {
      event?.preventDefault();
      const result = validateWith(schema, toBody ? toBody(values) : values);
      if (!result.ok) {
        const translated: Record<string, string> = {};
        for (const [field, code] of Object.entries(result.codes)) {
          translated[field] = t(`validation.${code}`);
        }
        setErrors(translated);
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

  return { values, errors, setFieldValue, getInputProps, setServerErrors, onSubmit, reset };
}
