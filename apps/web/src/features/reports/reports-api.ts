import type { ReportColumn } from '@portal/shared';
import type { Download } from '../../lib/download';

// The report and the exports, each a file fetched and saved by lib/download.ts.

/** `?pseudonymised=true` when asked (ADR 054); nothing otherwise (the API's default). */
const pseudonymisedQuery = (pseudonymised: boolean) =>
  pseudonymised ? { pseudonymised: 'true' } : {};

/** POST /api/generate_reports: the whole file arrives before it is saved as data.xlsx. */
export const reportFile = ({
  columns,
  pseudonymised = false,
}: {
  columns: ReportColumn[];
  pseudonymised?: boolean;
}): Download => ({
  path: '/generate_reports',
  method: 'POST',
  query: pseudonymisedQuery(pseudonymised),
  body: { columns },
  fileName: 'data.xlsx',
});

/** GET /api/exports/odm.xml, saved as odm.xml. */
export const odmFile = (pseudonymised: boolean = false): Download => ({
  path: '/exports/odm.xml',
  query: pseudonymisedQuery(pseudonymised),
  fileName: 'odm.xml',
});

/** GET /api/exports/fhir (ADR 055): pseudonymised unless identities are asked for. */
export const fhirFile = (pseudonymised: boolean): Download => ({
  path: '/exports/fhir',
  query: { pseudonymised: pseudonymised ? 'true' : 'false' },
  fileName: 'fhir.ndjson',
});
