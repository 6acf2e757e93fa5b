import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';

/** spec §2: the 'Become an instructor!' card with 'Start teaching today' → /teach. */
export function BecomeInstructor() {
  return (
    <section aria-labelledby="become-instructor-title" className="card overflow-hidden bg-base-200 md:card-side">
      <figure className="bg-honey-soft md:w-2/5">
        <img
          src="/images/instructor.svg"
          alt="An instructor at a whiteboard teaching a small group"
          width={480}
          height={360}
          loading="lazy"
          decoding="async"
          className="h-full w-full object-cover"
        />
      </figure>
      <div className="card-body justify-center gap-4 p-8 md:p-12">
        <h2 id="become-instructor-title" className="text-2xl font-bold sm:text-3xl">
          Become an instructor!
        </h2>
        <p className="max-w-prose text-lg">
          Instructors from around the world teach millions of learners on SkillHive. We provide the tools and skills to
          teach what you love.
        </p>
        <div className="card-actions">
          <Link to={paths.teach} className="btn btn-primary btn-lg">
            Start teaching today
          </Link>
        </div>
      </div>
    </section>
  );
}
