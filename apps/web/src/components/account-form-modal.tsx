import { Button } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CredentialsSheetBody, LoginDetails } from '@portal/shared';
import type { z } from 'zod';
import { commonErrorKey } from '../lib/api-errors';
import { notifyError, notifySuccess } from '../lib/notify';
import { handleSaveError } from '../lib/save-error';
import { useZodForm } from '../lib/use-zod-form';
import { confirmNewPassword } from './confirm';
import { useCredentialsSheet } from './credentials-modal';
import { FormModal } from './form-modal';

/** What every staff account record carries: its id and the version a save must send. */
interface Account {
  id: number;
  version: number;
}

/** The form state the fields are drawn with (the one form hook, ADR 013). */
export type AccountForm<V extends object, S extends z.ZodType> = ReturnType<
  typeof useZodForm<V, S>
>;

/** A mutation as react-query hands it over, narrowed to what this dialog calls. */
interface Mutation<Variables, Data> {
  mutate(
    variables: Variables,
    options: { onSuccess: (data: Data) => void; onError: (error: Error) => void },
  ): void;
  isPending: boolean;
}

/** "Generuj i drukuj dane logowania": a new generated password, printed (ADR 051). */
export interface PrintLogin<A extends Account> {
  label: string;
  /** GET /api/{kind}s/print_login_detail/{id}. */
  mutation: Mutation<number, LoginDetails>;
  kind: CredentialsSheetBody['kind'];
  /** The name printed on the sheet. */
  name: (account: A) => string;
  /** False where the button is not offered (an administrator's own account). */
  offered?: boolean;
  /** A refusal of this kind's own, in words; the common messages otherwise. */
  refusal?: (error: unknown) => string | undefined;
}

/**
 * Add or edit a staff account (a doctor, a monitor, an administrator): the dialog, its save with
 * the record's version (ADR 018) and the printing of new login details. Each kind gives only what
 * differs: its titles, schema, initial values, API hooks and fields (ADR 013).
 */
export function AccountFormModal<A extends Account, V extends object, S extends z.ZodType>({
  account,
  loading = false,
  onClose,
  titles,
  schema,
  initialValues,
  save,
  reload,
  printLogin,
  children,
}: {
  account: A | null;
  /** The edited account is still loading. */
  loading?: boolean;
  onClose: () => void;
  titles: { create: string; edit: string };
  schema: S;
  initialValues: (account: A | null) => V;
  save: Mutation<{ body: z.output<S>; version?: number }, unknown>;
  /** After a 409 conflict: the account as stored now. */
  reload: () => Promise<A | null>;
  printLogin: PrintLogin<A>;
  children: (form: AccountForm<V, S>) => ReactNode;
}) {
  const { t } = useTranslation();
  const credentials = useCredentialsSheet();
  const form = useZodForm(schema, () => initialValues(account));
  // The edited account arrives after the dialog opened: fill the form then, keeping the dialog
  // mounted (React's "adjust state when a prop changes" pattern, no effect).
  const [shown, setShown] = useState(account);
  // The version this form edits: the loaded one, replaced only after a 409 conflict, so that a
  // refetch in the background never turns someone else's change into a silent overwrite.
  const [version, setVersion] = useState(account?.version);
  if (account !== shown) {
    setShown(account);
    // A refetch of the same account (after a conflict) keeps what was typed.
    if (account?.id !== shown?.id) {
      form.reset(initialValues(account));
      setVersion(account?.version);
    }
  }

  const submit = form.onSubmit((body) =>
    save.mutate(
      { body, version },
      {
        onSuccess: () => {
          notifySuccess(t('common.saved'));
          onClose();
        },
        onError: (error) =>
          handleSaveError(error, {
            setServerErrors: form.setServerErrors,
            reload,
            setVersion,
            t,
          }),
      },
    ),
  );

  // Asked first: the account's current password stops working once the server answers.
  function print(current: A) {
    confirmNewPassword(() =>
      printLogin.mutation.mutate(current.id, {
        onSuccess: (details) =>
          credentials.open({ details, kind: printLogin.kind, name: printLogin.name(current) }),
        onError: (error) => notifyError(printLogin.refusal?.(error) ?? t(commonErrorKey(error))),
      }),
    );
  }

  return (
    <>
      <FormModal
        opened
        title={account || loading ? titles.edit : titles.create}
        onClose={onClose}
        onSubmit={submit}
        saving={save.isPending}
        loading={loading}
        extraActions={
          account &&
          printLogin.offered !== false && (
            <Button
              variant="light"
              leftSection={<IconPrinter size={16} aria-hidden />}
              loading={printLogin.mutation.isPending}
              onClick={() => print(account)}
            >
              {printLogin.label}
            </Button>
          )
        }
      >
        {children(form)}
      </FormModal>
      {credentials.modal}
    </>
  );
}
