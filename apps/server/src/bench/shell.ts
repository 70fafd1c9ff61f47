import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
export const WEB_ROOT = fileURLToPath(new URL('../../../web/dist', import.meta.url));
const SCRIPT = fileURLToPath(new URL('../../../../e2e/scripts/measure-shell.mjs', import.meta.url));

export interface ShellBytes {
  js_transferred_bytes: number;
  total_transferred_bytes: number;
  [key: string]: unknown;
}

/**
 * The login route's bytes as Chromium received them, by the shell part's script (one JSON line);
 * null with the reason when the web app is not built or the script is not there yet.
 */
export async function measureShell(
  baseUrl: string,
): Promise<{ bytes: ShellBytes | null; note: string }> {
  if (!existsSync(WEB_ROOT)) return { bytes: null, note: 'n/a (apps/web/dist not built)' };
  if (!existsSync(SCRIPT))
    return { bytes: null, note: 'n/a (e2e/scripts/measure-shell.mjs missing)' };
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [SCRIPT, baseUrl], {
      cwd: REPO,
      timeout: 120_000,
    });
    const line = stdout.trim().split('\n').at(-1) ?? '';
    return { bytes: JSON.parse(line) as ShellBytes, note: '' };
  } catch (error) {
    return {
      bytes: null,
      note: `n/a (${error instanceof Error ? error.message.split('\n')[0] : 'failed'})`,
    };
  }
}
