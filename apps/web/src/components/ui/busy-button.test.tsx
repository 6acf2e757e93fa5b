import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { BusyButton } from './busy-button.tsx';

describe('BusyButton', () => {
  it('is an ordinary button, of type "button" unless told, while idle', () => {
    let presses = 0;
    render(
      <BusyButton className="btn-primary" busy={false} onClick={() => presses++}>
        Pay Now
      </BusyButton>,
    );
    const button = screen.getByRole('button', { name: 'Pay Now' });
    expect(button.getAttribute('type')).toBe('button');
    expect(button.className).toBe('btn btn-primary');
    expect(button.getAttribute('aria-busy')).toBeNull();
    fireEvent.click(button);
    expect(presses).toBe(1);
  });

  it('shows a spinner, says it is busy and refuses presses while its action runs', () => {
    let presses = 0;
    render(
      <BusyButton type="submit" busy onClick={() => presses++}>
        Sign In
      </BusyButton>,
    );
    const button = screen.getByRole('button', { name: 'Sign In' });
    expect(button.getAttribute('type')).toBe('submit');
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(button.querySelector('.loading-spinner')?.getAttribute('aria-hidden')).toBe('true');
    fireEvent.click(button);
    expect(presses).toBe(0);
  });

  it('is disabled without a spinner when another action of the form runs', () => {
    render(
      <BusyButton busy={false} disabled>
        Sign out everywhere
      </BusyButton>,
    );
    const button = screen.getByRole('button', { name: 'Sign out everywhere' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(button.querySelector('.loading-spinner')).toBeNull();
  });
});
