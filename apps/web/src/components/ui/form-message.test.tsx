import { describe, expect, it } from 'vitest';
import { act } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { render, screen } from '@testing-library/react';
import { Form } from './form-message.tsx';

function SignIn() {
  return (
    <Form label="Sign in" onSubmit={(event) => event.preventDefault()}>
      <label>
        Email
        <input name="email" />
      </label>
      <button type="submit">Sign in</button>
    </Form>
  );
}

describe('Form (decision 030)', () => {
  it('is usable at once when the browser renders it', () => {
    render(<SignIn />);
    expect(screen.getByRole('textbox', { name: 'Email' }).matches(':disabled')).toBe(false);
    expect(screen.getByRole('button', { name: 'Sign in' }).matches(':disabled')).toBe(false);
  });

  it('is disabled in the server’s HTML, says it needs JavaScript, and is enabled once hydrated', async () => {
    const html = renderToString(<SignIn />);
    expect(html).toContain('<fieldset disabled=""');
    expect(html).toMatch(/<noscript>.*This form needs JavaScript/);

    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const field = container.querySelector('input')!;
    expect(field.matches(':disabled')).toBe(true);
    await act(async () => {
      hydrateRoot(container, <SignIn />);
    });
    expect(field.matches(':disabled')).toBe(false);
    // Hydrated, not rendered again: the server's input is the one in the page.
    expect(container.querySelector('input')).toBe(field);
    container.remove();
  });
});
