import { Badge } from '@mantine/core';

/** Active, expired or revoked, as of now. */
export function CredentialStatus({ revokedAt, expiresAt }: { revokedAt: string | null; expiresAt?: string | null }) {
  if (revokedAt)
    return (
      <Badge color="red" variant="light">
        revoked
      </Badge>
    );
  if (expiresAt && Date.parse(expiresAt) <= Date.now())
    return (
      <Badge color="gray" variant="light">
        expired
      </Badge>
    );
  return (
    <Badge color="green" variant="light">
      active
    </Badge>
  );
}
