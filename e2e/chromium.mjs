// The system Chromium from Debian with the flags of docs/stack-notes.md "Playwright" (never a
// downloaded browser build, no background traffic), shared by the browser tests and
// scripts/measure-shell.mjs.
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};
