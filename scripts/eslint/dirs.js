// @ts-check
import { readdirSync } from 'node:fs';

/** The sub-folders of a folder given relative to this file (empty when it does not exist). */
export const dirs = (path) => {
  try {
    return readdirSync(new URL(path, import.meta.url), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return [];
  }
};
