import './app/shell-styles';
import './lib/zod-config';
import './i18n/i18n';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Providers } from './app/providers';
import { SessionGate } from './app/session-gate';
import { router } from './routes';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <Providers>
      <SessionGate>
        <RouterProvider router={router} />
      </SessionGate>
    </Providers>
  </StrictMode>,
);
