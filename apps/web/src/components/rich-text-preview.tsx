import { Fragment } from 'react';
import type { ReactNode } from 'react';
import classes from './rich-text-preview.module.css';

/** Inline emphasis kept as it is; each is phrasing content, allowed inside a button. */
const INLINE = new Set(['strong', 'b', 'em', 'i', 'u', 's', 'code']);
/** Blocks become spans shown as blocks: a button may hold phrasing content only. */
const BLOCK = new Set(['p', 'blockquote', 'h2', 'h3', 'h4', 'pre', 'ul', 'ol']);

function convert(node: Node, key: number): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const element = node as Element;
  const tag = element.tagName.toLowerCase();
  const children = Array.from(element.childNodes).map(convert);
  if (tag === 'br') return <br key={key} />;
  if (tag === 'hr') return <span key={key} className={classes.rule} />;
  if (INLINE.has(tag)) {
    const Tag = tag as 'strong';
    return <Tag key={key}>{children}</Tag>;
  }
  // A link inside the card's button would be a control inside a control: its text only.
  if (tag === 'a') {
    return (
      <span key={key} className={classes.link}>
        {children}
      </span>
    );
  }
  if (tag === 'li') {
    const ordered = element.parentElement?.tagName.toLowerCase() === 'ol';
    return (
      <span key={key} className={ordered ? classes.orderedItem : classes.item}>
        {children}
      </span>
    );
  }
  if (BLOCK.has(tag)) {
    return (
      <span key={key} className={classes[tag] ?? classes.block} data-tag={tag}>
        {children}
      </span>
    );
  }
  return <Fragment key={key}>{children}</Fragment>;
}

/**
 * A faithful preview of staff's rich text (announcements, messages) inside a card that is a
 * button: paragraphs, line breaks, lists and emphasis as written (ADR 039), built as React
 * elements from the HTML the server sanitised (lib/sanitize.ts on the server), never injected.
 * The card clamps it to a few lines; the dialog shows the whole text.
 */
export function RichTextPreview({ html, className }: { html: string; className?: string }) {
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  return (
    <span className={[classes.preview, className].filter(Boolean).join(' ')}>
      {Array.from(body.childNodes).map(convert)}
    </span>
  );
}
