import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, answer } from '../../../shared/api-client';
import type { PolicyDocument } from '../domain/policy';
import { useApis } from './api-context';
import type { PolicyVerdict, PolicyVersions, PolicyWrapper } from './types';

/** The stored policy, or null before the first save (the API's 404 `Policy not found`). */
export function usePolicy() {
  const { scoring, customerId, sessionKeyId, scoringHeader: header } = useApis();
  return useQuery({
    queryKey: ['policy', customerId, sessionKeyId],
    queryFn: async () => {
      try {
        return await answer<PolicyWrapper>(
          scoring.GET('/policies/{customer_id}', { params: { header, path: { customer_id: customerId } } }),
        );
      } catch (error) {
        if (error instanceof ApiError && error.status === 404 && /policy not found/i.test(error.body.error))
          return null;
        throw error;
      }
    },
    enabled: sessionKeyId !== null,
  });
}

export function usePolicyVersions() {
  const { scoring, customerId, sessionKeyId, scoringHeader: header } = useApis();
  return useQuery({
    queryKey: ['policy-versions', customerId, sessionKeyId],
    queryFn: () =>
      answer<PolicyVersions>(
        scoring.GET('/policies/{customer_id}/versions', { params: { header, path: { customer_id: customerId } } }),
      ),
    enabled: sessionKeyId !== null,
  });
}

/** PUT: the whole policy replaced by `document`. */
export function useSavePolicy() {
  const { scoring, customerId, scoringHeader: header } = useApis();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (document: PolicyDocument) =>
      answer<PolicyWrapper>(
        scoring.PUT('/policies/{customer_id}', {
          params: { header, path: { customer_id: customerId } },
          body: document,
        }),
      ),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['policy'] });
      void queries.invalidateQueries({ queryKey: ['policy-versions'] });
    },
  });
}

/** The server's dry run of PUT; resolves to the ApiError PUT would answer, or null when PUT would accept it. */
export function useValidatePolicy() {
  const { scoring, customerId, scoringHeader: header } = useApis();
  return async (document: PolicyDocument, signal: AbortSignal): Promise<ApiError | null> => {
    try {
      await answer<PolicyVerdict>(
        scoring.POST('/policies/{customer_id}/validate', {
          params: { header, path: { customer_id: customerId } },
          body: document,
          signal,
        }),
      );
      return null;
    } catch (error) {
      if (error instanceof ApiError) return error;
      throw error;
    }
  };
}
