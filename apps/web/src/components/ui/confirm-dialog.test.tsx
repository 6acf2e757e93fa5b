import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { CONFIRM_PRESETS, useConfirm, type ConfirmResult, type ConfirmOptions } from './confirm-dialog.tsx';

function Harness({ options, onResult }: { options: ConfirmOptions; onResult: (result: ConfirmResult) => void }) {
  const [confirm, dialog] = useConfirm();
  return (
    <>
      <button type="button" onClick={async () => onResult(await confirm(options))}>
        Open
      </button>
      {dialog}
    </>
  );
}

describe('ConfirmDialog', () => {
  it('uses the default button texts OK, No and Cancel (spec §9)', async () => {
    const results: ConfirmResult[] = [];
    render(<Harness options={{ title: 'Proceed?', showDenyButton: true }} onResult={(r) => results.push(r)} />);
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByRole('button', { name: 'OK' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'No' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'No' })));
    expect(results).toEqual(['denied']);
  });

  it('shows the delete confirmation texts of spec §8 and resolves on confirm', async () => {
    const results: ConfirmResult[] = [];
    render(<Harness options={CONFIRM_PRESETS.delete} onResult={(r) => results.push(r)} />);
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByText('Are you sure?')).toBeTruthy();
    expect(screen.getByText("You won't be able to revert this!")).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Yes, delete it!' })));
    expect(results).toEqual(['confirmed']);
  });
});
