import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { commonErrorKey } from '../../lib/api-errors';
import { notifyError } from '../../lib/notify';
import { MonitorFormModal } from './monitor-form-modal';
import { useMonitor } from './monitors-api';

const LIST = '/monitors';

/** /monitors/create */
export function MonitorCreateRoute() {
  const navigate = useNavigate();
  return <MonitorFormModal monitor={null} onClose={() => void navigate(LIST)} />;
}

/** /monitors/{id}/edit: loads the monitor, then shows the dialog; a missing one returns to the list. */
export function MonitorEditRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const id = Number(params.id);
  const valid = Number.isInteger(id) && id > 0;
  const monitor = useMonitor(valid ? id : null);

  useEffect(() => {
    if (!valid || monitor.isError) {
      notifyError(t(monitor.isError ? commonErrorKey(monitor.error) : 'common.notFound'));
      void navigate(LIST, { replace: true });
    }
  }, [valid, monitor.isError, monitor.error, navigate, t]);

  return (
    <MonitorFormModal
      monitor={monitor.data ?? null}
      loading={!monitor.data}
      onClose={() => void navigate(LIST)}
    />
  );
}
