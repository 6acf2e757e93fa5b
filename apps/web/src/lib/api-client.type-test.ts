import { apiClient } from './api-client.ts';

/*
 * Compiled by `npm run typecheck -w @skillhive/web`, never run nor bundled (nothing imports it):
 * each call below must fail to compile against the types generated from the server's OpenAPI
 * document (decision 033), or `@ts-expect-error` itself is the error.
 */
export function callsTheDocumentRefuses(): void {
  // @ts-expect-error a path the server does not have
  void apiClient.get('/classes/{id}/no-such-resource', { path: { id: 'c1' } });
  // @ts-expect-error a method the path does not answer
  void apiClient.delete('/classes/categories');
  // @ts-expect-error a path parameter left out
  void apiClient.get('/classes/{id}');
  // @ts-expect-error a path parameter of another name
  void apiClient.get('/classes/{id}', { path: { classId: 'c1' } });
  // @ts-expect-error a query parameter the route does not read
  void apiClient.list('/classes', { query: { colour: 'amber' } });
  // @ts-expect-error a body of the wrong shape
  void apiClient.post('/enrolled', { enrollId: 7 }, { secured: true });
  // @ts-expect-error a field the answer does not have
  void apiClient.get('/config').then((config) => config.nonexistentSetting);
}
