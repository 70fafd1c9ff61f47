import { useNavigate } from 'react-router';
import { useRouteRecord } from '../../components/use-route-record';
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
  const edit = useRouteRecord(useMonitor, LIST);
  return <MonitorFormModal monitor={edit.record} loading={edit.loading} onClose={edit.close} />;
}
