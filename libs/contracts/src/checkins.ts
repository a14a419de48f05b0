import { z } from 'zod';
import { recordedDateTime, recordedUuid } from './common';

/**
 * Payload of `ingest.checkins.v1`: a daemon showed up for an organization, by registering its
 * machine or with the first ingest of a credential (a machine's service token, or a deploy token,
 * which has no machine: machine_id null). Key: the organization id.
 */
export const checkinRecordedV1 = z.object({
  id: recordedUuid,
  org_id: recordedUuid,
  credential: z.enum(['deploy-token', 'service-token']),
  credential_id: z.string(),
  machine_id: z.string().nullable(),
  hostname: z.string().nullable(),
  os: z.string().nullable(),
  arch: z.string().nullable(),
  daemon_version: z.string().nullable(),
  reason: z.enum(['registered', 'first_ingest']),
  timestamp: recordedDateTime,
});
export type CheckinRecordedV1 = z.infer<typeof checkinRecordedV1>;

export const CHECKIN_RECORDED_TYPE = 'agentwatch.ingest.checkin.v1';
