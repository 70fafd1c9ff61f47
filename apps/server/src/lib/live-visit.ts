import { isNull } from 'drizzle-orm';
import { visits } from '../db/schema.js';

/**
 * Live (not cancelled) visits only: every reader of visits starts from this. Below the modules,
 * because visits, samples and their safety rules all read visits (ADR 047).
 */
export const liveVisit = isNull(visits.cancelled_at);
