/** Waits for every one, then throws the first failure: none is left running, or unobserved, behind it. */
export async function allSettledOrFirstError(work: Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(work)).find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
