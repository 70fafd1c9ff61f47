import { Alert, Loader } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SettingValues } from '@portal/shared';
import { PageHeader } from '../../components/page-header';
import { commonErrorKey } from '../../lib/api-errors';
import { useSetting } from './settings-api';

/**
 * A settings screen: the title, then the stored value's form once it has loaded (a loader
 * meanwhile, the error when it fails). The form gets the value and the version it must send.
 */
export function SettingScreen<N extends keyof SettingValues>({
  name,
  title,
  form,
}: {
  name: N;
  title: string;
  form: (initial: SettingValues[N], version: number) => ReactNode;
}) {
  const { t } = useTranslation();
  const setting = useSetting(name);
  return (
    <>
      <PageHeader title={title} />
      {setting.isPending && <Loader role="status" aria-label={t('app.loading')} />}
      {setting.isError && (
        <Alert color="red" variant="light">
          {t(commonErrorKey(setting.error))}
        </Alert>
      )}
      {setting.data && form(setting.data.value, setting.data.version)}
    </>
  );
}
