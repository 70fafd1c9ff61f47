import { QueryClient } from '@tanstack/react-query';
import { isApiError } from '../lib/api';

/** Client errors (4xx) are answers, not glitches: retry only lost connections and 5xx, once. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (failureCount, error) =>
        failureCount < 1 &&
        (!isApiError(error) || error.httpStatus === 0 || error.httpStatus >= 500),
      refetchOnWindowFocus: false,
    },
    mutations: { retry: false },
  },
});
