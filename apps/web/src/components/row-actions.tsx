import { ActionIcon, Badge, Button, Group, Tooltip } from '@mantine/core';
import { IconPencil, IconRestore } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DeleteIconButton } from './delete-icon-button';

/**
 * Operations of one row: edit and delete, or only restore for a deleted row. Icon buttons carry
 * their name in aria-label.
 */
export function RowActions({
  deleted,
  onEdit,
  onDelete,
  onRestore,
  children,
}: {
  deleted: boolean;
  onEdit?: () => void;
  onDelete?: () => void;
  onRestore?: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  if (deleted) {
    // Said in words too: the greyed row alone would not reach screen readers.
    return (
      <Group gap="xs" wrap="nowrap">
        <Badge color="gray" variant="light" style={{ flexShrink: 0 }}>
          {t('list.deleted')}
        </Badge>
        {onRestore && (
          <Button
            size="xs"
            variant="light"
            style={{ flexShrink: 0 }}
            leftSection={<IconRestore size={16} aria-hidden />}
            onClick={onRestore}
          >
            {t('common.restore')}
          </Button>
        )}
      </Group>
    );
  }
  return (
    <Group gap={4} wrap="nowrap">
      {children}
      {onEdit && (
        <Tooltip label={t('common.edit')} withinPortal>
          <ActionIcon variant="subtle" aria-label={t('common.edit')} onClick={onEdit}>
            <IconPencil size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      )}
      {onDelete && <DeleteIconButton tooltip={t('common.delete')} onClick={onDelete} />}
    </Group>
  );
}
