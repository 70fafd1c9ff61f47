import { DOCUMENT_PANELS, documentRefType } from '@portal/shared';
import type { DocumentPanel, PanelDocumentList } from '@portal/shared';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { files } from '../../db/schema.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { can } from '../../plugins/policy.js';
import type { Actor } from '../../plugins/policy.js';
import { cleanFileName } from '../files/index.js';

const isPanel = (panel: string): panel is DocumentPanel =>
  (DOCUMENT_PANELS as readonly string[]).includes(panel);

/**
 * A panel's documents, newest first (`data.data`). The doctor panel's are read by every
 * holder of documents.read (the route's permission); the patient panel's are managed by
 * administrators here and read by patients through their own API.
 */
export async function listPanelDocuments(
  db: Database,
  actor: Actor,
  panel: string,
): Promise<PanelDocumentList> {
  if (!isPanel(panel)) throw notFound();
  if (panel === 'patient' && !can(actor, 'settings.manage')) throw forbidden();
  const rows = await db
    .select({
      id: files.id,
      original_name: files.original_name,
      created_at: files.created_at,
      size_bytes: files.size_bytes,
    })
    .from(files)
    .where(and(eq(files.ref_type, documentRefType(panel)), isNull(files.patient_id)))
    .orderBy(desc(files.created_at), desc(files.id));
  return {
    data: {
      data: rows.map((row) => ({
        ...row,
        original_name: cleanFileName(row.original_name),
        created_at: row.created_at.toISOString(),
      })),
    },
  };
}
