import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { PagedQueryState, QueryState } from './query-state.tsx';
import { DataTable } from './data-table.tsx';

type Row = { id: string; name: string };

function List({ query }: { query: Parameters<typeof PagedQueryState<Row>>[0]['query'] }) {
  return (
    <PagedQueryState query={query} what="users" empty="No users yet.">
      {(data) => (
        <DataTable label="Users" columns={['Name']}>
          {data.items.map((row) => (
            <tr key={row.id}>
              <td>{row.name}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </PagedQueryState>
  );
}

const base = { isPending: false, isError: false, error: null, data: undefined, refetch: () => undefined };

describe('PagedQueryState with DataTable', () => {
  it('announces loading', () => {
    render(<List query={{ ...base, isPending: true }} />);
    expect(screen.getByRole('status').textContent).toContain('Loading...');
  });

  it('says what failed (spec §8) and retries on request', () => {
    const refetch = vi.fn();
    render(<List query={{ ...base, isError: true, error: new Error('Network down'), refetch }} />);
    expect(screen.getByRole('alert').textContent).toContain('Error fetching users: Network down');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(refetch).toHaveBeenCalledOnce();
  });

  it('says so when the page is empty', () => {
    render(<List query={{ ...base, data: { items: [], total: 0 } }} />);
    expect(screen.getByText('No users yet.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('renders the rows in a labelled, keyboard-scrollable table', () => {
    render(<List query={{ ...base, data: { items: [{ id: '1', name: 'Ada' }], total: 1 } }} />);
    const region = screen.getByRole('region', { name: 'Users' });
    expect(region.tabIndex).toBe(0);
    expect(screen.getByRole('columnheader', { name: 'Name' })).toBeTruthy();
    expect(screen.getByRole('cell', { name: 'Ada' })).toBeTruthy();
  });
});

describe('QueryState', () => {
  const base = { isPending: false, isError: false, error: null, refetch: vi.fn() };
  const figures = (query: Parameters<typeof QueryState<{ total: number }>>[0]['query']) =>
    render(
      <QueryState query={query} what="your figures">
        {(data) => <p>Total: {data.total}</p>}
      </QueryState>,
    );

  it('announces loading and shows no content yet', () => {
    figures({ ...base, isPending: true });
    expect(screen.getByRole('status').textContent).toContain('Loading...');
    expect(screen.queryByText(/Total/)).toBeNull();
  });

  it('says what failed with the error (spec §8) and retries on request', () => {
    const refetch = vi.fn();
    figures({ ...base, isError: true, error: new Error('Network down'), refetch });
    expect(screen.getByRole('alert').textContent).toContain('Error fetching your figures: Network down');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(refetch).toHaveBeenCalledOnce();
  });

  it('renders its children with the loaded data', () => {
    figures({ ...base, data: { total: 3 } });
    expect(screen.getByText('Total: 3')).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });
});
