// Typed domain errors; the HTTP layer maps each to the spec's status (spec 002 §7).
export class DomainError extends Error {}
export class FlowConflict extends DomainError {}
export class Forbidden extends DomainError {}
export class Unprocessable extends DomainError {}
export class NoSuchFlow extends DomainError {}
export class BadRequest extends DomainError {}
