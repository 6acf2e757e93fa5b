import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // The real server the tests talk to (README, Testing): started once per run, on loopback.
    globalSetup: ['./src/test/real-server.global-setup.ts'],
    // Signing up and verifying through the real API (password hashing on PGlite) takes a while.
    testTimeout: 20_000,
    restoreMocks: true,
  },
});
