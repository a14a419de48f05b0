/** Collects WHERE conditions with numbered parameters, so optional filters stay injection-free. */
export class SqlFilter {
  private readonly conditions: string[] = [];
  readonly params: unknown[] = [];

  constructor(orgId: string, orgColumn = 'org_id') {
    // Row-level security already restricts rows; naming the organization lets the planner use
    // the org-leading indexes.
    this.where((p) => `${orgColumn} = ${p(orgId)}`);
  }

  /** Adds a condition unless the value is undefined; `p(value)` yields the value's placeholder. */
  where(condition: (p: (value: unknown) => string) => string, value?: unknown, optional = false): this {
    if (optional && value === undefined) return this;
    this.conditions.push(condition((v) => `$${this.params.push(v)}`));
    return this;
  }

  placeholder(value: unknown): string {
    return `$${this.params.push(value)}`;
  }

  get sql(): string {
    return this.conditions.join(' AND ');
  }
}
