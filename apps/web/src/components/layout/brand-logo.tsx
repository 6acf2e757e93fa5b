/** SkillHive's mark: a honey hexagon with a spark, drawn inline so the navbar needs no request. */
export function BrandMark({ className = 'h-8 w-8' }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" className={className} aria-hidden="true" focusable="false">
      <path fill="#1f2a44" d="M32 2 58 17v30L32 62 6 47V17z" />
      <path fill="#f5b93a" d="M32 12 49 22v20L32 52 15 42V22z" />
      <path fill="#1f2a44" d="M24 26h16l-6 7h6L26 44l4-9h-6z" />
    </svg>
  );
}
