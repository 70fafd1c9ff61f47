// The parsed XML as the readers walk it; apart from xml.ts, which picks a reader by the root
// element, so that the readers and the picker do not import each other.

/** A parsed element: text, or its children by name and its attributes by `@name` (namespace
 *  prefixes removed), so that the results layout can tell a stray attribute from an element. */
export type XmlNode = string | { [name: string]: XmlNode | XmlNode[] };

/** Any element as a list (the parser gives one child as itself, several as an array). */
export function list(node: XmlNode | XmlNode[] | undefined): XmlNode[] {
  if (node === undefined) return [];
  return Array.isArray(node) ? node : [node];
}

/** A child element (or `@attribute`) of an element (the first one when repeated). */
export function child(node: XmlNode | undefined, name: string): XmlNode | undefined {
  if (node === undefined || typeof node === 'string') return undefined;
  return list(node[name])[0];
}

/** An element's text, or the text of its first component (`<OBX.3><CE.1>ALT</CE.1>…`). */
export function text(node: XmlNode | undefined): string {
  if (node === undefined) return '';
  if (typeof node === 'string') return node.trim();
  const own = node['#text'];
  if (typeof own === 'string' && own.trim() !== '') return own.trim();
  const first = Object.keys(node).find((key) => key.endsWith('.1'));
  return first === undefined ? '' : text(child(node, first));
}

/**
 * The 1-based line of each opening tag named `name` (any prefix), in document order. Comments,
 * CDATA and processing instructions are skipped: a comment explaining `<wynik>` is no element.
 */
export function tagLines(source: string, name: string): number[] {
  const lines: number[] = [];
  const pattern = new RegExp(
    `<!--[\\s\\S]*?-->|<!\\[CDATA\\[[\\s\\S]*?\\]\\]>|<\\?[\\s\\S]*?\\?>|<(?:[\\w.-]+:)?${name.replace(/\./g, '\\.')}[\\s/>]`,
    'g',
  );
  let line = 1;
  let last = 0;
  for (const match of source.matchAll(pattern)) {
    if (match[0].startsWith('<!') || match[0].startsWith('<?')) continue;
    for (let i = last; i < match.index; i += 1) if (source.charCodeAt(i) === 10) line += 1;
    last = match.index;
    lines.push(line);
  }
  return lines;
}
