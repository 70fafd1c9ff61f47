import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../api/query-keys';
import { api } from '../lib/api-client';
import { commonErrorKey } from '../lib/api-errors';
import { notifyError, notifySuccess } from '../lib/notify';
import { confirmAction } from './confirm';

interface Action {
  id: number;
  kind: 'delete' | 'restore';
}

/**
 * Delete and restore of soft-deleted rows, each after a confirmation: DELETE <path>/{id} and
 * PUT <path>/restore/{id}. `describeError` lets a screen name its own refusals.
 */
export function useSoftDelete(options: {
  entity: string;
  path: string;
  describeError?: (error: unknown) => string | undefined;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: ({ id, kind }: Action) =>
      kind === 'delete'
        ? api.delete(`${options.path}/${id}`)
        : api.put(`${options.path}/restore/${id}`),
    onSuccess: () => {
      notifySuccess(t('common.saved'));
      return queryClient.invalidateQueries({ queryKey: queryKeys.all(options.entity) });
    },
    onError: (error) => notifyError(options.describeError?.(error) ?? t(commonErrorKey(error))),
  });

  return {
    askDelete: (id: number) =>
      confirmAction({
        question: t('list.confirmDelete'),
        danger: true,
        onConfirm: () => mutation.mutate({ id, kind: 'delete' }),
      }),
    askRestore: (id: number) =>
      confirmAction({
        question: t('list.confirmRestore'),
        onConfirm: () => mutation.mutate({ id, kind: 'restore' }),
      }),
  };
}
