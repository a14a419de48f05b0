// Violation → framework articles, consequence and remediation: a data table, so compliance staff can
// review it without reading code. Keys are the `violations` identifiers of a score.

export const FRAMEWORKS = {
  EU_AI_Act: 'EU AI Act',
  SOC2: 'SOC2',
  ISO_27001: 'ISO 27001',
  NIST_AI_RMF: 'NIST AI RMF',
} as const;
export type FrameworkKey = keyof typeof FRAMEWORKS;

export interface ViolationEntry {
  explanation: string;
  consequence: string;
  remediation: string[];
  articles: [FrameworkKey, string][];
}

export const VIOLATIONS: Record<string, ViolationEntry> = {
  blocked_action: {
    explanation: 'The agent performed an action the customer policy explicitly prohibits.',
    consequence: 'A prohibited operation ran without human approval; policy enforcement is not effective.',
    remediation: ['Switch the daemon to enforcing mode for this action', 'Review the session with its owner'],
    articles: [
      ['EU_AI_Act', 'Art.14'],
      ['SOC2', 'CC6.1'],
      ['ISO_27001', 'A.5.15'],
      ['NIST_AI_RMF', 'GOVERN-1.4'],
    ],
  },
  blocked_action_pattern: {
    explanation: 'The action matches a prohibited action pattern of the customer policy.',
    consequence: 'An operation in a prohibited class ran; similar actions may follow.',
    remediation: ['Confirm whether the pattern should block in enforcing mode', 'Review the session with its owner'],
    articles: [
      ['EU_AI_Act', 'Art.14'],
      ['SOC2', 'CC6.1'],
      ['ISO_27001', 'A.8.2'],
      ['NIST_AI_RMF', 'MANAGE-2.3'],
    ],
  },
  unlisted_tool: {
    explanation: 'The agent called an MCP tool that is not on the allowed tool list.',
    consequence: 'Unreviewed tooling extends what the agent can reach, outside change management.',
    remediation: ['Review the MCP server and add the tool to allowed_tools, or remove it from agent configs'],
    articles: [
      ['EU_AI_Act', 'Art.9'],
      ['SOC2', 'CC8.1'],
      ['ISO_27001', 'A.8.19'],
      ['NIST_AI_RMF', 'MAP-4.1'],
    ],
  },
  sensitive_data_access: {
    explanation: 'The agent touched a path or field the policy or the built-in list marks as sensitive.',
    consequence: 'Secrets or personal data may be exposed to the model provider or copied elsewhere.',
    remediation: ['Rotate any credential the file contains', 'Exclude the path from agent workspaces'],
    articles: [
      ['EU_AI_Act', 'Art.10'],
      ['SOC2', 'CC6.7'],
      ['ISO_27001', 'A.8.12'],
      ['NIST_AI_RMF', 'MEASURE-2.10'],
    ],
  },
  sensitive_classification_access: {
    explanation: 'The agent accessed data carrying a sensitive classification label.',
    consequence: 'Classified data left its handling rules; disclosure obligations may apply.',
    remediation: ['Check where the data went next in the session', 'Restrict agent access to labelled data'],
    articles: [
      ['EU_AI_Act', 'Art.10'],
      ['SOC2', 'C1.1'],
      ['ISO_27001', 'A.5.12'],
      ['NIST_AI_RMF', 'MEASURE-2.10'],
    ],
  },
  custom_rule_violation: {
    explanation: 'A custom rule of the customer policy matched the event.',
    consequence: 'The customer defined this situation as risky; see the rule description.',
    remediation: ['Follow the procedure the rule owner defined for this rule'],
    articles: [
      ['SOC2', 'CC4.1'],
      ['ISO_27001', 'A.5.36'],
      ['NIST_AI_RMF', 'GOVERN-1.2'],
    ],
  },
  data_exfiltration_risk: {
    explanation: 'Sensitive data was read in the session tree and an outbound connection followed.',
    consequence: 'The read data may have been sent to a third party.',
    remediation: [
      'Inspect the destination host and what was sent',
      'Rotate credentials read earlier in the session',
      'Restrict outbound network access for agents',
    ],
    articles: [
      ['EU_AI_Act', 'Art.15'],
      ['SOC2', 'CC6.7'],
      ['ISO_27001', 'A.8.12'],
      ['NIST_AI_RMF', 'MANAGE-2.4'],
    ],
  },
  destructive_burst: {
    explanation: 'Many deletions happened in the session tree within a minute.',
    consequence: 'Data loss beyond the task at hand is likely.',
    remediation: ['Restore the deleted files from backup or version control', 'Require approval for bulk deletes'],
    articles: [
      ['EU_AI_Act', 'Art.15'],
      ['SOC2', 'A1.2'],
      ['ISO_27001', 'A.8.13'],
      ['NIST_AI_RMF', 'MANAGE-2.3'],
    ],
  },
  remote_code_execution: {
    explanation: 'A script fetched from the network was piped straight into an interpreter.',
    consequence: 'Code nobody reviewed ran with the developer’s rights.',
    remediation: ['Identify the fetched script and its source', 'Block pipe-to-shell installs in agent sessions'],
    articles: [
      ['EU_AI_Act', 'Art.15'],
      ['SOC2', 'CC7.1'],
      ['ISO_27001', 'A.8.7'],
      ['NIST_AI_RMF', 'MANAGE-2.4'],
    ],
  },
  privilege_escalation: {
    explanation: 'The agent changed privileges (sudo, setuid, ownership by root, sudoers).',
    consequence: 'The agent, or anything it runs next, may act with administrator rights.',
    remediation: ['Revert the privilege change', 'Run agents as users without sudo rights'],
    articles: [
      ['EU_AI_Act', 'Art.14'],
      ['SOC2', 'CC6.3'],
      ['ISO_27001', 'A.8.2'],
      ['NIST_AI_RMF', 'GOVERN-1.4'],
    ],
  },
  scope_violation: {
    explanation: 'The daemon reported this action as outside the agent’s scope (it would be blocked).',
    consequence: 'In monitor mode the action ran anyway.',
    remediation: ['Decide whether to enforce the daemon’s scope for this agent'],
    articles: [
      ['EU_AI_Act', 'Art.14'],
      ['SOC2', 'CC6.1'],
      ['ISO_27001', 'A.5.15'],
      ['NIST_AI_RMF', 'MANAGE-1.3'],
    ],
  },
};

export const complianceRefs = (violations: readonly string[]): string[] => [
  ...new Set(violations.flatMap((v) => (VIOLATIONS[v]?.articles ?? []).map(([fw, article]) => `${fw}:${article}`))),
];

export const mitigationsFor = (violations: readonly string[]): string[] => [
  ...new Set(violations.flatMap((v) => VIOLATIONS[v]?.remediation ?? [])),
];
