import { useState } from 'react';

/**
 * True from the first time `open` is true on: a dialog loaded on demand (React.lazy) mounts when
 * first opened and then stays mounted, so closing it still hands focus back.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}
