import { ParseUUIDPipe } from '@nestjs/common';
import { badRequest } from './api-errors';

/** Path ids must be UUIDs: a malformed one is the caller's mistake (400), not an unknown resource (404). */
export const UuidParam = new ParseUUIDPipe({ exceptionFactory: () => badRequest('Invalid id: expected a UUID') });
