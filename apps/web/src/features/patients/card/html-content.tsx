import { Typography } from '@mantine/core';

/**
 * Rich text written by staff (notes, file comments, messages). dangerouslySetInnerHTML is safe
 * here ONLY because the server sanitises every such text to a small allow list before storing
 * it (docs/product-rules.md "Rich text", sanitize-html); nothing else may be rendered this way.
 */
export function HtmlContent({ html }: { html: string }) {
  return (
    <Typography fz="sm" style={{ overflowWrap: 'anywhere' }}>
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </Typography>
  );
}
