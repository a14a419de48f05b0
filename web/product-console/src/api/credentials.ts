import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { answer } from '../../../shared/api-client';
import { useApis } from './api-context';
import type { AgentPage, ApiKeyList, CreatedApiKey, CreatedDeployToken, DeployTokenView, MachineList } from './types';

export function useAgents(cursor: string | null) {
  const { cloud } = useApis();
  return useQuery({
    queryKey: ['agents', cursor],
    queryFn: () =>
      answer<AgentPage>(cloud.GET('/v1/agents', { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } })),
  });
}

export function useMachines() {
  const { cloud } = useApis();
  return useQuery({
    queryKey: ['machines'],
    queryFn: () => answer<MachineList>(cloud.GET('/v1/machines')),
  });
}

export function useRevokeMachine() {
  const { cloud } = useApis();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (machineId: string) =>
      answer<unknown>(cloud.DELETE('/v1/machines/{machineId}', { params: { path: { machineId } } })),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['machines'] }),
  });
}

export function useDeployTokens() {
  const { cloud } = useApis();
  return useQuery({
    queryKey: ['deploy-tokens'],
    queryFn: () => answer<{ deploy_tokens: DeployTokenView[] }>(cloud.GET('/v1/deploy-tokens')),
  });
}

export function useCreateDeployToken() {
  const { cloud } = useApis();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => answer<CreatedDeployToken>(cloud.POST('/v1/deploy-tokens', { body: { name } })),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['deploy-tokens'] }),
  });
}

export function useRevokeDeployToken() {
  const { cloud } = useApis();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => answer<unknown>(cloud.DELETE('/v1/deploy-tokens/{id}', { params: { path: { id } } })),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['deploy-tokens'] }),
  });
}

export function useApiKeys() {
  const { cloud } = useApis();
  return useQuery({
    queryKey: ['api-keys'],
    queryFn: () => answer<ApiKeyList>(cloud.GET('/v1/api-keys')),
  });
}

export function useCreateApiKey() {
  const { cloud } = useApis();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => answer<CreatedApiKey>(cloud.POST('/v1/api-keys', { body: { name } })),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['api-keys'] }),
  });
}

/** Revoking this console's own session key makes it fetch a new one. */
export function useRevokeApiKey() {
  const { cloud, sessionKeyId } = useApis();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => answer<unknown>(cloud.DELETE('/v1/api-keys/{id}', { params: { path: { id } } })),
    onSuccess: (_, id) => {
      void queries.invalidateQueries({ queryKey: ['api-keys'] });
      if (id === sessionKeyId) void queries.invalidateQueries({ queryKey: ['session-key'] });
    },
  });
}
