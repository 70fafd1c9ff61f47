import {
  ActionIcon,
  Alert,
  Box,
  Button,
  Group,
  Paper,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import {
  closestCenter,
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import type {
  Announcements,
  CollisionDetection,
  DragEndEvent,
  DragStartEvent,
  UniqueIdentifier,
} from '@dnd-kit/core';
import {
  rectSortingStrategy,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { IconGripVertical, IconPlus, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import type { FormEvent, PointerEvent, PointerEventHandler, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProbeCodePart } from '@portal/shared';
import {
  DIGIT_PARTS,
  exampleCode,
  exampleValue,
  insertItem,
  isDigit,
  moveItem,
  PROBE_CONFIG_MAX,
  VARIABLE_PARTS,
} from './probe-config-model';
import type { PlacedPart } from './probe-config-model';
import { SettingScreen } from './setting-screen';
import { useSettingSave } from './use-setting-save';

const SEQUENCE_ID = 'sequence';
const PALETTE_PREFIX = 'palette:';

// Ids of placed parts only need to be unique within the page; a module counter suffices.
let placedCount = 0;
function place(part: ProbeCodePart): PlacedPart {
  placedCount += 1;
  return { id: `part-${placedCount}`, part };
}

function paletteId(part: ProbeCodePart): string {
  return `${PALETTE_PREFIX}${part}`;
}

function palettePart(id: UniqueIdentifier): ProbeCodePart | null {
  const text = String(id);
  return text.startsWith(PALETTE_PREFIX)
    ? (text.slice(PALETTE_PREFIX.length) as ProbeCodePart)
    : null;
}

/**
 * A palette item dragged by pointer lands where the pointer is (on a part: before it; on the
 * empty sequence: at the end); reordering uses the nearest centre, which suits the keyboard.
 */
const collisionDetection: CollisionDetection = (args) => {
  // A part being reordered aims at other parts only: the sequence's own droppable area has its
  // centre mid-row and would often win, leaving the part where it was.
  if (palettePart(args.active.id) === null)
    return closestCenter({
      ...args,
      droppableContainers: args.droppableContainers.filter((c) => c.id !== SEQUENCE_ID),
    });
  const hits = pointerWithin(args);
  const onParts = hits.filter((hit) => hit.id !== SEQUENCE_ID);
  return onParts.length > 0 ? onParts : hits;
};

/** One part in the sequence: a handle to drag (pointer or keyboard) and a remove button. */
function SequenceItem({
  item,
  index,
  count,
  label,
  onRemove,
}: {
  item: PlacedPart;
  index: number;
  count: number;
  label: string;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const {
    attributes,
    listeners,
    setNodeRef,
    setActivatorNodeRef,
    transform,
    transition,
    isDragging,
  } = useSortable({
    id: item.id,
    // dnd-kit's own "sortable" would be read out in English (ADR 039).
    attributes: { roleDescription: t('probeConfig.roleDescription') },
  });
  return (
    <Box
      component="li"
      ref={setNodeRef}
      data-testid="probe-config-item"
      data-part={item.part}
      style={{
        transform: CSS.Translate.toString(transform),
        transition,
        opacity: isDragging ? 0.4 : 1,
        listStyle: 'none',
      }}
    >
      <Paper withBorder radius="md" px={6} py={4} bg="var(--mantine-color-blue-light)">
        <Group gap={4} wrap="nowrap">
          <UnstyledButton
            ref={setActivatorNodeRef}
            {...attributes}
            {...listeners}
            aria-label={t('probeConfig.moveItem', { label, position: index + 1, count })}
            style={{ cursor: 'grab', touchAction: 'none', display: 'flex', alignItems: 'center' }}
          >
            <IconGripVertical size={16} aria-hidden />
            <Text size="sm" fw={500} ml={4} component="span">
              {label}
            </Text>
          </UnstyledButton>
          <Text size="sm" ff="monospace" component="span" title={t('probeConfig.exampleValue')}>
            {exampleValue(item.part) || '–'}
          </Text>
          <ActionIcon
            variant="subtle"
            color="red"
            size="md"
            aria-label={t('probeConfig.removeItem', { label, position: index + 1 })}
            onClick={onRemove}
          >
            <IconX size={16} aria-hidden />
          </ActionIcon>
        </Group>
      </Paper>
    </Box>
  );
}

/**
 * A palette entry: click or Enter appends it; a pointer may also drag it into the sequence.
 * Only the pointer listener is taken, so the keyboard's Enter stays a click.
 */
function PaletteItem({
  part,
  label,
  disabled,
  onAdd,
}: {
  part: ProbeCodePart;
  label: string;
  disabled: boolean;
  onAdd: () => void;
}) {
  const { t } = useTranslation();
  const { listeners, setNodeRef, isDragging } = useDraggable({ id: paletteId(part), disabled });
  return (
    <Button
      ref={setNodeRef}
      variant="default"
      size="sm"
      disabled={disabled}
      leftSection={<IconPlus size={14} aria-hidden />}
      onPointerDown={(event: PointerEvent<HTMLButtonElement>) => {
        // dnd-kit types its listeners loosely (Function); this one takes the pointer event.
        const start = listeners?.onPointerDown as
          PointerEventHandler<HTMLButtonElement> | undefined;
        start?.(event);
      }}
      onClick={onAdd}
      aria-label={t('probeConfig.addItem', { label })}
      data-testid={`probe-config-palette-${part}`}
      style={{ touchAction: 'none', opacity: isDragging ? 0.5 : 1 }}
    >
      {label}
    </Button>
  );
}

function SequenceArea({ children, empty }: { children: ReactNode; empty: boolean }) {
  const { t } = useTranslation();
  const { setNodeRef, isOver } = useDroppable({ id: SEQUENCE_ID });
  return (
    <Paper
      ref={setNodeRef}
      withBorder
      radius="md"
      p="sm"
      mih={72}
      data-testid="probe-config-sequence"
      style={{
        borderStyle: 'dashed',
        borderColor: isOver ? 'var(--mantine-color-blue-6)' : undefined,
      }}
    >
      {empty ? (
        <Text c="dimmed" size="sm" ta="center" py="md">
          {t('probeConfig.emptySequence')}
        </Text>
      ) : (
        <Group
          component="ol"
          gap="xs"
          wrap="wrap"
          m={0}
          p={0}
          aria-label={t('probeConfig.sequenceTitle')}
        >
          {children}
        </Group>
      )}
    </Paper>
  );
}

function ProbeConfigForm({
  initial,
  initialVersion,
}: {
  initial: readonly ProbeCodePart[];
  initialVersion: number;
}) {
  const { t } = useTranslation();
  const [items, setItems] = useState<PlacedPart[]>(() => initial.map(place));
  const [dragged, setDragged] = useState<ProbeCodePart | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const { save, saving } = useSettingSave('probe_config', initialVersion, {
    setServerErrors: (fields) =>
      setServerError(Object.values(fields)[0] ?? t('common.validationError')),
    onSaved: (saved) => setItems(saved.value.map(place)),
  });

  const parts = items.map((item) => item.part);
  const full = items.length >= PROBE_CONFIG_MAX;
  const example = exampleCode(parts);

  const labelOf = (part: ProbeCodePart) =>
    isDigit(part) ? t('probeConfig.digit', { digit: part }) : t(`probeConfig.parts.${part}`);

  const change = (next: PlacedPart[]) => {
    setItems(next);
    setServerError(null);
  };

  const sensors = useSensors(
    // A few pixels of movement before a drag starts, so that a click still clicks.
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const nameOf = (id: UniqueIdentifier): string => {
    const fromPalette = palettePart(id);
    if (fromPalette) return labelOf(fromPalette);
    const item = items.find((entry) => entry.id === id);
    return item ? labelOf(item.part) : '';
  };
  const positionOf = (id: UniqueIdentifier | undefined): number =>
    id === undefined ? items.length : items.findIndex((entry) => entry.id === id) + 1;

  const announcements: Announcements = {
    onDragStart: ({ active }) =>
      t('probeConfig.announce.start', {
        label: nameOf(active.id),
        position: positionOf(active.id),
      }),
    onDragOver: ({ active, over }) =>
      over && over.id !== SEQUENCE_ID
        ? t('probeConfig.announce.over', {
            label: nameOf(active.id),
            position: positionOf(over.id),
            count: items.length,
          })
        : t('probeConfig.announce.outside', { label: nameOf(active.id) }),
    onDragEnd: ({ active, over }) =>
      over
        ? t('probeConfig.announce.end', {
            label: nameOf(active.id),
            position: over.id === SEQUENCE_ID ? items.length : positionOf(over.id),
          })
        : t('probeConfig.announce.cancel', { label: nameOf(active.id) }),
    onDragCancel: ({ active }) => t('probeConfig.announce.cancel', { label: nameOf(active.id) }),
  };

  function onDragStart(event: DragStartEvent) {
    setDragged(palettePart(event.active.id));
  }

  function onDragEnd({ active, over }: DragEndEvent) {
    setDragged(null);
    if (!over) return;
    const fromPalette = palettePart(active.id);
    if (fromPalette) {
      const at =
        over.id === SEQUENCE_ID ? items.length : items.findIndex((item) => item.id === over.id);
      change(insertItem(items, place(fromPalette), at < 0 ? items.length : at));
      return;
    }
    if (over.id === active.id || over.id === SEQUENCE_ID) return;
    const from = items.findIndex((item) => item.id === active.id);
    const to = items.findIndex((item) => item.id === over.id);
    if (from >= 0 && to >= 0) change(moveItem(items, from, to));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (parts.length === 0) return;
    save(parts);
  }

  const palette = (list: readonly ProbeCodePart[]) => (
    <Group gap="xs" wrap="wrap">
      {list.map((part) => (
        <PaletteItem
          key={part}
          part={part}
          label={labelOf(part)}
          disabled={full}
          onAdd={() => change(insertItem(items, place(part), items.length))}
        />
      ))}
    </Group>
  );

  return (
    <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md" maw={880}>
      <form onSubmit={submit} noValidate>
        <DndContext
          sensors={sensors}
          collisionDetection={collisionDetection}
          onDragStart={onDragStart}
          onDragEnd={onDragEnd}
          onDragCancel={() => setDragged(null)}
          accessibility={{
            announcements,
            screenReaderInstructions: { draggable: t('probeConfig.instructions') },
          }}
        >
          <Stack gap="lg">
            <Stack gap={4}>
              <Text size="sm" c="dimmed" id="probe-config-example-label">
                {t('probeConfig.example')}
              </Text>
              {/* An output, not a paragraph: large and bold, axe would read a <p> as a heading. */}
              <Text
                component="output"
                display="block"
                fz={{ base: 24, sm: 32 }}
                fw={700}
                ff="monospace"
                data-testid="probe-config-example"
                aria-labelledby="probe-config-example-label"
                aria-live="polite"
                style={{ wordBreak: 'break-all' }}
              >
                {example || '—'}
              </Text>
              <Text size="xs" c="dimmed">
                {t('probeConfig.exampleHint')}
              </Text>
            </Stack>

            <Stack gap="xs">
              <Title order={2} size="h4">
                {t('probeConfig.sequenceTitle')}
              </Title>
              <Text size="sm" c="dimmed">
                {t('probeConfig.sequenceHint')}
              </Text>
              <SortableContext items={items.map((item) => item.id)} strategy={rectSortingStrategy}>
                <SequenceArea empty={items.length === 0}>
                  {items.map((item, index) => (
                    <SequenceItem
                      key={item.id}
                      item={item}
                      index={index}
                      count={items.length}
                      label={labelOf(item.part)}
                      onRemove={() => change(items.filter((entry) => entry.id !== item.id))}
                    />
                  ))}
                </SequenceArea>
              </SortableContext>
              {full && (
                <Text size="sm" c="dimmed">
                  {t('probeConfig.full', { max: PROBE_CONFIG_MAX })}
                </Text>
              )}
            </Stack>

            <Stack gap="xs">
              <Title order={2} size="h4">
                {t('probeConfig.paletteTitle')}
              </Title>
              <Text size="sm" c="dimmed">
                {t('probeConfig.paletteHint')}
              </Text>
              <Text size="sm" fw={500}>
                {t('probeConfig.variables')}
              </Text>
              {palette(VARIABLE_PARTS)}
              <Text size="sm" fw={500}>
                {t('probeConfig.digits')}
              </Text>
              {palette(DIGIT_PARTS)}
            </Stack>

            {parts.length === 0 && (
              <Alert color="orange" variant="light" role="alert">
                {t('probeConfig.cannotSaveEmpty')}
              </Alert>
            )}
            {serverError && (
              <Alert color="red" variant="light" role="alert">
                {serverError}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button type="submit" loading={saving} disabled={parts.length === 0}>
                {t('common.save')}
              </Button>
            </Group>
          </Stack>
          <DragOverlay>
            {dragged ? (
              <Paper withBorder shadow="md" radius="md" px="sm" py={6}>
                <Text size="sm" fw={500}>
                  {labelOf(dragged)}
                </Text>
              </Paper>
            ) : null}
          </DragOverlay>
        </DndContext>
      </form>
    </Paper>
  );
}

/** Settings › Probe number: the parts of the sample number, in order, with a live example. */
export function ProbeConfigPage() {
  const { t } = useTranslation();
  return (
    <SettingScreen
      name="probe_config"
      title={t('probeConfig.title')}
      form={(initial, version) => <ProbeConfigForm initial={initial} initialVersion={version} />}
    />
  );
}
