import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The repository's own eslint.config.js, so that the test fails the day the rule stops biting.
const root = decodeURIComponent(new URL('../../../', import.meta.url).pathname);

const eslint = new ESLint({
  cwd: root,
  // Syntax rules need no type information, which would cost seconds per file.
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false, project: null } },
  },
  ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-syntax',
});

async function violations(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, {
    filePath: `${root}apps/server/src/${filePath}`,
  });
  if (!result) throw new Error('ESLint returned no result');
  return result.messages.map((message) => message.ruleId ?? message.message);
}

describe('every write transaction names the audit actor (inTransaction)', () => {
  it('refuses db.transaction() in a feature module', async () => {
    expect(
      await violations(
        'modules/units/probe.ts',
        'declare const db: { transaction(f: () => void): void };\ndb.transaction(() => undefined);',
      ),
    ).toContain('no-restricted-syntax');
  });

  it("refuses db['transaction']() as well", async () => {
    expect(
      await violations(
        'lib/probe.ts',
        "declare const db: { transaction(f: () => void): void };\ndb['transaction'](() => undefined);",
      ),
    ).toContain('no-restricted-syntax');
  });

  it('allows it in db/client.ts, where inTransaction lives', async () => {
    expect(
      await violations(
        'db/client.ts',
        'declare const db: { transaction(f: () => void): void };\ndb.transaction(() => undefined);',
      ),
    ).toEqual([]);
  });
});
