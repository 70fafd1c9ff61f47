import { describe, expect, it } from 'vitest';
import { htmlToText, isBlankHtml } from './rich-text';

describe('htmlToText', () => {
  it('keeps the words on one line', () => {
    expect(
      htmlToText('<p>Ciśnienie <strong>w normie</strong></p><ul><li>a &amp; b</li></ul>'),
    ).toBe('Ciśnienie w normie a & b');
  });

  it('decodes the entities the editor writes, once', () => {
    expect(htmlToText('<p>&lt;b&gt; &quot;x&quot; &#39;y&#39;&nbsp;&amp;lt;</p>')).toBe(
      `<b> "x" 'y' &lt;`,
    );
  });

  it('leaves nothing of an empty editor', () => {
    expect(htmlToText('<p></p><p><br></p>')).toBe('');
  });
});

describe('isBlankHtml', () => {
  it('sees an untouched editor as empty', () => {
    expect(isBlankHtml('<p></p>')).toBe(true);
    expect(isBlankHtml('<p>&nbsp; </p><p><br></p>')).toBe(true);
    expect(isBlankHtml('<p><strong>x</strong></p>')).toBe(false);
  });
});
