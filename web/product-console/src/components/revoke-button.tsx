import { Button } from '@mantine/core';

/** The row action of every credential list: named for screen readers after the credential it revokes. */
export function RevokeButton({ what, onClick }: { what: string; onClick: () => void }) {
  return (
    <Button size="xs" color="red" variant="light" aria-label={`Revoke ${what}`} onClick={onClick}>
      Revoke
    </Button>
  );
}
