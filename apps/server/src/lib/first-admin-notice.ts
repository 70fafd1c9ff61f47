/**
 * The box `npm start` prints once, as the very last lines of the start, when it created the first
 * administrator with a generated password (ADR 040): after the server listens, so that it is not
 * lost among the build's and the start's log lines. It goes to the console only, never into the
 * structured log, which may be shipped elsewhere and kept.
 */
export function firstAdminNotice(login: string, password: string, url: string): string {
  const lines = [
    'First administrator created. Sign in at:',
    `  ${url}`,
    `  login:    ${login}`,
    `  password: ${password}`,
    'The password must be changed at the first sign-in.',
    'It is shown only this once: note it now.',
  ];
  const width = Math.max(...lines.map((line) => line.length));
  const rule = `+${'-'.repeat(width + 2)}+`;
  return (
    ['', rule, ...lines.map((line) => `| ${line.padEnd(width)} |`), rule, ''].join('\n') + '\n'
  );
}
