/**
 * Polish names for the bench's patients. The most common surnames carry weights after their
 * frequency in Poland (thousands of bearers) and fill 15% of the pool; a long tail of rarer
 * surnames made from stems and endings fills the rest, so that "kowal" (Kowalski, Kowalczyk,
 * Kowalewski) matches about 1% of the patients, as it would in a real register.
 */
const COMMON_SURNAMES: [string, number][] = [
  ['Nowak', 200],
  ['Kowalski', 140],
  ['Wiśniewski', 110],
  ['Wójcik', 100],
  ['Kowalczyk', 98],
  ['Kamiński', 95],
  ['Lewandowski', 93],
  ['Zieliński', 91],
  ['Szymański', 89],
  ['Woźniak', 88],
  ['Dąbrowski', 87],
  ['Kozłowski', 76],
  ['Jankowski', 69],
  ['Mazur', 68],
  ['Wojciechowski', 67],
  ['Kwiatkowski', 67],
  ['Krawczyk', 65],
  ['Kaczmarek', 64],
  ['Piotrowski', 63],
  ['Grabowski', 61],
  ['Zając', 59],
  ['Pawłowski', 59],
  ['Michalski', 58],
  ['Król', 57],
  ['Wieczorek', 54],
  ['Jabłoński', 54],
  ['Wróbel', 54],
  ['Nowakowski', 53],
  ['Majewski', 53],
  ['Olszewski', 52],
  ['Stępień', 51],
  ['Malinowski', 50],
  ['Jaworski', 50],
  ['Adamczyk', 49],
  ['Dudek', 48],
  ['Nowicki', 48],
  ['Pawlak', 47],
  ['Górski', 46],
  ['Witkowski', 46],
  ['Walczak', 46],
  ['Sikora', 45],
  ['Baran', 45],
  ['Rutkowski', 44],
  ['Michalak', 44],
  ['Szewczyk', 44],
  ['Ostrowski', 43],
  ['Tomaszewski', 43],
  ['Pietrzak', 42],
  ['Zalewski', 41],
  ['Wróblewski', 41],
  ['Marciniak', 40],
  ['Jasiński', 40],
  ['Zawadzki', 40],
  ['Bąk', 39],
  ['Jakubowski', 39],
  ['Sadowski', 39],
  ['Duda', 38],
  ['Włodarczyk', 38],
  ['Wilk', 37],
  ['Chmielewski', 37],
  ['Borkowski', 36],
  ['Sokołowski', 36],
  ['Szczepański', 36],
  ['Sawicki', 35],
  ['Lis', 35],
  ['Kucharski', 35],
  ['Mazurek', 35],
  ['Kubiak', 34],
  ['Kalinowski', 34],
  ['Wysocki', 34],
  ['Czarnecki', 33],
  ['Kołodziej', 33],
  ['Kaźmierczak', 32],
  ['Głowacki', 31],
  ['Łukasik', 30],
  ['Kowalewski', 30],
  ['Przybylski', 30],
  ['Łuczak', 25],
  ['Żak', 20],
  ['Śliwiński', 20],
];

const TAIL_STEMS = [
  'Bor',
  'Char',
  'Dziedz',
  'Gaw',
  'Jur',
  'Kraw',
  'Lech',
  'Mrocz',
  'Pęk',
  'Rog',
  'Sob',
  'Szul',
  'Trzcin',
  'Zdun',
  'Wąs',
  'Gęb',
  'Łaz',
  'Żur',
  'Śled',
  'Ćwik',
  'Brzez',
  'Chojn',
  'Dęb',
  'Grzyb',
  'Kur',
  'Lip',
  'Mich',
  'Nied',
  'Orł',
  'Pasz',
  'Radz',
  'Sław',
  'Tur',
  'Wierzb',
  'Zięb',
  'Bieln',
  'Cieśl',
  'Fij',
  'Hołub',
  'Jędrz',
];
const TAIL_ENDINGS = ['owski', 'ewicz', 'czyk', 'ak', 'iński', 'ek', 'ik', 'ała', 'uk', 'ański'];

