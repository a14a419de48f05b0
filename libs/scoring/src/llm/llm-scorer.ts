import { Queryable } from '@agentwatch/db';
import { Injectable, Logger } from '@nestjs/common';
import { ScoredEvent } from '../domain/action';
import { GraphScore } from '../domain/engine';

// An abstract class so that it doubles as the Nest injection token.
export abstract class LlmSettings {
  /** Base URL of an OpenAI-compatible API (`…/v1`); null: no model is consulted. */
  abstract url: string | null;
  abstract model: string;
  abstract apiKey: string | null;
  abstract timeoutMs: number;
  /** After a failed call, how long the worker scores without the model (a slow model must not stall scoring). */
  abstract cooldownMs: number;
  abstract concurrency: number;
  /** Model calls start only within this long of a batch's start: the batch's transaction stays short. */
  abstract batchBudgetMs: number;
}

export function llmSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): LlmSettings {
  return {
    url: env.LLM_URL ? env.LLM_URL.replace(/\/+$/, '') : null,
    model: env.LLM_MODEL ?? 'gpt-4o-mini',
    apiKey: env.LLM_API_KEY ?? null,
    timeoutMs: Number(env.LLM_TIMEOUT_MS ?? 3000),
    cooldownMs: Number(env.LLM_COOLDOWN_MS ?? 30_000),
    concurrency: Number(env.LLM_CONCURRENCY ?? 4),
    batchBudgetMs: Number(env.LLM_BATCH_BUDGET_MS ?? 10_000),
  };
}

export interface LlmRequest {
  orgId: string;
  fingerprint: string;
  event: ScoredEvent;
  graph: GraphScore;
}

/** The model's answer to one request; `score` null: it was called but failed or timed out. */
export interface LlmAnswer {
  score: number | null;
  cacheHit: boolean;
}

const SYSTEM_PROMPT =
  'You assess the security risk of one action taken by an AI coding agent on a developer machine. ' +
  'Answer with a JSON object only: {"score": <integer 0-100>, "reasoning": "<one sentence>"}.';

/** Parses `{"score": n}` out of a chat completion, tolerating text around the JSON object. */
export function parseLlmScore(body: unknown): number | null {
  const content = (body as { choices?: { message?: { content?: unknown } }[] })?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') return null;
  const json = /\{[\s\S]*\}/.exec(content)?.[0];
  if (!json) return null;
  try {
    const score = (JSON.parse(json) as { score?: unknown }).score;
    return typeof score === 'number' && Number.isFinite(score) ? Math.max(0, Math.min(100, Math.round(score))) : null;
  } catch {
    return null;
  }
}

/** The model-answer cache's lookup by (organization, fingerprint): the worker's read, and the health check's. */
export function readLlmCache(
  q: Queryable,
  keys: Pick<LlmRequest, 'orgId' | 'fingerprint'>[],
): Promise<{ org_id: string; fingerprint: string; llm_score: number }[]> {
  return q.query(
    `SELECT c.org_id, c.fingerprint, c.llm_score FROM scoring_llm_cache c
       JOIN unnest($1::uuid[], $2::text[]) AS r(org_id, fingerprint) USING (org_id, fingerprint)`,
    [keys.map((r) => r.orgId), keys.map((r) => r.fingerprint)],
  );
}

/**
 * The optional model scorer: answers from the fingerprint cache first, then calls the model for the
 * rest with a bounded timeout and concurrency. Any failure leaves that event to the graph score.
 * The answer map holds every request the model was asked (a failed call with a null score); one
 * that is absent was never sent: no model configured, the cooldown after a failure, or the batch's
 * time budget spent.
 */
@Injectable()
export class LlmScorer {
  private readonly logger = new Logger('llm');
  private coolingUntil = 0;

  constructor(private readonly settings: LlmSettings) {}

  get configured(): boolean {
    return this.settings.url !== null;
  }

  async scoreAll(q: Queryable, requests: LlmRequest[]): Promise<Map<string, LlmAnswer>> {
    const answers = new Map<string, LlmAnswer>();
    if (!this.configured || requests.length === 0) return answers;
    for (const row of await readLlmCache(q, requests)) {
      answers.set(`${row.org_id}/${row.fingerprint}`, { score: row.llm_score, cacheHit: true });
    }
    const missing = [
      ...new Map(
        requests
          .filter((r) => !answers.has(`${r.orgId}/${r.fingerprint}`))
          .map((r) => [`${r.orgId}/${r.fingerprint}`, r]),
      ).values(),
    ];
    const fresh: LlmRequest[] = [];
    const freshScores: number[] = [];
    let next = 0;
    const deadline = Date.now() + this.settings.batchBudgetMs;
    const worker = async () => {
      while (next < missing.length && Date.now() >= this.coolingUntil && Date.now() < deadline) {
        const request = missing[next++];
        const score = await this.call(request);
        answers.set(`${request.orgId}/${request.fingerprint}`, { score, cacheHit: false });
        if (score === null) continue;
        fresh.push(request);
        freshScores.push(score);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, this.settings.concurrency) }, worker));
    if (fresh.length > 0) {
      await q.query(
        `INSERT INTO scoring_llm_cache (org_id, fingerprint, llm_score)
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::smallint[]) ON CONFLICT DO NOTHING`,
        [fresh.map((r) => r.orgId), fresh.map((r) => r.fingerprint), freshScores],
      );
    }
    return answers;
  }

  /** GET `<LLM_URL>/models`: what the health check calls. */
  async probe(): Promise<void> {
    if (!this.settings.url) throw new Error('not configured');
    const response = await fetch(`${this.settings.url}/models`, {
      headers: this.headers(),
      signal: AbortSignal.timeout(this.settings.timeoutMs),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
  }

  private headers(): Record<string, string> {
    return {
      'content-type': 'application/json',
      ...(this.settings.apiKey ? { authorization: `Bearer ${this.settings.apiKey}` } : {}),
    };
  }

  private async call({ event, graph }: LlmRequest): Promise<number | null> {
    try {
      const response = await fetch(`${this.settings.url}/chat/completions`, {
        method: 'POST',
        headers: this.headers(),
        signal: AbortSignal.timeout(this.settings.timeoutMs),
        body: JSON.stringify({
          model: this.settings.model,
          temperature: 0,
          messages: [
            { role: 'system', content: SYSTEM_PROMPT },
            {
              role: 'user',
              content: JSON.stringify({
                action: graph.action,
                action_type: event.actionType,
                tool: event.toolName,
                arguments: event.arguments.slice(0, 32),
                rule_engine: { score: graph.score, components: graph.components, flags: graph.behavioralFlags },
              }),
            },
          ],
        }),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const score = parseLlmScore(await response.json());
      if (score === null) throw new Error('answer carries no score');
      return score;
    } catch (error) {
      this.coolingUntil = Date.now() + this.settings.cooldownMs;
      this.logger.warn(`model call failed (${(error as Error).message}); graph scores stand`);
      return null;
    }
  }
}
