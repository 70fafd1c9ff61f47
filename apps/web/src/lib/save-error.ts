import type { TFunction } from 'i18next';
import { commonErrorKey, isStaleVersion, serverFieldErrors } from './api-errors';
import { notifyError } from './notify';

interface EditDialog {
  /** Puts the server's messages under their fields. */
  setServerErrors(errors: Record<string, string>): void;
  /** Fetches the record as stored now. */
  reload(): Promise<{ version: number } | null | undefined>;
  /** Takes the stored version into the form; the typed values stay. */
  setVersion(version: number | undefined): void;
  t: TFunction;
}

/**
 * What an edit dialog does when its save is refused. A stale version (409 conflict: someone else
 * saved meanwhile) loads the stored version and says so only then, so that saving again right
 * away wins with what was typed; field errors go under the fields; anything else is a toast.
 */
export function handleSaveError(error: unknown, dialog: EditDialog): void {
  const { t } = dialog;
  // The user closed the reason dialog (components/reason-dialog.tsx): nothing was saved.
  if (error instanceof Error && error.name === 'ReasonCancelled') return;
  if (isStaleVersion(error)) {
    dialog.reload().then(
      (fresh) => {
        dialog.setVersion(fresh?.version);
        notifyError(t('common.conflict'));
      },
      (reloadError: unknown) => notifyError(t(commonErrorKey(reloadError))),
    );
    return;
  }
  const fields = serverFieldErrors(error);
  if (Object.keys(fields).length > 0) dialog.setServerErrors(fields);
  else notifyError(t(commonErrorKey(error)));
}
