import { Link } from 'react-router';
import { paths } from '../../config/paths.ts';

/** Unknown routes (DESIGN §1.10): a lazy route module like every page, so the shell does not carry it. */
function NotFoundPage() {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center gap-4 py-16 text-center">
      <title>Page not found — SkillHive</title>
      <p className="text-6xl font-bold text-primary" aria-hidden="true">
        404
      </p>
      <h1 className="text-3xl font-bold">Page not found</h1>
      <p className="text-lg text-muted">The page you are looking for does not exist or has moved.</p>
      <div className="flex flex-wrap justify-center gap-3">
        <Link to={paths.home} className="btn btn-primary">
          Back to home
        </Link>
        <Link to={paths.allClasses} className="btn btn-outline">
          Browse classes
        </Link>
      </div>
    </div>
  );
}

export { NotFoundPage as Component };
