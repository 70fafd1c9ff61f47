import type { UnitBody } from '@portal/shared';

/** Shown in the demo's closing message; never used outside `npm run demo`. */
export const DEMO_PASSWORD = 'Demo-2026';

export const demoUnits: UnitBody[] = [
  {
    name: 'Poradnia Kardiologiczna nr 1',
    street: 'ul. Żeromskiego',
    building_nr: '113',
    postcode: '90-549',
    city: 'Łódź',
  },
  {
    name: 'Oddział Kardiologii Szpitala Wojewódzkiego',
    street: 'ul. Grunwaldzka',
    building_nr: '45',
    postcode: '25-736',
    city: 'Kielce',
  },
  {
    name: 'Przychodnia Specjalistyczna „Serce”',
    street: 'al. Jerozolimskie',
    building_nr: '87',
    postcode: '02-001',
    city: 'Warszawa',
  },
  {
    name: 'Centrum Medyczne Św. Łukasza',
    street: 'ul. Świętokrzyska',
    building_nr: '12',
    postcode: '31-152',
    city: 'Kraków',
  },
  {
    name: 'Poradnia Nadciśnienia Tętniczego',
    street: 'ul. Piłsudskiego',
    building_nr: '7a',
    postcode: '50-044',
    city: 'Wrocław',
  },
  {
    name: 'Gabinet Kardiologiczny „Zdrowie”',
    street: 'ul. Gdańska',
    building_nr: '91',
    postcode: '85-022',
    city: 'Bydgoszcz',
  },
];

