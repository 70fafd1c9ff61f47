import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SettingValues, WritableSettingName } from '@portal/shared';
import { notifySuccess } from '../../lib/notify';
import { handleSaveError } from '../../lib/save-error';
import { valueFieldErrors } from './setting-errors';
import { useReloadSetting, useSaveSetting } from './settings-api';
import type { StoredSetting } from './settings-api';

/**
 * Saving a settings form with the version it read (ADR 018): "Zmiany zostały zapisane" and the
 * stored value back to the form; on a 409 conflict the stored version is taken and the typed
 * values stay; the server's messages go under the value's fields.
 */
export function useSettingSave<N extends WritableSettingName>(
  name: N,
  initialVersion: number,
  {
    setServerErrors,
    onSaved,
  }: {
    /** The server's messages (already translated), by the value's own field names. */
    setServerErrors: (fields: Record<string, string>) => void;
    /** The value as stored, for the form to show. */
    onSaved?: (saved: StoredSetting<N>) => void;
  },
) {
  const { t } = useTranslation();
  const mutation = useSaveSetting(name);
  const reload = useReloadSetting(name);
  // The version this form edits; a 409 conflict replaces it with the stored one.
  const [version, setVersion] = useState(initialVersion);

  function save(value: SettingValues[N]) {
    mutation.mutate(
      { value, version },
      {
        onSuccess: (saved) => {
          setVersion(saved.version);
          onSaved?.(saved);
          notifySuccess(t('common.saved'));
        },
        onError: (error) =>
          handleSaveError(error, {
            setServerErrors: (fields) => setServerErrors(valueFieldErrors(fields)),
            reload,
            setVersion: (fresh) => setVersion(fresh ?? 0),
            t,
          }),
      },
    );
  }

  return { save, saving: mutation.isPending };
}
