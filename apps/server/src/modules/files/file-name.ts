/** The longest stored file name, in UTF-8 bytes: what common file systems accept. */
export const MAX_FILE_NAME_BYTES = 255;

/** The longest tail that still counts as an extension worth keeping when a name is shortened. */
const MAX_EXTENSION_CHARS = 16;

/**
 * A file name safe to store, list and send back: only the last path segment (browsers may send
 * "C:\\fakepath\\x.pdf"), NFC (macOS sends decomposed Polish letters), without control and format
 * characters (U+202E would show "raport‮fdp.exe" reversed, U+200B hides in plain sight), and at
 * most 255 bytes of UTF-8 with the extension kept.
 */
export function cleanFileName(raw: string): string {
  const name = (raw.split(/[\\/]/).pop() ?? '')
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '')
    .trim();
  return shorten(name, MAX_FILE_NAME_BYTES);
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

function shorten(name: string, maxBytes: number): string {
  if (bytes(name) <= maxBytes) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && name.length - dot <= MAX_EXTENSION_CHARS + 1 ? name.slice(dot) : '';
  const room = maxBytes - bytes(extension);
  let base = '';
  // By code points, so that no surrogate pair or multi-byte letter is cut in half.
  for (const char of name.slice(0, name.length - extension.length)) {
    if (bytes(base) + bytes(char) > room) break;
    base += char;
  }
  return base.trimEnd() + extension;
}
