import type { PortalApi, RegisteredPatient } from './fixtures.js';

/** Today in Warsaw (YYYY-MM-DD), as the portal's dates are. */
export const warsawToday = () =>
  new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Warsaw' });

/**
 * A sample of the patient taken through the API, with results entered as the laboratory's page
 * would: biochemistry and, when given, drug concentrations (the dashboard's and the bell's tests).
 */
export async function sampleWithResults(
  api: PortalApi,
  patient: RegisteredPatient,
  results: {
    alt: number;
    ast?: number;
    creatine?: number;
    bilirubine?: number;
    concentrations?: { medicine_id: number; value: number }[];
  },
) {
  const carriers = await api.call<{ data: { id: number }[] }>('GET', '/probes/carriers');
  const today = warsawToday();
  const { probe } = await api.call<{ probe: { id: number; code: string } }>('POST', '/probes', {
    patient_id: patient.id,
    // A sample is always ordered for some medicine: the concentrations', else one of the study's.
    medicine_ids: results.concentrations?.map((c) => c.medicine_id) ?? [13],
    date_of_sample: today,
    carrier_id: carriers.data[0]!.id,
    ordered_by_firstname: 'Jan',
    ordered_by_surname: 'Zlecający',
    ordered_at: today,
    patient_firstname: patient.firstname,
    patient_surname: patient.surname,
    patient_address_street: 'ul. Łąkowa',
    patient_address_building: '3',
    patient_address_postcode: '90-001',
    patient_address_city: 'Łódź',
  });
  await api.call('PUT', `/probes/${probe.id}/results`, {
    biochemistry_results: {
      alt: results.alt,
      ast: results.ast ?? 20,
      creatine: results.creatine ?? 0.9,
      bilirubine: results.bilirubine ?? 0.5,
    },
    ...(results.concentrations
      ? {
          concentrations_results: {
            hours: 2,
            date_of_analysis: today,
            concentrations: results.concentrations,
          },
        }
      : {}),
  });
  return probe;
}
