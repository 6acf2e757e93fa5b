import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { Link, RouterProvider, createMemoryRouter } from 'react-router';
import { LeaveGuard, useLeaveGuard, useUnsavedEdits } from './leave-guard.tsx';

/** A field whose text counts as unsaved until Save, through `useLeaveGuard`. */
function SingleForm() {
  const [text, setText] = useState('');
  const [saved, setSaved] = useState('');
  const dialog = useLeaveGuard(text !== saved);
  return (
    <>
      <h1>Edit</h1>
      <label>
        Title
        <input value={text} onChange={(event) => setText(event.target.value)} />
      </label>
      <button type="button" onClick={() => setSaved(text)}>
        Save
      </button>
      <Link to="/elsewhere">Elsewhere</Link>
      <Link to="/edit?tab=2">Same page</Link>
      {dialog}
    </>
  );
}

/** One of several forms under a `LeaveGuard`. */
function GuardedField({ label }: { label: string }) {
  const [text, setText] = useState('');
  useUnsavedEdits(text !== '');
  return (
    <label>
      {label}
      <input value={text} onChange={(event) => setText(event.target.value)} />
    </label>
  );
}

function SeveralForms() {
  const [second, setSecond] = useState(true);
  return (
    <LeaveGuard>
      <h1>Edit</h1>
      <GuardedField label="First" />
      {second ? <GuardedField label="Second" /> : null}
      <button type="button" onClick={() => setSecond(false)}>
        Close second
      </button>
      <Link to="/elsewhere">Elsewhere</Link>
    </LeaveGuard>
  );
}

/** Two editors, each with its own guard, on one page under one outer guard (the teacher's class page). */
function TwoEditors() {
  return (
    <LeaveGuard>
      <h1>Edit</h1>
      <LeaveGuard>
        <GuardedField label="Sessions" />
      </LeaveGuard>
      <LeaveGuard>
        <GuardedField label="Sections" />
      </LeaveGuard>
      <Link to="/elsewhere">Elsewhere</Link>
    </LeaveGuard>
  );
}

function renderAt(Page: () => React.JSX.Element) {
  const router = createMemoryRouter(
    [
      { path: '/edit', Component: Page },
      { path: '/elsewhere', element: <h1>Elsewhere page</h1> },
    ],
    { initialEntries: ['/edit'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const follow = (name: string) => act(async () => fireEvent.click(screen.getByRole('link', { name })));
const answer = (name: string) => act(async () => fireEvent.click(screen.getByRole('button', { name })));

describe('useLeaveGuard', () => {
  it('lets a form without edits go at once', async () => {
    const router = renderAt(SingleForm);
    await follow('Elsewhere');
    expect(router.state.location.pathname).toBe('/elsewhere');
  });

  it('asks before unsaved edits are left: Stay keeps them, Leave goes on', async () => {
    const router = renderAt(SingleForm);
    type('Title', 'Half-written');
    await follow('Elsewhere');
    expect(screen.getByRole('heading', { name: 'Leave this page?' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/edit');

    await answer('Stay');
    expect(router.state.location.pathname).toBe('/edit');
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Half-written');

    await follow('Elsewhere');
    await answer('Leave');
    expect(router.state.location.pathname).toBe('/elsewhere');
    expect(screen.getByRole('heading', { name: 'Elsewhere page' })).toBeTruthy();
  });

  it('does not ask once the edits are saved, nor for a change of query string on the same page', async () => {
    const router = renderAt(SingleForm);
    type('Title', 'Draft');
    await follow('Same page');
    expect(router.state.location.search).toBe('?tab=2');
    expect(screen.queryByRole('heading', { name: 'Leave this page?' })).toBeNull();
    await answer('Save');
    await follow('Elsewhere');
    expect(router.state.location.pathname).toBe('/elsewhere');
  });
});

describe('LeaveGuard', () => {
  it('asks while any of its forms has edits, and forgets a form that went away', async () => {
    const router = renderAt(SeveralForms);
    type('Second', 'Only here');
    await follow('Elsewhere');
    expect(screen.getByRole('heading', { name: 'Leave this page?' })).toBeTruthy();
    await answer('Stay');

    await answer('Close second');
    await follow('Elsewhere');
    expect(router.state.location.pathname).toBe('/elsewhere');
  });

  it('inside another guard reports to it: edits in the first of two guarded editors are asked about too', async () => {
    const router = renderAt(TwoEditors);
    type('Sessions', 'Kick-off');
    await follow('Elsewhere');
    expect(screen.getAllByRole('heading', { name: 'Leave this page?' })).toHaveLength(1);
    expect(router.state.location.pathname).toBe('/edit');
    await answer('Leave');
    expect(router.state.location.pathname).toBe('/elsewhere');
  });
});
