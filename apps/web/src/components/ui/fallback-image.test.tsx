import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { Avatar, FALLBACK_IMAGES } from './fallback-image.tsx';

describe('Avatar', () => {
  it('shows a photo square at its size, decorative unless named, sending no referrer', () => {
    const { container } = render(<Avatar size={64} src="https://photos.example/ada.jpg" className="rounded-full" />);
    const img = container.querySelector('img')!;
    expect(img.getAttribute('src')).toBe('https://photos.example/ada.jpg');
    expect(img.getAttribute('width')).toBe('64');
    expect(img.getAttribute('height')).toBe('64');
    expect(img.getAttribute('alt')).toBe('');
    expect(img.getAttribute('referrerpolicy')).toBe('no-referrer');
    expect(img.className).toBe('rounded-full');
  });

  it('shows the avatar artwork for no photo, and for one that fails to load', () => {
    const { rerender } = render(<Avatar size={48} src={null} alt="Photo of Ada" />);
    expect(screen.getByRole('img', { name: 'Photo of Ada' }).getAttribute('src')).toBe(FALLBACK_IMAGES.avatar);
    rerender(<Avatar size={48} src="https://photos.example/gone.jpg" alt="Photo of Ada" />);
    const img = screen.getByRole('img', { name: 'Photo of Ada' });
    fireEvent.error(img);
    expect(img.getAttribute('src')).toBe(FALLBACK_IMAGES.avatar);
    expect(img.getAttribute('data-fallback')).toBe('avatar');
  });
});
