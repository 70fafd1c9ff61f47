import { describe, expect, it } from 'vitest';
import { checkXmlShape, XML_SHAPE_LIMITS } from './xml-shape.js';

const limits = { ...XML_SHAPE_LIMITS, maxDepth: 3, maxAttributesPerElement: 2, maxElements: 5 };

describe('checkXmlShape', () => {
  it('passes a document within bounds, whatever its comments, CDATA and quoted text hold', () => {
    const xml = `<?xml version="1.0"?>
<!-- <a><a><a><a> is no element -->
<r x="1 > 0" y='<b c="d">'><a><b/><![CDATA[<c><c><c><c>]]></a></r>`;
    expect(checkXmlShape(xml, limits)).toBeNull();
  });

  it('names the line where a bound is passed', () => {
    expect(checkXmlShape('<r>\n<a>\n<b>\n<c/></b></a></r>', limits)).toBeNull();
    expect(checkXmlShape('<r>\n<a>\n<b>\n<c></c></b></a></r>', limits)).toEqual({
      line: 4,
      message: 'elementy XML są zagnieżdżone zbyt głęboko (najwięcej poziomów: 3)',
    });
    expect(checkXmlShape('<r>\n<a x="1" y="2" z="3"/></r>', limits)).toEqual({
      line: 2,
      message: 'element ma zbyt wiele atrybutów (najwięcej: 2)',
    });
    expect(checkXmlShape('<r><a/><a/><a/><a/>\n<a/></r>', limits)).toEqual({
      line: 2,
      message: 'plik XML ma zbyt wiele elementów (najwięcej: 5)',
    });
    expect(
      checkXmlShape(`<r><a x="${'y'.repeat(100)}"/></r>`, { ...limits, maxTagChars: 50 }),
    ).toEqual({ line: 1, message: 'znacznik elementu jest zbyt długi (najwięcej: 50 znaków)' });
    expect(
      checkXmlShape('<r a="1"><a x="1"/><a x="1"/></r>', { ...limits, maxAttributes: 2 }),
    ).toEqual({ line: 1, message: 'plik XML ma zbyt wiele atrybutów (najwięcej: 2)' });
  });

  it('leaves a broken document to the validator', () => {
    expect(checkXmlShape('<r><a x="1', limits)).toBeNull();
    expect(checkXmlShape('<r><!-- open', limits)).toBeNull();
  });

  it('walks 400,000 attributes and 10,000 levels in a few milliseconds', () => {
    const attributes = Array.from({ length: 400_000 }, (_, i) => ` a${i}="1"`).join('');
    const started = performance.now();
    expect(checkXmlShape(`<r${attributes}/>`)?.message).toMatch(/zbyt wiele atrybutów/);
    expect(checkXmlShape(`${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}`)?.message).toMatch(
      /zbyt głęboko/,
    );
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
