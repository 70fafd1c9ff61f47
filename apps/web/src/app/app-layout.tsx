// Every Mantine component's styles, layered like the login route's subset (app/shell-styles.ts).
import '@mantine/core/styles.layer.css';
import {
  AppShell,
  Button,
  Drawer,
  Group,
  NavLink,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { IconChevronRight, IconKey, IconLogout, IconMenu2 } from '@tabler/icons-react';
import type { Icon } from '@tabler/icons-react';
import { lazy, useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigation } from 'react-router';
import { LanguageSwitch } from '../components/language-switch';
import { NotificationBell } from '../features/notifications/notification-bell';
import { ProbeLabelButtonProvider } from '../components/probe-label-slot';
import { StudyLockBanner } from '../components/study-lock-banner';
import type { RenderLabelButton } from '../components/probe-label-slot';
import { useIsDesktop } from '../components/use-is-desktop';
import { useLogout } from '../lib/use-logout';
import { useSession } from '../lib/session';
import { mustChangePassword } from '../lib/session-rules';
import classes from './app-layout.module.css';
import { menuFor, menuTree } from './menu';
import type { MenuEntry, MenuItem } from './menu';

const CHANGE_PASSWORD = '/changepassword';

// Loaded with the first sample shown, not with the shell; given to every feature through the slot.
const LabelPrintButton = lazy(() =>
  import('../features/probes/label-print-button').then((module) => ({
    default: module.LabelPrintButton,
  })),
);
const renderLabelButton: RenderLabelButton = (probe) => <LabelPrintButton probe={probe} />;

function matches(pathname: string, path: string) {
  return pathname === path || pathname.startsWith(`${path}/`);
}

/** Whether a path is the current entry: a nested one (a doctor's /units/calendar/4) outranks /units. */
function useIsActive() {
  const { pathname } = useLocation();
  const session = useSession();
  const paths = session ? menuFor(session.user).map((item) => item.path) : [];
  return (path: string) =>
    matches(pathname, path) &&
    !paths.some((other) => other.length > path.length && matches(pathname, other));
}

/** A menu entry; while the password was never changed it is shown but disabled. */
function SideLink({
  to,
  label,
  icon: ItemIcon,
  disabled,
}: {
  to: string;
  label: string;
  icon: Icon;
  disabled: boolean;
}) {
  const active = useIsActive()(to);
  const icon = <ItemIcon size={20} stroke={1.6} aria-hidden />;
  if (disabled) {
    return (
      <NavLink
        component="a"
        role="link"
        aria-disabled="true"
        disabled
        label={label}
        leftSection={icon}
      />
    );
  }
  return (
    <NavLink
      component={Link}
      to={to}
      label={label}
      leftSection={icon}
      active={active}
      aria-current={active ? 'page' : undefined}
    />
  );
}

function BarLink({
  to,
  label,
  icon: ItemIcon,
  disabled,
}: {
  to: string;
  label: string;
  icon: Icon;
  disabled: boolean;
}) {
  const active = useIsActive()(to);
  const content = (
    <>
      <ItemIcon size={22} stroke={1.6} aria-hidden />
      <span className={classes.barLabel}>{label}</span>
    </>
  );
  if (disabled) {
    return (
      <a role="link" aria-disabled="true" className={classes.barItem} data-disabled>
        {content}
      </a>
    );
  }
  return (
    <UnstyledButton
      component={Link}
      to={to}
      className={classes.barItem}
      data-active={active || undefined}
      aria-current={active ? 'page' : undefined}
    >
      {content}
    </UnstyledButton>
  );
}

/**
 * A submenu (settings), opened while one of its screens is shown. A real button with
 * aria-expanded: Mantine's NavLink with children renders a link without href, which the
 * keyboard cannot reach.
 */
function SideGroup({
  entry,
  disabled,
}: {
  entry: Extract<MenuEntry, { kind: 'group' }>;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const isActive = useIsActive();
  const active = entry.items.some((item) => isActive(item.path));
  const [opened, setOpened] = useState(active);
  const listId = useId();
  const GroupIcon = entry.icon;
  return (
    <>
      <NavLink
        component="button"
        type="button"
        label={t(entry.label)}
        leftSection={<GroupIcon size={20} stroke={1.6} aria-hidden />}
        rightSection={
          <IconChevronRight
            size={16}
            stroke={1.6}
            aria-hidden
            className={opened ? classes.chevronOpen : classes.chevron}
          />
        }
        aria-expanded={opened}
        aria-controls={listId}
        disabled={disabled}
        onClick={() => setOpened((open) => !open)}
      />
      <div id={listId} hidden={!opened} className={classes.submenu}>
        {entry.items.map((item) => (
          <SideLink
            key={item.path}
            to={item.path}
            label={t(item.label)}
            icon={item.icon}
            disabled={disabled}
          />
        ))}
      </div>
    </>
  );
}

/** The menu's entries as the sidebar shows them: the settings submenu folds. */
function MenuEntries({ items, locked }: { items: MenuItem[]; locked: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      {menuTree(items).map((entry) =>
        entry.kind === 'group' ? (
          <SideGroup key={entry.label} entry={entry} disabled={locked} />
        ) : (
          <SideLink
            key={entry.item.path}
            to={entry.item.path}
            label={t(entry.item.label)}
            icon={entry.item.icon}
            disabled={locked}
          />
        ),
      )}
      {locked && (
        <Text size="xs" c="dimmed" mt="sm">
          {t('nav.lockedHint')}
        </Text>
      )}
    </>
  );
}

/** Change password and logout, under the menu in the sidebar and in the drawer. */
function AccountLinks({ onLogout }: { onLogout: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <SideLink
        to={CHANGE_PASSWORD}
        label={t('nav.changePassword')}
        icon={IconKey}
        disabled={false}
      />
      <Button
        variant="subtle"
        color="gray"
        justify="flex-start"
        leftSection={<IconLogout size={20} stroke={1.6} aria-hidden />}
        onClick={onLogout}
      >
        {t('nav.logout')}
      </Button>
    </Stack>
  );
}

/**
 * Below 1280 px (a phone, a tablet, a narrow window) the bottom bar holds the phone's entries and
 * "Więcej", which opens this drawer with every other entry the user may use, change password and
 * logout (ADR 039). Mantine's Drawer traps the focus, closes on Escape and gives the focus back
 * to the button that opened it.
 */
function MoreDrawer({
  opened,
  onClose,
  items,
  locked,
  who,
  onLogout,
}: {
  opened: boolean;
  onClose: () => void;
  items: MenuItem[];
  locked: boolean;
  who: string;
  onLogout: () => void;
}) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  // Choosing an entry shows its screen: the drawer closes as the location changes.
  useEffect(() => onClose(), [pathname, onClose]);
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size={320}
      title={t('nav.moreTitle')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      id={MORE_DRAWER_ID}
    >
      <Text size="xs" c="dimmed" mb="md">
        {t('auth.signedInAs', { name: who })}
      </Text>
      {items.length > 0 && (
        <nav aria-label={t('nav.moreNav')} className={classes.drawerNav}>
          <MenuEntries items={items} locked={locked} />
        </nav>
      )}
      <AccountLinks onLogout={onLogout} />
    </Drawer>
  );
}

const MORE_DRAWER_ID = 'more-menu';

/**
 * The signed-in shell: a sidebar from 1280 px; below it a top strip and a fixed bottom bar whose
 * "Więcej" opens the rest of the menu in a drawer (ADR 039). Only one of the two navigations is
 * rendered, so each control exists once on the page.
 */
export function AppLayout() {
  const { t } = useTranslation();
  const isDesktop = useIsDesktop();
  const session = useSession();
  const logout = useLogout();
  const navigating = useNavigation().state === 'loading';
  const [moreOpened, setMoreOpened] = useState(false);
  const closeMore = useCallback(() => setMoreOpened(false), []);
  const isActive = useIsActive();
  if (!session) return null;

  const locked = mustChangePassword(session.user);
  const items = menuFor(session.user);
  const barItems = items.filter((item) => item.mobile);
  const drawerItems = items.filter((item) => !item.mobile);
  const who =
    session.user.firstname || session.user.surname
      ? `${session.user.firstname ?? ''} ${session.user.surname ?? ''}`.trim()
      : session.user.login;

  return (
    // The confirm dialogs (components/confirm.ts) are asked for on signed-in screens only.
    <ModalsProvider>
      <ProbeLabelButtonProvider value={renderLabelButton}>
        <AppShell
          padding={{ base: 'sm', md: 'lg' }}
          navbar={{
            width: 264,
            breakpoint: 'md',
            collapsed: { mobile: true, desktop: !isDesktop },
          }}
          header={{ height: 52, collapsed: isDesktop }}
          footer={{ height: 64, collapsed: isDesktop }}
        >
          {!isDesktop && (
            <AppShell.Header px="sm">
              <Group h="100%" justify="space-between" wrap="nowrap">
                <Text fw={700} size="sm" truncate>
                  {t('app.title')}
                </Text>
                <Group gap="xs" wrap="nowrap">
                  {!locked && <NotificationBell />}
                  <LanguageSwitch />
                </Group>
              </Group>
            </AppShell.Header>
          )}

          {isDesktop && (
            <AppShell.Navbar p="md">
              <AppShell.Section>
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <Text fw={700}>{t('app.title')}</Text>
                  {!locked && <NotificationBell />}
                </Group>
                <Text size="xs" c="dimmed" mb="md">
                  {t('auth.signedInAs', { name: who })}
                </Text>
              </AppShell.Section>
              {/* The menu scrolls on its own when a short window cannot show every entry. */}
              <AppShell.Section
                grow
                component="nav"
                aria-label={t('nav.label')}
                style={{ overflowY: 'auto', minHeight: 0 }}
              >
                <MenuEntries items={items} locked={locked} />
              </AppShell.Section>
              <AppShell.Section>
                <Stack gap="xs">
                  <LanguageSwitch />
                  <AccountLinks onLogout={() => void logout()} />
                </Stack>
              </AppShell.Section>
            </AppShell.Navbar>
          )}

          <AppShell.Main aria-busy={navigating || undefined}>
            {navigating && (
              <div
                role="progressbar"
                aria-label={t('app.loading')}
                className={classes.navigating}
              />
            )}
            <StudyLockBanner />
            <Outlet />
          </AppShell.Main>

          {!isDesktop && (
            <AppShell.Footer>
              <nav aria-label={t('nav.label')} className={classes.bar}>
                {barItems.map((item) => (
                  <BarLink
                    key={item.path}
                    to={item.path}
                    label={t(item.label)}
                    icon={item.icon}
                    disabled={locked}
                  />
                ))}
                <UnstyledButton
                  className={classes.barItem}
                  aria-haspopup="dialog"
                  aria-expanded={moreOpened}
                  aria-controls={moreOpened ? MORE_DRAWER_ID : undefined}
                  // The screen shown is one of the drawer's: "Więcej" is marked like a bar entry.
                  data-active={
                    [...drawerItems.map((item) => item.path), CHANGE_PASSWORD].some(isActive) ||
                    undefined
                  }
                  onClick={() => setMoreOpened(true)}
                >
                  <IconMenu2 size={22} stroke={1.6} aria-hidden />
                  <span className={classes.barLabel}>{t('nav.more')}</span>
                </UnstyledButton>
              </nav>
            </AppShell.Footer>
          )}
          {!isDesktop && (
            <MoreDrawer
              opened={moreOpened}
              onClose={closeMore}
              items={drawerItems}
              locked={locked}
              who={who}
              onLogout={() => void logout()}
            />
          )}
        </AppShell>
      </ProbeLabelButtonProvider>
    </ModalsProvider>
  );
}
