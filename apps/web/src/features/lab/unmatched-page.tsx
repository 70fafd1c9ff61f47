import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/page-header';

// Issue 12 in progress: the screen is built on its own branch and replaces this file.
export function UnmatchedPage() {
  const { t } = useTranslation();
  return <PageHeader title={t('nav.unmatched')} />;
}
