import type { UnitBody } from '@portal/shared';

/** Shown in the demo's closing message; never used outside `npm run demo`. */
export const DEMO_PASSWORD = 'Demo-2026';

export const demoUnits: UnitBody[] = [
  { name: 'Poradnia Kardiologiczna nr 1', street: 'ul. Żeromskiego', building_nr: '113', postcode: '90-549', city: 'Łódź' },
  { name: 'Oddział Kardiologii Szpitala Wojewódzkiego', street: 'ul. Grunwaldzka', building_nr: '45', postcode: '25-736', city: 'Kielce' },
  { name: 'Przychodnia Specjalistyczna „Serce”', street: 'al. Jerozolimskie', building_nr: '87', postcode: '02-001', city: 'Warszawa' },
  { name: 'Centrum Medyczne Św. Łukasza', street: 'ul. Świętokrzyska', building_nr: '12', postcode: '31-152', city: 'Kraków' },
  { name: 'Poradnia Nadciśnienia Tętniczego', street: 'ul. Piłsudskiego', building_nr: '7a', postcode: '50-044', city: 'Wrocław' },
  { name: 'Gabinet Kardiologiczny „Zdrowie”', street: 'ul. Gdańska', building_nr: '91', postcode: '85-022', city: 'Bydgoszcz' },
];

const doctorNames: [string, string][] = [
  ['Anna', 'Kowalska'], ['Piotr', 'Nowak'], ['Małgorzata', 'Wiśniewska'], ['Krzysztof', 'Wójcik'],
  ['Agnieszka', 'Kamińska'], ['Tomasz', 'Lewandowski'], ['Barbara', 'Zielińska'], ['Paweł', 'Szymański'],
  ['Ewa', 'Woźniak'], ['Michał', 'Dąbrowski'], ['Katarzyna', 'Kozłowska'], ['Łukasz', 'Jankowski'],
  ['Joanna', 'Mazur'], ['Grzegorz', 'Kwiatkowski'], ['Zofia', 'Krawczyk'], ['Jędrzej', 'Piotrowski'],
];

const ascii = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFD')
    .replace(/ł/g, 'l')
    .replace(/[\u0300-\u036f]/g, '');

export const demoDoctors = doctorNames.map(([firstname, surname], i) => ({
  firstname,
  surname,
  email: `${ascii(firstname)}.${ascii(surname)}@przychodnia-demo.pl`,
  phone_number: String(600_100_200 + i * 1_010_101).slice(0, 9),
}));

export const demoAdmins = ['koordynator', 'monitor.badania'];
