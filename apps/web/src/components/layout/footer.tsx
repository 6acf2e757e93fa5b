import { BrandMark } from './brand-logo.tsx';

/** spec §2: placeholder company text and non-functional Services / Company / Legal lists. */
const COLUMNS = [
  { title: 'Services', items: ['Live classes', 'Self-paced courses', 'Team training', 'Career mentoring'] },
  { title: 'Company', items: ['About us', 'Careers', 'Press', 'Contact'] },
  { title: 'Legal', items: ['Terms of use', 'Privacy policy', 'Cookie policy'] },
] as const;

export function Footer() {
  return (
    <footer className="mt-16 bg-secondary text-secondary-content">
      <div className="mx-auto grid max-w-screen-xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-[2fr_1fr_1fr_1fr]">
        <div className="flex max-w-sm flex-col gap-3">
          <p className="flex items-center gap-2 text-xl font-bold">
            <BrandMark />
            SkillHive Learning Ltd.
          </p>
          <p>
            Practical skills, taught by people who use them every day. SkillHive connects curious learners with
            instructors from around the world since 2024.
          </p>
        </div>
        {COLUMNS.map((column) => (
          <div key={column.title}>
            <h2 className="mb-3 text-sm font-bold uppercase tracking-wider text-honey">{column.title}</h2>
            <ul className="flex flex-col gap-2">
              {column.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </div>
        ))}
      </div>
      <div className="border-t border-white/20">
        <p className="mx-auto max-w-screen-xl px-4 py-4 text-sm sm:px-6">
          © {new Date().getFullYear()} SkillHive Learning Ltd. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
