import type { FastifyRequest } from 'fastify';
import { forbidden } from '../../lib/errors.js';
import { actorOf } from '../../plugins/auth.js';
import { can } from '../../plugins/policy.js';

/** What an export is, as the log names it. */
export type ExportKind = 'report' | 'odm' | 'fhir' | 'patient_fhir' | 'patient_copy';

/**
 * An export that names patients (not pseudonymised) needs `exports.identified` (403 otherwise),
 * and each one is logged (ADR 054): who, what kind and, for one patient, the patient's id; never
 * a name, a PESEL or any other value of the data. The read log records it for the patients
 * once it exists; this line is what an operator sees until then.
 */
export function allowExport(
  request: FastifyRequest,
  kind: ExportKind,
  pseudonymised: boolean,
  patientId?: number,
): void {
  if (pseudonymised) return;
  const actor = actorOf(request);
  if (kind !== 'patient_copy' && !can(actor, 'exports.identified')) throw forbidden();
  request.log.info(
    { event: 'identified_export', kind, userId: actor.userId, patientId },
    'identified export',
  );
}
