import { ActionIcon, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';

/**
 * The red bin of a list row or a file. `tooltip` is what sighted users read on hover; `label`
 * names what goes ("Usuń plik: ekg.pdf") for screen readers, and defaults to the tooltip.
 */
export function DeleteIconButton({
  tooltip,
  label = tooltip,
  onClick,
}: {
  tooltip: string;
  label?: string;
  onClick: () => void;
}) {
  return (
    <Tooltip label={tooltip} withinPortal>
      <ActionIcon variant="subtle" color="red" aria-label={label} onClick={onClick}>
        <IconTrash size={18} aria-hidden />
      </ActionIcon>
    </Tooltip>
  );
}
