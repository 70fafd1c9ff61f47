import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The repository's own eslint.config.js, so that the test fails the day the rule stops biting.
const root = decodeURIComponent(new URL('../../../', import.meta.url).pathname);
const BOUNDARY = 'boundaries/dependencies';

const eslint = new ESLint({
  cwd: root,
  // Type information is not needed for import rules and would cost seconds per file.
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false, project: null } },
  },
  ruleFilter: ({ ruleId }) => ruleId === BOUNDARY || ruleId === 'no-restricted-imports',
});

/** The rules broken by `code` placed at `filePath` (relative to apps/web/src). */
async function violations(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, {
    filePath: `${root}apps/web/src/${filePath}`,
  });
  if (!result) throw new Error('ESLint returned no result');
  return result.messages.map((message) => message.ruleId ?? message.message);
}

describe('web import boundaries (shared -> entities -> features -> app)', () => {
  // The first lint loads the parser and the plugins: seconds on a busy machine.
  beforeAll(() => violations('lib/probe.ts', ''), 60_000);

  it('refuses a feature importing another feature', async () => {
    expect(
      await violations(
        'features/audit/probe.ts',
        "import { PatientsPage } from '../patients/list/patients-page';\nvoid PatientsPage;",
      ),
    ).toContain(BOUNDARY);
  });

  it('refuses it for a type-only import as well', async () => {
    expect(
      await violations(
        'features/audit/probe.ts',
        "import type { PatientFilters } from '../patients/list/patient-filters-state';\nexport type X = PatientFilters;",
      ),
    ).toContain(BOUNDARY);
  });

  it('refuses a feature re-exporting another feature', async () => {
    expect(
      await violations(
        'features/units/probe.ts',
        "export { DoctorsPage } from '../doctors/doctors-page';",
      ),
    ).toContain(BOUNDARY);
  });

  it('refuses a feature importing the app', async () => {
    expect(
      await violations(
        'features/patients/card/probe.tsx',
        "import { menuFor } from '../../../app/menu';\nvoid menuFor;",
      ),
    ).toContain(BOUNDARY);
  });

  it('refuses an entity importing a feature or the app', async () => {
    expect(
      await violations(
        'entities/visits/probe.tsx',
        "import { VisitCardPage } from '../../features/visits/visit-card-page';\nvoid VisitCardPage;",
      ),
    ).toContain(BOUNDARY);
    expect(
      await violations(
        'entities/samples/probe.ts',
        "import { menuFor } from '../../app/menu';\nvoid menuFor;",
      ),
    ).toContain(BOUNDARY);
  });

  it('refuses shared code importing an entity', async () => {
    expect(
      await violations(
        'components/probe.tsx',
        "import { BookingDialog } from '../entities/visits/booking-dialog';\nvoid BookingDialog;",
      ),
    ).toContain(BOUNDARY);
  });

  it('refuses shared code importing a feature or the app', async () => {
    expect(
      await violations(
        'components/probe.tsx',
        "import { AuditPage } from '../features/audit/audit-page';\nvoid AuditPage;",
      ),
    ).toContain(BOUNDARY);
    expect(
      await violations(
        'lib/probe.ts',
        "import { queryClient } from '../app/query-client';\nvoid queryClient;",
      ),
    ).toContain(BOUNDARY);
    expect(
      await violations(
        'api/probe.ts',
        "const page = import('../features/units/units-page');\nvoid page;",
      ),
    ).toContain(BOUNDARY);
  });

  it('refuses path aliases, which the rule could not follow', async () => {
    expect(
      await violations(
        'features/audit/probe.ts',
        "import { x } from '@/features/patients/x';\nvoid x;",
      ),
    ).toContain('no-restricted-imports');
  });

  it('allows shared code, own files and the app composing features', async () => {
    expect(
      await violations(
        'features/patients/card/probe.ts',
        [
          "import { api } from '../../../lib/api-client';",
          "import { useMedicines } from '../../../api/lookups';",
          "import { PatientCard } from './patient-card-page';",
          "import { attachmentProblem } from './card-format';",
          "import { formatNumber } from '../../../entities/patients/patient-format';",
          "import { BookingDialog } from '../../../entities/visits/booking-dialog';",
          "import { PERMISSIONS } from '@portal/shared';",
          'void [api, useMedicines, PatientCard, attachmentProblem, formatNumber, BookingDialog, PERMISSIONS];',
        ].join('\n'),
      ),
    ).toEqual([]);
    expect(
      await violations(
        'entities/samples/probe.ts',
        [
          "import { usePatientVisits } from '../visits/visits-api';",
          "import { api } from '../../lib/api-client';",
          'void [usePatientVisits, api];',
        ].join('\n'),
      ),
    ).toEqual([]);
    expect(
      await violations(
        'app/probe.tsx',
        "import { AuditPage } from '../features/audit/audit-page';\nimport { api } from '../lib/api-client';\nvoid [AuditPage, api];",
      ),
    ).toEqual([]);
    expect(
      await violations(
        'routes.tsx',
        "import { UnitsPage } from './features/units/units-page';\nvoid UnitsPage;",
      ),
    ).toEqual([]);
  });
});
