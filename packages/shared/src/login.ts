/**
 * Logins that cannot be confused (ADR 016). A login is compared in its NFKC form (full-width
 * letters and ligatures become plain ones), trimmed, without letter case; it may not hold
 * invisible or format characters, and its letters come from one script.
 */

/** The form a login is stored and looked up in: NFKC, trimmed (case is kept for display). */
export function normalizeLogin(login: string): string {
  return login.normalize('NFKC').trim();
}

/**
 * Characters a login may not hold: controls, format characters (soft hyphen, zero-width and
 * bidirectional marks), private-use and unassigned code points, any kind of space, and combining
 * marks left over after NFKC (Polish letters compose into single code points).
 */
const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Z}\p{White_Space}\p{M}]/u;

/** Digits other than 0-9 (NFKC already turned full-width digits into these). */
const FOREIGN_DIGIT = /[^\P{Nd}0-9]/u;

const SCRIPTS = [
  /\p{Script=Latin}/u,
  /\p{Script=Cyrillic}/u,
  /\p{Script=Greek}/u,
  /\p{Script=Armenian}/u,
  /\p{Script=Hebrew}/u,
  /\p{Script=Arabic}/u,
  /\p{Script=Georgian}/u,
  /\p{Script=Cherokee}/u,
  /\p{Script=Han}/u,
] as const;

/** The scripts of the letters of a text; a letter of no listed script counts as one more. */
function scriptsOf(text: string): Set<number> {
  const scripts = new Set<number>();
  for (const char of text) {
    if (!/\p{L}/u.test(char)) continue;
    const index = SCRIPTS.findIndex((script) => script.test(char));
    scripts.add(index === -1 ? SCRIPTS.length : index);
  }
  return scripts;
}

/** Whether a normalised login may be created: visible characters, letters of one script. */
export function isAcceptableLogin(login: string): boolean {
  return !FORBIDDEN.test(login) && !FOREIGN_DIGIT.test(login) && scriptsOf(login).size <= 1;
}

/**
 * Look-alike characters folded onto one of them, after NFKC and lower case. A small table of
 * what matters for Latin logins (UTS #39 style, not its full data): digits and signs that pass
 * for letters, and the Cyrillic and Greek letters drawn like Latin ones, so that a login written
 * wholly in Cyrillic cannot copy a Latin one. The same table is in migration 0006's
 * `portal_login_skeleton`, which the database applies to every stored login.
 */
export const SKELETON_CHARACTERS: Readonly<Record<string, string>> = {
  o: '0οо',
  l: '1|iıӏіι',
  a: 'аα',
  e: 'е',
  p: 'р',
  c: 'с',
  y: 'у',
  x: 'х',
  s: 'ѕ',
  j: 'ј',
  d: 'ԁ',
  h: 'һ',
  q: 'ԛ',
  w: 'ԝ',
  v: 'ν',
};

const SKELETON_MAP = new Map<string, string>(
  Object.entries(SKELETON_CHARACTERS).flatMap(([target, sources]) =>
    [...sources].map((source) => [source, target] as const),
  ),
);

/** Two logins with one skeleton are confusable; the database keeps skeletons unique. */
export function loginSkeleton(login: string): string {
  const folded = [...normalizeLogin(login).toLowerCase()]
    .map((char) => SKELETON_MAP.get(char) ?? char)
    .join('');
  return folded.replaceAll('rn', 'm').replaceAll('vv', 'w');
}
