import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.mjs';
import { ADMIN_LOGIN, ADMIN_PASSWORD, BASE_URL, PORT } from './env.js';

// Every run starts the built portal on a fresh embedded database.
const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-e2e-'));

export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: process.env.CI ? 2 : 2,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['line'], ['json']] : [['list']],
  use: {
    baseURL: BASE_URL,
    locale: 'pl-PL',
    timezoneId: 'Europe/Warsaw',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
  projects: [
    {
      name: 'chromium',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 } },
    },
  ],
  webServer: {
    // The seed adds the past visits the UI cannot book (scripts/seed-e2e.mjs), then the portal starts.
    command: 'node scripts/seed-e2e.mjs && node ../apps/server/dist/main.js',
    url: `${BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PORTAL_ADMIN_LOGIN: ADMIN_LOGIN,
      PORTAL_ADMIN_PASSWORD: ADMIN_PASSWORD,
      PUBLIC_URL: BASE_URL,
      LOG_LEVEL: 'warn',
      // Kit shipments (issue 11): each refresh moves a waybill one status on, no postal service.
      TRACKING_PROVIDER: 'fake',
    },
  },
});
