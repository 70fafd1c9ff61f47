/**
 * The bounds of an XML document's shape, checked in one pass over the text before any parser
 * sees it (ADR 036): fast-xml-parser builds the whole tree, so a document nested 10,000 deep made
 * it throw (a 500) and an element with 400,000 attributes held the thread for seconds. Both
 * import formats stay far inside these bounds: an HL7 v2 XML result or an ODM item lies about
 * eight elements deep and carries at most a dozen attributes (the ODM root's namespaces).
 */
export interface XmlShapeLimits {
  /** Deepest nesting of elements (the root is depth 1). */
  maxDepth: number;
  /** Most attributes (namespace declarations included) on one element. */
  maxAttributesPerElement: number;
  /** Longest start tag, attributes included (characters). */
  maxTagChars: number;
  /** Most elements in the document. */
  maxElements: number;
  /** Most attributes in the document, all elements together. */
  maxAttributes: number;
}

export const XML_SHAPE_LIMITS: XmlShapeLimits = {
  maxDepth: 32,
  maxAttributesPerElement: 64,
  maxTagChars: 64 * 1024,
  // A 20 MB HL7 v2 XML file of short results holds about 700,000 elements.
  maxElements: 1_500_000,
  maxAttributes: 1_500_000,
};

/** Why a document is refused, and the line (1-based) where the scan stopped. */
export interface XmlShapeProblem {
  message: string;
  line: number;
}

function lineAt(source: string, index: number): number {
  let line = 1;
  for (let i = source.indexOf('\n'); i !== -1 && i < index; i = source.indexOf('\n', i + 1))
    line += 1;
  return line;
}

const LT = 0x3c; // <
const GT = 0x3e; // >
const SLASH = 0x2f; // /
const EQUALS = 0x3d; // =
const QUOTE = 0x22; // "
const APOSTROPHE = 0x27; // '

/**
 * Walks the document once, counting depth, elements and attributes without building anything,
 * and stops at the first bound passed. Comments, CDATA sections and processing instructions are
 * skipped. A document broken in a way this walk cannot follow (an unclosed tag) is left to the
 * validator, which names the fault; null means "within bounds".
 */
export function checkXmlShape(
  source: string,
  limits: XmlShapeLimits = XML_SHAPE_LIMITS,
): XmlShapeProblem | null {
  const fail = (message: string, index: number): XmlShapeProblem => ({
    message,
    line: lineAt(source, index),
  });
  let depth = 0;
  let elements = 0;
  let attributes = 0;
  let i = source.indexOf('<');
  while (i !== -1) {
    let end: number;
    if (source.startsWith('<!--', i)) {
      end = source.indexOf('-->', i + 4);
      if (end === -1) return null;
      end += 2;
    } else if (source.startsWith('<![CDATA[', i)) {
      end = source.indexOf(']]>', i + 9);
      if (end === -1) return null;
      end += 2;
    } else if (source.startsWith('<?', i)) {
      end = source.indexOf('?>', i + 2);
      if (end === -1) return null;
      end += 1;
    } else if (source.startsWith('<!', i)) {
      end = source.indexOf('>', i + 2);
      if (end === -1) return null;
    } else if (source.charCodeAt(i + 1) === SLASH) {
      end = source.indexOf('>', i + 2);
      if (end === -1) return null;
      depth -= 1;
    } else {
      // A start tag: up to the '>' outside quotes, counting '=' outside quotes as attributes.
      let own = 0;
      let quote = 0;
      let j = i + 1;
      const stop = Math.min(source.length, i + limits.maxTagChars + 1);
      for (; j < stop; j += 1) {
        const c = source.charCodeAt(j);
        if (quote !== 0) {
          if (c === quote) quote = 0;
        } else if (c === QUOTE || c === APOSTROPHE) quote = c;
        else if (c === EQUALS) {
          own += 1;
          if (own > limits.maxAttributesPerElement)
            return fail(
              `element ma zbyt wiele atrybutów (najwięcej: ${limits.maxAttributesPerElement})`,
              i,
            );
        } else if (c === GT || c === LT) break;
      }
      if (j >= stop) {
        if (stop === source.length) return null;
        return fail(
          `znacznik elementu jest zbyt długi (najwięcej: ${limits.maxTagChars} znaków)`,
          i,
        );
      }
      if (source.charCodeAt(j) === LT) return null;
      end = j;
      elements += 1;
      attributes += own;
      if (elements > limits.maxElements)
        return fail(`plik XML ma zbyt wiele elementów (najwięcej: ${limits.maxElements})`, i);
      if (attributes > limits.maxAttributes)
        return fail(`plik XML ma zbyt wiele atrybutów (najwięcej: ${limits.maxAttributes})`, i);
      if (source.charCodeAt(end - 1) !== SLASH) {
        depth += 1;
        if (depth > limits.maxDepth)
          return fail(
            `elementy XML są zagnieżdżone zbyt głęboko (najwięcej poziomów: ${limits.maxDepth})`,
            i,
          );
      }
    }
    i = source.indexOf('<', end + 1);
  }
  return null;
}
