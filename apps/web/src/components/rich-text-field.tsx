import '@mantine/tiptap/styles.layer.css';
import { Input } from '@mantine/core';
import { Link, RichTextEditor } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Rich text for comments and messages (docs/stack-notes.md: Tiptap 3's StarterKit without its own
 * link, Mantine's Link instead). Bold, italic, underline, lists and links; the HTML goes to the
 * server, which sanitises it before storing. Uncontrolled after mount: `initialValue` is read once.
 */
export function RichTextField({
  label,
  initialValue = '',
  onChange,
  error,
  autoFocus = false,
  disabled = false,
}: {
  label: string;
  initialValue?: string;
  onChange: (html: string) => void;
  error?: string | null;
  autoFocus?: boolean;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const labelId = useId();
  const errorId = useId();
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: false }), Link.configure({ openOnClick: false })],
    content: initialValue,
    editable: !disabled,
    autofocus: autoFocus ? 'end' : false,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelId,
        ...(error ? { 'aria-invalid': 'true', 'aria-describedby': errorId } : {}),
      },
    },
    onUpdate: ({ editor: current }) => onChange(current.getHTML()),
  });

  return (
    <Input.Wrapper
      label={label}
      labelProps={{ id: labelId, component: 'span' }}
      error={error}
      errorProps={{ id: errorId }}
    >
      <RichTextEditor
        editor={editor}
        mt={4}
        labels={{
          boldControlLabel: t('card.editor.bold'),
          italicControlLabel: t('card.editor.italic'),
          underlineControlLabel: t('card.editor.underline'),
          bulletListControlLabel: t('card.editor.bulletList'),
          orderedListControlLabel: t('card.editor.orderedList'),
          linkControlLabel: t('card.editor.link'),
          unlinkControlLabel: t('card.editor.unlink'),
          linkEditorInputLabel: t('card.editor.linkInput'),
          linkEditorInputPlaceholder: t('card.editor.linkPlaceholder'),
          linkEditorExternalLink: t('card.editor.linkExternal'),
          linkEditorInternalLink: t('card.editor.linkInternal'),
          linkEditorSave: t('card.editor.linkSave'),
        }}
        style={error ? { borderColor: 'var(--mantine-color-error)' } : undefined}
      >
        <RichTextEditor.Toolbar aria-label={t('card.editor.toolbar')}>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Bold />
            <RichTextEditor.Italic />
            <RichTextEditor.Underline />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.BulletList />
            <RichTextEditor.OrderedList />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Link />
            <RichTextEditor.Unlink />
          </RichTextEditor.ControlsGroup>
        </RichTextEditor.Toolbar>
        <RichTextEditor.Content mih={140} />
      </RichTextEditor>
    </Input.Wrapper>
  );
}
