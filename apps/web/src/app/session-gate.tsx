import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { restoreSession } from '../lib/session-actions';
import { PageLoader } from './page-loader';

/** Holds the screens back until the stored session has been checked, so nobody sees a flash. */
export function SessionGate({ children }: { children: ReactNode }) {
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let active = true;
    void restoreSession().then(() => {
      if (active) setReady(true);
    });
    return () => {
      active = false;
    };
  }, []);

  if (!ready) return <PageLoader />;
  return children;
}
