import { describe, expect, it } from 'vitest';
import { commentToHtml, ecgFileProblem, htmlToText, referenceText } from './visit-format';

describe('referenceText', () => {
  it('writes the range of each parameter, QTcB by sex', () => {
    expect(referenceText('pq', 'M')).toBe('120–200 ms');
    expect(referenceText('qrs', 'K')).toBe('≤ 110 ms');
    expect(referenceText('qtcb', 'M')).toBe('≤ 450 ms');
    expect(referenceText('qtcb', 'K')).toBe('≤ 460 ms');
    expect(referenceText('rr', 'M')).toBe('600–1000 ms');
    expect(referenceText('qt', 'M')).toBeNull();
  });
});

describe('comment', () => {
  it('turns typed lines into escaped paragraphs and back', () => {
    const html = commentToHtml(' Rytm zatokowy \n\n<b>QT</b> & PQ ');
    expect(html).toBe('<p>Rytm zatokowy</p><p>&lt;b&gt;QT&lt;/b&gt; &amp; PQ</p>');
    expect(htmlToText(html)).toBe('Rytm zatokowy\n<b>QT</b> & PQ');
    expect(commentToHtml('  \n ')).toBeNull();
    expect(htmlToText(null)).toBe('');
    expect(htmlToText('<ul><li>jeden</li><li>dwa</li></ul>')).toBe('jeden\ndwa');
  });
});

describe('ecgFileProblem', () => {
  it('accepts the ECG types up to 20 MB', () => {
    expect(ecgFileProblem({ name: 'EKG.PDF', size: 10 })).toBeNull();
    expect(ecgFileProblem({ name: 'aecg.xml', size: 10 })).toBeNull();
    expect(ecgFileProblem({ name: 'opis.docx', size: 10 })).toBe('type');
    expect(ecgFileProblem({ name: 'skan.jpg', size: 21 * 1024 * 1024 })).toBe('size');
  });
});
