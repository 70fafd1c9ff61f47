import { readFile } from 'node:fs/promises';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The repository's own eslint.config.js, so that the test fails the day a rule stops biting
// (ADR 047).
const root = decodeURIComponent(new URL('../../../', import.meta.url).pathname);
const BOUNDARY = 'boundaries/dependencies';
const CYCLE = 'import-x/no-cycle';

const eslint = new ESLint({
  cwd: root,
  // Type information is not needed for import rules and would cost seconds per file.
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false, project: null } },
  },
  ruleFilter: ({ ruleId }) => ruleId === BOUNDARY || ruleId === CYCLE,
});

/** The rules broken by `code` placed at `filePath` (relative to apps/server/src). */
async function violations(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, {
    filePath: `${root}apps/server/src/${filePath}`,
  });
  if (!result) throw new Error('ESLint returned no result');
  return result.messages.map((message) => message.ruleId ?? message.message);
}

describe('server module surfaces (modules/<name>/index.ts)', () => {
  it("refuses a module importing another module's inner file", async () => {
    expect(
      await violations(
        'modules/probes/probe.ts',
        "import { loadVisits } from '../visits/queries.js';\nvoid loadVisits;",
      ),
    ).toContain(BOUNDARY);
  });

  it('refuses it for a type-only import, a re-export and a dynamic import as well', async () => {
    expect(
      await violations(
        'modules/visits/probe.ts',
        "import type { LabelFacts } from '../probes/label-service.js';\nexport type X = LabelFacts;",
      ),
    ).toContain(BOUNDARY);
    expect(
      await violations(
        'modules/me/probe.ts',
        "export { readSetting } from '../settings/service.js';",
      ),
    ).toContain(BOUNDARY);
    expect(
      await violations(
        'modules/lab/probe.ts',
        "const read = import('../imports/read/xml.js');\nvoid read;",
      ),
    ).toContain(BOUNDARY);
  });

  it("refuses the app, the demo, the bench, test helpers and tests reaching into a module's files", async () => {
    for (const [file, code] of [
      ['app.ts', "import { adminRoutes } from './modules/admins/routes.js';\nvoid adminRoutes;"],
      [
        'demo/probe.ts',
        "import { createUnit } from '../modules/units/service.js';\nvoid createUnit;",
      ],
      ['bench/probe.ts', "import { readCodeFacts } from '../modules/probes/probe-number.js';"],
      ['test/probe.ts', "import { createDoctor } from '../modules/doctors/service.js';"],
      ['modules/lab/probe.test.ts', "import { readSetting } from '../settings/service.js';"],
    ]) {
      expect(await violations(file!, code!), file).toContain(BOUNDARY);
    }
  });

  it('refuses the core importing a module, even its entry, or the app', async () => {
    expect(
      await violations(
        'plugins/probe.ts',
        "import { authRoutes } from '../modules/auth/index.js';\nvoid authRoutes;",
      ),
    ).toContain(BOUNDARY);
    expect(
      await violations('lib/probe.ts', "import { buildApp } from '../app.js';\nvoid buildApp;"),
    ).toContain(BOUNDARY);
  });

  it('refuses a module importing the app that composes it', async () => {
    expect(
      await violations(
        'modules/units/probe.ts',
        "import type { BuildOptions } from '../../app.js';\nexport type X = BuildOptions;",
      ),
    ).toContain(BOUNDARY);
    expect(
      await violations('modules/units/probe.ts', "import { login } from '../../test/harness.js';"),
    ).toContain(BOUNDARY);
  });

  it("allows a module's own files, other modules' entries and the core", async () => {
    expect(
      await violations(
        'modules/probes/probe.ts',
        [
          "import type { AppDeps } from '../../app-deps.js';",
          "import type { AppConfig } from '../../config.js';",
          "import { inTransaction } from '../../db/client.js';",
          "import { liveVisit } from '../../lib/live-visit.js';",
          "import { actorOf } from '../../plugins/auth.js';",
          "import { findReachableProbe } from '../../policies/probes.js';",
          "import { loadProbe } from './queries.js';",
          "import { patientSearch } from '../patients/index.js';",
          "import { PERMISSIONS } from '@portal/shared';",
          'export type X = AppDeps | AppConfig;',
          'void [inTransaction, liveVisit, actorOf, findReachableProbe, loadProbe, patientSearch, PERMISSIONS];',
        ].join('\n'),
      ),
    ).toEqual([]);
    expect(
      await violations(
        'demo/probe.ts',
        "import { createUnit } from '../modules/units/index.js';\nvoid createUnit;",
      ),
    ).toEqual([]);
    expect(
      await violations(
        'modules/imports/probe.test.ts',
        "import { login } from '../../test/harness.js';\nimport { readXml } from './read/xml.js';\nvoid [login, readXml];",
      ),
    ).toEqual([]);
  });
});

describe('no cycles between server modules', () => {
  it('refuses an import that closes a cycle (visits already uses safety alerts)', async () => {
    // safety.ts as it is, plus an import of visits: visits' record service imports the safety
    // alerts' entry, which exports safety.ts, so the chain comes back to this file.
    const file = 'modules/safety-alerts/safety.ts';
    const code = await readFile(`${root}apps/server/src/${file}`, 'utf8');
    expect(
      await violations(
        file,
        `${code}\nimport { loadVisits } from '../visits/index.js';\nvoid loadVisits;`,
      ),
    ).toContain(CYCLE);
    expect(await violations(file, code)).toEqual([]);
  });
});
