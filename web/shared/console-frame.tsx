import { AppShell, Burger, Button, Group, NavLink, ScrollArea, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { ReactNode } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { displayName, useAuth } from './auth';

export interface NavItem {
  label: string;
  to: string;
}

/** The frame every signed-in view of a console renders in: header with the user, navigation, content. */
export function ConsoleFrame({ title, nav, badge }: { title: string; nav: NavItem[]; badge?: ReactNode }) {
  const [opened, { toggle }] = useDisclosure();
  const { user, signOut } = useAuth();
  const { pathname } = useLocation();
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Group>
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Title order={1} size="h4">
              {title}
            </Title>
            {badge}
          </Group>
          <Group>
            <Text size="sm" aria-label="Signed in as">
              {displayName(user)}
            </Text>
            <Button variant="default" size="xs" onClick={() => void signOut()}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main navigation">
        <ScrollArea>
          {nav.map((item) => (
            <NavLink
              key={item.to}
              component={Link}
              to={item.to}
              label={item.label}
              active={item.to === '/' ? pathname === '/' : pathname.startsWith(item.to)}
            />
          ))}
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
