import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useControlPlane } from '../api/client';
import { mintIngestToken } from '../api/tenants';
import { MintedToken } from '../api/types';
import { ErrorAlert } from './error-alert';

/**
 * Mints an ingest token and shows the raw token once. It lives in this component's state only while
 * the dialog is open: closing it drops the token, and nothing caches it (no query, no mutation cache).
 */
export function MintTokenButton({ slug, onMinted }: { slug: string; onMinted: () => void }) {
  const client = useControlPlane();
  const [minted, setMinted] = useState<MintedToken | null>(null);
  const [refusal, setRefusal] = useState<unknown>(null);
  const [pending, setPending] = useState(false);

  const mint = async () => {
    setPending(true);
    setRefusal(null);
    try {
      setMinted(await mintIngestToken(client, slug));
      onMinted();
    } catch (error) {
      setRefusal(error);
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      <Button variant="light" loading={pending} onClick={() => void mint()}>
        Mint ingest token
      </Button>
      {refusal !== null && (
        <div style={{ flexBasis: '100%' }}>
          <ErrorAlert error={refusal} />
        </div>
      )}
      <Modal
        opened={minted !== null}
        onClose={() => setMinted(null)}
        title="Ingest token minted"
        closeOnClickOutside={false}
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {minted && (
          <Stack>
            <Alert color="yellow" title="Copy it now">
              You will not see it again: only its prefix ({minted.prefix}) is kept. A lost token is replaced by minting
              another.
            </Alert>
            <Code block aria-label="Ingest token" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
              {minted.token}
            </Code>
            <Text size="xs" c="dimmed">
              Token {minted.token_id} for {minted.slug}
            </Text>
            <Group justify="flex-end">
              <CopyButton value={minted.token}>
                {({ copied, copy }) => (
                  <Button color={copied ? 'teal' : undefined} onClick={copy}>
                    {copied ? 'Copied' : 'Copy token'}
                  </Button>
                )}
              </CopyButton>
              <Button variant="default" onClick={() => setMinted(null)}>
                Done
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}
