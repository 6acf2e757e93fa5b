import { afterEach, describe, expect, it, vi } from 'vitest';
import { RouterContextProvider, matchRoutes } from 'react-router';
import { paths } from '../config/paths.ts';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { EVERY_PAGE_DATA, FIRST_RENDER_URLS, ROUTE_DATA, ROUTE_IMAGES } from './first-render-urls.ts';
import { HERO_SLIDES } from '../features/home/hero-slides.ts';
import { buildRoutes, matchedModules, moduleImport } from './router.tsx';
import {
  DASHBOARD_LAYOUT_MODULE,
  DASHBOARD_PATH,
  GUARD_MODULES,
  PAGE_LIST,
  DASHBOARD_PAGES,
  PUBLIC_PAGES,
  fillPath,
  type Page,
} from './routes.manifest.ts';

/** spec §2: the public routes and the dashboard's child routes with their access. */
const SPEC_ROUTES: Record<string, Page['access']> = {
  '/': 'public',
  '/signup': 'public',
  '/login': 'public',
  '/teach': 'public',
  '/allClassAllowed': 'public',
  '/dashboard/studentHome': 'signed-in',
  '/dashboard/classDetails/:id': 'signed-in',
  '/dashboard/payment': 'signed-in',
  '/dashboard/myEnrollClass': 'signed-in',
  '/dashboard/profile': 'signed-in',
  '/dashboard/teacherHome': 'teacher',
  '/dashboard/addClasses': 'teacher',
  '/dashboard/myClass': 'teacher',
  '/dashboard/updateItem/:id': 'teacher',
  '/dashboard/adminHome': 'admin',
  '/dashboard/users': 'admin',
  '/dashboard/teacherRequest': 'admin',
  '/dashboard/allClasses': 'admin',
  '/dashboard/seeProgressDetails/:id': 'admin',
  // DESIGN §1.10: the route the spec leaves dangling is built, for the class's teacher.
  '/dashboard/my-class/:id': 'teacher',
};

/** Every path `paths` can produce: its strings, and its functions called with an id. */
function pathsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'function') return [(value as (id: string) => string)('an-id')];
  return Object.values(value as Record<string, unknown>).flatMap(pathsOf);
}

/** The lazy modules (layouts, guards, the page) of the routes `url` matches, outermost first. */
function moduleChain(routes: ReturnType<typeof buildRoutes>, url: string) {
  return matchedModules(routes, { pathname: url }).map((match) => match.module);
}

