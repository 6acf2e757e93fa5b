import { describe, expect, it } from 'vitest';
import { createQueryClient, keepPreviousDataOf, removeUserData, userScopeKey } from './query-client.ts';

describe('user-scoped cache', () => {
  it("removes every person's queries but the kept one's, keeps public data, and clears mutations", async () => {
    const client = createQueryClient();
    client.setQueryData(['classes', 'list', { page: 1 }], ['public']);
    client.setQueryData(['session'], null);
    client.setQueryData([...userScopeKey('ann'), 'enrolled', 'page', 1], ['ann']);
    client.setQueryData([...userScopeKey('ben'), 'profile'], { name: 'Ben' });
    await client
      .getMutationCache()
      .build(client, { mutationFn: async () => 'done' })
      .execute(undefined);
    expect(client.getMutationCache().getAll()).toHaveLength(1);

    removeUserData(client, 'ben');
    const keys = () =>
      client
        .getQueryCache()
        .getAll()
        .map((query) => query.queryKey);
    expect(keys()).toEqual(
      expect.arrayContaining([['classes', 'list', { page: 1 }], ['session'], ['user', 'ben', 'profile']]),
    );
    expect(keys()).toHaveLength(3);
    expect(client.getMutationCache().getAll()).toEqual([]);

    removeUserData(client);
    expect(keys()).toEqual(expect.arrayContaining([['classes', 'list', { page: 1 }], ['session']]));
    expect(keys()).toHaveLength(2);
  });

  it("keeps the previous page as a placeholder only when it was the same person's", () => {
    const keep = keepPreviousDataOf('ann');
    expect(keep(['ann page 1'], { queryKey: ['user', 'ann', 'enrolled', 'page', 1] })).toEqual(['ann page 1']);
    expect(keep(['ben page 1'], { queryKey: ['user', 'ben', 'enrolled', 'page', 1] })).toBeUndefined();
    expect(keep(['public'], { queryKey: ['classes', 'list', {}] })).toBeUndefined();
    expect(keepPreviousDataOf('')(['x'], { queryKey: ['user', '', 'enrolled'] })).toBeUndefined();
  });
});
