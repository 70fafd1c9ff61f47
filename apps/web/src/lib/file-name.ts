/**
 * The file name a Content-Disposition header gives: the UTF-8 `filename*` (RFC 6266) where there
 * is one, which carries Polish letters, the plain `filename` otherwise; null for none. Apart from
 * lib/download.ts so that it is tested without a browser.
 */
export function fileNameFrom(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*utf-8'[^']*'([^;\s]+)/i.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1]);
    } catch {
      // A malformed escape: the plain name below still names the file.
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(header);
  const name = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2];
  return name || null;
}
