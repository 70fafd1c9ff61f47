import { LABEL_AMOUNT_DEFAULT } from '@portal/shared';
import type { PatientDetail } from '@portal/shared';

/** The kit-order dialog's values as the inputs hold them (an emptied number input holds ''). */
export type OrderValues = {
  amount: number | string;
  labels_amount: number | string;
  street: string;
  building: string;
  postcode: string;
  city: string;
};

/** One kit, one label, to the patient's own address (the coordinator changes what differs). */
export function initialOrder(
  patient: Pick<
    PatientDetail,
    | 'address_street'
    | 'address_building'
    | 'address_apartment'
    | 'address_postcode'
    | 'address_city'
  >,
): OrderValues {
  const building = patient.address_building ?? '';
  return {
    amount: 1,
    labels_amount: LABEL_AMOUNT_DEFAULT,
    street: patient.address_street ?? '',
    building: patient.address_apartment ? `${building}/${patient.address_apartment}` : building,
    postcode: patient.address_postcode ?? '',
    city: patient.address_city ?? '',
  };
}
