/**
 * Light or dark. Without a choice the page follows the system's
 * prefers-color-scheme through CSS alone (daisyUI's `prefersdark` theme); a choice made with the
 * navbar's toggle is kept in localStorage and set as data-theme on <html> before the first render.
 */
export type ThemeName = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'skillhive-theme';
const DATA_THEME: Record<ThemeName, string> = { light: 'skillhive', dark: 'skillhive-dark' };

function storedTheme(): ThemeName | null {
  try {
    const value = window.localStorage.getItem(THEME_STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : null;
  } catch {
    // Storage can be blocked (privacy settings): the system's preference still applies.
    return null;
  }
}

function systemTheme(): ThemeName {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches
    ? 'dark'
    : 'light';
}

/** The theme on screen now: the person's choice, else the system's. */
export function currentTheme(): ThemeName {
  return storedTheme() ?? systemTheme();
}

/** Applies a stored choice to <html>; called once before the app renders (main.tsx). */
export function applyStoredTheme(): void {
  const chosen = storedTheme();
  if (chosen) document.documentElement.dataset['theme'] = DATA_THEME[chosen];
}

const listeners = new Set<() => void>();

/** Keeps `theme` for this browser and shows it at once. */
export function chooseTheme(theme: ThemeName): void {
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Not kept across visits, but still shown now.
  }
  document.documentElement.dataset['theme'] = DATA_THEME[theme];
  listeners.forEach((listener) => listener());
}

/** For useSyncExternalStore: a choice here, or the system's preference changing. */
export function subscribeTheme(listener: () => void): () => void {
  listeners.add(listener);
  const media = typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  media?.addEventListener('change', listener);
  return () => {
    listeners.delete(listener);
    media?.removeEventListener('change', listener);
  };
}
