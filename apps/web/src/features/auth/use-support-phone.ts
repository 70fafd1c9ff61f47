import { useEffect, useState } from 'react';
import type { SupportResponse } from '@portal/shared';
import { api } from '../../lib/api-client';

/**
 * The support line shown on the login page (`GET /api/support`, public), null while unknown or
 * not set. A plain request in an effect: the login route's script budget has no room for more.
 */
export function useSupportPhone(): string | null {
  const [support, setSupport] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    api.request<SupportResponse>('/support', { auth: false, signal: controller.signal }).then(
      (answer) => setSupport(answer.support),
      // Only a hint: without it the page still signs in.
      () => undefined,
    );
    return () => controller.abort();
  }, []);
  return support;
}
