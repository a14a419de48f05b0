import { Alert, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { useRef, useState } from 'react';
import { EventFilters, useEventPages } from '../api/events';
import type { EventView } from '../api/types';
import { Column, ExportFormat, exportFileName } from '../domain/csv';
import { EXPORT_ROW_CAP, exportRows } from '../domain/export';

const COLUMNS: Column<EventView>[] = [
  { header: 'id', value: (e) => e.id },
  { header: 'timestamp', value: (e) => e.timestamp },
  { header: 'session_id', value: (e) => e.session_id },
  { header: 'agent_id', value: (e) => e.agent_id },
  { header: 'action_type', value: (e) => e.action_type },
  { header: 'tool_name', value: (e) => e.tool_name },
  { header: 'arguments', value: (e) => e.arguments },
  { header: 'risk_score', value: (e) => e.risk_score },
  { header: 'decision', value: (e) => e.decision },
];

const MEDIA: Record<ExportFormat, string> = { csv: 'text/csv', ndjson: 'application/x-ndjson' };

type State =
  | { phase: 'idle' }
  | { phase: 'running'; format: ExportFormat; rows: number }
  | { phase: 'done'; file: string; rows: number; capped: boolean }
  | { phase: 'failed'; message: string };

function download(parts: string[], format: ExportFormat): string {
  const file = exportFileName('events', format, new Date());
  const url = URL.createObjectURL(new Blob(parts, { type: MEDIA[format] }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return file;
}

/** Every event the filter matches (not just the page shown), as a CSV or NDJSON file. */
export function EventExport({ filters }: { filters: EventFilters }) {
  const fetchPage = useEventPages(filters);
  const [state, setState] = useState<State>({ phase: 'idle' });
  const abort = useRef<AbortController | null>(null);

  const run = async (format: ExportFormat) => {
    abort.current = new AbortController();
    setState({ phase: 'running', format, rows: 0 });
    try {
      const result = await exportRows({
        format,
        columns: COLUMNS,
        fetchPage,
        signal: abort.current.signal,
        onProgress: (rows) => setState({ phase: 'running', format, rows }),
      });
      const file = download(result.parts, format);
      setState({ phase: 'done', file, rows: result.rows, capped: result.capped });
    } catch (error) {
      const aborted = abort.current?.signal.aborted;
      setState(aborted ? { phase: 'idle' } : { phase: 'failed', message: String((error as Error).message ?? error) });
    }
  };

  const running = state.phase === 'running';
  return (
    <Stack gap="xs">
      <Group>
        <Button variant="light" disabled={running} onClick={() => void run('csv')}>
          Download CSV
        </Button>
        <Button variant="light" disabled={running} onClick={() => void run('ndjson')}>
          Download NDJSON
        </Button>
        {running && (
          <Button variant="subtle" color="red" onClick={() => abort.current?.abort()}>
            Cancel download
          </Button>
        )}
      </Group>
      <div role="status" aria-live="polite">
        {running && (
          <Stack gap={4}>
            <Text size="sm">
              Exporting events as {state.format.toUpperCase()}: {state.rows.toLocaleString()} so far…
            </Text>
            <Progress value={(state.rows / EXPORT_ROW_CAP) * 100} aria-label="Export progress" animated />
          </Stack>
        )}
        {state.phase === 'done' && (
          <Text size="sm">
            Downloaded {state.rows.toLocaleString()} events as {state.file}.
          </Text>
        )}
      </div>
      {state.phase === 'done' && state.capped && (
        <Alert color="yellow" title="Export capped">
          The file holds the first {EXPORT_ROW_CAP.toLocaleString()} events (newest first); more match this filter.
          Narrow the time window to export the rest.
        </Alert>
      )}
      {state.phase === 'failed' && (
        <Alert color="red" title="The export failed">
          {state.message}
        </Alert>
      )}
    </Stack>
  );
}
