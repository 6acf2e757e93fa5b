import { classesQueryOptions, parseCatalogueParams } from '../../features/classes/api/get-classes.ts';
import { ClassCatalogue } from '../../features/classes/components/class-catalogue.tsx';
import { loadRouteData, type PageLoaderArgs } from '../route-data.ts';
import { SITE_PAGES } from '../routes.manifest.ts';

/**
 * Starts the catalogue request with the navigation. Only the first page load waits for it (it was
 * preloaded with the page); later navigations show skeletons until it answers.
 */
export function loader(args: PageLoaderArgs) {
  const params = parseCatalogueParams(args.url.searchParams);
  return loadRouteData(classesQueryOptions(params), args);
}

/** /allClassAllowed: the grid of accepted classes (spec §2). */
function AllClassesPage() {
  return (
    <div className="flex flex-col gap-6">
      <title>{SITE_PAGES.allClasses.title}</title>
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold">All classes</h1>
        <p className="text-lg text-muted">
          Practical classes from instructors around the world. Find one and enroll today.
        </p>
      </header>
      <ClassCatalogue />
    </div>
  );
}

export { AllClassesPage as Component };