const doctorNames: [string, string][] = [
  ['Anna', 'Kowalska'],
  ['Piotr', 'Nowak'],
  ['Małgorzata', 'Wiśniewska'],
  ['Krzysztof', 'Wójcik'],
  ['Agnieszka', 'Kamińska'],
  ['Tomasz', 'Lewandowski'],
  ['Barbara', 'Zielińska'],
  ['Paweł', 'Szymański'],
  ['Ewa', 'Woźniak'],
  ['Michał', 'Dąbrowski'],
  ['Katarzyna', 'Kozłowska'],
  ['Łukasz', 'Jankowski'],
  ['Joanna', 'Mazur'],
  ['Grzegorz', 'Kwiatkowski'],
  ['Zofia', 'Krawczyk'],
  ['Jędrzej', 'Piotrowski'],
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

interface DemoPatient {
  firstname: string;
  surname: string;
  sex: 'M' | 'K';
  born: { year: number; month: number; day: number };
  street: string;
  postcode: string;
  city: string;
  inclusion: { group_id: number; subgroup_id: number; dose: number; interval: string | null };
  medicines: { medicine_id: number; dose: number }[];
  additional: { name: string; dose: number }[];
}

/** Medicine ids follow migration 0003 (e.g. 5 peryndopryl, 7 amlodypina, 13 walsartan). */
export const demoPatients: DemoPatient[] = [
  {
    firstname: 'Stanisław',
    surname: 'Górski',
    sex: 'M',
    born: { year: 1954, month: 4, day: 12 },
    street: 'ul. Kościuszki',
    postcode: '90-418',
    city: 'Łódź',
    inclusion: { group_id: 1, subgroup_id: 1, dose: 5, interval: null },
    medicines: [
      { medicine_id: 5, dose: 5 },
      { medicine_id: 7, dose: 5 },
    ],
    additional: [{ name: 'Metformina', dose: 500 }],
  },
  {
    firstname: 'Halina',
    surname: 'Sikorska',
    sex: 'K',
    born: { year: 1961, month: 9, day: 3 },
    street: 'ul. Sienkiewicza',
    postcode: '25-002',
    city: 'Kielce',
    inclusion: { group_id: 1, subgroup_id: 2, dose: 160, interval: null },
    medicines: [
      { medicine_id: 13, dose: 160 },
      { medicine_id: 12, dose: 12.5 },
    ],
    additional: [],
  },
  {
    firstname: 'Józef',
    surname: 'Wróblewski',
    sex: 'M',
    born: { year: 1949, month: 1, day: 28 },
    street: 'ul. Puławska',
    postcode: '02-515',
    city: 'Warszawa',
    inclusion: { group_id: 1, subgroup_id: 3, dose: 10, interval: 'co 24 godziny' },
    medicines: [
      { medicine_id: 5, dose: 10 },
      { medicine_id: 11, dose: 2.5 },
      { medicine_id: 7, dose: 10 },
    ],
    additional: [{ name: 'Pantoprazol', dose: 20 }],
  },
  {
    firstname: 'Krystyna',
    surname: 'Michalska',
    sex: 'K',
    born: { year: 1958, month: 12, day: 19 },
    street: 'ul. Długa',
    postcode: '31-147',
    city: 'Kraków',
    inclusion: { group_id: 2, subgroup_id: 4, dose: 20, interval: null },
    medicines: [
      { medicine_id: 1, dose: 20 },
      { medicine_id: 7, dose: 5 },
    ],
    additional: [],
  },
  {
    firstname: 'Ryszard',
    surname: 'Pawłowski',
    sex: 'M',
    born: { year: 1966, month: 6, day: 7 },
    street: 'ul. Oławska',
    postcode: '50-123',
    city: 'Wrocław',
    inclusion: { group_id: 2, subgroup_id: 5, dose: 10, interval: null },
    medicines: [
      { medicine_id: 2, dose: 10 },
      { medicine_id: 5, dose: 5 },
      { medicine_id: 7, dose: 5 },
    ],
    additional: [],
  },
  {
    firstname: 'Danuta',
    surname: 'Zając',
    sex: 'K',
    born: { year: 1952, month: 3, day: 22 },
    street: 'ul. Dworcowa',
    postcode: '85-009',
    city: 'Bydgoszcz',
    inclusion: { group_id: 2, subgroup_id: 6, dose: 10, interval: 'wieczorem' },
    medicines: [
      { medicine_id: 2, dose: 10 },
      { medicine_id: 17, dose: 10 },
    ],
    additional: [{ name: 'Lewotyroksyna', dose: 0.05 }],
  },
  {
    firstname: 'Zbigniew',
    surname: 'Adamczyk',
    sex: 'M',
    born: { year: 1947, month: 10, day: 30 },
    street: 'ul. Piotrkowska',
    postcode: '90-270',
    city: 'Łódź',
    inclusion: { group_id: 3, subgroup_id: 7, dose: 100, interval: 'raz dziennie po posiłku' },
    medicines: [
      { medicine_id: 16, dose: 100 },
      { medicine_id: 1, dose: 20 },
      { medicine_id: 4, dose: 5 },
    ],
    additional: [],
  },
  {
    firstname: 'Elżbieta',
    surname: 'Dudek',
    sex: 'K',
    born: { year: 1963, month: 7, day: 15 },
    street: 'ul. Leśna',
    postcode: '25-516',
    city: 'Kielce',
    inclusion: { group_id: 3, subgroup_id: 8, dose: 5, interval: null },
    medicines: [
      { medicine_id: 9, dose: 5 },
      { medicine_id: 5, dose: 5 },
    ],
    additional: [],
  },
  {
    firstname: 'Mieczysław',
    surname: 'Jabłoński',
    sex: 'M',
    born: { year: 1958, month: 2, day: 9 },
    street: 'ul. Grochowska',
    postcode: '04-357',
    city: 'Warszawa',
    inclusion: { group_id: 1, subgroup_id: 1, dose: 5, interval: null },
    medicines: [
      { medicine_id: 5, dose: 5 },
      { medicine_id: 7, dose: 10 },
    ],
    additional: [],
  },
  {
    firstname: 'Teresa',
    surname: 'Nowicka',
    sex: 'K',
    born: { year: 1970, month: 11, day: 1 },
    street: 'ul. Karmelicka',
    postcode: '31-128',
    city: 'Kraków',
    inclusion: { group_id: 2, subgroup_id: 4, dose: 10, interval: null },
    medicines: [
      { medicine_id: 1, dose: 10 },
      { medicine_id: 7, dose: 5 },
    ],
    additional: [{ name: 'Witamina D3', dose: 0.025 }],
  },
];
