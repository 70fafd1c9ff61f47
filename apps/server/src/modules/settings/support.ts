import { PHONE_PREFIX } from '@portal/shared';
import type { PhoneValue } from '@portal/shared';
import type { Database } from '../../db/client.js';
import { readSetting } from './service.js';

/** '600100200' -> '+48 600 100 200'. */
export function formatPhone(digits: string): string {
  return [PHONE_PREFIX, ...(digits.match(/.{1,3}/g) ?? [])].join(' ');
}

/** The support line as shown to patients and staff, or null while the setting is not saved. */
export async function readSupportPhone(db: Database): Promise<string | null> {
  const { support } = (await readSetting(db, 'phone')).value as PhoneValue;
  return support ? formatPhone(support) : null;
}
