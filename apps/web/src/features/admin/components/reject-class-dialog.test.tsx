import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { REASON_MAX } from '@skillhive/shared/rules/constants';
import { REASON_MESSAGES } from '@skillhive/shared/rules/messages';
import { RejectClassDialog } from './reject-class-dialog.tsx';

function renderDialog(busy = false) {
  const rejected: string[] = [];
  const view = render(
    <RejectClassDialog
      classTitle="Watercolour basics"
      busy={busy}
      onCancel={() => {}}
      onReject={(r) => rejected.push(r)}
    />,
  );
  const dialog = screen.getByRole('dialog', { name: 'Reject “Watercolour basics”?' });
  return { dialog, rejected, view };
}

const rejectButton = (dialog: HTMLElement) =>
  within(dialog).getByRole('button', { name: 'Reject class' }) as HTMLButtonElement;

describe('RejectClassDialog (the shared reject reason)', () => {
  it('sends the trimmed reason, or an empty one when none is given', async () => {
    const { dialog, rejected } = renderDialog();
    await act(async () => fireEvent.click(rejectButton(dialog)));
    fireEvent.change(within(dialog).getByLabelText('Reason (optional)'), { target: { value: '  Blurry image  ' } });
    await act(async () => fireEvent.click(rejectButton(dialog)));
    expect(rejected).toEqual(['', 'Blurry image']);
  });

  it('shows the shared message for a reason over the limit and rejects nothing', async () => {
    const { dialog, rejected } = renderDialog();
    const reason = within(dialog).getByLabelText('Reason (optional)');
    fireEvent.change(reason, { target: { value: 'x'.repeat(REASON_MAX + 1) } });
    await act(async () => fireEvent.click(rejectButton(dialog)));
    expect(within(dialog).getByText(REASON_MESSAGES.tooLong)).toBeTruthy();
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    expect(rejected).toEqual([]);
  });

  it('keeps Reject disabled while the rejection is on its way', () => {
    const { dialog, view } = renderDialog();
    expect(rejectButton(dialog).disabled).toBe(false);
    view.rerender(<RejectClassDialog classTitle="Watercolour basics" busy onCancel={() => {}} onReject={() => {}} />);
    expect(rejectButton(dialog).disabled).toBe(true);
  });

  it('starts empty again after it closes', async () => {
    const { dialog, view } = renderDialog();
    fireEvent.change(within(dialog).getByLabelText('Reason (optional)'), { target: { value: 'Too short' } });
    const props = { busy: false, onCancel: () => {}, onReject: () => {} };
    await act(async () => view.rerender(<RejectClassDialog classTitle={null} {...props} />));
    expect((dialog as HTMLDialogElement).open).toBe(false);
    view.rerender(<RejectClassDialog classTitle="Watercolour basics" {...props} />);
    expect((within(dialog).getByLabelText('Reason (optional)') as HTMLTextAreaElement).value).toBe('');
  });
});
