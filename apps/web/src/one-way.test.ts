import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// One way to do each thing in the web app (ADR 014): these read the sources, so a second copy of
// a helper or a query key written inline fails here rather than in review.
const src = decodeURIComponent(new URL('.', import.meta.url).pathname);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const files = sources(src).map((path) => ({
  path: relative(src, path),
  text: readFileSync(path, 'utf8'),
}));

/** `file:line` of every line of the sources matching `pattern`. */
function where(pattern: RegExp, except: (path: string) => boolean = () => false): string[] {
  return files
    .filter((file) => !except(file.path))
    .flatMap((file) =>
      file.text
        .split('\n')
        .flatMap((line, index) => (pattern.test(line) ? [`${file.path}:${index + 1}`] : [])),
    );
}

/** The files with a line matching `pattern`, sorted. */
function filesWhere(pattern: RegExp, except?: (path: string) => boolean): string[] {
  return [...new Set(where(pattern, except).map((at) => at.slice(0, at.lastIndexOf(':'))))].sort();
}

describe('one way to do each thing', () => {
  it.each([
    'ordinalKey',
    'formatNumber',
    'shortTime',
    'weekdayName',
    'personName',
    'patientAddress',
    'usePatient',
  ])('defines %s once', (name) => {
    const definition = new RegExp(`(function|const|let)\\s+${name}\\b`);
    expect(where(definition)).toHaveLength(1);
  });

  it('leaves no second name for a helper that has one', () => {
    expect(where(/\b(hhmm|weekdayOf|useVisitPatient)\b/)).toEqual([]);
  });

  it('builds every query key in api/query-keys.ts', () => {
    const inline =
      /queryKey:\s*\[|(invalidateQueries|setQueryData|getQueryData|removeQueries|cancelQueries|refetchQueries)\(\s*\[/;
    expect(where(inline, (path) => path === join('api', 'query-keys.ts'))).toEqual([]);
    // A key kept in a local constant is still a key written outside the module.
    expect(where(/(KEY|Key)\s*=\s*\[/)).toEqual([]);
  });

  it('edits forms with useZodForm, not a second form state', () => {
    expect(where(/from '@mantine\/form'|from 'react-hook-form'/)).toEqual([]);
    // A form checks with the shared schema through the hook; the wizard's reducer is the one
    // other caller, and it translates with the hook's translateCodes (ADR 013).
    expect(
      filesWhere(/validateWith\(/, (path) => path === join('lib', 'form-validation.ts')),
    ).toEqual([
      join('features', 'patients', 'wizard', 'patient-wizard.tsx'),
      join('lib', 'use-zod-form.ts'),
    ]);
  });

  it('translates form message codes in one place', () => {
    expect(filesWhere(/t\(`validation\.\$\{/)).toEqual([join('lib', 'use-zod-form.ts')]);
  });

  it('saves downloads in one place', () => {
    // Every download goes through lib/download.ts (its name from Content-Disposition, a toast on
    // failure); the login details sheet keeps its PDF in a blob URL to show it in a frame.
    expect(filesWhere(/createObjectURL\(/)).toEqual([
      join('components', 'credentials-modal.tsx'),
      join('lib', 'download.ts'),
    ]);
  });
});
