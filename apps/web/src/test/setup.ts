import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

// jsdom has <dialog> but not its modal methods: open and close it as a browser would, so the
// app's dialogs (useModalDialog) can be tested.
const dialogPrototype = HTMLDialogElement.prototype;
if (typeof dialogPrototype.showModal !== 'function')
  dialogPrototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
if (typeof dialogPrototype.close !== 'function')
  dialogPrototype.close = function close(this: HTMLDialogElement) {
    this.open = false;
    this.dispatchEvent(new Event('close'));
  };
