import type { TestApp } from './harness.js';

/** Test helpers: a multipart upload of files[0], files[1], … and csv text from rows. */

export function multipartFiles(files: { name: string; content: Buffer | string }[]) {
  const boundary = '----portal-import-boundary';
  const parts: Buffer[] = [];
  files.forEach((file, i) => {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files[${i}]"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content),
      Buffer.from('\r\n'),
    );
  });
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    body: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export function csvOf(columns: readonly string[], rows: Record<string, unknown>[]): string {
  const cell = (v: unknown) => {
    const text =
      typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
        ? String(v)
        : v === null || v === undefined
          ? ''
          : JSON.stringify(v);
    return /[",;\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return [columns.join(','), ...rows.map((r) => columns.map((c) => cell(r[c])).join(','))].join(
    '\n',
  );
}

export function postImport(
  t: TestApp,
  token: string,
  mode: string,
  files: { name: string; content: Buffer | string }[],
) {
  const { body, headers } = multipartFiles(files);
  return t.request('POST', `/api/data_import/${mode}`, { token, body, headers });
}
