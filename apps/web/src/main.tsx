import './app/shell-styles';
import './lib/zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { i18nReady } from './i18n/i18n';
import { Providers } from './app/providers';
import { SessionGate } from './app/session-gate';
import { router } from './routes';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const app = createRoot(root);
// Rendered once the stored language's words are there, so an English user never sees Polish flash.
void i18nReady.then(() =>
  app.render(
    <StrictMode>
      <Providers>
        <SessionGate>
          <RouterProvider router={router} />
        </SessionGate>
      </Providers>
    </StrictMode>,
  ),
);
