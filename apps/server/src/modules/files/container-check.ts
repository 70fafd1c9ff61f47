import * as CFB from 'cfb';

/** Legacy Office formats stored in an OLE2 (compound file) container. */
export type OfficeContainer = 'doc' | 'xls';

/** The stream at the container's root that makes it a document of each kind. */
const requiredStreams: Record<OfficeContainer, readonly string[]> = {
  doc: ['worddocument'],
  // "Book" is the stream name of Excel 5/95 files, "Workbook" of Excel 97 and later.
  xls: ['workbook', 'book'],
};

/** Storage of VBA macros (Word: Macros/VBA, Excel: _VBA_PROJECT_CUR/VBA). */
const macroStorages = new Set(['macros', '_vba_project_cur', 'vba', '_vba_project']);

/**
 * A real document has a handful of entries; a container with more is refused rather than walked
 * (the size is already at most 20 MB, this bounds the work on a crafted directory).
 */
const MAX_ENTRIES = 10_000;

/**
 * Whether an OLE2 container is a Word (`doc`) or Excel (`xls`) document without macros. Any other
 * container (an MSI installer, an Outlook message, a macro-bearing document) or one cfb cannot
 * read is refused.
 */
export function isOfficeContainer(content: Buffer, kind: OfficeContainer): boolean {
  let container: CFB.CFB$Container;
  try {
    container = CFB.read(content, { type: 'buffer' });
  } catch {
    return false;
  }
  if (container.FileIndex.length > MAX_ENTRIES) return false;
  const rootStreams = new Set<string>();
  for (const [index, entry] of container.FileIndex.entries()) {
    const name = entry.name.toLowerCase();
    if (macroStorages.has(name)) return false;
    const path = container.FullPaths[index] ?? '';
    // "Root Entry/WordDocument": one slash after the root's own name, none at the end.
    const depth = path.split('/').filter(Boolean).length;
    if (entry.type === 2 && depth === 2) rootStreams.add(name);
  }
  return requiredStreams[kind].some((stream) => rootStreams.has(stream));
}
