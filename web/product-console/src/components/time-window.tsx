import { Button, Group, TextInput } from '@mantine/core';
import { fromLocalInput, lastHours, toLocalInput } from '../domain/time';

const PRESETS = [
  { label: 'Last hour', hours: 1 },
  { label: 'Last 24 hours', hours: 24 },
  { label: 'Last 7 days', hours: 24 * 7 },
];

/** Since / until as local date-times (kept as ISO times), with the usual windows one click away. */
export function TimeWindow({
  since,
  until,
  errors,
  onChange,
}: {
  since: string | undefined;
  until: string | undefined;
  errors: Record<string, string>;
  onChange: (since: string | undefined, until: string | undefined) => void;
}) {
  return (
    <Group align="flex-end" role="group" aria-label="Time window">
      <TextInput
        type="datetime-local"
        step={1}
        label="Since"
        value={toLocalInput(since)}
        error={errors.since}
        onChange={(e) => onChange(fromLocalInput(e.currentTarget.value) ?? undefined, until)}
      />
      <TextInput
        type="datetime-local"
        step={1}
        label="Until"
        value={toLocalInput(until)}
        error={errors.end_time}
        onChange={(e) => onChange(since, fromLocalInput(e.currentTarget.value) ?? undefined)}
      />
      {PRESETS.map((preset) => (
        <Button
          key={preset.hours}
          variant="light"
          onClick={() => {
            const window = lastHours(preset.hours, new Date());
            onChange(window.since, window.end_time);
          }}
        >
          {preset.label}
        </Button>
      ))}
      <Button variant="subtle" onClick={() => onChange(undefined, undefined)}>
        Any time
      </Button>
    </Group>
  );
}
