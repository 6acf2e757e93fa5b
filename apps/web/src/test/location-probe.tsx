import { useLayoutEffect } from 'react';
import { useLocation, type Location } from 'react-router';

/**
 * Where a test's memory router is: render `<LocationProbe />` inside it, read `location()` after.
 */
export function createLocationProbe() {
  let seen: Location | null = null;
  function LocationProbe() {
    const location = useLocation();
    useLayoutEffect(() => {
      seen = location;
    });
    return null;
  }
  const location = (): Location => {
    if (!seen) throw new Error('the LocationProbe has not rendered');
    return seen;
  };
  return { LocationProbe, location };
}