const FEMALE_FIRSTNAMES = [
  'Anna',
  'Maria',
  'Katarzyna',
  'Małgorzata',
  'Agnieszka',
  'Barbara',
  'Ewa',
  'Krystyna',
  'Elżbieta',
  'Zofia',
  'Teresa',
  'Danuta',
  'Joanna',
  'Beata',
  'Grażyna',
  'Bożena',
  'Jadwiga',
  'Łucja',
  'Halina',
  'Urszula',
  'Irena',
  'Jolanta',
  'Dorota',
  'Wiesława',
];
const MALE_FIRSTNAMES = [
  'Jan',
  'Piotr',
  'Andrzej',
  'Krzysztof',
  'Stanisław',
  'Tomasz',
  'Paweł',
  'Józef',
  'Marcin',
  'Marek',
  'Michał',
  'Grzegorz',
  'Jerzy',
  'Tadeusz',
  'Łukasz',
  'Zbigniew',
  'Ryszard',
  'Kazimierz',
  'Mikołaj',
  'Jędrzej',
  'Wojciech',
  'Bogdan',
  'Zdzisław',
  'Mieczysław',
];

export const CITIES = [
  'Warszawa',
  'Kraków',
  'Łódź',
  'Wrocław',
  'Poznań',
  'Gdańsk',
  'Szczecin',
  'Białystok',
  'Częstochowa',
  'Zielona Góra',
  'Bielsko-Biała',
  'Toruń',
  'Rzeszów',
  'Kielce',
  'Opole',
  'Olsztyn',
];
export const STREETS = [
  'ul. Długa',
  'ul. Kościuszki',
  'ul. Mickiewicza',
  'ul. Żeromskiego',
  'ul. Piłsudskiego',
  'ul. Słowackiego',
  'ul. Łąkowa',
  'ul. Świętokrzyska',
  'ul. Różana',
  'al. Jana Pawła II',
  'ul. Źródlana',
  'ul. Górna',
];
export const ADDITIONAL_MEDICINES = ['Metformina', 'Lewotyroksyna', 'Pantoprazol', 'Witamina D3'];

/** The feminine form of a surname: Kowalski → Kowalska, Zawadzki → Zawadzka; others unchanged. */
export function feminine(surname: string): string {
  if (surname.endsWith('ski') || surname.endsWith('cki') || surname.endsWith('dzki')) {
    return `${surname.slice(0, -1)}a`;
  }
  return surname;
}

export const SURNAME_POOL_SIZE = 10_000;
const COMMON_SHARE = 0.15;

/** 10,000 slots of [masculine, feminine] surnames; a patient takes a slot by a hash of its number. */
export function surnamePool(): [string, string][] {
  const pool: [string, string][] = [];
  const total = COMMON_SURNAMES.reduce((sum, [, weight]) => sum + weight, 0);
  for (const [name, weight] of COMMON_SURNAMES) {
    const slots = Math.max(1, Math.round((weight / total) * COMMON_SHARE * SURNAME_POOL_SIZE));
    for (let i = 0; i < slots; i++) pool.push([name, feminine(name)]);
  }
  const tail = TAIL_STEMS.flatMap((stem) => TAIL_ENDINGS.map((ending) => stem + ending));
  for (let i = 0; pool.length < SURNAME_POOL_SIZE; i++) {
    const name = tail[i % tail.length]!;
    pool.push([name, feminine(name)]);
  }
  return pool;
}

export const firstnames = { K: FEMALE_FIRSTNAMES, M: MALE_FIRSTNAMES };

/** A SQL array literal of names (ours hold no quotes; doubled anyway). */
export function sqlTextArray(values: readonly string[]): string {
  return `array[${values.map((v) => `'${v.replaceAll("'", "''")}'`).join(',')}]::text[]`;
}