describe('route manifest', () => {
  it('declares every path and every module once', () => {
    const paths = PAGE_LIST.map((page) => page.path);
    const modules = PAGE_LIST.map((page) => page.module);
    expect(new Set(paths).size).toBe(paths.length);
    expect(new Set(modules).size).toBe(modules.length);
  });

  it('has the spec routes with the access the spec gives them', () => {
    const declared = Object.fromEntries(PAGE_LIST.map((page) => [page.path, page.access]));
    for (const [path, access] of Object.entries(SPEC_ROUTES)) expect(declared[path], path).toBe(access);
  });

  it('guards every page under the dashboard and no page outside it', () => {
    for (const page of PAGE_LIST) {
      const underDashboard = page.path === DASHBOARD_PATH || page.path.startsWith(`${DASHBOARD_PATH}/`);
      expect(page.access === 'public', page.path).toBe(!underDashboard);
      if (page.access !== 'public') expect(['signed-in', ...Object.keys(GUARD_MODULES)]).toContain(page.access);
    }
  });

  it('gives every public page a title and its first-render reads', () => {
    for (const page of PUBLIC_PAGES) {
      expect(page.title, page.path).toMatch(/SkillHive/);
      for (const read of page.firstRender) expect(FIRST_RENDER_URLS[read]).toMatch(/^\/api\//);
    }
    expect(EVERY_PAGE_DATA).toEqual([FIRST_RENDER_URLS.session]);
    expect(ROUTE_DATA).toEqual({
      '/': [FIRST_RENDER_URLS.latestReviews],
      '/allClassAllowed': [FIRST_RENDER_URLS.catalogue],
      '/classes/:id': [FIRST_RENDER_URLS.publicClass],
    });
    expect(FIRST_RENDER_URLS.publicClass).toBe('/api/classes/:id/public');
  });

  it("preloads the home page's first hero slide, an image the build ships", () => {
    expect(ROUTE_IMAGES).toEqual({ '/': [HERO_SLIDES[0].image] });
    for (const image of Object.values(ROUTE_IMAGES).flat())
      expect(existsSync(path.join(import.meta.dirname, '../../public', image)), image).toBe(true);
  });

  it('is where every path of config/paths.ts comes from, and every page has one', () => {
    const produced = pathsOf(paths);
    const routes = PAGE_LIST.map((page) => ({ path: page.path }));
    for (const path of produced) expect(matchRoutes(routes, path)?.at(-1)?.route.path, path).toBeDefined();
    const reached = new Set(produced.map((path) => matchRoutes(routes, path)!.at(-1)!.route.path));
    expect([...reached].sort()).toEqual(PAGE_LIST.map((page) => page.path).sort());
    expect(paths.dashboard.updateItem('a/b')).toBe(fillPath(DASHBOARD_PAGES.updateItem.path, { id: 'a/b' }));
    expect(paths.home).toBe('/');
    expect(paths.dashboard.root).toBe('/dashboard');
    expect(paths.dashboard.updateItem('a/b')).toBe('/dashboard/updateItem/a%2Fb');
  });
});

describe('router derived from the manifest', () => {
  const routes = buildRoutes();

  it('finds a module file for every page, layout and guard', () => {
    for (const module of [...PAGE_LIST.map((page) => page.module), DASHBOARD_LAYOUT_MODULE])
      expect(() => moduleImport(module), module).not.toThrow();
    for (const module of Object.values(GUARD_MODULES)) expect(() => moduleImport(module), module).not.toThrow();
    expect(() => moduleImport('routes/no-such-page.tsx')).toThrow(/does not exist/);
  });

  it('routes each page to its own module, behind the dashboard layout and its role guard', () => {
    for (const page of PAGE_LIST) {
      const url = page.path.replace(':id', 'an-id');
      const expected =
        page.access === 'public'
          ? [page.module]
          : page.access === 'signed-in'
            ? [DASHBOARD_LAYOUT_MODULE, page.module]
            : [DASHBOARD_LAYOUT_MODULE, GUARD_MODULES[page.access], page.module];
      expect(moduleChain(routes, url), url).toEqual(expected);
      const params = matchedModules(routes, { pathname: url }).at(-1)?.params;
      expect(params, url).toEqual(page.path.includes(':id') ? { id: 'an-id' } : {});
    }
  });

  it('sends an unknown path to the not-found page', () => {
    expect(matchRoutes(routes, '/no/such/page')?.at(-1)?.route.path).toBe('*');
    expect(moduleChain(routes, '/no/such/page')).toEqual(['routes/not-found.tsx']);
  });

  it("puts a dashboard page's role guard between the layout and the page", () => {
    const chain = moduleChain(routes, paths.dashboard.audit);
    expect(chain).toContain(GUARD_MODULES.admin);
    expect(chain).not.toContain(GUARD_MODULES.teacher);
  });
});

describe("a public page's loader", () => {
  afterEach(() => vi.unstubAllGlobals());

  // Decision 008: the URLs the HTML preloads must be the requests the page's first render makes.
  for (const page of PUBLIC_PAGES) {
    it(`${page.path} requests exactly the reads the manifest declares`, async () => {
      const requested: string[] = [];
      vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
        requested.push(String(input));
        return new Response('[]', { headers: { 'content-type': 'application/json', 'x-total-count': '0' } });
      });
      const module = await moduleImport(page.module)();
      if (page.firstRender.length === 0) {
        expect(module.loader, page.path).toBeUndefined();
        return;
      }
      // A page with an :id asks for that id's data; the server fills the same id into the preloads.
      const params: Record<string, string> = page.path.includes(':id') ? { id: 'an-id' } : {};
      const request = new Request(`http://localhost${fillPath(page.path, params)}`);
      await module.loader!({
        request,
        params,
        firstLoad: true,
        url: new URL(request.url),
        pattern: page.path,
        context: new RouterContextProvider(),
      });
      expect(requested.sort()).toEqual(
        page.firstRender.map((read) => fillPath(FIRST_RENDER_URLS[read], params)).sort(),
      );
    });
  }
});
