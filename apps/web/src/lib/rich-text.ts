/**
 * Rich text (the editor's HTML) as one line of plain text, for previews, accessible names and
 * the audit trail. React escapes the result when it is shown.
 */
export function htmlToText(html: string): string {
  return html
    .replace(/<\/(p|li|h\d)>/gi, ' ')
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * True when rich text holds no words: an untouched editor answers '<p></p>'. Used only to tell
 * the user a field is required; the server decides the same on its own.
 */
export function isBlankHtml(html: string): boolean {
  return (
    html
      .replace(/<[^>]*>/g, '')
      .replace(/&nbsp;|\u00a0/g, ' ')
      .trim() === ''
  );
}
