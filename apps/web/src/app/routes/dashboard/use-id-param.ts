import { useParams } from 'react-router';

/** The :id of a dashboard route (always present: the route only matches with one). */
export function useIdParam(): string {
  return useParams()['id'] ?? '';
}
