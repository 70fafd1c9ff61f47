import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.mjs';
import { ADMIN_LOGIN, ADMIN_PASSWORD, BASE_URL, PORT } from './env.js';

const desktop = { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 } };
/** The tag of tests that change the whole study's state (ADR 065). */
const STUDY_WIDE = /@study-wide/;

// Every run starts the built portal on a fresh embedded database.
const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-e2e-'));

export default defineConfig({
  testDir: './tests',
  // The longest walks take 30-40 s on an idle machine; CI machines are shared (ADR 065).
  timeout: 90_000,
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
    // Recording a trace films every screen (a screencast) and snapshots the page at each step: it
    // took 40 % of the browser tests' CPU. Only a retry of a failed test records one (ADR 065).
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
  projects: [
    {
      name: 'chromium',
      use: { ...desktop },
      grepInvert: STUDY_WIDE,
    },
    {
      // Tests that change what every other test sees (the study lock refuses all saves; the
      // recruitment target is one for the study) run after all the others, one at a time.
      name: 'study-wide',
      use: { ...desktop },
      grep: STUDY_WIDE,
      workers: 1,
      dependencies: ['chromium'],
    },
  ],
  webServer: {
    // The seed adds the past visits the UI cannot book (scripts/seed-e2e.mjs), then the portal starts.
    command: 'node scripts/seed-e2e.mjs && node ../apps/server/dist/main.js',
    url: `${BASE_URL}/api/health`,
    reuseExistingServer: false,
    // The longest walks take 30-40 s on an idle machine; CI machines are shared (ADR 065).
    timeout: 90_000,
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
      // Browser tests never ask the real post: "refresh now" moves shipments one fake step.
      TRACKING_PROVIDER: 'fake',
    },
  },
});
