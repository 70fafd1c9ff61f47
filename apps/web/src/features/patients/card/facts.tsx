import { Card, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './card.module.css';

export type Fact = [label: string, value: ReactNode];

/** One titled section of label/value pairs, as a description list. */
export function FactsSection({ title, facts }: { title: string; facts: Fact[] }) {
  return (
    <Card withBorder padding="md" component="section">
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      <dl className={classes.facts}>
        {facts.map(([label, value]) => (
          <div key={label} style={{ display: 'contents' }}>
            <dt>{label}</dt>
            <dd>{value === null || value === undefined || value === '' ? '–' : value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
