import { performance } from 'node:perf_hooks';
import { addDays, isoWeekday, minutesToTime } from '@portal/shared';
import type { SqlExecutor } from '../db/client.js';
import type { Client } from './cases.js';
import { percentile } from './stats.js';

export interface BookingResult {
  clients: number;
  bookings: number;
  failed: number;
  p50: number;
  p95: number;
}

/** Slots of the default grid (08:00–16:00, 30 minutes) booked per day. */
const SLOTS_PER_DAY = 16;

/**
 * Booking p95 with `clients` concurrent clients (issue 9: under 50 ms on PostgreSQL). Each
 * booking names another patient and a (date, time) no other booking names, so every one is a
 * first visit in a free slot of its patient's unit and none is refused; days start a year after
 * today and skip weekends. The bookings stay in the throwaway database.
 */
export async function measureBooking(
  db: SqlExecutor,
  client: Client,
  clients: number,
  perClient: number,
): Promise<BookingResult> {
  const total = clients * perClient;
  const picked = await db.executeSql(
    `select id from patients p where deleted_at is null
       and not exists (select 1 from visits v where v.patient_id = p.id)
     order by id limit $1`,
    [total],
  );
  const patients = picked.rows.map((r) => Number(r.id));
  const days: string[] = [];
  let day = addDays(new Date().toISOString().slice(0, 10), 366);
  while (days.length * SLOTS_PER_DAY < total) {
    if ((isoWeekday(day) ?? 7) <= 5) days.push(day);
    day = addDays(day, 1);
  }
  const headers = { ...client.headers, 'content-type': 'application/json' };
  const samples: number[] = [];
  let failed = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < patients.length) {
        const index = next++;
        const body = {
          patient_id: patients[index],
          date: days[Math.floor(index / SLOTS_PER_DAY)],
          started_at: minutesToTime(8 * 60 + (index % SLOTS_PER_DAY) * 30),
        };
        const start = performance.now();
        const response = await fetch(`${client.baseUrl}/api/visits`, {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
        });
        await response.text();
        samples.push(performance.now() - start);
        if (response.status !== 200) failed += 1;
      }
    }),
  );
  samples.sort((a, b) => a - b);
  return {
    clients,
    bookings: samples.length,
    failed,
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
  };
}
