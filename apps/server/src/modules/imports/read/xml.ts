import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { decodeText } from './csv.js';
import type { ErrorList } from './error-list.js';
import { readHl7Xml } from './hl7-xml.js';
import { readOdm } from './odm-xml.js';
import { readResultsXml, RESULTS_XML_ROOT } from './results-xml.js';
import type { ImportTable } from './types.js';
import type { XmlNode } from './xml-nodes.js';
import { checkXmlShape, XML_SHAPE_LIMITS } from './xml-shape.js';

/**
 * .xml: HL7 v2 XML (ORU^R01), CDISC ODM 1.3 clinical data or the results template as XML
 * (`<wyniki><wynik>…`), all read into the results layout; the root element says which.
 * A DOCTYPE or an entity declaration is refused before parsing: they carry every XML entity
 * attack (billion laughs, external entities reading files or URLs), and neither format needs one.
 */
export function readXml(
  file: string,
  data: Buffer,
  errors: ErrorList,
  maxRows: number,
  drugCodes: ReadonlyMap<string, number> | undefined,
): ImportTable | null {
  const source = decodeText(data);
  if (/<!(DOCTYPE|ENTITY)/i.test(source)) {
    errors.add(
      file,
      'plik XML zawiera deklarację DOCTYPE lub ENTITY, której import nie przyjmuje (chroni to przed atakami przez encje XML)',
    );
    return null;
  }
  // Depth, attributes and elements are bounded before the validator or the parser walk the
  // document (ADR 036).
  const shape = checkXmlShape(source);
  if (shape !== null) {
    errors.add(file, shape.message, shape.line);
    return null;
  }
  const valid = XMLValidator.validate(source);
  if (valid !== true) {
    errors.add(file, `nieprawidłowy XML: ${valid.err.msg}`, valid.err.line);
    return null;
  }
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    // Without a DOCTYPE only the predefined entities and character references (&#261; = ą) remain.
    processEntities: true,
    htmlEntities: true,
    trimValues: true,
    // The shape check above already holds the depth to this; the parser's own bound stays as a
    // second fence, and what it throws is the file's fault, not the server's.
    maxNestedTags: XML_SHAPE_LIMITS.maxDepth,
  });
  let document: Record<string, XmlNode>;
  try {
    document = parser.parse(source) as Record<string, XmlNode>;
  } catch (error) {
    errors.add(
      file,
      `nieprawidłowy XML: ${error instanceof Error ? error.message : String(error)}`,
    );
    return null;
  }
  const rootName = Object.keys(document).find((key) => !key.startsWith('?'));
  const root = rootName === undefined ? undefined : document[rootName];
  if (rootName === 'ORU_R01' && root !== undefined)
    return readHl7Xml(file, source, root, errors, maxRows, drugCodes);
  if (rootName === 'ODM' && root !== undefined) return readOdm(file, source, root, errors, maxRows);
  if (rootName === RESULTS_XML_ROOT && root !== undefined)
    return readResultsXml(file, source, root, errors, maxRows);
  errors.add(
    file,
    `nieznany rodzaj pliku XML (import przyjmuje HL7 v2 XML ORU^R01, CDISC ODM 1.3 albo wyniki w układzie szablonu: <${RESULTS_XML_ROOT}>)`,
  );
  return null;
}
