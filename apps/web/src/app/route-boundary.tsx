import { Component, Suspense, type ComponentType, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { TopProgressBar } from '../components/ui/top-progress-bar.tsx';
import { RouteErrorPage } from './routes/route-error.tsx';

interface BoundaryProps {
  children: ReactNode;
  /** A new value (the next navigation) clears the error and tries the page again. */
  resetKey: string;
  Fallback: ComponentType<{ error: unknown }>;
}

interface BoundaryState {
  failed: boolean;
  error: unknown;
  resetKey: string;
}

class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false, error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { failed: true, error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.resetKey === state.resetKey ? null : { failed: false, error: null, resetKey: props.resetKey };
  }

  override render() {
    const { Fallback, children } = this.props;
    return this.state.failed ? <Fallback error={this.state.error} /> : children;
  }
}

/**
 * Where a route's errors stop (DESIGN §1.10): a page that throws while rendering, or whose code
 * did not arrive, shows the error page here, so the layouts above it (the navbar, the dashboard's
 * menu) stay usable; the next navigation tries again. A page whose code is still on its way
 * outside a navigation (navigations keep the old page on screen: app-router.tsx) shows the
 * progress bar.
 */
export function RouteBoundary({
  children,
  Fallback = RouteErrorPage,
}: {
  children: ReactNode;
  Fallback?: ComponentType<{ error: unknown }>;
}) {
  const { key } = useLocation();
  return (
    <ErrorBoundary resetKey={key} Fallback={Fallback}>
      <Suspense fallback={<TopProgressBar active />}>{children}</Suspense>
    </ErrorBoundary>
  );
}
