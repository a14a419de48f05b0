import { useEffect, useState } from 'react';
import type { PolicyDocument } from '../domain/policy';
import { useApis } from './api-context';
import { useValidatePolicy } from './policy';

const DEBOUNCE_MS = 500;

export interface Issue {
  path: string;
  message: string;
}

export type ServerCheck =
  | { state: 'idle' | 'checking' | 'valid' }
  | { state: 'invalid'; error: string; issues: Issue[] }
  | { state: 'unavailable'; error: string };

/**
 * The server's judgement of the draft (POST /validate, PUT's own rules, CEL compiled there), asked
 * half a second after the last change; an answer to an older draft is dropped.
 */
export function useServerCheck(document: PolicyDocument): ServerCheck {
  const { sessionKeyId } = useApis();
  const validate = useValidatePolicy();
  const [check, setCheck] = useState<ServerCheck>({ state: 'idle' });
  const body = JSON.stringify(document);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `body` is the document's value; validate is rebuilt each render.
  useEffect(() => {
    if (sessionKeyId === null) return;
    const controller = new AbortController();
    setCheck({ state: 'checking' });
    const timer = setTimeout(() => {
      validate(JSON.parse(body) as PolicyDocument, controller.signal)
        .then((error) => {
          if (controller.signal.aborted) return;
          if (!error) setCheck({ state: 'valid' });
          else if (error.status === 422 || error.status === 400)
            setCheck({
              state: 'invalid',
              error: error.body.error,
              issues: (error.body.details ?? []).map((d) => ({ path: d.path ?? '', message: d.message })),
            });
          else setCheck({ state: 'unavailable', error: error.message });
        })
        .catch((error: unknown) => {
          if (!controller.signal.aborted) setCheck({ state: 'unavailable', error: String(error) });
        });
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [body, sessionKeyId]);

  return check;
}
