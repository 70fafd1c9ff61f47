import { warsawToday } from '@portal/shared';
import type {
  COLLECT_PLACES,
  PatientDetail,
  ProbeSet,
  ProbeBodyInput,
  SessionUser,
  TYPES_OF_MATERIAL,
  TYPES_OF_TEST,
} from '@portal/shared';

/** The dialog's values as the inputs hold them (selects hold strings, dates YYYY-MM-DD). */
export interface ProbeFormValues {
  medicine_ids: string[];
  date_of_sample: string | null;
  carrier_id: string | null;
  ordered_by_firstname: string;
  ordered_by_surname: string;
  ordered_at: string | null;
  patient_firstname: string;
  patient_surname: string;
  patient_address_street: string;
  patient_address_building: string;
  patient_address_postcode: string;
  patient_address_city: string;
  is_cito: boolean;
  type_of_test: (typeof TYPES_OF_TEST)[number];
  type_of_material: (typeof TYPES_OF_MATERIAL)[number];
  collect_place: (typeof COLLECT_PLACES)[number];
  visit_id: string | null;
  /** A kit of the patient's accepted order the sample was drawn with (home samples only). */
  probe_set_kit_id: string | null;
}

type FormPatient = Pick<
  PatientDetail,
  | 'firstname'
  | 'surname'
  | 'address_street'
  | 'address_building'
  | 'address_postcode'
  | 'address_city'
  | 'medicines'
>;

/**
 * A new sample: drawn today, ordered today by the signed-in user when a name is known, the
 * patient's name, address and study medicines filled in; cito, biochemistry, venous blood drawn
 * at the clinic (docs/product-rules.md "Validation").
 */
export function initialProbeForm(
  patient: FormPatient,
  user: Pick<SessionUser, 'firstname' | 'surname'> | null | undefined,
  today: string = warsawToday(),
): ProbeFormValues {
  return {
    medicine_ids: patient.medicines.map((medicine) => String(medicine.medicine_id)),
    date_of_sample: today,
    carrier_id: null,
    ordered_by_firstname: user?.firstname ?? '',
    ordered_by_surname: user?.surname ?? '',
    ordered_at: today,
    patient_firstname: patient.firstname,
    patient_surname: patient.surname,
    patient_address_street: patient.address_street ?? '',
    patient_address_building: patient.address_building ?? '',
    patient_address_postcode: patient.address_postcode ?? '',
    patient_address_city: patient.address_city ?? '',
    is_cito: true,
    type_of_test: 'biochemistry',
    type_of_material: 'venous',
    collect_place: 'clinic',
    visit_id: null,
    probe_set_kit_id: null,
  };
}

const toId = (value: string | null): number | undefined =>
  value === null || value === '' ? undefined : Number(value);

/** The body of `POST /api/probes` (and of the number preview); missing values left out. */
export function probeBodyFrom(patientId: number, values: ProbeFormValues): ProbeBodyInput {
  // `probe_set_kit_id` is spelled out until every branch's ProbeBodyInput carries it (issue 11).
  const body: Partial<ProbeBodyInput> & { probe_set_kit_id?: number } = {
    patient_id: patientId,
    visit_id: toId(values.visit_id) ?? null,
    medicine_ids: values.medicine_ids.map(Number),
    ordered_by_firstname: values.ordered_by_firstname,
    ordered_by_surname: values.ordered_by_surname,
    patient_firstname: values.patient_firstname,
    patient_surname: values.patient_surname,
    patient_address_street: values.patient_address_street,
    patient_address_building: values.patient_address_building,
    patient_address_postcode: values.patient_address_postcode,
    patient_address_city: values.patient_address_city,
    is_cito: values.is_cito,
    type_of_test: values.type_of_test,
    type_of_material: values.type_of_material,
    collect_place: values.collect_place,
  };
  // A kit goes to patients' homes: a sample drawn at the clinic never names one.
  const kit = values.collect_place === 'home' ? toId(values.probe_set_kit_id) : undefined;
  if (kit !== undefined) body.probe_set_kit_id = kit;
  const carrier = toId(values.carrier_id);
  if (carrier !== undefined) body.carrier_id = carrier;
  if (values.date_of_sample) body.date_of_sample = values.date_of_sample;
  if (values.ordered_at) body.ordered_at = values.ordered_at;
  // The schema reports what is still missing; the type only says which keys may exist.
  return body as ProbeBodyInput;
}

/** A kit a home sample may name: one of an accepted order of the patient. */
export interface KitChoice {
  kitId: number;
  kitNumber: number;
  orderId: number;
}

/** The kits of the patient's accepted orders, newest order first, kits in their order. */
export function acceptedKits(orders: readonly Pick<ProbeSet, 'id' | 'status' | 'sets'>[]) {
  return orders
    .filter((order) => order.status === 1)
    .sort((a, b) => b.id - a.id)
    .flatMap((order) =>
      order.sets
        .slice()
        .sort((a, b) => a.kit_number - b.kit_number)
        .map((kit): KitChoice => ({ kitId: kit.id, kitNumber: kit.kit_number, orderId: order.id })),
    );
}

/** DD.MM.YYYY (also D.M.YYYY) typed into a date input -> YYYY-MM-DD; null when not a day. */
export function parseTypedDay(input: string): string | null {
  const match = /^\s*(\d{1,2})\.(\d{1,2})\.(\d{4})\s*$/.exec(input);
  if (!match) return null;
  const [, d, m, y] = match;
  const day = `${y}-${m!.padStart(2, '0')}-${d!.padStart(2, '0')}`;
  const parsed = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(day) ? day : null;
}
