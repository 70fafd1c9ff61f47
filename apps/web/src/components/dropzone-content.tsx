import { Group, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { IconFileUpload, IconUpload, IconX } from '@tabler/icons-react';

/**
 * What a file drop zone shows inside (the card's attachments, the panels' documents, the data
 * import): an icon for the drag's state, the invitation and the accepted types.
 */
export function DropzoneContent({
  title,
  hint,
  minHeight = 100,
}: {
  title: string;
  hint: string;
  minHeight?: number;
}) {
  return (
    <Group justify="center" gap="md" mih={minHeight} style={{ pointerEvents: 'none' }}>
      <Dropzone.Accept>
        <IconUpload size={40} stroke={1.5} aria-hidden />
      </Dropzone.Accept>
      <Dropzone.Reject>
        <IconX size={40} stroke={1.5} aria-hidden />
      </Dropzone.Reject>
      <Dropzone.Idle>
        <IconFileUpload size={40} stroke={1.5} aria-hidden />
      </Dropzone.Idle>
      <div>
        <Text size="md" fw={500}>
          {title}
        </Text>
        <Text size="sm" c="dimmed" mt={4}>
          {hint}
        </Text>
      </div>
    </Group>
  );
}
