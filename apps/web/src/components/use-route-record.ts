import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { commonErrorKey } from '../lib/api-errors';
import { notifyError } from '../lib/notify';

/**
 * The record an edit address names (`/doctors/{id}/edit`): loaded by `useRecord`; an id that is
 * no id, or a record that cannot be read, returns to `list` with a toast. `close` returns there.
 */
export function useRouteRecord<R>(
  useRecord: (id: number | null) => UseQueryResult<R>,
  list: string,
) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const id = Number(params.id);
  const valid = Number.isInteger(id) && id > 0;
  const record = useRecord(valid ? id : null);

  useEffect(() => {
    if (!valid || record.isError) {
      notifyError(t(record.isError ? commonErrorKey(record.error) : 'common.notFound'));
      void navigate(list, { replace: true });
    }
  }, [valid, record.isError, record.error, navigate, list, t]);

  return {
    record: record.data ?? null,
    loading: !record.data,
    close: () => void navigate(list),
  };
}
